"""players/contract.py: the worth of a trick where the score counts tricks (a bid), read from the end-of-round
hooks, and the `greedy` bot's bids and plays by it. The strength it buys is measured by bench/strength_table.py
(docs/bots.md, "The strength table"), not here."""

from __future__ import annotations

import pytest

from happydayz.kernel.game import Game
from happydayz.players import contract
from happydayz.players.agents import Observation, seat_view
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent, power_model

from test_bots import setup_for


def _until(game: Game, stop) -> None:
    """Answer the first option of every decision until `stop(game)`."""
    while game.decision is not None and not stop(game):
        game.apply(0)


def _bid(game: Game, seat: int) -> int:
    return next(s["value"] for s in game.observe(seat)["state"] if s["name"] == "bid" and s["seat"] == seat)


def test_oh_hell_s_curve_is_its_score_and_a_trick_is_worth_taking_only_short_of_the_bid():
    setup = setup_for("oh-hell/3", 3, express=False)
    game = Game(setup, 3)
    _until(game, lambda g: g.decision.kind in ("lead", "follow"))
    model, seat = power_model(setup), game.decision.actor
    obs = game.observe(seat)
    bid, left = _bid(game, seat), len(obs["hand"])
    # OhHell's score at its defaults: a point a trick, 10 more for the exact bid (powers/oh_hell_table.power)
    assert contract.curve(model, obs, seat, left) == [float(k + (10 if k == bid else 0)) for k in range(left + 1)]
    assert contract.reads_tricks(model, obs)
    # the gain of a trick now: E[W(1 + F)] - E[W(F)], F ~ Binomial(left - 1, 1/3), worked out by hand for a
    # 3-trick hand: W = k + 10 [k == 1] (a bid of 1)
    w = [0.0, 11.0, 2.0, 3.0]
    p = [4 / 9, 4 / 9, 1 / 9]  # Binomial(2, 1/3)
    assert contract.trick_gain(w, 3) == pytest.approx(p[0] * 11 + p[1] * -9 + p[2] * 1)
    assert contract.trick_gain([0.0, 1.0, 2.0, 13.0], 3) > 0 > contract.trick_gain([10.0, 1.0, 2.0, 3.0], 3)


def test_a_bid_is_the_number_whose_score_is_best_at_the_tricks_the_hand_should_take():
    """Before, a choice of numbers was read as a choice of cards (its numbers as card ids): bids of 13, 2 and 16
    on 17 cards. Now the three bids of a 17-card hand add up to about the 17 tricks there are."""
    setup = setup_for("oh-hell/3", 3, express=False)
    for seed in range(4):
        game = Game(setup, seed)
        bots = [FastGreedyAgent(s).bind(setup, s) for s in range(3)]
        bids = []
        while game.decision.kind == "choose":
            d = game.decision
            i = bots[d.actor].decide(Observation(lambda: game.observe(d.actor), seat_view(game, d.actor)), d)
            bids.append(d.options[i].value)
            game.apply(i)
        assert len(bids) == 3 and abs(sum(bids) - 17) <= 4, bids
        # (the dealer's bid may not make the sum 17: OhHell's restriction, answered within the options)


def test_happy_dayz_scores_no_tricks_so_nothing_changes_there():
    for scenario in ("woodstock-fever/1", "american-dream/1"):
        setup = setup_for(scenario, 4)
        game = Game(setup, 1)
        _until(game, lambda g: g.decision.kind == "lead")
        assert not contract.reads_tricks(power_model(setup), game.observe(game.decision.actor))


def test_greedy_reference_keeps_its_bids():
    """The contract is the `greedy` bot's (FastGreedyAgent): `greedy-reference` (GreedyAgent) answers a bid as it
    did, its pins unchanged (test_bots_decide_the_same.py)."""
    setup = setup_for("oh-hell/3", 3, express=False)
    game = Game(setup, 0)
    d = game.decision
    assert d.kind == "choose"
    obs = game.observe(d.actor)
    fast = FastGreedyAgent(0).bind(setup, d.actor).decide(obs, d)
    reference = GreedyAgent(0).bind(setup, d.actor).decide(obs, d)
    assert fast != reference  # (the negative control: the two bots part here)
