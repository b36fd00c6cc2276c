"""The auction's `bids: {levels: ..., factions: true, no_trump: true}` (docs/boxes.md, "The auction"): a level bid
alone ranks above every Faction's bid of its level and below the next level; its winning_faction is no Faction.
Without the key the levels' bids are as before: every one names a Faction."""

from __future__ import annotations

from dataclasses import replace

from happydayz.data.hand import Auction, auction_of
from happydayz.kernel.actions import ActionSpace
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup
from happydayz.language.compiler import AUCTION_STATE

from conftest import ENV


def _bridge(no_trump: bool = True):
    setup = build_setup(*ENV.resolve_scenario("bridge/1"), GameOptions(4, express=True), ENV)
    if not no_trump:  # the box's auction without the key
        hand = setup.hand
        setup.hand = replace(hand, auction=replace(hand.auction, bids=hand.auction.bids[:3]))
    return setup


def test_the_key_is_read():
    assert auction_of({"bids": {"levels": [1, 7], "factions": True, "no_trump": True}}).bids == ("levels", 1, 7, True)
    assert auction_of({"bids": {"levels": [1, 7], "factions": True}}).bids == ("levels", 1, 7)
    assert Auction().bids == ("numbers", 0, 13)


def test_a_level_alone_ranks_above_every_faction_of_its_level():
    game = Game(_bridge(), 0)
    labels = [o.label for o in game.decision.options]
    assert labels[:6] == ["1 Clubs", "1 Diamonds", "1 Hearts", "1 Spades", "1 no trump", "2 Clubs"]
    assert labels[-2:] == ["7 no trump", "pass"] and len(labels) == 36
    game.apply(labels.index("1 Spades"))
    after = [o.label for o in game.decision.options]
    assert after[:2] == ["1 no trump", "2 Clubs"]
    game.apply(after.index("1 no trump"))
    assert [o.label for o in game.decision.options][0] == "2 Clubs"
    for _ in range(3):
        game.apply([o.label for o in game.decision.options].index("pass"))
    state = game.state
    assert state[(AUCTION_STATE["winner"], None)] == 1 and state[(AUCTION_STATE["contract"], None)] == 1
    assert state[(AUCTION_STATE["trump"], None)] is None  # winning_faction: no Faction
    assert game.decision.kind == "ask"  # the box's doubling, from the declarer's left


def test_without_the_key_every_level_bid_names_a_faction():
    setup = _bridge(no_trump=False)
    game = Game(setup, 0)
    labels = [o.label for o in game.decision.options]
    assert "1 no trump" not in labels and len(labels) == 29
    space = ActionSpace(setup)
    assert None not in {v[1] for v in space.bids if v != "pass"}
    assert None in {v[1] for v in ActionSpace(_bridge()).bids if v != "pass"}
