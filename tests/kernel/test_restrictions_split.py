"""Game._restrict decides a rule's condition in two parts (VariantProgram.card_split): the conjuncts that do not
read the card once a decision, then those that do card by card. It must allow exactly the cards the whole
condition, read card by card, allows: checked at every lead and follow of random games of every box whose
rules restrict what may be played."""

from __future__ import annotations

import random

import pytest

from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SCENARIOS = ["hearts/1", "spades/1"]  # the bundled powers with `rule leads only when` or `rule must be played`


def _setup(scenario: str):
    env = Environment()
    sc, lib = env.resolve_scenario(scenario)
    return build_setup(sc, lib, GameOptions(players=sc.players or 4, express=True), env)


def _whole(restrictions: dict) -> dict:
    """The same rules, every condition read whole for each card (no part decided once)."""
    return {rule: {f: (c, None, c) for f, (c, _, _) in by_faction.items()} for rule, by_faction in restrictions.items()}


def _allowed(game: Game, seat: int, restrictions: dict) -> list[int]:
    in_force = game._in_force
    kept = in_force.restrictions
    in_force.restrictions = restrictions
    try:
        held = game.zones[game.hand_keys[seat]] + game.zones[game.transfer_keys[seat]]
        return game._restrict(seat, held, game.trick.led)
    finally:
        in_force.restrictions = kept


def _compare(scenario: str, games: int, restrictions_of=lambda r: r) -> int:
    setup = _setup(scenario)
    checked = 0
    for seed in range(games):
        game, rng = Game(setup, seed), random.Random(seed)
        while game.decision is not None:
            d = game.decision
            if d.kind in ("lead", "follow") and game._in_force.restricted:
                split = game._in_force.restrictions
                assert _allowed(game, d.decider, split) == _allowed(game, d.decider, restrictions_of(_whole(split))), \
                    (scenario, seed, len(game.history), d.kind)
                checked += 1
            game.apply(rng.randrange(len(d.options)))
    return checked


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_split_condition_allows_what_the_whole_one_does(scenario):
    assert _compare(scenario, 12) > 100


def test_a_condition_whose_card_part_is_dropped_is_caught():
    """Negative control: read without the conjuncts that read the card, Hearts' first trick differs."""
    def broken(whole):  # what a split that lost the part reading the card would give
        return {rule: {f: (c, None, None) if rule == "must_be_played" else (c, u, r) for f, (c, u, r) in by.items()}
                for rule, by in whole.items()}

    with pytest.raises(AssertionError):
        _compare("hearts/1", 12, broken)


def test_the_parts_of_a_condition_are_those_that_read_the_card_and_the_others():
    setup = _setup("hearts/1")
    spades = setup.rules("Spades", "basic")
    unread, read = spades.card_split["must_be_played"]
    assert unread is not None and read is not None  # `value of played != 12` reads it; the rest does not
    clubs = setup.rules("Clubs", "basic")
    assert clubs.card_split["must_be_played"][1] is None  # nothing in it reads the card
