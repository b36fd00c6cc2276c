"""Loading boxes and scenarios from YAML.

A box file (boxes/*.yaml) says everything specific about one box of the game:
its rules numbers, its Factions and their cards, the power file of each, its
added powers, promo cards and campaign scenarios. A scenario file is a user's
own game setup, possibly with new Factions. This module knows none of them by
name: it validates the files (a JSON Schema first, then the checks a schema
cannot express) and turns them into the dataclasses of `model`.

Every problem becomes a Diagnostic with the file, line and column of the value
at fault; all the problems found are raised together in one DataProblem. The
codes are listed in docs/boxes.md.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from happydayz.base.errors import DataProblem, Diagnostic, DiagnosticSink, HappyError, Span, UsageError, quote, suggest
from happydayz.data.hand import (Hand, HandSizeError, HAPPY_DAYZ, hand_of, hand_problems, legacy_hand, round_sizes,
                                 score_problems, team_problems,
                                 dummy_problems)
from happydayz.data.model import (
    AddedPowerDef, Box, CardSpec, FactionChoice, FactionDef, HouseRules, Library, PromoDef, Scenario,
)
from happydayz.base.files import LIMITS, is_regular_file, plain_relative, size_text, within
from happydayz.base.resources import data_dir
from happydayz.base.safeyaml import Document, format_path, load_yaml
from happydayz.data.schemas import fill_seats
from happydayz.language.scenario_state import read_state_entry

# --- diagnostic codes (documented in docs/boxes.md) -------------------------
# D001-D007 come from safeyaml (reading and parsing the YAML itself).
D_UNKNOWN_KEY = "D010"
D_MISSING_KEY = "D011"
D_WRONG_TYPE = "D012"
D_BAD_VALUE = "D013"
D_SCHEMA = "D014"
D_DUPLICATE_NAME = "D020"
D_UNKNOWN_FACTION = "D021"
D_DUPLICATE_CHOICE = "D022"
D_ALWAYS_LISTED = "D023"
D_UNKNOWN_ADDED = "D024"
D_POWER_FILE = "D025"
D_DEAL = "D026"
D_CARDS = "D027"
D_PROMO_VALUE = "D028"
D_DUPLICATE_ID = "D029"
D_UNKNOWN_BOX = "D030"
D_UNKNOWN_SCENARIO = "D031"
D_PLAYERS = "D032"
D_HOUSE_RULE = "D035"
D_HAND = "D036"
D_SCORE = "D060"
D_TEAMS = "D061"
D_DUMMY = "D062"
D_START_BELOW_FLOOR = "D090"
D_INTERNAL = "D099"

PLAYER_COUNTS = (2, 3, 4, 5)  # the player counts every box deals for
MAX_PLAYERS = 7  # the one limit of a table: a box may deal for 6 and 7 too (or a hand size deal for any count up to it)
MAX_CARD_VALUE = 1000
MAX_CARDS_PER_FACTION = 1000
# Cards of a user's new Faction when its file gives none: values 1..13, +1 each.
DEFAULT_CUSTOM_CARDS = ({"values": "1-13", "survivors": 1},)

_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


# --- schemas ----------------------------------------------------------------

@lru_cache(maxsize=4)
def _validators(schema_dir: Path) -> dict[str, Draft202012Validator]:
    schemas = {
        kind: fill_seats(json.loads((schema_dir / f"{kind}.schema.json").read_text(encoding="utf-8")), MAX_PLAYERS)
        for kind in ("box", "scenario")
    }
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    return {kind: Draft202012Validator(schema, registry=registry) for kind, schema in schemas.items()}


def schema_path(kind: str) -> Path:
    """The JSON Schema file of a "box" or a "scenario" file."""
    return data_dir("boxes") / "schema" / f"{kind}.schema.json"


def _schema(kind: str) -> dict:
    return _validators(data_dir("boxes") / "schema")[kind].schema


def _schema_problems(doc: Document, kind: str, validator=None) -> list[Diagnostic]:
    """Every schema error of a document, in words, each at its position."""
    validator = validator or _validators(data_dir("boxes") / "schema")[kind]
    found: dict[tuple, Diagnostic] = {}
    for error in validator.iter_errors(doc.data):
        for key, diagnostic in _translate(doc, error):
            found.setdefault(key, diagnostic)
        if len(found) >= 200:  # enough to fix; a file of thousands of bad keys must not take hours
            break
    return sorted(found.values(), key=lambda d: (d.span.line, d.span.column, d.message))[:200]


_TYPE_NAMES = {
    "object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
    "number": "a number", "boolean": "true or false", "null": "null",
}


def _describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def _prefix(path: tuple) -> str:
    return f"{format_path(path)}: " if path else ""


def _did_you_mean(name: Any, candidates: Iterable[str]) -> str:
    if not isinstance(name, str):
        return ""
    guess = suggest(name, [c for c in candidates if c != name])
    return f" (did you mean {guess!r}?)" if guess else ""


def _translate(doc: Document, error) -> list[tuple[tuple, Diagnostic]]:
    """One jsonschema error -> diagnostics keyed for de-duplication."""
    path = tuple(error.absolute_path)
    where = _prefix(path)
    kind = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance

    if kind == "additionalProperties" and error.validator_value is False and isinstance(instance, dict):
        allowed = list(schema.get("properties", {}))
        out = []
        for key in instance:
            if key in allowed:
                continue
            message = f"{where}{quote(key)} is not a known key{_did_you_mean(key, allowed)}"
            hint = "known keys here: " + ", ".join(allowed)
            out.append(((path, "key", key),
                        doc.diagnostic(path + (key,), message, D_UNKNOWN_KEY, key=True, hint=hint)))
        return out
    if kind == "required" and isinstance(instance, dict):
        out = []
        for key in error.validator_value:
            if key not in instance:
                out.append(((path, "required", key),
                            doc.diagnostic(path, f"{where}missing required key {key!r}", D_MISSING_KEY)))
        return out
    if kind == "type":
        wanted = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        names = " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
        if not path and instance is None:
            message = f"the file is empty: expected {names} of keys"
        else:
            message = f"{where}expected {names}, got {_describe(instance)}"
        return [((path, "type"), doc.diagnostic(path, message, D_WRONG_TYPE))]
    if kind in ("enum", "const"):
        allowed = error.validator_value if kind == "enum" else [error.validator_value]
        listed = ", ".join(repr(a) for a in allowed)
        message = f"{where}{quote(instance)} is not one of {listed}"
        message += _did_you_mean(instance, [a for a in allowed if isinstance(a, str)])
        return [((path, kind), doc.diagnostic(path, message, D_BAD_VALUE))]
    if kind == "pattern":
        if "propertyNames" in error.schema_path:
            wanted = schema.get("description", "a number")
            message = f"{where}{quote(instance)} is not allowed as a key here (expected {wanted})"
            return [((path, "name", instance), doc.diagnostic(path + (instance,), message, D_BAD_VALUE, key=True))]
        described = schema.get("description")
        message = f"{where}{quote(instance)} does not have the expected form"
        if described:
            message += f" ({described})"
        return [((path, "pattern"), doc.diagnostic(path, message, D_BAD_VALUE))]
    if kind == "minimum":
        return [((path, kind), doc.diagnostic(
            path, f"{where}{instance} is less than the minimum, {error.validator_value}", D_BAD_VALUE))]
    if kind == "maximum":
        return [((path, kind), doc.diagnostic(
            path, f"{where}{instance} is more than the maximum, {error.validator_value}", D_BAD_VALUE))]
    if kind == "minLength":
        return [((path, kind), doc.diagnostic(path, f"{where}must not be empty", D_BAD_VALUE))]
    if kind == "maxLength":
        return [((path, kind), doc.diagnostic(
            path, f"{where}is longer than {error.validator_value} characters", D_BAD_VALUE))]
    if kind == "minItems":
        return [((path, kind), doc.diagnostic(
            path, f"{where}needs at least {error.validator_value} item(s), got {len(instance)}", D_BAD_VALUE))]
    if kind == "maxItems":
        return [((path, kind), doc.diagnostic(
            path, f"{where}allows at most {error.validator_value} item(s), got {len(instance)}", D_BAD_VALUE))]
    if kind == "uniqueItems":
        return [((path, kind), doc.diagnostic(path, f"{where}lists the same item more than once", D_BAD_VALUE))]
    return [((path, kind, error.message), doc.diagnostic(path, f"{where}{error.message}", D_SCHEMA))]


# --- cards --------------------------------------------------------------------

def card_label(faction: str, value: int | None) -> str:
    """How a card is shown: "<Faction> <value>", or just the Faction for a valueless card."""
    return faction if value is None else f"{faction} {value}"


def shown_card(card_names: dict | None, spec: CardSpec, icon: str | None) -> CardSpec:
    """The card with the name a box's `card_names` gives it at the table ("{value}{icon}": "Q" and the icon)."""
    if not card_names or spec.value is None:
        return spec
    value = str(card_names.get("values", {}).get(str(spec.value), spec.value))
    shown = re.sub(r"\{(value|icon|faction)\}", lambda m: {"value": value, "icon": icon or "",
                                                          "faction": spec.faction}[m.group(1)], card_names["format"])
    return replace(spec, shown=shown)


