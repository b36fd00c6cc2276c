"""Every schema's seat counts follow the one constant MAX_PLAYERS (data/schemas.py fills them in).

A schema file writes "x-seats" where a number of players, one item per seat or a mapping keyed by seat
stands, never the number itself, so raising MAX_PLAYERS is a one-line change.
"""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from happydayz.base.resources import data_dir
from happydayz.base.safeyaml import load_yaml
from happydayz.data.boxes import MAX_PLAYERS, _schema_problems
from happydayz.data.schemas import fill_seats, load_schema
from happydayz.kernel.scripted import load_script

KINDS = ("box", "scenario", "scripted-game", "sweep")


def _raw(kind: str) -> dict:
    return json.loads((data_dir("boxes") / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _nodes(node, path=()):
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _nodes(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _nodes(value, path + (i,))


@pytest.mark.parametrize("kind", KINDS)
def test_no_schema_writes_a_seat_count_itself(kind):
    for path, node in _nodes(_raw(kind)):
        players = [key for key in ("players", "hands", "transfers", "expeditions") if key in path[-1:]]
        if players or "x-seats" in node:
            assert "x-seats" in node or "$ref" in node, f"{kind} {path}: no x-seats"
            assert not {"maximum", "propertyNames"} & set(node), f"{kind} {path}: a seat count written out"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("most", [MAX_PLAYERS, 7, 12])
def test_the_schemas_follow_the_constant(kind, most):
    schema = fill_seats(_raw(kind), most)
    Draft202012Validator.check_schema(schema)
    filled = [node for _, node in _nodes(schema) if "x-seats" in node]
    assert filled, f"{kind} has no seat count"
    for node in filled:
        if node["x-seats"] == "count":
            assert node["maximum"] == most
        elif node["x-seats"] == "per-seat":
            assert node["maxItems"] == most
        elif node["x-seats"] == "last-seat":
            assert node["maximum"] == most - 1
        else:
            pattern = Draft202012Validator({"propertyNames": node["propertyNames"]})
            assert pattern.is_valid({str(seat): 1 for seat in range(most)})
            assert not pattern.is_valid({str(most): 1}) and not pattern.is_valid({"01": 1})


def test_the_loaded_scripted_schema_seats_max_players():
    schema = load_schema("scripted-game", MAX_PLAYERS)
    assert schema["properties"]["players"]["maximum"] == MAX_PLAYERS


def test_a_seat_past_the_last_is_refused_in_words(tmp_path):
    script = tmp_path / "seats.yaml"
    script.write_text(f"factions: [Hippies]\nplayers: {MAX_PLAYERS}\nposition:\n  hands: {{{MAX_PLAYERS}: []}}\n",
                      encoding="utf-8")
    with pytest.raises(Exception) as info:
        load_script(script)
    [problem] = info.value.diagnostics
    assert problem.code == "D013" and (problem.span.line, problem.span.column) == (4, 11)
    assert problem.message == (f"position.hands: '{MAX_PLAYERS}' is not allowed as a key here "
                               f"(expected a seat number from 0 to {MAX_PLAYERS - 1})")


def test_every_seat_is_a_key_of_a_scripted_game(tmp_path):
    hands = ", ".join(f"{seat}: []" for seat in range(MAX_PLAYERS))
    script = tmp_path / "seats.yaml"
    script.write_text(f"factions: [Hippies]\nplayers: {MAX_PLAYERS}\nposition:\n  hands: {{{hands}}}\n", encoding="utf-8")
    assert _schema_problems(load_yaml(script), "scripted-game",
                            Draft202012Validator(load_schema("scripted-game", MAX_PLAYERS))) == []
