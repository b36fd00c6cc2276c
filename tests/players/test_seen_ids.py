"""The seat view's derived ids (kernel/observation.py: "seen", "trick", "in_play") say what the observation says.

The `greedy` bot (players/lean_play.py) reads the cards its seat sees in one pass (`card_ids(view, "seen")`), the
trick by ids and the Factions in play as one key. Each must be exactly what the whole observation
(`Game.observe(seat)`) tells — determinize.known_cards and expeditions_seen read off its keys — at every
decision, for every seat, on every box (a dummy hand laid face up in Bridge, a hand's Transfer in Hearts,
promos and random powers in a Happy DayZ campaign).
"""

from __future__ import annotations

import random

import pytest

from happydayz.kernel.determinize import expeditions_seen, known_cards
from happydayz.kernel.game import Game
from happydayz.players.agents import Observation, card_ids, seat_view

from test_bots import setup_for

BOXES = [("american-dream/1", 4, True), ("woodstock-fever/1", 5, True), ("woodstock-fever/1", 4, False),
         ("bridge/1", 4, False), ("euchre/1", 4, False), ("hearts/1", 4, False), ("oh-hell/3", 3, False),
         ("spades/1", 4, False)]


@pytest.mark.parametrize("scenario,players,campaign", BOXES)
def test_the_derived_ids_are_the_observation_s(scenario, players, campaign):
    setup = setup_for(scenario, players, express=not campaign, promos=campaign, random_powers=campaign)
    rng = random.Random(3)
    checked = 0
    for seed in range(2):
        game = Game(setup, seed)
        steps = 0
        while game.decision is not None and steps < 400:
            if steps % 2 == 0:
                for seat in range(game.n):
                    whole = game.observe(seat)
                    view = Observation(lambda: game.observe(seat), seat_view(game, seat))
                    seen, mine, up = card_ids(view, "seen")
                    exp = expeditions_seen(whole)
                    assert seen == known_cards(whole, exp)
                    assert mine == exp[seat]
                    assert up == set(card_ids(whole, "expedition_face_up")[seat])
                    trick = whole["trick"]
                    assert card_ids(view, "trick") == (None if trick is None else (
                        trick["leader"], trick["side"], trick["led"], [(p["seat"], p["id"]) for p in trick["plays"]]))
                    assert card_ids(view, "in_play") == (tuple(whole["always"]), tuple(
                        (f["faction"], f["variant"]) for f in whole["factions"]), tuple(whole["added"]))
                    checked += 1
            game.apply(rng.randrange(len(game.decision.options)))
            steps += 1
    assert checked > 50


def test_seen_tells_apart_what_the_seat_cannot_see():
    """The negative control: another seat's hand is never in what this seat sees (a card it sees is)."""
    setup = setup_for("woodstock-fever/1", 4)
    game = Game(setup, 1)
    seen, _, _ = card_ids(Observation(lambda: game.observe(0), seat_view(game, 0)), "seen")
    other = set(game.zones[game.hand_keys[1]])
    assert other and not other & seen
    assert set(game.zones[game.hand_keys[0]]) <= seen