def promo_card(promo: PromoDef) -> CardSpec:
    """The card that stands in for the replaced card when a promo is used."""
    label = promo.label or f"{card_label(promo.faction, promo.replaces_value)} ({promo.name})"
    return CardSpec(promo.faction, promo.replaces_value, promo.survivors, str(promo.power_file), label)


def _expand_values(spec: Any) -> list[int] | str:
    """A 'values' entry -> the list of values, or a message saying what is wrong."""
    if isinstance(spec, bool):
        return "expected a range like \"1-13\", a number or a list of numbers"
    if isinstance(spec, int):
        values = [spec]
    elif isinstance(spec, list):
        values = list(spec)
    else:
        match = _RANGE.match(str(spec))
        if not match:
            return f"{spec!r} is not a range like \"1-13\""
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            return f"the range {spec!r} goes downwards; write it as \"{high}-{low}\""
        if high > MAX_CARD_VALUE:
            return f"the range {spec!r} goes above the largest card value, {MAX_CARD_VALUE}"
        values = list(range(low, high + 1))
    return values


def _build_cards(faction: str, groups: Iterable[dict], doc: Document | None, path: tuple,
                 sink: DiagnosticSink, file: str, once: bool = False) -> tuple[CardSpec, ...]:
    """The cards of a Faction's card groups. `once` (a box file's Factions): a card listed again is an error
    (D027) where it is listed again; a scenario's new Faction may repeat values (a modded box's equal values)."""
    cards: list[CardSpec] = []
    seen: dict[Any, tuple] = {}  # a card's value -> where it is first listed
    for index, group in enumerate(groups):
        here = path + (index,)
        where = _prefix(here)
        span = doc.span(here) if doc else Span(file, 1, 1)
        has_values, has_value = "values" in group, "value" in group
        if has_values == has_value:
            which = "both" if has_values else "neither"
            sink.error(span, f"{where}give either 'values' (one card per value) or 'value' "
                             f"(one value, repeated 'count' times); this group has {which}", D_CARDS)
            continue
        if has_values and "count" in group:
            sink.error(doc.span(here + ("count",), key=True) if doc else span,
                       f"{where}'count' goes with 'value', not with 'values'", D_CARDS)
            continue
        if has_values:
            values = _expand_values(group["values"])
            if isinstance(values, str):
                sink.error(doc.span(here + ("values",)) if doc else span, f"{where}{values}", D_CARDS)
                continue
            listed = isinstance(group["values"], list)
            places = [here + ("values", i) if listed else here + ("values",) for i in range(len(values))]
        else:
            values = [group["value"]] * group.get("count", 1)
            places = [here + ("value",)] * len(values)
        twice: dict[tuple, list] = {}  # where a card listed before is listed again -> [(its label, first place)]
        for value, place in zip(values[: MAX_CARDS_PER_FACTION + 1 - len(cards)], places):
            first = seen.setdefault(value, place)
            if once and first != place:  # the copies of one `value` with `count` share its place: no mistake
                twice.setdefault(place, []).append((card_label(faction, value), first))
                continue
            cards.append(CardSpec(faction, value, group["survivors"], None, card_label(faction, value)))
        for place, repeated in twice.items():
            _listed_twice(doc.span(place) if doc else span, place, repeated, sink)
        if len(cards) > MAX_CARDS_PER_FACTION:
            break
    if len(cards) > MAX_CARDS_PER_FACTION:
        sink.error(doc.span(path) if doc else Span(file, 1, 1),
                   f"{_prefix(path)}more than {MAX_CARDS_PER_FACTION} cards, the limit for one faction",
                   D_CARDS)
    return tuple(cards)


