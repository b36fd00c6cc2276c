"""Scripted games: a game fixed completely by hand, for conformance checks.

A scripted game (YAML, schema in boxes/schema/scripted-game.schema.json) names
the Factions and variants, the number of Communities, either each round's deal
(hands, Reserve order, transfers) or a starting position, then every
decision's answer in order, and optionally what must come out (`expect`).
`replay` plays it through the kernel and compares.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from happydayz.base.errors import DataProblem, Diagnostic, GameRuleError, HappyError, Span
from happydayz.base.resources import data_dir
from happydayz.base.safeyaml import load_yaml
from happydayz.data.boxes import _schema_problems, switches
from happydayz.data.environment import Environment
from happydayz.data.model import FactionChoice, Scenario
from happydayz.kernel.game import Game
from happydayz.kernel.position import CardNames, in_play_cards, set_position
from happydayz.kernel.setup import GameOptions, build_setup


@dataclass
class ReplayResult:
    output: dict
    mismatches: list[str] = field(default_factory=list)


def schema() -> dict:
    return json.loads((data_dir("boxes") / "schema" / "scripted-game.schema.json").read_text(encoding="utf-8"))


def _problem(doc, path: tuple, message: str, code: str) -> DataProblem:
    span = doc.span(path) if doc is not None else Span("<script>", 1, 1)
    where = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")
    return DataProblem(Diagnostic(span, f"{where}: {message}" if where else message, code))


def load_script(path: str | os.PathLike):
    doc = load_yaml(path)
    problems = _schema_problems(doc, "scripted-game", Draft202012Validator(schema()))
    if problems:
        raise DataProblem(problems[:20])
    return doc


def _scenario(data: dict, env: Environment, base: Path) -> tuple[Scenario, Any]:
    library = env.library
    if "scenario" in data:
        ref = data["scenario"]
        if str(ref).lower().endswith((".yaml", ".yml")) and not Path(ref).is_absolute():
            ref = base / ref  # a scenario file next to the scripted game
        return env.resolve_scenario(ref)
    factions = []
    for entry in data["factions"]:
        if isinstance(entry, str):
            factions.append(FactionChoice(entry, "basic"))
        else:
            factions.append(FactionChoice(entry["faction"], entry.get("variant", "basic")))
    box = data.get("box") or next(iter(library.boxes))
    return Scenario(id="scripted", title=data.get("title", "scripted game"), box=box, factions=tuple(factions),
                    added=tuple(data.get("added", ()))), library


def build_game(doc, env: Environment) -> Game:
    data = doc.data
    key = ("scenario",) if "scenario" in data else ("factions",)
    try:
        scenario, library = _scenario(data, env, Path(doc.file).resolve().parent)
        return _new_game(doc, scenario, library, env)
    except HappyError as exc:
        if exc.diagnostics and exc.diagnostics[0].span.file in ("<scenario>", "<input>", "scripted"):
            raise _problem(doc, key, exc.diagnostics[0].message, exc.diagnostics[0].code) from None
        raise


def _new_game(doc, scenario, library, env: Environment) -> Game:
    data = doc.data
    options = GameOptions(
        players=data["players"],
        express=data.get("express", "position" in data),
        promos=switches(data, schema()["properties"]).get("promos", scenario.promos),
        random_powers=data.get("random_powers", False),
        faction_change=data.get("faction_change", True),
    )
    game = Game(build_setup(scenario, library, options, env), seed=data.get("seed", 0))
    if "position" in data:
        pos = data["position"]
        set_position(
            game,
            hands=_by_seat(pos.get("hands")), transfers=_by_seat(pos.get("transfers")),
            expeditions=_by_seat(pos.get("expeditions")), reserve=pos.get("reserve", []),
            populations=pos.get("populations"), active=pos.get("active", 0), round_no=pos.get("round", 1),
        )
    return game


def _by_seat(table: dict | None) -> dict[int, list[str]]:
    return {int(k): list(v) for k, v in (table or {}).items()}


def set_deal(game: Game, hands: dict[int, list[str]], reserve: list[str]) -> None:
    """Replace the shuffled deal of the round just dealt by one given by hand (cards named by their labels)."""
    names = CardNames(game)
    allowed = in_play_cards(game)
    game.rig_deal({seat: [names.card(label, allowed) for label in labels] for seat, labels in hands.items()},
                  [names.card(label, allowed) for label in reserve])


def _normalise(label: Any) -> str:
    return " ".join(str(label).split()).lower()


def answer_index(game: Game, given: Any, where: str) -> int:
    d = game.decision
    text = str(given)
    actor = None
    if ":" in text and text.split(":", 1)[0].strip().isdigit():
        head, text = text.split(":", 1)
        actor = int(head)
    wanted = _normalise(text)
    candidates = [wanted, wanted.replace(" on ", " "), f"community {wanted}"]
    for i, option in enumerate(d.options):
        label = _normalise(option.label)
        if label in candidates or label.replace(" on ", " ") in candidates:
            if actor is not None and actor != d.actor:
                raise GameRuleError(f"{where}the answer '{given}' is for Community {actor}, but this decision "
                                    f"('{d.prompt}') belongs to Community {d.actor}")
            return i
    legal = "; ".join(o.label for o in d.options)
    raise GameRuleError(f"{where}illegal answer '{given}' to Community {d.actor}'s decision '{d.prompt}'. "
                        f"Legal options: {legal}")


def play_script(doc, env: Environment) -> Game:
    data = doc.data
    game = build_game(doc, env)
    rounds = data.get("rounds", [])
    answers = list(data.get("answers", []))
    dealt_round = 0
    step = 0

    def apply_round_setup():
        nonlocal dealt_round
        if "position" in data or game.over:
            return
        if game.round_no != dealt_round and game.phase == "transfer":
            dealt_round = game.round_no
            if dealt_round - 1 < len(rounds):
                spec = rounds[dealt_round - 1]
                try:
                    set_deal(game, _by_seat(spec["hands"]), spec.get("reserve", []))
                except HappyError as exc:
                    raise _problem(doc, ("rounds", dealt_round - 1), exc.diagnostics[0].message, "D041") from None
                for seat in range(game.n):
                    for card in spec.get("transfers", {}).get(seat, spec.get("transfers", {}).get(str(seat), [])):
                        _answer(card, ("rounds", dealt_round - 1, "transfers", seat))

    def _answer(given, path):
        if game.decision is None:
            raise _problem(doc, path, f"the answer '{given}' is one too many: the game is over", "D042")
        try:
            game.apply(answer_index(game, given, ""))
        except GameRuleError as exc:
            raise _problem(doc, path, exc.diagnostics[0].message, "D043") from None
        apply_round_setup()

    apply_round_setup()
    for i, given in enumerate(answers):
        step = i
        _answer(given, ("answers", i))
    del step
    return game


def output(game: Game) -> dict:
    return {
        "rounds": [
            {
                "round": h["round"],
                "populations": h["populations"],
                "deltas": h["deltas"],
                "expeditions": {str(s): sorted(z) for s, z in enumerate(h["expeditions"])},
            }
            for h in game.history
        ],
        "final_populations": list(game.population),
        "winners": list(game.winners) if game.over else None,
        "over": game.over,
        "pending": None if game.decision is None else {
            "actor": game.decision.actor, "prompt": game.decision.prompt,
            "options": [o.label for o in game.decision.options],
        },
        "zones": {
            kind: {str(s): sorted(game.label(c) for c in game.zone(kind, s)) for s in range(game.n)}
            for kind in ("hand", "transfer", "expedition")
        } | {"reserve": [game.label(c) for c in game.reserve],
             "discard": sorted(game.label(c) for c in game.zones["discard"])},
    }


def compare(expect: dict, result: dict) -> list[str]:
    """Differences between an `expect:` block and the output, as readable lines."""
    problems: list[str] = []
    rounds = result["rounds"]
    for i, want in enumerate(expect.get("rounds", [])):
        if i >= len(rounds):
            problems.append(f"round {i + 1}: expected, but the game played only {len(rounds)} round(s)")
            continue
        for key in ("populations", "deltas"):
            if key in want and list(want[key]) != rounds[i][key]:
                problems.append(f"round {i + 1} {key}: expected {list(want[key])}, got {rounds[i][key]}")
        for seat, cards in (want.get("expeditions") or {}).items():
            got = rounds[i]["expeditions"].get(str(seat), [])
            if sorted(cards) != got:
                problems.append(f"round {i + 1} expedition of Community {seat}: expected {sorted(cards)}, got {got}")
    if "winners" in expect and expect["winners"] != result["winners"]:
        got = "no result: the game is not over" if result["winners"] is None else result["winners"]
        problems.append(f"winners: expected {expect['winners']}, got {got}")
    if "final_populations" in expect and list(expect["final_populations"]) != result["final_populations"]:
        problems.append(f"final populations: expected {expect['final_populations']}, got {result['final_populations']}")
    for kind, table in (expect.get("zones") or {}).items():
        got_kind = result["zones"].get(kind)
        if kind in ("reserve",):
            if list(table) != got_kind:
                problems.append(f"reserve: expected {list(table)}, got {got_kind}")
            continue
        if kind == "discard":
            if sorted(table) != got_kind:
                problems.append(f"discard: expected {sorted(table)}, got {got_kind}")
            continue
        for seat, cards in table.items():
            got = got_kind.get(str(seat), [])
            if sorted(cards) != got:
                problems.append(f"{kind} of Community {seat}: expected {sorted(cards)}, got {got}")
    return problems


def replay(path: str | os.PathLike, env: Environment | None = None) -> ReplayResult:
    doc = load_script(path)
    game = play_script(doc, env if env is not None else Environment())
    result = output(game)
    expect = doc.data.get("expect") or {}
    mismatches = compare(expect, result)
    if mismatches and game.decision is not None:
        d = game.decision
        mismatches.append(f"the answers ran out: Community {d.actor} still has to decide '{d.prompt}' "
                          f"(options: {'; '.join(o.label for o in d.options)})")
    return ReplayResult(result, mismatches)


SCRIPT_KEYS = ("answers", "position", "rounds", "expect")


def is_script(data) -> bool:
    """Whether YAML data looks like a scripted game rather than a box or scenario."""
    return isinstance(data, dict) and any(key in data for key in SCRIPT_KEYS)


def check_script(path: str | os.PathLike, env: Environment) -> list[Diagnostic]:
    """Every problem of a scripted game: its schema, a deal or answer that does not fit, an unmet expectation."""
    try:
        doc = load_script(path)
        result = replay(path, env)
    except HappyError as exc:
        return list(exc.diagnostics)
    span = doc.span(("expect",)) if "expect" in doc.data else Span(str(path), 1, 1)
    return [Diagnostic(span, f"expect: {line}", "D044") for line in result.mismatches]


__all__ = ["replay", "load_script", "play_script", "output", "compare", "set_deal"]
