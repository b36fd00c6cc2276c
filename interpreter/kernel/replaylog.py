"""Replay a game from its event log (JSON Lines), and prove it replays exactly.

The log's first event, `game_start`, names the scenario, the Factions with
their variants, the options and the seed; every `decision` event holds the
label of the answer given, the Community whose decision it was (`actor`)
and, for a dummy's decision answered by its partner, that partner
(`decider`); the replay checks both. Rebuilding the game from `game_start` and giving
the same answers must produce the very same log, event for event.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from happydayz.base.errors import DataProblem, Diagnostic, GameRuleError, Span
from happydayz.base.files import LIMITS, load_json, read_text, within
from happydayz.data.environment import Environment
from happydayz.data.model import FactionChoice, HouseRules, Scenario
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

MAX_LOG_BYTES = LIMITS["log"]


def read_log(path: str | os.PathLike, game_index: int | None = None) -> list[dict]:
    """The events of one game of a JSON Lines log (the first game, or game `game_index`).

    At most LIMITS["log"] bytes of a regular file are read. A scenario file the log
    names is used only when it lies in the log's folder (see `rebuild`).
    """
    path = Path(path)
    text = read_text(path, "log", code="L010", error=DataProblem, what="log")
    events = []
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        event = load_json(line, str(path), code="L011", error=DataProblem, what="log line", line_offset=number - 1,
                          invalid="not JSON")
        if not isinstance(event, dict) or "event" not in event:
            raise DataProblem(Diagnostic(Span(str(path), number, 1), "each line must be an event object", "L011"))
        if game_index is None or event.get("game", 0) == game_index or ("game" not in event and game_index == 0):
            events.append((number, event))
    games = [i for i, (_, e) in enumerate(events) if e["event"] == "game_start"]
    if not games:
        raise DataProblem(Diagnostic(Span(str(path), 1, 1), "the log holds no game_start event", "L012"))
    end = games[1] if len(games) > 1 else len(events)
    return [e for _, e in events[games[0]:end]]


def _scenario_reference(start: dict, folder: str | os.PathLike | None) -> str | None:
    """The scenario a game_start names, if it may be read: a bundled id, or a file in the log's folder."""
    reference = start.get("scenario")
    if not isinstance(reference, str) or not reference:
        return None
    parts = reference.replace("\\", "/").split("/")
    is_file = reference.lower().endswith((".yaml", ".yml")) or os.path.isabs(reference) or ".." in parts \
        or os.path.lexists(reference)
    if not is_file:
        return reference
    if folder is None:
        return reference  # events the caller made itself, not a file
    candidate = Path(reference) if os.path.isabs(reference) else Path(folder) / reference
    return str(candidate.resolve()) if within(candidate, folder) else None


def rebuild(start: dict, env: Environment, folder: str | os.PathLike | None = None) -> Game:
    """A fresh game from a game_start event (of a log in `folder`, when read from a file).

    A scenario file outside the log's folder is not read: the game is rebuilt from the
    Factions and options the event itself holds.
    """
    reference = _scenario_reference(start, folder)
    scenario, library = env.resolve_scenario(reference) if reference else (None, env.library)
    factions = tuple(FactionChoice(f, v) for f, v in start["factions"])
    if scenario is None or scenario.factions != factions or tuple(scenario.added) != tuple(start["added"]):
        scenario = Scenario(id=start.get("scenario", "log"), title="replayed",
                            box=start.get("box") or (scenario.box if scenario is not None else None),
                            factions=factions, added=tuple(start["added"]),
                            house_rules=scenario.house_rules if scenario is not None else HouseRules())
    options = GameOptions(players=start["players"], **start["options"])
    return Game(build_setup(scenario, library, options, env), start["seed"])


def replay_events(events: list[dict], env: Environment, folder: str | os.PathLike | None = None) -> Game:
    game = rebuild(events[0], env, folder)
    for number, event in enumerate(events):
        if event["event"] != "decision":
            continue
        decision = game.decision
        if decision is None:
            raise GameRuleError(f"event {number}: a decision is logged after the game ended")
        index = decision.index_of_label(event["answer"])
        decider = event.get("decider", event["actor"])  # a dummy's decision is answered by its controller
        if index is None or decision.actor != event["actor"] or decision.decider != decider:
            raise GameRuleError(f"event {number}: the logged answer '{event['answer']}' by Community {decider}"
                                f"{_for(event['actor'], decider)} does not fit the decision '{decision.prompt}' of "
                                f"Community {decision.actor}{_asked(decision.actor, decision.decider)}")
        game.apply(index)
    return game


def _for(actor: int, decider: int) -> str:
    return "" if actor == decider else f" for Community {actor}"


def _asked(actor: int, decider: int) -> str:
    return "" if actor == decider else f", asked of Community {decider}"


def verify(path: str | os.PathLike, game_index: int | None = None,
           env: Environment | None = None) -> tuple[Game, list[str]]:
    """Replay a logged game; the differences between its log and the replay's (none when exact)."""
    events = read_log(path, game_index)
    game = replay_events(events, env if env is not None else Environment(), Path(path).resolve().parent)
    strip = [{k: v for k, v in e.items() if k != "game"} for e in events]
    differences = []
    for i, (want, got) in enumerate(zip(strip, game.log)):
        if want != got:
            differences.append(f"event {i}: logged {json.dumps(want)[:200]}, replayed {json.dumps(got)[:200]}")
            break
    if len(strip) != len(game.log):
        differences.append(f"the log has {len(strip)} events, the replay {len(game.log)}")
    return game, differences


__all__ = ["read_log", "rebuild", "replay_events", "verify"]