def _listed_twice(span: Span, place: tuple, repeated: list[tuple[str, tuple]], sink: DiagnosticSink) -> None:
    """D027 at a card group's value (or one item of its list of values) that lists cards already listed."""
    labels = [repr(label) for label, _ in repeated]
    firsts = ", ".join(dict.fromkeys(format_path(first) for _, first in repeated))
    what = f"the card {labels[0]} is" if len(labels) == 1 else \
        f"the cards {', '.join(labels[:-1])} and {labels[-1]} are"
    sink.error(span, f"{format_path(place)}: {what} listed twice (also at {firsts})", D_CARDS,
               hint="several cards of one value are given once, with 'value' and 'count'")


def _name_taken(name: str, here: tuple, doc, sink: DiagnosticSink, *taken) -> bool:
    """Report a new Faction's or added power's `name` if a (names, words for its holder) pair of `taken` has it."""
    for names, holder in taken:
        if name in names:
            sink.error(doc.span(here + ("name",)), f"{format_path(here)}.name: {name!r} {holder(names[name])}",
                       D_DUPLICATE_NAME)
            return True
    return False


def _power_file(base: Path, relative: str, doc: Document, path: tuple, sink: DiagnosticSink,
                what: str, power_dirs: Sequence[Path]) -> Path:
    """The power file a box or scenario names: next to that file first, then in `power_dirs` (--powers), then
    among the bundled powers.

    A reference names a file below one of these folders: an absolute path, a '..' or a link that leads out
    of its folder is an error, as is anything but a regular file of at most LIMITS["power"] bytes. The
    error names the reference only: nothing of the target is read or shown.
    """
    refused = base / ".refused" / Path(relative.replace("\x00", "")).name  # a path that does not exist
    if not plain_relative(relative):
        sink.error(doc.span(path), f"{_prefix(path)}power file {relative!r} of {what}: a power file is named by "
                                   f"its place inside the scenario's or box's folder (no absolute path, no '..')",
                   D_POWER_FILE, hint="put the power file beside the scenario, or name its folder with --powers")
        return refused
    target, found = base / relative, False
    for folder in (base, *power_dirs, data_dir("powers")):
        try:
            candidate = (folder / relative).resolve()
            if not candidate.exists():
                continue
        except (OSError, ValueError, RuntimeError):  # a name too long, a NUL character, a loop of links...
            continue
        if not within(candidate, folder):
            sink.error(doc.span(path), f"{_prefix(path)}power file {relative!r} of {what} is a link that leads "
                                       f"outside its folder {str(folder)!r}; it is not read", D_POWER_FILE)
            return refused
        if not is_regular_file(candidate):
            continue
        size = candidate.stat().st_size
        if size > LIMITS["power"]:
            sink.error(doc.span(path), f"{_prefix(path)}power file {relative!r} of {what} is larger than "
                                       f"{size_text(LIMITS['power'])}; it is not read", D_POWER_FILE)
            return refused
        target, found = candidate, True
        break
    if not found:
        target = (base / relative)
        sink.error(doc.span(path), f"{_prefix(path)}power file {relative!r} of {what} not found "
                                   f"(looked for {target})", D_POWER_FILE)
    return target


# --- one box --------------------------------------------------------------

@dataclass
class _Parsed:
    """A box built from its file, with what is needed to check its references later."""

    box: Box
    doc: Document
    promo_paths: list[tuple] = field(default_factory=list)


def switches(entry: dict, properties: dict) -> dict[str, bool]:
    """The on/off options a YAML entry sets, by option name.

    A key sets the option of its own name, or the one its schema property
    names with "x-sets" (so a box can give an option its players' word for it).
    """
    out = {}
    for key, value in entry.items():
        if isinstance(value, bool) and key in properties:
            out[properties[key].get("x-sets", key)] = value
    return out


def _switches(entry: dict, kind: str = "scenario") -> dict[str, bool]:
    props = _schema("box")["$defs"]["scenario"]["properties"] if kind == "box" else _schema("scenario")["properties"]
    known = {f.name for f in fields(Scenario) if f.type == "bool"}
    return {k: v for k, v in switches(entry, props).items() if k in known}


def _entry_name(entry: Any) -> tuple[str, str, tuple]:
    """A faction entry -> (name, variant, path suffix of the name node)."""
    if isinstance(entry, str):
        return entry, "basic", ()
    return entry["faction"], entry.get("variant", "basic"), ("faction",)


# --- house rules ------------------------------------------------------------

_SIDES = ("+", "-")


def house_rules(entry: dict) -> HouseRules:
    """The house rules of a scenario entry (`house_rules:`, already checked by the schema); none: the box's rules."""
    data = entry.get("house_rules")
    if not data:
        return HouseRules()
    transfer = data.get("transfer", {})
    return HouseRules(
        hand_size=data.get("hand_size"),
        transfer_cards=transfer.get("cards"),
        transfer_direction=transfer.get("direction", "both"),
        transfer_rounds=tuple(sorted(transfer["rounds"])) if "rounds" in transfer else None,
        encounter=data.get("encounter", True),
        sides=tuple(side for side in _SIDES if side in data["sides"]) if "sides" in data else _SIDES,
        rounds=data.get("rounds"),
        starting_population=data.get("starting_population"),
        elimination=data.get("elimination", True),
    )


