"""play_game's observation, read key by key (agents.seat_view), is Game.observe's, key for key.

A bot handed play_game's lazy Observation may read single keys (made alone) or
card lists by their ids (agents.card_ids) without the whole view being made:
every such read must give exactly what `Game.observe(seat)` gives, at every
decision, for every seat, in campaign games with promos and random powers.
"""

from __future__ import annotations

import random

import pytest

from happydayz.kernel.game import Game
from happydayz.players.agents import Observation, card_ids, seat_view

from test_bots import setup_for

ID_KEYS = ("hand", "transfer", "expedition_face_up", "expedition_known", "encounter")


def _ids_of(observation: dict, key: str):
    value = observation[key]
    if key == "encounter":
        return value["id"] if value else None
    if key == "hand":
        return [c["id"] for c in value]
    return [[c["id"] for c in cards] for cards in value]


@pytest.mark.parametrize("scenario,players,campaign", [("american-dream/1", 4, True), ("woodstock-fever/1", 3, True),
                                                       ("woodstock-fever/1", 5, False)])
def test_every_key_is_observe_s(scenario, players, campaign):
    setup = setup_for(scenario, players, express=not campaign, promos=campaign, random_powers=campaign)
    rng = random.Random(7)
    for seed in range(2):
        game = Game(setup, seed)
        steps = 0
        while game.decision is not None:
            if steps % 3 == 0:
                for seat in range(game.n):
                    whole = game.observe(seat)
                    view = Observation(lambda: game.observe(seat), seat_view(game, seat))
                    for key in ID_KEYS:  # ids first: they make no label dicts
                        assert card_ids(view, key) == _ids_of(whole, key), key
                        assert card_ids(whole, key) == _ids_of(whole, key), key
                    for key in whole:
                        assert view[key] == whole[key], key
                        assert view[key] == whole[key], key  # (kept)
                    assert view._data is None  # every key was made alone
                    assert dict(view) == whole
            game.apply(rng.randrange(len(game.decision.options)))
            steps += 1
