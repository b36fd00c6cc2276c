"""Euchre's auction as the hand describes it: a card turned up, two stages, stick the dealer, a redeal.

The scripted games tests/games/hand_euchre_*.yaml play one hand each, worked out by hand; here the same
scenarios are played at random by both trick loops, by every bot to the end, and what each Community sees
of the turned card (its view, a bot's sampled states, the action tensor) is checked.
"""

from __future__ import annotations

import random

import pytest

from happydayz.base.errors import GameRuleError
from happydayz.data.hand import MAX_REDEALS
from happydayz.kernel.actions import ActionSpace, ObservationLayout
from happydayz.kernel.determinize import Sampler
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots

from conftest import ENV, ROOT
from test_hand_played import _random_game

MODS = ROOT / "tests" / "games" / "mods"
EUCHRE = ("hand_euchre", "hand_euchre_redeal")
DEAL = {0: ["Scientists 9", "Plain 4"], 1: ["Scientists 2", "Plain 10"], 2: ["Scientists 5", "Plain 7"],
        3: ["Scientists 3", "Plain 8"]}


def _setup(name: str, express: bool = True, **options):
    return prepare(ENV, MODS / f"{name}.scenario.yaml", express=express, **options)[0]


def _dealt(hands: dict, reserve: list):
    """A deal plan: every deal of the game is this one (labels), whatever the round."""
    def plan(game):
        ids = game.tables.label.index
        return {seat: [ids(c) for c in cards] for seat, cards in hands.items()}, [ids(c) for c in reserve]
    return plan


def _answer(game: Game, *labels: str) -> None:
    for label in labels:
        index = game.decision.index_of_label(label)
        assert index is not None, (label, [o.label for o in game.decision.options])
        game.apply(index)


@pytest.mark.parametrize("name", EUCHRE)
def test_both_loops_play_the_same_euchre_auctions(name, monkeypatch):
    setup = _setup(name, express=False)
    for seed in range(8):
        kernel, fast = _random_game(setup, seed, False, monkeypatch), _random_game(setup, seed, True, monkeypatch)
        assert (kernel.log, kernel.answers, kernel.population) == (fast.log, fast.answers, fast.population)
        events = [e for e in fast.log if e["event"] in ("turn_up", "auction", "redeal")]
        # each deal turns a card up; each auction either has a winner or is followed by a deal again
        assert [e["event"] for e in events].count("turn_up") == len(fast.history) + \
            [e["event"] for e in events].count("redeal")
        for e in fast.log:
            if e["event"] == "auction" and name == "hand_euchre":
                assert e["winner"] is not None  # (stick the dealer: somebody always bids)


@pytest.mark.parametrize("name", EUCHRE)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_euchres_auction_to_the_end_of_the_game(name, bot):
    game = Game(_setup(name, express=False), 5)
    result = play_game(game, make_bots([bot] * 4, 5))
    assert game.over and result["rounds"] == 4
    assert [e["event"] for e in game.log].count("auction") >= 4


def test_each_stage_offers_its_own_bids_and_every_bid_is_numbered_for_learning_agents():
    setup = _setup("hand_euchre")
    game, space = Game(setup, 0, deal_plan=_dealt(DEAL, ["Scientists 13", "Plain 1"])), ActionSpace(setup)
    assert space.bids[-1] == "pass" and len(set(space.bids)) == len(space.bids)  # one number a bid, in every stage
    seen = []
    while game.decision.kind == "bid":
        legal = space.legal(game.decision)
        assert sorted(space.describe(a) for a in legal) == sorted(
            o.label if o.label == "pass" else f"bid {o.label}" for o in game.decision.options)
        seen.append((game.decision.actor, [space.describe(a) for a in legal]))
        game.apply(space.option_index(game.decision, legal[-1]))  # (pass while one may)
    assert seen == [(1, ["bid Scientists", "pass"]), (2, ["bid Scientists", "pass"]), (3, ["bid Scientists", "pass"]),
                    (0, ["bid Scientists", "pass"]), (1, ["bid Plain", "pass"]), (2, ["bid Plain", "pass"]),
                    (3, ["bid Plain", "pass"]), (0, ["bid Plain"])]
    auction = next(e for e in game.log if e["event"] == "auction")
    assert (auction["winner"], auction["contract"], auction["stage"]) == (0, "Plain", 2)


