"""Box and scenario files: the bundled data, the loaders and their error messages."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from happydayz.data import boxes as boxes_mod
from happydayz.data.boxes import (
    check_data_file, load_box, load_library, load_scenario_file, promo_card, resolve_scenario,
)
from happydayz.base.errors import DataProblem
from happydayz.data.model import CardSpec
from happydayz.base.resources import data_dir
from happydayz.base.safeyaml import MAX_BYTES, format_path, load_yaml, load_yaml_text

BOXES = data_dir("boxes")
WF = BOXES / "woodstock_fever.yaml"
AD = BOXES / "american_dream.yaml"


@pytest.fixture(scope="module")
def library():
    return load_library()


def problem_of(excinfo) -> list[str]:
    return [f"{d.span}: {d.message}" for d in excinfo.value.diagnostics]


# --- resources -------------------------------------------------------------

def test_data_dirs_exist():
    for name in ("grammar", "powers", "boxes"):
        assert data_dir(name).is_dir()
    assert (data_dir("boxes") / "schema" / "box.schema.json").is_file()
    with pytest.raises(ValueError):
        data_dir("nothing")


# --- the bundled boxes -------------------------------------------------------

HAPPY_DAYZ_BOXES = ("woodstock-fever", "american-dream")  # the classic games' boxes (hearts) are checked apart
WF_FACTIONS = ["Hippies", "Soldiers", "Dogs", "Preachers", "Scientists", "Children"]
AD_FACTIONS = ["Survivalists", "Cheerleaders", "Bikers", "Police Officers", "Nurses", "Governors"]


def test_both_boxes_load(library):
    assert set(library.boxes) == {"woodstock-fever", "american-dream", "hearts", "oh-hell", "spades", "euchre", "bridge"}  # and the classics
    for box_id, own in (("woodstock-fever", WF_FACTIONS), ("american-dream", AD_FACTIONS)):
        box = library.boxes[box_id]
        assert box.starting_population == 66
        assert box.deal == {2: 16, 3: 14, 4: 12, 5: 10}
        assert box.campaign_rounds == 4
        assert box.transfer_cards == 2
        assert box.always == ("Mini-van", "Zombies")
        assert list(box.factions) == ["Mini-van", "Zombies", *own]
        assert [f.always for f in box.factions.values()] == [True, True] + [False] * 6
        for faction in box.factions.values():
            assert faction.box == box_id
            assert faction.power_file.is_absolute() and faction.power_file.is_file()
    assert library.boxes["woodstock-fever"].factions["Hippies"].power_file.name == "hippies.power"
    assert library.boxes["american-dream"].factions["Police Officers"].power_file.name == "police_officers.power"


def test_each_box_loads_on_its_own():
    assert load_box(WF).id == "woodstock-fever"
    assert load_box(AD).id == "american-dream"


@pytest.mark.parametrize("box_id", ["woodstock-fever", "american-dream"])
def test_faction_cards(library, box_id):
    box = library.boxes[box_id]
    for name, faction in box.factions.items():
        if faction.always:
            continue
        assert [c.value for c in faction.cards] == list(range(1, 14)), name
        assert all(c.survivors == 1 and c.faction == name and c.power is None for c in faction.cards)
        assert [c.label for c in faction.cards][8] == f"{name} 9"


@pytest.mark.parametrize("box_id", ["woodstock-fever", "american-dream"])
def test_zombie_and_van_cards(library, box_id):
    box = library.boxes[box_id]
    zombies = box.factions["Zombies"].cards
    assert [c.value for c in zombies] == list(range(1, 21))
    assert Counter(c.survivors for c in zombies) == {-3: 10, -6: 6, -9: 4}
    assert all(c.survivors == -3 for c in zombies if c.value <= 10)
    assert all(c.survivors == -6 for c in zombies if 11 <= c.value <= 16)
    assert all(c.survivors == -9 for c in zombies if c.value >= 17)
    assert zombies[14].label == "Zombies 15"
    vans = box.factions["Mini-van"].cards
    assert vans == (CardSpec("Mini-van", None, 0, None, "Mini-van"),) * 3
    deck = sum(len(f.cards) for f in box.factions.values() if f.always) + 3 * 13
    assert deck == 62


def _plain(choices):
    return [(c.faction, c.variant) for c in choices]


B, P, N = "basic", "positive", "negative"
EXPECTED_SCENARIOS = {
    "woodstock-fever": {
        1: ([("Hippies", B), ("Soldiers", B), ("Dogs", B)], ()),
        2: ([("Soldiers", P), ("Dogs", P), ("Children", B)], ()),
        3: ([("Dogs", B), ("Children", N), ("Preachers", B)], ()),
        4: ([("Children", B), ("Preachers", N), ("Scientists", B)], ()),
        5: ([("Preachers", B), ("Scientists", N), ("Hippies", P)], ()),
        6: ([("Scientists", B), ("Hippies", B), ("Soldiers", B)], ("Bunker",)),
        7: ([("Soldiers", N), ("Bikers", B), ("Governors", B)], ()),
        8: ([("Scientists", P), ("Survivalists", B), ("Nurses", B)], ()),
        9: ([("Children", P), ("Police Officers", B), ("Cheerleaders", B)], ()),
    },
    "american-dream": {
        1: ([("Survivalists", B), ("Bikers", B), ("Cheerleaders", B)], ()),
        2: ([("Bikers", N), ("Cheerleaders", P), ("Police Officers", B)], ()),
        3: ([("Cheerleaders", B), ("Police Officers", P), ("Nurses", B)], ()),
        4: ([("Police Officers", B), ("Nurses", N), ("Governors", B)], ()),
        5: ([("Nurses", B), ("Governors", N), ("Survivalists", P)], ()),
        6: ([("Governors", B), ("Survivalists", B), ("Bikers", B)], ("Horde",)),
        7: ([("Bikers", P), ("Soldiers", B), ("Children", B)], ()),
        8: ([("Survivalists", N), ("Preachers", B), ("Hippies", B)], ()),
        9: ([("Governors", P), ("Dogs", B), ("Scientists", B)], ()),
    },
}


@pytest.mark.parametrize("box_id", sorted(EXPECTED_SCENARIOS))
def test_campaign_scenarios(library, box_id):
    box = library.boxes[box_id]
    expected = EXPECTED_SCENARIOS[box_id]
    assert [s.id for s in box.scenarios] == [f"{box_id}/{n}" for n in range(1, 10)]
    for scenario in box.scenarios:
        n = int(scenario.id.split("/")[1])
        factions, added = expected[n]
        assert _plain(scenario.factions) == factions, scenario.id
        assert scenario.added == added, scenario.id
        assert scenario.box == box_id
        assert scenario.title
        assert scenario.source == box.source
        for choice in scenario.factions:  # every Faction resolves across the loaded boxes
            assert choice.faction in library.all_factions()
    assert len([s for s in library.scenarios() if s.box in HAPPY_DAYZ_BOXES]) == 18


def test_added_powers(library):
    wf, ad = library.boxes["woodstock-fever"], library.boxes["american-dream"]
    assert list(wf.added_powers) == ["Bunker"] and wf.added_powers["Bunker"].power_file.name == "bunker.power"
    assert list(ad.added_powers) == ["Horde"] and ad.added_powers["Horde"].power_file.name == "horde.power"
    assert set(library.all_added_powers()) == {"Bunker", "Horde", "OhHell", "SpadesTable", "EuchreTable", "Bridge"}


def test_promo_cards(library):
    wf, ad = library.boxes["woodstock-fever"], library.boxes["american-dream"]
    assert [p.faction for p in wf.promos] == ["Bikers", "Nurses", "Police Officers"]
    assert [p.faction for p in ad.promos] == ["Soldiers", "Scientists", "Children"]
    for promo in wf.promos + ad.promos:
        assert promo.name == f"Patient Zero - {promo.faction}"
        assert promo.replaces_value == 7 and promo.survivors == 1
        stem = "patient_zero_" + promo.faction.lower().replace(" ", "_")
        assert promo.power_file.is_absolute() and promo.power_file.name == f"{stem}.power"
        assert promo.power_file.is_file()
        assert promo.faction in library.all_factions()
    card = promo_card(wf.promos[0])
    assert card == CardSpec("Bikers", 7, 1, str(wf.promos[0].power_file), "Bikers 7 (Patient Zero)")
    assert promo_card(ad.promos[2]).label == "Children 7 (Patient Zero)"


def test_resolve_scenario_by_id(library):
    scenario, same = resolve_scenario("woodstock-fever/6", library)
    assert same is library
    assert scenario.added == ("Bunker",)
    with pytest.raises(DataProblem) as excinfo:
        resolve_scenario("woodstock-fevre/6", library)
    message = excinfo.value.diagnostics[0].message
    assert "unknown scenario 'woodstock-fevre/6' (did you mean 'woodstock-fever/6'?)" in message
    assert "american-dream/9" in message and "woodstock-fever/1" in message


def test_bundled_files_match_their_schemas():
    for kind in ("box", "scenario"):
        Draft202012Validator.check_schema(json.loads((BOXES / "schema" / f"{kind}.schema.json").read_text()))
    for path in (WF, AD):
        assert check_data_file(path) == []


# --- bad files: exact messages with positions ---------------------------------

def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_scenario_file_exact_errors(tmp_path, library):
    path = write(tmp_path, "bad.yaml", (
        "title: Broken\n"
        "box: woodstock-fever\n"
        "factions:\n"
        "  - Hipies\n"
        "  - {faction: Bikers, variant: postive}\n"
        "  - Dogs\n"
        "  - Dogs\n"
        "added: [Bunkr]\n"
    ))
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    # the schema phase reports the variant first (all schema errors together)
    assert problem_of(excinfo) == [
        f"{path}:5:32: factions[1].variant: 'postive' is not one of 'basic', 'positive', 'negative' "
        "(did you mean 'positive'?)",
    ]
    path.write_text(path.read_text().replace("postive", "positive"))
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    assert problem_of(excinfo) == [
        f"{path}:4:5: factions[0]: 'Hipies' is not a faction of any loaded box (did you mean 'Hippies'?)",
        f"{path}:7:5: factions[3]: 'Dogs' is listed twice (also at factions[2])",
        f"{path}:8:9: added[0]: 'Bunkr' is not an added power of any loaded box (did you mean 'Bunker'?)",
    ]
    rendered = excinfo.value.render()
    assert f"{path}:4:5: error[D021]:" in rendered
    assert "    ^^^^^^" in rendered


def test_bad_box_scenario_exact_error(tmp_path):
    text = WF.read_text(encoding="utf-8").replace(
        "factions: [Hippies, Soldiers, Dogs]", "factions: [Hippies, Soldiers, Hipies]")
    path = write(tmp_path, "box.yaml", text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "Hipies" in l)
    column = text.splitlines()[line - 1].index("Hipies") + 1
    with pytest.raises(DataProblem) as excinfo:
        load_box(path)
    assert problem_of(excinfo) == [
        f"{path}:{line}:{column}: scenarios[0].factions[2]: 'Hipies' is not a faction of this box "
        "(did you mean 'Hippies'?)"
    ]
    assert excinfo.value.diagnostics[0].code == "D021"


def test_a_card_listed_twice_is_refused_where_it_is_listed_again(tmp_path):
    text = WF.read_text(encoding="utf-8").replace(
        '    power: hippies.power\n    cards: [{values: "1-13", survivors: 1}]',
        '    power: hippies.power\n    cards:\n      - {values: [1, 2, 3, 2], survivors: 1}\n'
        '      - {values: "3-13", survivors: 1}\n      - {value: 7, survivors: 2}')
    path = write(tmp_path, "box.yaml", text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "[1, 2, 3, 2]" in l)
    with pytest.raises(DataProblem) as excinfo:
        load_box(path)
    assert problem_of(excinfo) == [
        f"{path}:{line}:28: factions[2].cards[0].values[3]: the card 'Hippies 2' is listed twice "
        "(also at factions[2].cards[0].values[1])",
        f"{path}:{line + 1}:18: factions[2].cards[1].values: the card 'Hippies 3' is listed twice "
        "(also at factions[2].cards[0].values[2])",
        f"{path}:{line + 2}:17: factions[2].cards[2].value: the card 'Hippies 7' is listed twice "
        "(also at factions[2].cards[1].values)",
    ]
    assert {d.code for d in excinfo.value.diagnostics} == {"D027"}
    assert excinfo.value.diagnostics[0].hint == "several cards of one value are given once, with 'value' and 'count'"
    rendered = excinfo.value.render()
    assert "      - {value: 7, survivors: 2}\n                    ^\n" in rendered  # the caret under the card
    # a range that overlaps another names every card listed twice, once; copies made with 'count' are no mistake
    text = text.replace('[1, 2, 3, 2]', '"1-5"').replace('{value: 7, survivors: 2}', '{value: 14, count: 2, survivors: 2}')
    path = write(tmp_path, "box.yaml", text)
    with pytest.raises(DataProblem) as excinfo:
        load_box(path)
    assert problem_of(excinfo) == [
        f"{path}:{line + 1}:18: factions[2].cards[1].values: the cards 'Hippies 3', 'Hippies 4' and 'Hippies 5' "
        "are listed twice (also at factions[2].cards[0].values)",
    ]


def test_box_faction_of_other_box_needs_mixed(tmp_path):
    text = WF.read_text(encoding="utf-8")
    text = text.replace("factions: [Hippies, Soldiers, Dogs]", "factions: [Hippies, Soldiers, Bikers]")
    path = write(tmp_path, "box.yaml", text)
    with pytest.raises(DataProblem) as excinfo:
        load_box(path)
    [diagnostic] = excinfo.value.diagnostics
    assert diagnostic.message == "scenarios[0].factions[2]: 'Bikers' is not a faction of this box"
    assert "mixed: true" in diagnostic.hint


def test_unknown_key_did_you_mean(tmp_path, library):
    path = write(tmp_path, "typo.yaml", "box: woodstock-fever\nfactoins: [Hippies]\n")
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    assert problem_of(excinfo) == [
        f"{path}:1:1: missing required key 'factions'",
        f"{path}:2:1: 'factoins' is not a known key (did you mean 'factions'?)",
    ]
    assert [d.code for d in excinfo.value.diagnostics] == ["D011", "D010"]


def test_unknown_key_in_box_nested(tmp_path):
    text = WF.read_text(encoding="utf-8").replace("    power: bunker.power", "    powr: bunker.power")
    path = write(tmp_path, "box.yaml", text)
    diagnostics = check_data_file(path)
    messages = [d.message for d in diagnostics]
    assert "added_powers[0]: 'powr' is not a known key (did you mean 'power'?)" in messages
    assert "added_powers[0]: missing required key 'power'" in messages


def test_box_semantic_errors_are_all_collected(tmp_path):
    text = WF.read_text(encoding="utf-8")
    text = text.replace("deal: {2: 16, 3: 14, 4: 12, 5: 10}", "deal: {2: 16, 3: 14, 5: 10, 8: 9}")
    text = text.replace("power: dogs.power", "power: no_such_file.power")
    text = text.replace("faction: Bikers\n    replaces: 7", "faction: Bikers\n    replaces: 17")
    text = text.replace("      - Governors", "      - Governers")
    path = write(tmp_path, "box.yaml", text)
    diagnostics = check_data_file(path)
    codes = [d.code for d in diagnostics]
    messages = [d.message for d in diagnostics]
    assert "deal: no entry for 4 players" in messages
    assert "deal: 8 players is not a possible game (2 to 7 players)" in messages
    assert any(m.startswith("factions[4].power: power file 'no_such_file.power'") for m in messages)
    assert "promos[0].replaces: 'Bikers' has no card of value 17" in messages
    assert ("scenarios[6].factions[2]: 'Governers' is not a faction of any loaded box "
            "(did you mean 'Governors'?)") in messages
    assert sorted(codes) == ["D021", "D025", "D026", "D026", "D028"]


def test_yaml_syntax_error_position(tmp_path):
    path = write(tmp_path, "syntax.yaml", "box: woodstock-fever\nfactions: [Hippies\n")
    [diagnostic] = check_data_file(path)
    assert diagnostic.code == "D003"
    assert (diagnostic.span.file, diagnostic.span.line, diagnostic.span.column) == (str(path), 2, 11)  # the '['
    assert diagnostic.message == "YAML syntax error: this '[' is never closed: a ']' is missing"
    assert diagnostic.hint == "end the list with ']' after its last item, before the file ends"


INDENTED = ("line it up with the other lines of its level (the other keys of the same mapping, or the other '- ' "
            "items of the same list), using spaces")


@pytest.mark.parametrize("text, where, message, hint, caret", [
    # a key indented more than the keys around it
    ("title: Mine\n  box: woodstock-fever\n", "2:3", "line 2 is indented differently from the lines around it",
     INDENTED, "      ^^^"),
    # a key indented less than the one above it, but more than its parent
    ("title: Mine\ncustom_factions:\n  - name: Goblins\n     power: goblins.power\n", "4:6",
     "line 4 is indented differently from the lines around it", INDENTED, "         ^^^^^"),
    ("factions:\n  - Hippies\n - Dogs\n", "3:2", "line 3 is indented differently from the lines around it",
     INDENTED, "     ^"),
    ("box: woodstock-fever\n\tfactions: [Hippies]\n", "2:1", "this line is indented with a tab: YAML forbids tabs",
     "indent with spaces only (set your editor to insert spaces for the Tab key)", "    ^"),
    ("title: Big\tBang\n", "1:11", "a tab character is not allowed here: YAML forbids tabs outside quotes",
     "use spaces instead of the tab, or put the value in quotes", "              ^"),
    ('title: "Mine\nbox: woodstock-fever\n', "1:8", 'this quoted text is never closed: its closing " is missing',
     'end the text with " on the same line (write \\" for a " inside it)', "           ^^^^^"),
    ("title: 'Mine\nbox: woodstock-fever\n", "1:8", "this quoted text is never closed: its closing ' is missing",
     "end the text with ' on the same line (write '' for a ' inside it)", "           ^^^^^"),
    ("title: 'Bob's game'\n", "1:13", "text goes on after a closing quote",
     "write '' for a ' inside single quotes (it''s), or put the whole text in double quotes", "                ^"),
    ("factions: [Hippies, Dogs\nplayers: 3\n", "1:11", "this '[' is never closed: a ']' is missing",
     "end the list with ']' after its last item, before line 2 starts", "              ^"),
    ("deal: {2: 16, 3: 14\n", "1:7", "this '{' is never closed: a '}' is missing",
     "end the mapping with '}' after its last item, before the file ends", "          ^"),
    ("factions: [Hippies Dogs, \"Soldiers\" Bikers]\n", "1:37", "a ',' is missing between two items of this list",
     "separate the items of a '[...]' list with ','", "                                        ^"),
    ("factions: [Hippies, Dogs]]\n", "1:26", "this ']' closes nothing", "remove it, or add the '[' that opens it",
     "                             ^"),
    ("title: Dawn: the return\n", "1:12", "a ': ' inside a value starts a new key, and a key cannot start there",
     'put the value in quotes: title: "Dawn: the return"', "               ^"),
    ("title: Mine\nbox woodstock-fever\n", "2:1", "this line has no ':': a line of a mapping is 'key: value'",
     "write: box: woodstock-fever", "    ^^^^^^^^^^^^^^^^^^^"),
], ids=["key-indented-more", "key-indented-less", "item-indented-less", "tab-indent", "tab-in-value",
        "unclosed-double-quote", "unclosed-single-quote", "quote-in-single-quotes", "unclosed-bracket",
        "unclosed-brace", "missing-comma", "stray-bracket", "colon-in-value", "missing-colon"])
def test_yaml_syntax_errors_are_explained_with_the_fix(text, where, message, hint, caret):
    with pytest.raises(DataProblem) as excinfo:
        load_yaml_text(text, "mine.yaml")
    [diagnostic] = excinfo.value.diagnostics
    assert (str(diagnostic.span), diagnostic.code) == (f"mine.yaml:{where}", "D003")
    assert (diagnostic.message, diagnostic.hint) == (f"YAML syntax error: {message}", hint)
    assert diagnostic.render(text).splitlines()[2] == caret


def test_alias_bomb_refused(tmp_path):
    bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        bomb.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    path = write(tmp_path, "bomb.yaml", "\n".join(bomb) + "\n")
    with pytest.raises(DataProblem) as excinfo:
        load_yaml(path)
    [diagnostic] = excinfo.value.diagnostics
    assert diagnostic.code == "D004"
    assert (diagnostic.span.line, diagnostic.span.column) == (1, 4)
    assert "anchors (&a) are not allowed" in diagnostic.message
    assert check_data_file(path)[0].code == "D004"
    with pytest.raises(DataProblem, match="aliases"):
        load_yaml_text("a: *x\n")


def test_large_file_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("title: " + "x" * MAX_BYTES + "\n")
    with pytest.raises(DataProblem) as excinfo:
        load_yaml(path)
    assert excinfo.value.diagnostics[0].code == "D002"
    assert "larger than" in excinfo.value.diagnostics[0].message
    [diagnostic] = check_data_file(path)
    assert diagnostic.code == "D002"


def test_unsafe_tag_refused():
    with pytest.raises(DataProblem) as excinfo:
        load_yaml_text("a: !!python/object/apply:os.system [echo hi]\n", "t.yaml")
    assert excinfo.value.diagnostics[0].code == "D005"
    assert "!!python/object/apply:os.system" in excinfo.value.diagnostics[0].message


def test_duplicate_key_refused():
    with pytest.raises(DataProblem) as excinfo:
        load_yaml_text("box: a\nbox: b\n", "d.yaml")
    [diagnostic] = excinfo.value.diagnostics
    assert (diagnostic.code, str(diagnostic.span)) == ("D006", "d.yaml:2:1")


def test_positions_and_paths():
    doc = load_yaml_text("a:\n  - x\n  - {y: 1, z: [2, 3]}\n", "p.yaml")
    assert doc.data == {"a": ["x", {"y": 1, "z": [2, 3]}]}
    assert str(doc.span(("a", 1, "z", 1))) == "p.yaml:3:19"
    assert str(doc.span(("a", 1, "z"), key=True)) == "p.yaml:3:12"
    assert str(doc.span(("a", 1, "missing"))) == "p.yaml:3:5"
    assert format_path(("scenarios", 3, "factions", 1)) == "scenarios[3].factions[1]"


def test_numeric_keys_become_text():
    assert load_yaml_text("deal: {2: 16}\n").data == {"deal": {"2": 16}}


def test_empty_file(tmp_path):
    path = write(tmp_path, "empty.yaml", "# nothing\n")
    [diagnostic] = check_data_file(path)
    assert diagnostic.code == "D012"
    assert "empty" in diagnostic.message


def test_missing_file():
    [diagnostic] = check_data_file("/nonexistent/scenario.yaml")
    assert diagnostic.code == "D001"


# --- user scenarios -------------------------------------------------------

def test_custom_scenario_with_custom_faction(tmp_path, library):
    write(tmp_path, "moonshiners.power", "# a power file\n")
    path = write(tmp_path, "mine.yaml", (
        "title: My game\n"
        "box: woodstock-fever\n"
        "factions:\n"
        "  - Hippies\n"
        "  - {faction: Bikers, variant: positive}\n"
        "  - {faction: Moonshiners, variant: negative}\n"
        "added: [Bunker]\n"
        "players: 4\n"
        "patient_zero: true\n"
        "custom_factions:\n"
        "  - name: Moonshiners\n"
        "    power: moonshiners.power\n"
        "  - name: Smugglers\n"
        "    power: moonshiners.power\n"
        "    cards: [{values: \"2-4\", survivors: 2}, {value: 9, count: 2, survivors: -1}]\n"
    ))
    scenario, extended = load_scenario_file(path, library)
    assert scenario.id == str(path)
    assert scenario.title == "My game"
    assert scenario.box == "woodstock-fever"
    assert _plain(scenario.factions) == [("Hippies", B), ("Bikers", P), ("Moonshiners", N)]
    assert scenario.added == ("Bunker",)
    assert scenario.players == 4
    assert scenario.promos is True
    assert scenario.source == path.resolve()

    moon = extended.extra_factions["Moonshiners"]
    assert moon.power_file == (tmp_path / "moonshiners.power").resolve()
    assert [c.value for c in moon.cards] == list(range(1, 14))
    assert all(c.survivors == 1 for c in moon.cards)
    assert moon.cards[4].label == "Moonshiners 5"
    smug = extended.extra_factions["Smugglers"]
    assert [(c.value, c.survivors) for c in smug.cards] == [(2, 2), (3, 2), (4, 2), (9, -1), (9, -1)]
    assert "Moonshiners" in extended.all_factions() and "Moonshiners" not in library.all_factions()
    assert extended.boxes is library.boxes

    again, _ = resolve_scenario(str(path), library)
    assert again == scenario
    assert check_data_file(path) == []


def test_custom_faction_errors(tmp_path, library):
    path = write(tmp_path, "mine.yaml", (
        "box: american-dream\n"
        "factions: [Hippies, Dogs, Mini-van]\n"
        "players: 5\n"
        "custom_factions:\n"
        "  - name: Dogs\n"
        "    power: dogs.power\n"
        "  - name: Moles\n"
        "    power: moles.power\n"
        "    cards: [{values: \"9-3\", survivors: 1}]\n"
    ))
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    messages = problem_of(excinfo)
    assert messages[0] == f"{path}:2:27: factions[2]: 'Mini-van' is always in play; list only the other factions"
    assert messages[1] == (f"{path}:5:11: custom_factions[0].name: 'Dogs' is already a faction of box "
                           "'woodstock-fever'; choose another name")
    assert messages[2].startswith(f"{path}:8:12: custom_factions[1].power: power file 'moles.power'")
    assert messages[3] == f"{path}:9:22: custom_factions[1].cards[0]: the range '9-3' goes downwards; write it as \"3-9\""
    assert len(messages) == 4


def test_unknown_box_in_scenario(tmp_path, library):
    path = write(tmp_path, "s.yaml", "box: american-drem\nfactions: [Bikers]\n")
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    assert problem_of(excinfo) == [
        f"{path}:1:6: box: 'american-drem' is not a loaded box (did you mean 'american-dream'?)"]


def test_too_many_factions_and_bad_players(tmp_path, library):
    path = write(tmp_path, "s.yaml", "box: american-dream\nfactions: [A, B, C, D, E, F, G]\nplayers: 8\n")
    with pytest.raises(DataProblem) as excinfo:
        load_scenario_file(path, library)
    assert problem_of(excinfo) == [
        f"{path}:2:11: factions: allows at most 6 item(s), got 7",
        f"{path}:3:10: players: 8 is more than the maximum, 7",
    ]


def test_extra_box_in_library(tmp_path):
    (tmp_path / "powers").mkdir()
    write(tmp_path / "powers", "a.power", "# a\n")
    write(tmp_path, "tiny.yaml", (
        "id: tiny\ntitle: Tiny\nstarting_population: 10\n"
        "deal: {2: 3, 3: 3, 4: 2, 5: 2}\ncampaign_rounds: 1\ntransfer_cards: 0\n"
        "powers_dir: powers\n"
        "always: []\n"
        "factions:\n  - {name: Faction A, power: a.power, cards: [{values: [1], survivors: 2},\n"
        "                                              {value: 5, count: 2, survivors: 2}]}\n"
        "scenarios:\n"
        "  - {id: 1, title: Plain, factions: [Faction A]}\n"
        "  - {id: 2, title: Mixed, mixed: true, factions: [Faction A, Hippies], added: [Horde]}\n"
    ))
    lib = load_library([tmp_path])
    assert set(lib.boxes) == {"woodstock-fever", "american-dream", "hearts", "oh-hell", "spades", "euchre", "bridge", "tiny"}
    tiny = lib.boxes["tiny"]
    assert [c.label for c in tiny.factions["Faction A"].cards] == ["Faction A 1", "Faction A 5", "Faction A 5"]
    assert [s.id for s in tiny.scenarios] == ["tiny/1", "tiny/2"]
    scenario, _ = resolve_scenario("tiny/2", lib)
    assert scenario.added == ("Horde",)
    # the same id twice is refused
    write(tmp_path, "tiny2.yaml", (tmp_path / "tiny.yaml").read_text())
    with pytest.raises(DataProblem) as excinfo:
        load_library([tmp_path])
    assert any("the box id 'tiny' is already used" in m for m in problem_of(excinfo))


def test_detects_file_kind(tmp_path):
    assert boxes_mod.detect_kind({"box": "x", "factions": []}) == "scenario"
    assert boxes_mod.detect_kind({"id": "x", "deal": {}}) == "box"
    assert boxes_mod.detect_kind(yaml.safe_load(WF.read_text())) == "box"


# --- card names: how the table shows a box's cards ------------------------------

CARD_NAMES_BOX = """id: named
title: Named
starting_population: 20
deal: {2: 4, 3: 4, 4: 4, 5: 2}
campaign_rounds: 1
always: []
card_names:
  format: "{value} of {faction}{icon}"
  values: {12: Q}
