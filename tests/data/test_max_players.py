"""Up to 7 Communities: MAX_PLAYERS is the one limit that the schemas, the command line and the kernel read."""

from __future__ import annotations

import argparse
import random
import re

import pytest

from happydayz.cli.common import player_count
from happydayz.data.boxes import MAX_PLAYERS
from happydayz.data.schemas import load_schema
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare

from conftest import ENV



def _schema(name: str) -> dict:
    """A schema as the program reads it: its seat counts filled in from MAX_PLAYERS (data.schemas)."""
    return load_schema(name.removesuffix(".schema.json"), MAX_PLAYERS)


def test_the_limit_is_seven():
    assert MAX_PLAYERS == 7


def test_every_schema_allows_as_many_players_as_the_limit():
    box, scenario, game, sweep = (_schema(f"{n}.schema.json") for n in ("box", "scenario", "scripted-game", "sweep"))
    assert [box["$defs"]["scenario"]["properties"]["players"]["maximum"], scenario["properties"]["players"]["maximum"],
            game["properties"]["players"]["maximum"], sweep["properties"]["players"]["maximum"],
            sweep["properties"]["players"]["items"]["maximum"]] == [MAX_PLAYERS] * 5
    hand = scenario["$defs"]["hand"]["properties"]
    seat = next(rule for rule in hand["first_leader"]["oneOf"][0]["oneOf"] if "seat" in rule.get("properties", {}))
    assert [hand["first_dealer"]["maximum"], seat["properties"]["seat"]["maximum"]] == [MAX_PLAYERS - 1] * 2


def test_a_scripted_games_seats_go_up_to_the_last_seat():
    pattern = re.compile(_schema("scripted-game.schema.json")["$defs"]["bySeat"]["propertyNames"]["pattern"])
    assert [bool(pattern.match(str(seat))) for seat in range(MAX_PLAYERS + 1)] == [True] * MAX_PLAYERS + [False]


def test_the_command_line_takes_the_limit_and_no_more():
    assert player_count(str(MAX_PLAYERS)) == MAX_PLAYERS
    with pytest.raises(argparse.ArgumentTypeError, match="2 to 7 players play, not 8"):
        player_count("8")


def test_seven_communities_play_a_whole_campaign(tmp_path):
    path = tmp_path / "seven.yaml"
    path.write_text("box: woodstock-fever\nfactions: [Hippies, Soldiers, Dogs]\nplayers: 7\n"
                    "hand: {hand_size: 7}\n", encoding="utf-8")
    game = Game(prepare(ENV, path)[0], 3)
    chooser = random.Random(3)
    game.play(lambda d: chooser.randrange(len(d.options)))
    assert game.over and game.n == 7 and len(game.history[0]["deltas"]) == 7
    assert [len(hand) for hand in next(e for e in game.log if e["event"] == "deal")["hands"]] == [7] * 7
