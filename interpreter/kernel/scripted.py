"""Scripted games: a game fixed completely by hand, for conformance checks.

A scripted game (YAML, schema in boxes/schema/scripted-game.schema.json) names
the Factions and variants, the number of Communities, either each round's deal
(hands, Reserve order, transfers) or a starting position, then every
decision's answer in order, and optionally what must come out (`expect`).
`replay` plays it through the kernel and compares.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from happydayz.base.errors import DataProblem, Diagnostic, GameRuleError, HappyError, Span, quote
from happydayz.base.safeyaml import format_path, load_yaml
from happydayz.base.files import within
from happydayz.data.boxes import D_UNKNOWN_SCENARIO, MAX_PLAYERS, _schema_problems, switches
from happydayz.data.schemas import load_schema
from happydayz.data.environment import Environment
from happydayz.data.model import FactionChoice, Scenario, label_order
from happydayz.kernel.filekinds import kind_of_data, kind_of_file, kind_of_text, wrong_kind
from happydayz.kernel.game import Game
from happydayz.language.compiler import REDEAL_STATE
from happydayz.kernel.position import CardNames, MisnamedCard, card_ids, in_play_cards, set_position
from happydayz.kernel.setup import GameOptions, build_setup, draw_powers


@dataclass(frozen=True)
class Finding:
    """Something a script checks that does not hold: where in the script (a key path), and what."""

    path: tuple
    message: str


@dataclass
class ReplayResult:
    output: dict
    findings: list[Finding] = field(default_factory=list)

    @property
    def mismatches(self) -> list[str]:
        return [finding.message for finding in self.findings]


class StoppedScript(DataProblem):
    """An illegal deal or answer stopped a script after some of its checks had already failed: the
    diagnostics are those failures (D044, each at its step), then what stopped it."""


def schema() -> dict:
    return load_schema("scripted-game", MAX_PLAYERS)


def _problem(doc, path: tuple, message: str, code: str) -> DataProblem:
    span = doc.span(path) if doc is not None else Span("<script>", 1, 1)
    where = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")
    return DataProblem(Diagnostic(span, f"{where}: {message}" if where else message, code))


def load_script(path: str | os.PathLike, doc=None):
    """A scripted game's document, checked against its schema; a file of another kind is named as such.

    `doc`: the file's document when the caller has read and parsed it already (`check` reads a file once).
    """
    if doc is None:
        try:
            doc = load_yaml(path)
        except DataProblem:
            kind = kind_of_file(Path(path))
            if kind is not None:
                raise wrong_kind(path, kind) from None
            raise
    kind = kind_of_text(Path(path), doc.text) or kind_of_data(doc.data, looks_scripted=is_script(doc.data))
    if kind is not None:
        raise wrong_kind(path, kind)
    problems = _schema_problems(doc, "scripted-game", Draft202012Validator(schema()))
    if problems:
        raise DataProblem(problems[:20])
    return doc


def _scenario(doc, env: Environment, base: Path) -> tuple[Scenario, Any]:
    data, library = doc.data, env.library
    if "scenario" in data:
        return env.resolve_scenario(_contained_scenario(doc, env, base, str(data["scenario"])))
    factions = []
    for entry in data.get("factions", []):
        if isinstance(entry, str):
            factions.append(FactionChoice(entry, "basic"))
        else:
            factions.append(FactionChoice(entry["faction"], entry.get("variant", "basic")))
    box = data.get("box") or next(iter(library.boxes))
    scenario = Scenario(id="scripted", title=data.get("title", "scripted game"), box=box, factions=tuple(factions),
                        added=tuple(data.get("added", ())))
    if data.get("random_setup"):
        scenario = draw_powers(scenario, library, data.get("seed", 0))
    return scenario, library


def _contained_scenario(doc, env: Environment, base: Path, ref: str) -> str | Path:
    """A bundled scenario id as it is; a scenario file only inside the scripted game's folder or a --powers folder.

    As a save's scenario (kernel.savegame): the file of someone else's scripted game is not read elsewhere.
    """
    if ref in {s.id for s in env.library.scenarios()}:
        return ref
    candidate = Path(ref) if os.path.isabs(ref) else base / ref
    if not any(within(candidate, folder) for folder in (base, *env.power_dirs)):
        raise _problem(doc, ("scenario",), "the scenario file named is outside the scripted game's folder, so it "
                       "is not read", D_UNKNOWN_SCENARIO)
    return candidate if ref.lower().endswith((".yaml", ".yml")) or candidate.is_file() else ref


def build_game(doc, env: Environment, deal_plan=None) -> Game:
    data = doc.data
    key = ("scenario",) if "scenario" in data else ("factions",)
    try:
        scenario, library = _scenario(doc, env, Path(doc.file).resolve().parent)
        return _new_game(doc, scenario, library, env, deal_plan)
    except HappyError as exc:
        if exc.diagnostics and exc.diagnostics[0].span.file in ("<scenario>", "<input>", "scripted"):
            raise _problem(doc, key, exc.diagnostics[0].message, exc.diagnostics[0].code) from None
        raise


def _new_game(doc, scenario, library, env: Environment, deal_plan=None) -> Game:
    data = doc.data
    options = GameOptions(
        players=data["players"],
        express=data.get("express", "position" in data),
        promos=switches(data, schema()["properties"]).get("promos", scenario.promos),
        random_powers=data.get("random_powers", False),
        faction_change=data.get("faction_change", True),
    )
    game = Game(build_setup(scenario, library, options, env), seed=data.get("seed", 0), deal_plan=deal_plan)
    if "position" in data:
        pos = data["position"]
        for kind in ("hands", "transfers", "expeditions"):
            for seat in pos.get(kind) or {}:
                if not int(seat) < game.n:
                    raise _problem(doc, ("position", kind, seat), f"there is no seat {seat} in a {game.n}-player game "
                                   f"(seats 0 to {game.n - 1})", "D041")
        floor = game.setup.hand.floor
        if type(floor) is int and any(p < floor for p in pos.get("populations") or ()):
            raise _problem(doc, ("position", "populations"), f"a population below {floor}: the hand's score is "
                           f"floored at {floor} (give it floor: none to play scores below it)", "D041")
        try:
            set_position(
                game,
                hands=pos.get("hands"), transfers=pos.get("transfers"), expeditions=pos.get("expeditions"),
                reserve=pos.get("reserve", []),
                populations=pos.get("populations"), active=pos.get("active", 0), round_no=pos.get("round", 1),
            )
        except MisnamedCard as exc:
            raise _problem(doc, ("position",) + exc.where, exc.diagnostics[0].message, "D041") from None
    return game


def _by_seat(table: dict | None) -> dict[int, list[str]]:
    return {int(k): list(v) for k, v in (table or {}).items()}


def deal_ids(game: Game, hands: dict, reserve: list[str]) -> tuple[dict[int, list[int]], list[int]]:
    """A deal given by hand (cards named by their labels) in card ids: (hands by seat, Reserve top first)."""
    names = CardNames(game)
    allowed = in_play_cards(game)
    by_seat = card_ids(names, "hands", hands, allowed)  # the keys as written, so that a bad card's place is found
    return {int(seat): cards for seat, cards in by_seat.items()}, card_ids(names, "reserve", reserve, allowed)


def set_deal(game: Game, hands: dict[int, list[str]], reserve: list[str]) -> None:
    """Replace the shuffled deal of the round just dealt by one given by hand (cards named by their labels)."""
    game.rig_deal(*deal_ids(game, hands, reserve))


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
            if actor is not None and actor != d.decider:
                raise GameRuleError(f"{where}the answer {quote(given)} is for Community {actor}, but this decision "
                                    f"('{d.prompt}') belongs to Community {d.decider}")
            return i
    legal = "; ".join(o.label for o in d.options)
    asked = "" if d.decider == d.actor else f", asked of Community {d.decider}"
    raise GameRuleError(f"{where}illegal answer {quote(given)} to Community {d.actor}'s decision{asked} '{d.prompt}'. "
                        f"Legal options: {legal}")


def _option_labels(game: Game) -> list[str]:
    return [option.label for option in game.decision.options] if game.decision is not None else []


def _check_step(game: Game, check: dict, where: str) -> list[str]:
    """The differences between a `check:` step and the pending decision (none when it holds)."""
    d = game.decision
    if d is None:
        return [f"{where}: a decision was expected, but the game is over"]
    problems = []
    offered = {_normalise(label): label for label in _option_labels(game)}
    if "decider" in check and check["decider"] != d.decider:
        problems.append(f"{where}: Community {check['decider']} should decide, but Community {d.decider} does "
                        f"('{d.prompt}')")
    if "kind" in check and check["kind"] != d.kind:
        problems.append(f"{where}: a '{check['kind']}' decision was expected, but the game asks a '{d.kind}' "
                        f"one: '{d.prompt}'")
    if "prompt" in check and _normalise(check["prompt"]) not in _normalise(d.prompt):
        problems.append(f"{where}: the prompt should contain '{check['prompt']}', but it is '{d.prompt}'")
    if "options" in check and sorted(map(_normalise, check["options"])) != sorted(offered):
        problems.append(f"{where}: the options should be {sorted(check['options'])}, but they are "
                        f"{sorted(offered.values())}")
    missing = [label for label in check.get("includes", ()) if _normalise(label) not in offered]
    if missing:
        problems.append(f"{where}: {missing} should be offered; the options are {sorted(offered.values())}")
    present = [label for label in check.get("excludes", ()) if _normalise(label) in offered]
    if present:
        problems.append(f"{where}: {present} should not be offered, but they are")
    return problems


def _deal_size_problem(game: Game, hands: dict[int, list[str]], round_no: int) -> str | None:
    """Why a deal given by hand is not the size the rules deal, or None."""
    per_seat = game.setup.hand_size(round_no)
    for seat in range(game.n):
        carried = len(game.carried[seat])
        wanted = per_seat - carried
        given = len(hands.get(seat, ()))
        if given != wanted:
            fewer = f", one fewer per carried card ({carried})" if carried else ""
            return (f"round {round_no}'s deal gives Community {seat} {given} card{'' if given == 1 else 's'}, but "
                    f"{game.n} Communities are "
                    f"dealt {per_seat} each{fewer}: deal {wanted}, or add 'short: true' to the round if a short "
                    "hand-made deal is meant")
    return None


@dataclass
class Played:
    """A scripted game played through: the game, and what its steps found."""

    game: Game
    findings: list[Finding] = field(default_factory=list)


def play_script(doc, env: Environment) -> Played:
    """Play a scripted game's deals and steps; an illegal deal or answer raises DataProblem at its place."""
    data = doc.data
    rounds = data.get("rounds", [])
    # With a position, the deals given are those of the rounds after it.
    first_dealt = (data["position"].get("round", 1) + 1) if "position" in data else 1

    def deal_plan(game: Game):
        """The round's deal given by hand, handed to the game as it deals (before any hook of the round runs)."""
        index = game.round_no - first_dealt + game.state.get((REDEAL_STATE["redeals"], None), 0)  # a deal again: the next
        if not 0 <= index < len(rounds):
            return None
        spec = rounds[index]
        hands = _by_seat(spec["hands"])
        here = ("rounds", index)
        if not spec.get("short", False):
            problem = _deal_size_problem(game, hands, game.round_no)
            if problem:
                raise _problem(doc, here, problem, "D045")
        try:
            return deal_ids(game, spec["hands"], spec.get("reserve", []))
        except MisnamedCard as exc:
            raise _problem(doc, here + exc.where, exc.diagnostics[0].message, "D041") from None

    game = build_game(doc, env, deal_plan)
    played = Played(game)
    # The position's own round is not dealt (it may already be counted, if the position holds no card).
    dealt_round = data["position"].get("round", 1) if "position" in data else 0

    def apply_round_setup():
        """A round's Transfer passes given with its deal, answered once the Transfer is asked."""
        nonlocal dealt_round
        if game.over or game.round_no == dealt_round or game.phase != "transfer":
            return
        dealt_round = game.round_no
        index = dealt_round - first_dealt
        if not 0 <= index < len(rounds):
            return
        spec = rounds[index]
        here = ("rounds", index)
        for seat in range(game.n):
            for card in spec.get("transfers", {}).get(seat, spec.get("transfers", {}).get(str(seat), [])):
                answer(card, here + ("transfers", seat))

    def answer(given, path):
        if game.decision is None:
            raise _problem(doc, path, f"the answer {quote(given)} is one too many: the game is over", "D042")
        try:
            game.apply(answer_index(game, given, ""))
        except GameRuleError as exc:
            raise _problem(doc, path, exc.diagnostics[0].message, "D043") from None
        apply_round_setup()

    def refused(step: dict, path) -> list[str]:
        given, message = step["answer"], step.get("message")
        where = format_path(path)
        if game.decision is None:
            return [f"{where}: the answer {quote(given)} should be refused, but the game is over"]
        try:
            index = answer_index(game, given, "")
        except GameRuleError as exc:
            text = exc.diagnostics[0].message
            if message is not None and _normalise(message) not in _normalise(text):
                return [f"{where}: {quote(given)} is refused, but with '{text}', not {quote(message)}"]
            return []
        return [f"{where}: the answer {quote(given)} should be refused, but it is option {index + 1} of "
                f"'{game.decision.prompt}'"]

    def found(path, problems: list[str]) -> None:
        played.findings.extend(Finding(path, message) for message in problems)

    try:
        apply_round_setup()
        for i, step in enumerate(data.get("answers", [])):
            path = ("answers", i)
            if isinstance(step, dict) and "check" in step:
                found(path, _check_step(game, step["check"], format_path(path)))
            elif isinstance(step, dict) and "refused" in step:
                found(path, refused(step["refused"], path))  # never applied: the game stays where it is
            else:
                answer(step, path)
    except DataProblem as exc:
        # What failed before the illegal step is reported with it: the checks, and the rounds already counted.
        found(("expect",), compare(data.get("expect") or {}, output(game), stopped=True))
        if played.findings:
            raise StoppedScript([_diagnostic(doc, f) for f in played.findings] + exc.diagnostics) from None
        raise
    found(("end",), _end_problems(game, data.get("end", "over")))
    return played