def _hand(doc: Document, here: tuple, entry: dict, sink: DiagnosticSink) -> Hand:
    """The `hand:` of a box or scenario entry at `here` (a hand-size expression that is not allowed: D036)."""
    try:
        return hand_of(entry.get("hand"))
    except HandSizeError as exc:
        where = here + ("hand", "hand_size")
        span = doc.span(where)
        lines = doc.text.splitlines()
        line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        quoted = line[span.column - 1:span.column] in ("'", '"')  # the expression starts after its quote
        sink.error(Span(span.file, span.line, span.column + quoted + exc.column), f"{format_path(where)}: {exc}",
                   D_HAND, "see docs/boxes.md, 'The hand', for what an expression may say")
        return hand_of({key: value for key, value in entry["hand"].items() if key != "hand_size"})  # the rest


def scenario_hand(box_hand: Hand, rules: HouseRules, own: Hand) -> Hand:
    """The hand a scenario plays: its own keys, over its older house rules, over its box's, over Happy DayZ's."""
    legacy = legacy_hand(rules.hand_size, rules.transfer_cards, rules.transfer_direction, rules.transfer_rounds)
    return own.over(legacy.over(box_hand.over(HAPPY_DAYZ)))


def _check_hand(doc: Document, here: tuple, entry: dict, hand: Hand, sink: DiagnosticSink) -> None:
    """What the schema cannot say of the hand a box or scenario entry plays (D036), at `here` + hand."""
    house = entry.get("house_rules", {})
    own = entry.get("hand", {})
    for old, new in (("hand_size", "hand_size"), ("transfer", "transfer")):
        if old in house and new in own:
            where = here + ("hand", new)
            sink.error(doc.span(where), f"{format_path(where)}: the house rule {old} says this too: "
                                        f"keep one of them", D_HAND, f"remove house_rules.{old}")
    for code, found in ((D_HAND, hand_problems(hand)), (D_SCORE, score_problems(hand)),
                        (D_TEAMS, team_problems(hand, entry.get("players"))),
                        (D_DUMMY, dummy_problems(hand))):
        for paths, message in found:  # (at the first of the keys at fault that this entry says)
            where = next((here + ("hand",) + p for p in paths if here + ("hand",) + p in doc.values),
                         here + ("hand",) + paths[0])
            sink.error(doc.span(where), f"{format_path(where)}: {message}", code)


def _deck_size(box: Box, entries: Iterable, factions: dict[str, FactionDef]) -> int | None:
    """Cards in the first round's deck: the box's always-in-play Factions and those listed (None: unknown)."""
    total = 0
    for name in (*box.always, *(_entry_name(entry)[0] for entry in entries)):
        faction = box.factions.get(name) if name in box.always else factions.get(name)
        if faction is None:
            return None
        total += len(faction.cards)
    return total


def _check_start(doc: Document, here: tuple, entry: dict, rules: HouseRules, box: Box, hand: Hand,
                 sink: DiagnosticSink) -> None:
    """The starting score against the hand's floor (docs/boxes.md, "The score"): no score can start below the
    lowest it falls to (D090). At the scenario's own starting_population if it says one, else at its floor if
    it says one, else at the box's starting_population."""
    floor = hand.floor
    if type(floor) is not int:
        return
    start = rules.starting_population or box.starting_population
    if start >= floor:
        return
    where = next((w for w in (here + ("house_rules", "starting_population"), here + ("hand", "score", "floor"),
                              ("starting_population",)) if w in doc.values), here)
    sink.error(doc.span(where), f"{format_path(where)}: the scores start at {start}, below the floor of "
                                f"{floor}, the lowest a score falls to", D_START_BELOW_FLOOR,
               "give the hand's score a lower floor (or floor: none), or start the scores at it or above")


def _check_house_rules(doc: Document, here: tuple, entry: dict, rules: HouseRules, box: Box,
                       deck: int | None, sink: DiagnosticSink, hand: Hand) -> None:
    """What the schema cannot say of a scenario's house rules and hand: they must fit its box, players and deck.

    `here` is the path of the scenario entry (() for a scenario file); `deck` the cards of its first deal, if
    known; `hand` the hand it plays (scenario_hand).
    """
    at = here + ("house_rules",)
    players = entry.get("players")
    rounds = rules.rounds or box.campaign_rounds
    _check_start(doc, here, entry, rules, box, hand, sink)
    for index, number in enumerate(entry.get("house_rules", {}).get("transfer", {}).get("rounds", ())):
        if number > rounds:
            where = at + ("transfer", "rounds", index)
            sink.error(doc.span(where), f"{format_path(where)}: round {number} is never played: the campaign "
                                        f"has {rounds} round{'s' if rounds != 1 else ''}", D_HOUSE_RULE)
    if players is None:
        return
    said = "hand" in entry and "transfer" in entry["hand"] and "to" in entry["hand"]["transfer"]
    if players % 2 and hand.transfer_to.uses("across".__eq__) and (said or rules.transfer_direction == "across"):
        where = here + ("hand", "transfer", "to") if said else at + ("transfer", "direction")
        sink.error(doc.span(where), f"{format_path(where)}: nobody sits across the table in a game of {players}: "
                                    f"'across' needs an even number of players", D_HOUSE_RULE,
                   "choose left, right or both, or an even number of players")
    seats = [("first_dealer", hand.first_dealer)] + [("first_leader", rule[1]) for rule in hand.first_leader.items
                                                      if type(rule) is tuple and rule[0] == "seat"]
    for key, seat in seats:
        if seat >= players:
            where = here + ("hand", key)
            sink.error(doc.span(where), f"{format_path(where)}: there is no seat {seat} in a game of {players} "
                                        f"(seats 0 to {players - 1})", D_HAND)
    try:
        sizes = round_sizes(hand, box.deal, players, rounds)
    except KeyError:
        return  # no deal for that many players: D032, reported where players is read
    except HandSizeError as exc:
        where = here + ("hand", "hand_size")
        sink.error(doc.span(where), f"{format_path(where)}: {exc}", D_HAND)
        return
    biggest = max(sizes)
    if deck is not None and biggest * players > deck:
        if "hand" in entry and "hand_size" in entry["hand"]:
            where = here + ("hand", "hand_size")
        else:
            where = at + ("hand_size",) if rules.hand_size is not None else here + ("players",)
        sink.error(doc.span(where), f"{format_path(where)}: {players} Communities dealt {biggest} cards each need "
                                    f"{biggest * players} cards, but the deck of this scenario has {deck}",
                   D_HOUSE_RULE, "deal fewer cards, or play with fewer Communities")


