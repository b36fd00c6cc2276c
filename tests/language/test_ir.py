"""`happydayz compile --json`: the compiled power as JSON (happydayz.language.ir) and its schema
(boxes/schema/ir.schema.json).

What issue 14 added (lasting state, the hooks beyond `on win` and `at end of round`, the trick
rules, a choice of courses) is exported only by a power that uses it: the export of the
bundled powers, written without it, keeps its shape.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from happydayz.language.cardtext import bundled_power_files
from happydayz.language.checker import check
from happydayz.language.compiler import HOOK_NAMES, compile_power
from happydayz.language.ir import HOOK_KEYS, RULE_FLAGS, TRICK_RULES, power_ir, schema
from happydayz.language.parser import parse_file

NEW_CONSTRUCTS = Path(__file__).parent / "data" / "every_new_construct.power"
ROOT = Path(__file__).resolve().parents[2]
POWER_FILES = bundled_power_files()
# The Happy DayZ boxes' powers (those of the classic games' boxes, such as Hearts, keep round marks).
HAPPY_DAYZ_POWERS = [p for p in POWER_FILES if not p.name.startswith(("hearts_", "oh_hell_", "spades_", "euchre_", "bridge_"))]  # not the classics


def export(path: Path) -> dict:
    return power_ir(compile_power(check(parse_file(path)), path.resolve()))


def test_the_schema_is_a_json_schema():
    Draft202012Validator.check_schema(schema())


def test_every_hook_the_compiler_names_has_its_key():
    assert set(HOOK_KEYS) == set(HOOK_NAMES.values())
    assert set(HOOK_KEYS.values()) == set(schema()["$defs"]["variant"]["properties"]["hooks"]["properties"])
    assert set(RULE_FLAGS + TRICK_RULES + ("trumps_when", "counts_as")) == set(
        schema()["$defs"]["variant"]["properties"]["rules"]["properties"])


@pytest.mark.parametrize("path", HAPPY_DAYZ_POWERS, ids=[p.stem for p in HAPPY_DAYZ_POWERS])
def test_a_bundled_power_exports_as_before(path: Path):
    data = export(path)
    Draft202012Validator(schema()).validate(data)
    assert "state" not in data
    for variant in data["variants"].values():
        assert list(variant["rules"]) == list(RULE_FLAGS) + ["trumps_when"]
        assert list(variant["hooks"]) == ["on_win", "end_of_round"]


def test_the_new_constructs_export_and_validate():
    data = export(NEW_CONSTRUCTS)
    Draft202012Validator(schema()).validate(data)
    assert data["state"]["points"] == {"kind": "counter", "per_community": True, "lifetime": "round",
                                       "visibility": "secret", "key": "Tinkerers:points"}
    assert data["state"]["alarm"]["kind"] == "mark" and data["state"]["alarm"]["per_community"] is False
    basic, positive, negative = (data["variants"][k] for k in ("basic", "positive", "negative"))
    rules = basic["rules"]
    assert rules["wild"] is True and rules["only_leads"] is True
    assert rules["wins"]["node"] == "Logic" and rules["never_wins"]["node"] == "Compare"
    assert rules["beats"] == {"node": "ListLit", "type": "Factions", "items": [
        {"node": "FactionLit", "type": "Faction", "name": "Bikers"}, {"node": "FactionLit", "type": "Faction", "name": "Hippies"}]}
    assert rules["leads_only_when"]["node"] == "Compare" and rules["must_be_played"] == {
        "node": "NameRef", "type": "Yes/No", "name": "void"}
    assert positive["rules"]["wins"] is True and positive["rules"]["never_wins"] is True
    assert "wild" not in positive["rules"] and "beats" not in negative["rules"]
    assert list(basic["hooks"]) == ["on_win", "end_of_round", "on_play", "on_lead", "on_trick", "after_trick",
                                    "start_of_round", "end_of_game"]
    assert list(positive["hooks"]) == ["on_win", "end_of_round", "on_play"] and positive["hooks"]["on_win"] is None
    [mode] = [ins for ins in basic["hooks"]["on_win"] if ins["op"] == "mode"]
    assert mode["options"] == ["Take a point", "Ring the bell", "Pass"]
    assert mode["chooser"] == {"node": "NameRef", "type": "Community", "name": "winner"}
    assert len(mode["to"]) == 3 and all(mode["pc"] < to < len(basic["hooks"]["on_win"]) for to in mode["to"])
    elements = {ins["element"] for hook in basic["hooks"].values() for ins in hook or () if ins["op"] == "choose"}
    assert elements == {"Side", "Number"}
    effects = [ins["statement"] for hook in basic["hooks"].values() for ins in hook or () if ins["op"] == "effect"]
    assert {e["node"] for e in effects} >= {"AddState", "SetState", "SetVar", "Declare", "SetSide", "End", "Score"}
    [add] = [e for e in effects if e["node"] == "AddState" and e["owner"] and e["owner"]["node"] == "NameRef"]
    assert add == {"node": "AddState", "amount": {"node": "IntLit", "type": "Number", "value": 2}, "name": "points",
                   "owner": {"node": "NameRef", "type": "Community", "name": "winner"}}


def test_an_option_and_the_bidding_moment_export_and_validate():
    data = export(ROOT / "tests" / "games" / "mods" / "tally.power")
    Draft202012Validator(schema()).validate(data)
    assert data["state"]["bonus"] == {"kind": "counter", "per_community": False, "lifetime": "game",
                                      "visibility": "public", "key": "Tally:bonus", "option": 1}
    assert data["state"]["doubled"]["option"] is False
    bidders = export(ROOT / "docs" / "cookbook" / "oh-hell-hand.power")
    Draft202012Validator(schema()).validate(bidders)
    assert list(bidders["variants"]["fixed"]["hooks"]) == ["on_win", "end_of_round", "after_transfer"]
    assert "option" not in bidders["state"]["bid"]


def test_the_euchre_auctions_names_export_and_validate():
    # turned_up and auction_stage, read in a rule and a hook (docs/cookbook/euchre-auction.power)
    path = Path(__file__).resolve().parents[2] / "docs" / "cookbook" / "euchre-auction.power"
    data = export(path)
    Draft202012Validator(schema()).validate(data)
    assert "turned_up" in str(data["variants"]["fixed"]) and "auction_stage" in str(data["variants"]["fixed"])
