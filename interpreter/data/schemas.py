"""The JSON Schemas of boxes/schema/, read with their seat counts filled in.

How many Communities a game seats is one constant (MAX_PLAYERS in data/boxes.py), so the schema files do
not write it: a place that depends on it says so with "x-seats", and reading the schema fills it in:

    "x-seats": "count"      a number of players: its "maximum" is the most seats
    "x-seats": "last-seat"  a seat number (or a count of the others): its "maximum" is the most seats - 1
    "x-seats": "per-seat"   one item per seat: "maxItems" is the most seats
    "x-seats": "seat-keys"  a mapping keyed by seat number: its keys are 0 to the most seats - 1

Raising MAX_PLAYERS is then a one-line change (tests/data/test_schemas.py checks every schema follows it).
"""

from __future__ import annotations

import json
from typing import Any

from happydayz.base.resources import data_dir


def seat_keys(max_players: int) -> dict:
    """The propertyNames of a mapping keyed by seat: 0 to max_players - 1."""
    seats = "|".join(str(seat) for seat in range(max_players))
    return {"pattern": f"^(?:{seats})$", "description": f"a seat number from 0 to {max_players - 1}"}


def fill_seats(node: Any, max_players: int) -> Any:
    """The schema `node` with every "x-seats" place set for `max_players` seats (changed in place, returned)."""
    if isinstance(node, dict):
        kind = node.get("x-seats")
        if kind == "count":
            node["maximum"] = max_players
        elif kind == "last-seat":
            node["maximum"] = max_players - 1
        elif kind == "per-seat":
            node["maxItems"] = max_players
        elif kind == "seat-keys":
            node["propertyNames"] = seat_keys(max_players)
        elif kind is not None:
            raise ValueError(f"unknown x-seats {kind!r}")
        for value in node.values():
            fill_seats(value, max_players)
    elif isinstance(node, list):
        for value in node:
            fill_seats(value, max_players)
    return node


def load_schema(kind: str, max_players: int) -> dict:
    """boxes/schema/<kind>.schema.json, its seat counts set for `max_players`."""
    text = (data_dir("boxes") / "schema" / f"{kind}.schema.json").read_text(encoding="utf-8")
    return fill_seats(json.loads(text), max_players)