def _parse_box(path: str | os.PathLike, sink: DiagnosticSink, power_dirs: Sequence[Path] = ()) -> _Parsed | None:
    """Read, validate and build one box; problems go to `sink`.

    None if the file cannot be read or breaks the schema; otherwise the box is
    built even when a check failed, so that its references can still be checked.
    """
    try:
        doc = load_yaml(path)
    except DataProblem as problem:
        for diagnostic in problem.diagnostics:
            sink.add(diagnostic)
        return None
    schema_problems = _schema_problems(doc, "box")
    if schema_problems:
        for diagnostic in schema_problems:
            sink.add(diagnostic)
        return None

    data = doc.data
    source = Path(path).resolve()
    box_id = data["id"]
    powers_base = (source.parent / data["powers_dir"]) if "powers_dir" in data else data_dir("powers")

    # the deal table: one entry for each number of players
    deal: dict[int, int] = {}
    for key, count in data["deal"].items():
        players = int(key)
        if not PLAYER_COUNTS[0] <= players <= MAX_PLAYERS:
            sink.error(doc.span(("deal", key), key=True),
                       f"deal: {players} players is not a possible game ({PLAYER_COUNTS[0]} to {MAX_PLAYERS} players)",
                       D_DEAL)
        deal[players] = count
    missing = [p for p in PLAYER_COUNTS if p not in deal]
    if missing:
        sink.error(doc.span(("deal",)), "deal: no entry for " + ", ".join(f"{p}" for p in missing)
                   + " players", D_DEAL)

    box_hand = _hand(doc, (), data, sink)
    _check_hand(doc, (), data, box_hand.over(HAPPY_DAYZ), sink)

    # factions
    names_seen: dict[str, tuple] = {}

    def claim(name: str, where: tuple) -> bool:
        if name in names_seen:
            first = names_seen[name]
            sink.error(doc.span(where), f"{format_path(where)}: the name {name!r} is already used "
                                        f"at {format_path(first)}", D_DUPLICATE_NAME)
            return False
        names_seen[name] = where
        return True

    always = tuple(data["always"])
    factions: dict[str, FactionDef] = {}
    for index, entry in enumerate(data["factions"]):
        here = ("factions", index)
        name = entry["name"]
        if not claim(name, here + ("name",)):
            continue
        power = _power_file(powers_base, entry["power"], doc, here + ("power",), sink, f"{name!r}", power_dirs)
        cards = _build_cards(name, entry["cards"], doc, here + ("cards",), sink, doc.file, once=True)
        if "card_names" in data:
            cards = tuple(shown_card(data["card_names"], spec, entry.get("icon")) for spec in cards)
        factions[name] = FactionDef(name, power, cards, box_id, name in always, entry.get("colour"), entry.get("icon"))
    for index, name in enumerate(always):
        if name not in factions:
            sink.error(doc.span(("always", index)),
                       f"always[{index}]: {name!r} is not a faction of this box"
                       f"{_did_you_mean(name, factions)}", D_UNKNOWN_FACTION)

    added: dict[str, AddedPowerDef] = {}
    for index, entry in enumerate(data.get("added_powers", ())):
        here = ("added_powers", index)
        name = entry["name"]
        if not claim(name, here + ("name",)):
            continue
        power = _power_file(powers_base, entry["power"], doc, here + ("power",), sink, f"{name!r}", power_dirs)
        added[name] = AddedPowerDef(name, power, box_id)

    promos: list[PromoDef] = []
    promo_paths: list[tuple] = []
    for index, entry in enumerate(data.get("promos", ())):
        here = ("promos", index)
        name = entry["name"]
        if not claim(name, here + ("name",)):
            continue
        power = _power_file(powers_base, entry["power"], doc, here + ("power",), sink, f"{name!r}", power_dirs)
        promos.append(PromoDef(name, entry["faction"], entry["replaces"], entry["survivors"], power, box_id,
                               entry.get("label", "")))
        promo_paths.append(here)

    scenarios: list[Scenario] = []
    ids_seen: dict[int, int] = {}
    for index, entry in enumerate(data.get("scenarios", ())):
        here = ("scenarios", index)
        number = entry["id"]
        if number in ids_seen:
            sink.error(doc.span(here + ("id",)), f"{format_path(here)}: scenario id {number} is already used "
                                                 f"by scenarios[{ids_seen[number]}]", D_DUPLICATE_ID)
            continue
        ids_seen[number] = index
        choices = tuple(FactionChoice(*_entry_name(item)[:2]) for item in entry["factions"])
        players = entry.get("players")
        house = house_rules(entry)
        own = _hand(doc, here, entry, sink)
        _check_hand(doc, here, entry, scenario_hand(box_hand, house, own), sink)
        if players is not None and players not in deal and scenario_hand(box_hand, house, own).hand_size == "deal":
            sink.error(doc.span(here + ("players",)),
                       f"{format_path(here)}.players: the deal table has no entry for {players} players", D_PLAYERS)
        scenarios.append(Scenario(
            id=f"{box_id}/{number}", title=entry["title"], box=box_id, factions=choices,
            added=tuple(entry.get("added", ())), players=players,
            source=source, house_rules=house, hand=own, options=tuple(entry.get("options", {}).items()),
            **_switches(entry, "box"),
        ))

    box = Box(
        id=box_id, title=data["title"], source=source,
        starting_population=data["starting_population"], deal=dict(sorted(deal.items())),
        campaign_rounds=data["campaign_rounds"],
        transfer_cards=data.get("transfer_cards", box_hand.transfer_cards.at(1) if box_hand.transfer_cards else 2),
        always=always, factions=factions, added_powers=added, promos=tuple(promos),
        scenarios=tuple(scenarios), hand=box_hand,
    )
    return _Parsed(box, doc, promo_paths)