def test_the_turned_card_is_public_until_a_power_takes_it_then_known_in_that_hand():
    setup = _setup("hand_euchre")
    game = Game(setup, 0, deal_plan=_dealt(DEAL, ["Scientists 13", "Plain 1"]))
    turned = game.tables.label.index("Scientists 13")
    for seat in range(4):
        view = game.observe(seat)
        assert view["turned_up"] == {"id": turned, "label": "Scientists 13"}
        assert view["hands_known"] == [[], [], [], []]
    assert "turned_up" not in Game(_setup("hand_auction"), 0).observe(0)  # (a hand without turn_up)
    layout = ObservationLayout(setup)
    assert layout.views(layout.encode(game.observe(2)))["turned_up"][turned] == 1
    _answer(game, "pass", "Scientists")  # seat 2 orders it up: the dealer picks it up
    assert game.decision.kind == "choose" and game.decision.actor == 0
    assert [o.label for o in game.decision.options] == ["Scientists 9", "Plain 4"]  # (never the turned card)
    _answer(game, "Plain 4")
    for seat in (1, 2, 3):
        view = game.observe(seat)
        assert view["turned_up"] is None  # no longer on the Reserve
        assert view["hands_known"][0] == [{"id": turned, "label": "Scientists 13"}]
    assert game.observe(0)["hands_known"] == [[], [], [], []]  # (its own hand shows it)


def test_a_sampled_state_keeps_the_turned_card_on_the_reserve_or_in_the_dealers_hand():
    setup = _setup("hand_euchre")
    # named in the second stage: the turned card stays on top of the Reserve
    game = Game(setup, 0, deal_plan=_dealt(DEAL, ["Scientists 13", "Plain 1"]))
    _answer(game, *["pass"] * 7, "Plain")
    assert game.decision.kind == "lead" and game.decision.actor == 1
    turned = game.tables.label.index("Scientists 13")
    sampler = Sampler(setup, game.observe(1), game.decision)
    tops = {sampler.sample(random.Random(s)).zones["reserve"][0] for s in range(20)}
    assert tops == {turned}
    # ordered up: it is in the dealer's hand in every sampled state of another Community
    game = Game(setup, 0, deal_plan=_dealt(DEAL, ["Scientists 13", "Plain 1"]))
    _answer(game, "Scientists", "Plain 4")
    sampler = Sampler(setup, game.observe(1), game.decision)
    for s in range(20):
        sampled = sampler.sample(random.Random(s))
        assert turned in sampled.zone("hand", 0) and turned not in sampled.zones["reserve"]


def test_a_deal_again_moves_the_deal_on_for_the_rest_of_the_game():
    setup = _setup("hand_euchre_redeal", express=False)
    game = Game(setup, 0, deal_plan=_dealt(DEAL, ["Scientists 13", "Plain 1"]))
    assert game.dealer == 0
    _answer(game, *["pass"] * 8)  # nobody bids: seat 1 deals round 1 again
    assert (game.round_no, game.dealer, game.decision.actor) == (1, 1, 2)
    assert [e["event"] for e in game.log].count("redeal") == 1
    game.play(lambda d: 0)  # (the first option: a bid when there is one)
    dealers = [e["seat"] for e in game.log if e["event"] == "dealer"]
    assert dealers == [0, 1, 2, 3, 0]  # rotating from the dealer of the deal again


def test_a_round_dealt_again_twenty_times_in_a_row_is_played():
    game = Game(_setup("hand_euchre_redeal"), 0)
    game.play(lambda d: len(d.options) - 1 if d.kind == "bid" else 0)  # every Community always passes
    assert game.over
    assert [e["event"] for e in game.log].count("redeal") == MAX_REDEALS
    assert [e["winner"] for e in game.log if e["event"] == "auction"] == [None] * (MAX_REDEALS + 1)


def test_turn_up_with_nothing_left_in_the_reserve_is_refused_with_the_round():
    with pytest.raises(GameRuleError) as caught:
        Game(_setup("hand_euchre"), 0, deal_plan=_dealt(DEAL, []))
    assert "the hand turns up the Reserve's top card (turn_up), but the deal left no card in the Reserve" in str(
        caught.value)


def test_a_power_that_reads_the_turned_card_is_refused_at_set_up_by_a_hand_that_turns_none_up(tmp_path):
    text = (MODS / "hand_euchre.scenario.yaml").read_text(encoding="utf-8").replace("  turn_up: true\n", "")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    for power in ("euchre.power", "plain.power"):
        (tmp_path / power).write_text((MODS / power).read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(GameRuleError) as caught:
        prepare(ENV, tmp_path / "s.yaml")
    assert caught.value.diagnostics[0].message == (
        "the power Euchre reads turned_up (euchre.power:17:33), the card the hand turns up, but this game's hand "
        "turns up none: say turn_up: true in its hand")