factions:
  - {name: Alpha, power: hippies.power, icon: "*", cards: [{values: "11-12", survivors: 1}]}
  - {name: Beta, power: soldiers.power, cards: [{value: 5, survivors: 1}, {value: null, survivors: 0}]}
"""


def test_card_names_give_each_card_its_name_at_the_table_and_keep_its_label(tmp_path):
    box = load_box(write(tmp_path, "named.yaml", CARD_NAMES_BOX))
    cards = [c for f in box.factions.values() for c in f.cards]
    assert [(c.label, c.shown) for c in cards] == [
        ("Alpha 11", "11 of Alpha*"), ("Alpha 12", "Q of Alpha*"), ("Beta 5", "5 of Beta"), ("Beta", "")]


def test_a_card_names_format_with_an_unknown_field_is_refused_at_its_place(tmp_path):
    path = write(tmp_path, "named.yaml", CARD_NAMES_BOX.replace("{value} of {faction}{icon}", "{rank}{icon}"))
    with pytest.raises(DataProblem) as caught:
        load_box(path)
    diagnostic = caught.value.diagnostics[0]
    assert (diagnostic.code, diagnostic.span.line, diagnostic.span.column) == ("D013", 8, 11)
    assert diagnostic.message.startswith("card_names.format: '{rank}{icon}' does not have the expected form")