def _check_choices(doc: Document, path: tuple, entries: list, local: dict[str, FactionDef],
                   universe: dict[str, FactionDef], scope: str, sink: DiagnosticSink,
                   hint_if_elsewhere: str | None = None) -> None:
    """Faction entries of one scenario: known, not always in play, not repeated."""
    seen: dict[str, int] = {}
    choosable = [n for n, f in local.items() if not f.always]
    for index, entry in enumerate(entries):
        here = path + (index,)
        name, _variant, suffix = _entry_name(entry)
        if name not in local:
            hint = hint_if_elsewhere if hint_if_elsewhere and name in universe else None
            sink.error(doc.span(here + suffix),
                       f"{format_path(here)}: {name!r} is not a faction of {scope}{_did_you_mean(name, choosable)}",
                       D_UNKNOWN_FACTION, hint)
            continue
        if local[name].always:
            sink.error(doc.span(here + suffix),
                       f"{format_path(here)}: {name!r} is always in play; list only the other factions",
                       D_ALWAYS_LISTED)
            continue
        if name in seen:
            sink.error(doc.span(here + suffix),
                       f"{format_path(here)}: {name!r} is listed twice (also at "
                       f"{format_path(path + (seen[name],))})", D_DUPLICATE_CHOICE)
            continue
        seen[name] = index


def _check_added(doc: Document, path: tuple, names: list, local: dict[str, AddedPowerDef], scope: str,
                 sink: DiagnosticSink) -> None:
    for index, name in enumerate(names):
        if name not in local:
            sink.error(doc.span(path + (index,)),
                       f"{format_path(path + (index,))}: {name!r} is not an added power of {scope}"
                       f"{_did_you_mean(name, local)}", D_UNKNOWN_ADDED)


def _universe(boxes: Iterable[Box]) -> tuple[dict[str, FactionDef], dict[str, AddedPowerDef]]:
    """Every Faction and added power of `boxes`; the first definition of a name wins."""
    factions: dict[str, FactionDef] = {}
    added: dict[str, AddedPowerDef] = {}
    for box in boxes:
        for name, faction in box.factions.items():
            factions.setdefault(name, faction)
        for name, power in box.added_powers.items():
            added.setdefault(name, power)
    return factions, added


def _check_references(parsed: _Parsed, boxes: list[Box], sink: DiagnosticSink) -> None:
    """Scenario and promo references of one box, against itself and every box loaded with it."""
    box, doc = parsed.box, parsed.doc
    # the box itself comes first, so its own definitions win
    factions, added = _universe([box] + [b for b in boxes if b is not box])
    for index, entry in enumerate(doc.data.get("scenarios", ())):
        here = ("scenarios", index)
        mixed = bool(entry.get("mixed", False))
        if mixed:
            local_f, local_a, scope = factions, added, "any loaded box"
        else:
            local_f, local_a, scope = box.factions, box.added_powers, "this box"
        _check_choices(doc, here + ("factions",), entry["factions"], local_f, factions, scope, sink,
                       hint_if_elsewhere="it belongs to another box: add 'mixed: true' to this scenario")
        _check_added(doc, here + ("added",), entry.get("added", ()), local_a, scope, sink)
        if "house_rules" in entry or "hand" in entry or box.hand.given() or entry.get("players", 0) > PLAYER_COUNTS[-1]:
            house = house_rules(entry)
            _check_house_rules(doc, here, entry, house, box, _deck_size(box, entry["factions"], local_f), sink,
                               scenario_hand(box.hand, house, _hand(doc, here, entry, DiagnosticSink())))
    for promo, here in zip(box.promos, parsed.promo_paths):
        faction = factions.get(promo.faction)
        if faction is None:
            sink.error(doc.span(here + ("faction",)),
                       f"{format_path(here)}.faction: {promo.faction!r} is not a faction of any loaded box"
                       f"{_did_you_mean(promo.faction, factions)}", D_UNKNOWN_FACTION)
        elif promo.replaces_value not in {c.value for c in faction.cards}:
            sink.error(doc.span(here + ("replaces",)),
                       f"{format_path(here)}.replaces: {promo.faction!r} has no card of value "
                       f"{promo.replaces_value}", D_PROMO_VALUE)


def _raise_if_errors(sink: DiagnosticSink) -> None:
    if sink.errors:
        order = {name: i for i, name in enumerate(dict.fromkeys(d.span.file for d in sink.items))}
        raise DataProblem(sorted(sink.items, key=lambda d: (order[d.span.file], d.span.line, d.span.column)))


def _bundled_box_files() -> list[Path]:
    return sorted(data_dir("boxes").glob("*.yaml"))


def _expand_paths(paths: Iterable[str | os.PathLike]) -> list[Path]:
    found: list[Path] = []
    for item in paths:
        item = Path(item)
        if item.is_dir():
            found.extend(sorted(item.glob("*.yaml")))
        else:
            found.append(item)
    return found


def load_box(path: str | os.PathLike, others: Iterable[Box] | None = None, power_dirs: Sequence[Path] = ()) -> Box:
    """Load one box file.

    Scenarios marked `mixed` may use Factions and added powers of `others`;
    when `others` is None, of the bundled boxes. Raises DataProblem.
    """
    sink = DiagnosticSink()
    parsed = _parse_box(path, sink, power_dirs)
    if parsed is None:
        _raise_if_errors(sink)
        raise DataProblem(Diagnostic(Span(str(path), 1, 1), "the box file cannot be loaded", D_INTERNAL))
    if others is None:
        others = []
        me = parsed.box.source
        for candidate in _bundled_box_files():
            if candidate.resolve() == me:
                continue
            other = _parse_box(candidate, DiagnosticSink(), power_dirs)
            if other is not None and other.box.id != parsed.box.id:
                others.append(other.box)
    _check_references(parsed, [parsed.box, *others], sink)
    _raise_if_errors(sink)
    return parsed.box


