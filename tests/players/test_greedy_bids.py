"""Greedy bids from its hand: its count of high cards for a number, its strongest Faction (or a pass) for a
Faction, instead of the first option (the lowest bid)."""

from __future__ import annotations

from happydayz.kernel.game import Decision, Game
from happydayz.kernel.observation import observe
from happydayz.kernel.setup import prepare
from happydayz.kernel.tables import Option
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent

import pytest

from conftest import ENV, ROOT

MODS = ROOT / "tests" / "games" / "mods"


BOTS = pytest.mark.parametrize("bot", [GreedyAgent, FastGreedyAgent], ids=["greedy-reference", "greedy"])


def _bid(scenario: str, hand: list[str], options: list, bot=GreedyAgent) -> str:
    """Greedy's answer to a bid among `options` (values as the kernel makes them) holding `hand`."""
    setup = prepare(ENV, MODS / f"{scenario}.scenario.yaml")[0]
    game = Game(setup, 0)
    ids = {setup.cards[c].label: c for c in range(len(setup.cards))}
    game.zones[game.hand_keys[1]][:] = [ids[label] for label in hand]
    labels = [v if v == "pass" else Game._bid_label(v) for v in options]
    decision = Decision(1, "bid", "Bid in the auction", tuple(Option(v, l) for v, l in zip(options, labels)))
    agent = bot(0, setup=setup)
    agent.seat = 1
    return decision.options[agent.decide(observe(game, 1), decision)].label


@BOTS
def test_greedy_bids_the_number_of_its_high_cards(bot):
    numbers = [(n, None) for n in range(0, 3)]
    assert _bid("hand_auction", ["Scientists 13", "Plain 12"], numbers, bot) == "2"
    assert _bid("hand_auction", ["Scientists 13", "Plain 2"], numbers, bot) == "1"
    assert _bid("hand_auction", ["Scientists 1", "Plain 2"], numbers, bot) == "0"
    # above the best bid only (a climbing auction): too high for its hand, it passes
    assert _bid("hand_auction", ["Scientists 1", "Plain 2"], [(2, None), "pass"], bot) == "pass"


@BOTS
def test_greedy_names_its_strongest_faction_or_passes(bot):
    factions = [(None, "Plain"), (None, "Scientists"), "pass"]
    assert _bid("hand_auction_pickup", ["Scientists 2", "Plain 12"], factions, bot) == "Plain"
    assert _bid("hand_auction_pickup", ["Scientists 12", "Scientists 3"], factions, bot) == "Scientists"
    # the dealer may not pass: the strongest Faction even of a weak hand
    assert _bid("hand_auction_pickup", ["Scientists 1", "Plain 2"], factions[:2], bot) in ("Plain", "Scientists")