def _diagnostic(doc, finding: Finding) -> Diagnostic:
    """A finding as a D044 diagnostic at its place in the script."""
    prefix = "expect: " if finding.path == ("expect",) else ""
    return Diagnostic(doc.span(finding.path), prefix + finding.message, "D044")


def _end_problems(game: Game, end) -> list[str]:
    """The differences between the script's `end:` and how the game stands after the last step."""
    if end == "over":
        if game.decision is None:
            return []
        d = game.decision
        return [f"end: the answers ran out but the game is not over: Community {d.decider} still has to decide "
                f"'{d.prompt}' (options: {'; '.join(_option_labels(game))}); add the answers, or 'end: waiting' "
                "if the script means to stop here"]
    if game.decision is None:
        return ["end: the script says the game is still waiting for a decision, but it is over"]
    return _check_step(game, end.get("waiting", {}), "end.waiting") if isinstance(end, dict) else []


def output(game: Game) -> dict:
    return {
        "rounds": [
            {
                "round": h["round"],
                "populations": h["populations"],
                "deltas": h["deltas"],
                "expeditions": {str(s): sorted(z, key=label_order) for s, z in enumerate(h["expeditions"])},
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
            kind: {str(s): sorted((game.label(c) for c in game.zone(kind, s)), key=label_order) for s in range(game.n)}
            for kind in ("hand", "transfer", "expedition")
        } | {"reserve": [game.label(c) for c in game.reserve],
             "discard": sorted((game.label(c) for c in game.zones["discard"]), key=label_order)},
    }


def compare(expect: dict, result: dict, stopped: bool = False) -> list[str]:
    """Differences between an `expect:` block and the output, as readable lines.

    `stopped`: the game was stopped early (an illegal answer), so only the rounds it counted are compared.
    """
    problems: list[str] = []
    counted = {r["round"]: r for r in result["rounds"]}
    wanted = expect.get("rounds", {})
    if isinstance(wanted, list):  # the rounds counted, in order
        wanted = {r["round"]: w for r, w in zip(result["rounds"], wanted)} | {
            f"#{i + 1}": w for i, w in enumerate(wanted) if i >= len(result["rounds"])}
    for number, want in wanted.items():
        got_round = counted.get(int(number)) if str(number).isdigit() else None
        if got_round is None:
            if stopped:
                continue
            rounds = ", ".join(str(r) for r in counted) or "none"
            problems.append(f"round {str(number).lstrip('#')}: expected, but it was not counted "
                            f"(rounds counted: {rounds})")
            continue
        for key in ("populations", "deltas"):
            if key in want and list(want[key]) != got_round[key]:
                problems.append(f"round {number} {key}: expected {list(want[key])}, got {got_round[key]}")
        for seat, cards in (want.get("expeditions") or {}).items():
            got = got_round["expeditions"].get(str(seat), [])
            if sorted(cards, key=label_order) != got:
                problems.append(f"round {number} expedition of Community {seat}: expected "
                                f"{sorted(cards, key=label_order)}, got {got}")
    if stopped:
        return problems
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
            if sorted(table, key=label_order) != got_kind:
                problems.append(f"discard: expected {sorted(table, key=label_order)}, got {got_kind}")
            continue
        for seat, cards in table.items():
            got = got_kind.get(str(seat), [])
            if sorted(cards, key=label_order) != got:
                problems.append(f"{kind} of Community {seat}: expected {sorted(cards, key=label_order)}, got {got}")
    return problems


def replay(path: str | os.PathLike, env: Environment | None = None, doc=None) -> ReplayResult:
    """Play a scripted game; the final state and every difference from what the script expects.

    `doc`: the script's document, if read already (load_script).
    """
    doc = doc if doc is not None else load_script(path)
    played = play_script(doc, env if env is not None else Environment())
    result = output(played.game)
    expect = doc.data.get("expect") or {}
    return ReplayResult(result, played.findings + [Finding(("expect",), line) for line in compare(expect, result)])


SCRIPT_KEYS = ("answers", "position", "rounds", "expect")


def is_script(data) -> bool:
    """Whether YAML data looks like a scripted game rather than a box or scenario."""
    return isinstance(data, dict) and any(key in data for key in SCRIPT_KEYS)


def check_script(path: str | os.PathLike, env: Environment, doc=None) -> list[Diagnostic]:
    """Every problem of a scripted game: its schema, a deal or answer that does not fit, an unmet expectation.

    The file is read once (`doc`: its parsed document, if the caller has it).
    """
    try:
        doc = load_script(path, doc)
        result = replay(path, env, doc)
    except HappyError as exc:
        return list(exc.diagnostics)
    return [_diagnostic(doc, finding) for finding in result.findings]


__all__ = ["replay", "Finding", "StoppedScript", "load_script", "play_script", "output", "compare", "set_deal"]