def load_library(extra_paths: Iterable[str | os.PathLike] = (), power_dirs: Sequence[Path] = ()) -> Library:
    """Every bundled box, plus the box files (or directories of them) in `extra_paths`.

    Power files are looked for next to the box file that names them, then in `power_dirs`.
    """
    sink = DiagnosticSink()
    parsed: list[_Parsed] = []
    seen_files: set[Path] = set()
    ids: dict[str, _Parsed] = {}
    for path in _bundled_box_files() + _expand_paths(extra_paths):
        if path.resolve() in seen_files:
            continue
        seen_files.add(path.resolve())
        one = _parse_box(path, sink, power_dirs)
        if one is None:
            continue
        if one.box.id in ids:
            sink.error(one.doc.span(("id",)), f"id: the box id {one.box.id!r} is already used by "
                                              f"{ids[one.box.id].doc.file}", D_DUPLICATE_ID)
            continue
        ids[one.box.id] = one
        parsed.append(one)
    boxes = [p.box for p in parsed]
    for one in parsed:
        _check_references(one, boxes, sink)
    _raise_if_errors(sink)
    return Library({b.id: b for b in boxes})


# --- user scenarios -------------------------------------------------------

def _scenario_box(base: Path, relative: str, doc: Document, library: Library, sink: DiagnosticSink,
                  power_dirs: Sequence[Path]) -> Box | None:
    """The box file a scenario brings (`box_file`): beside the scenario, read like any box file.

    The reference names a regular file below the scenario's folder (no absolute path, no '..', no link
    out of it); the box's own problems are reported at their place in the box file.
    """
    where = ("box_file",)
    if not plain_relative(relative):
        sink.error(doc.span(where), f"box_file: {relative!r}: a box file is named by its place inside the "
                                    f"scenario's folder (no absolute path, no '..')", D_UNKNOWN_BOX,
                   "put the box file beside the scenario")
        return None
    try:
        candidate = (base / relative).resolve()
        exists = candidate.exists()
    except (OSError, ValueError, RuntimeError):  # a name too long, a NUL character, a loop of links...
        candidate, exists = base / relative, False
    if not exists:
        sink.error(doc.span(where), f"box_file: the box file {relative!r} is not found (looked for "
                                    f"{base / relative})", D_UNKNOWN_BOX)
        return None
    if not within(candidate, base):
        sink.error(doc.span(where), f"box_file: {relative!r} is a link that leads outside the scenario's folder "
                                    f"{str(base)!r}; it is not read", D_UNKNOWN_BOX)
        return None
    if not is_regular_file(candidate):
        sink.error(doc.span(where), f"box_file: {relative!r} is not a regular file", D_UNKNOWN_BOX)
        return None
    loaded = library.boxes.values()
    try:
        # read by the name the scenario gives it, so that its problems name it as the scenario does
        box = load_box(Path(doc.file).parent / relative, others=[b for b in loaded if b.source != candidate],
                       power_dirs=power_dirs)
    except DataProblem as problem:  # the box file's own problems, at their places in it
        for diagnostic in problem.diagnostics:
            sink.add(diagnostic)
        return None
    other = library.boxes.get(box.id)
    if other is not None and other.source != box.source:
        sink.error(doc.span(where), f"box_file: the id {box.id!r} of {relative!r} is already the id of the loaded "
                                    f"box {str(other.source)!r}", D_DUPLICATE_ID, "give the box file another id")
        return None
    return box


def load_scenario_file(path: str | os.PathLike, library: Library,
                       power_dirs: Sequence[Path] = (), doc: Document | None = None) -> tuple[Scenario, Library]:
    """Load a user's scenario file against `library`.

    Returns the scenario and the library extended with what the scenario brings:
    its box file (in `boxes`), its own Factions (in `extra_factions`) and added
    powers (in `extra_added`). Raises DataProblem. `doc`: the file, parsed already
    (it is then not read again).
    """
    doc = doc if doc is not None else load_yaml(path)
    schema_problems = _schema_problems(doc, "scenario")
    if schema_problems:
        raise DataProblem(schema_problems)
    sink = DiagnosticSink()
    data = doc.data
    source = Path(path).resolve()
    scenario_id = str(path)

    boxes = library.boxes
    box_id = data.get("box")
    if "box_file" in data:
        own = _scenario_box(source.parent, data["box_file"], doc, library, sink, power_dirs)
        if own is None:
            _raise_if_errors(sink)
        boxes = {**library.boxes, own.id: own}
        if box_id is not None and box_id != own.id:
            sink.error(doc.span(("box",)), f"box: {box_id!r} is not the box of box_file {data['box_file']!r}, "
                                           f"whose id is {own.id!r}", D_UNKNOWN_BOX,
                       f"leave 'box' out, or write box: {own.id}")
        box_id = own.id
    box = boxes.get(box_id)
    if box is None:
        known = sorted(boxes)
        sink.error(doc.span(("box",)), f"box: {box_id!r} is not a loaded box"
                                       f"{_did_you_mean(box_id, known)}",
                   D_UNKNOWN_BOX, "loaded boxes: " + ", ".join(known))

    box_factions: dict[str, FactionDef] = {}
    for one in boxes.values():
        for name, faction in one.factions.items():
            box_factions.setdefault(name, faction)
    if box is not None:
        box_factions.update(box.factions)  # the chosen box's own definitions win

    custom: dict[str, FactionDef] = {}
    for index, entry in enumerate(data.get("custom_factions", ())):
        here = ("custom_factions", index)
        name = entry["name"]
        if _name_taken(name, here, doc, sink,
                       (box_factions, lambda f: f"is already a faction of box {f.box!r}; choose another name"),
                       (custom, lambda _: "is defined twice")):
            continue
        power = _power_file(source.parent, entry["power"], doc, here + ("power",), sink, f"{name!r}", power_dirs)
        if "cards" in entry:
            cards = _build_cards(name, entry["cards"], doc, here + ("cards",), sink, doc.file)
        else:
            cards = _build_cards(name, DEFAULT_CUSTOM_CARDS, None, here, sink, doc.file)
        custom[name] = FactionDef(name, power, cards, scenario_id, False)

    known_added = {**Library(boxes).all_added_powers(), **library.extra_added}
    own_added: dict[str, AddedPowerDef] = {}
    for index, entry in enumerate(data.get("added_powers", ())):
        here = ("added_powers", index)
        name = entry["name"]
        if _name_taken(name, here, doc, sink,
                       (known_added, lambda a: f"is already an added power of box {a.box!r}; choose another name"),
                       ({**box_factions, **custom}, lambda _: "is already the name of a Faction; choose another name"),
                       (own_added, lambda _: "is defined twice")):
            continue
        power = _power_file(source.parent, entry["power"], doc, here + ("power",), sink, f"{name!r}", power_dirs)
        own_added[name] = AddedPowerDef(name, power, scenario_id)

    universe = {**box_factions, **library.extra_factions, **custom}
    _check_choices(doc, ("factions",), data.get("factions", []), universe, universe, "any loaded box", sink)
    _check_added(doc, ("added",), data.get("added", ()), {**known_added, **own_added}, "any loaded box", sink)
    _check_state(doc, data.get("state", ()), sink)

    players = data.get("players")
    rules = house_rules(data)
    own = _hand(doc, (), data, sink)
    hand = scenario_hand(box.hand if box is not None else Hand(), rules, own)
    if box is not None:
        _check_hand(doc, (), data, hand, sink)
    if players is not None and box is not None and players not in box.deal and hand.hand_size == "deal":
        sink.error(doc.span(("players",)), f"players: box {box.id!r} has no deal for {players} players",
                   D_PLAYERS, "give the box a deal for that many players, or a hand size (hand.hand_size)")
    if box is not None and ("house_rules" in data or "hand" in data or box.hand.given()
                            or (players or 0) > PLAYER_COUNTS[-1]):
        deck = None if data.get("random_setup") else _deck_size(box, data.get("factions", []), universe)
        _check_house_rules(doc, (), data, rules, box, deck, sink, hand)
    _raise_if_errors(sink)

    scenario = Scenario(
        id=scenario_id,
        title=data.get("title", source.stem),
        box=box_id,
        factions=tuple(FactionChoice(*_entry_name(item)[:2]) for item in data.get("factions", [])),
        added=tuple(data.get("added", ())),
        players=players,
        source=source,
        house_rules=rules,
        hand=own,
        options=tuple(data.get("options", {}).items()),
        state=tuple(entry.strip() for entry in data.get("state", ())),
        **_switches(data),
    )
    extended = Library(boxes=boxes, extra_factions={**library.extra_factions, **custom},
                       extra_added={**library.extra_added, **own_added})
    return scenario, extended


def _check_state(doc, entries, sink: DiagnosticSink) -> None:
    """D085 at each `state:` entry that is not one counter or mark (or names one twice)."""
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        decl, problem = read_state_entry(entry)
        if decl is not None and decl.name in seen:
            problem = f"the scenario declares '{decl.name}' twice"
        if problem is not None:
            sink.error(doc.span(("state", index)), f"state: {problem}", "D085",
                       "one counter or mark per entry, as an added power's shared line: 'mark trump: Faction for round'")
        elif decl is not None:
            seen.add(decl.name)


def resolve_scenario(id_or_path: str | os.PathLike, library: Library,
                     power_dirs: Sequence[Path] = ()) -> tuple[Scenario, Library]:
    """A scenario by id ("<box id>/<n>") or by the path of a scenario file."""
    text = str(id_or_path)
    by_id = {s.id: s for s in library.scenarios()}
    if text in by_id:
        return by_id[text], library
    if isinstance(id_or_path, Path) or text.lower().endswith((".yaml", ".yml")) or Path(text).is_file():
        return load_scenario_file(id_or_path, library, power_dirs)
    known = list(by_id)
    message = f"unknown scenario {text!r}{_did_you_mean(text, known)}; known scenarios: " + ", ".join(known)
    raise DataProblem(Diagnostic(Span("<scenario>", 1, 1), message, D_UNKNOWN_SCENARIO,
                                 hint="give a scenario id or the path of a scenario .yaml file"))


def default_scenario(library: Library) -> str:
    """The scenario played when none is named: scenario 1 of the last box by id.

    Computed from the loaded boxes rather than written in code, so the code names no box.
    """
    if not library.boxes:  # pragma: no cover - the bundled boxes always load
        raise UsageError("no box is loaded, so there is no default scenario: give --scenario")
    box = library.boxes[max(library.boxes)]
    ids = [s.id for s in box.scenarios]
    wanted = f"{box.id}/1"
    return wanted if wanted in ids else ids[0]


def scenario_reference(scenario: Scenario, library: Library) -> str:
    """How to name a scenario in a save or results file: its id if bundled, else the absolute path of its file."""
    if scenario.id in {s.id for s in library.scenarios()}:
        return scenario.id
    if scenario.source is not None:
        return str(Path(scenario.source).resolve())
    return scenario.id


# --- checking a file --------------------------------------------------------

def detect_kind(data: Any) -> str:
    """"box" or "scenario": which kind of file this data most looks like."""
    if not isinstance(data, dict):
        return "scenario"
    if "box" in data:
        return "scenario"
    box_keys = set(_schema("box")["properties"])
    scenario_keys = set(_schema("scenario")["properties"])
    box_score = len(set(data) & (box_keys - scenario_keys))
    scenario_score = len(set(data) & (scenario_keys - box_keys))
    return "box" if box_score > scenario_score else "scenario"


def check_data_file(path: str | os.PathLike, library: Library | None = None,
                    power_dirs: Sequence[Path] = (), doc: Document | None = None) -> list[Diagnostic]:
    """Every problem of a box or scenario file; [] when it is fine. Never raises for bad input.

    A scenario is checked against `library` (by default, the bundled boxes). `doc`: the file, parsed already.
    """
    try:
        doc = doc if doc is not None else load_yaml(path)
        if detect_kind(doc.data) == "box":
            load_box(path, power_dirs=power_dirs)
        else:
            load_scenario_file(path, library if library is not None else load_library(power_dirs=power_dirs),
                               power_dirs, doc)
    except HappyError as problem:
        return list(problem.diagnostics)
    except RecursionError:
        return [Diagnostic(Span(str(path), 1, 1), "the data is nested too deeply", D_INTERNAL)]
    return []


__all__ = [
    "house_rules", "scenario_hand", "MAX_PLAYERS", "PLAYER_COUNTS",
    "load_box", "load_library", "load_scenario_file", "resolve_scenario", "check_data_file", "default_scenario",
    "scenario_reference",
    "detect_kind", "promo_card", "card_label", "schema_path",
]
