"""The hand described in a file drives both trick loops: who deals, how many cards, the Transfer, who leads.

The scripted games tests/games/hand_*.yaml play one hand each, worked out by hand; here the same scenarios
are played at random both ways (the kernel's loop and the generated one), by every bot to the end, and a
power's `next leader` at the start of a round is shown to override the hand's first leader.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from happydayz.kernel import fastpath
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots

from conftest import ENV, ROOT

MODS = ROOT / "tests" / "games" / "mods"
HANDS = ("hand_into_hand", "hand_rotating", "hand_chosen")


def _setup(name: str, players: int | None = None, express: bool = False):
    return prepare(ENV, MODS / f"{name}.scenario.yaml", players=players, express=express)[0]


def _random_game(setup, seed: int, fast: bool, monkeypatch) -> Game:
    monkeypatch.setattr(fastpath, "ENABLED", fast)
    game = Game(setup, seed)
    chooser = random.Random(seed)
    game.play(lambda d: chooser.randrange(len(d.options)))
    return game


def _both_loops(setup, seeds: int, monkeypatch) -> list[Game]:
    """Games of `setup` played at random by the kernel's loop and by the generated one: the same, each seed."""
    games = []
    for seed in range(seeds):
        kernel, fast = _random_game(setup, seed, False, monkeypatch), _random_game(setup, seed, True, monkeypatch)
        assert (kernel.log, kernel.answers, kernel.population) == (fast.log, fast.answers, fast.population)
        games.append(fast)
    return games


@pytest.mark.parametrize("name", HANDS)
def test_both_loops_play_the_same_games_of_a_hand_described_in_a_file(name, monkeypatch):
    fast = _both_loops(_setup(name), 15, monkeypatch)[-1]
    assert fastpath.loop_for(fast) is not None  # (the generated loop did run: no power made it step aside)


def test_the_rotating_dealer_deals_the_schedule_of_hand_sizes(monkeypatch):
    game = _random_game(_setup("hand_rotating"), 3, True, monkeypatch)
    deals = [e for e in game.log if e["event"] in ("dealer", "deal")]
    assert [(e["event"], e.get("seat"), [len(h) for h in e.get("hands", [])]) for e in deals] == [
        ("dealer", 0, []), ("deal", None, [2, 2, 2]), ("dealer", 1, []), ("deal", None, [1, 1, 1])]
    # the cycle of passes: round 1 to the left, round 2 none
    assert [[(p["from"], p["to"]) for p in e["passes"]] for e in game.log if e["event"] == "transfer"] == [
        [(0, 1), (1, 2), (2, 0)], []]
    # the dealer's left leads each round's first trick
    firsts = [e["leader"] for i, e in enumerate(game.log) if e["event"] == "encounter"
              and game.log[i - 1]["event"] in ("transfer", "deal")]
    assert firsts == [1, 2]


def test_cards_passed_into_the_hand_leave_every_transfer_zone_empty():
    game = Game(_setup("hand_into_hand", express=True), 1)
    while game.decision.kind == "transfer":
        game.apply(0)
    assert [game.zone("transfer", s) for s in range(3)] == [[], [], []]
    assert [len(game.zone("hand", s)) for s in range(3)] == [2, 2, 2]
    label = game.tables.label
    holder = next(s for s in range(3) if any(label[c] == "Scientists 2" for c in game.held(s))) \
        if any(label[c] == "Scientists 2" for s in range(3) for c in game.held(s)) else 0
    assert game.decision.actor == holder


def test_the_dealer_is_seen_only_in_a_game_with_a_dealer():
    assert "dealer" not in Game(prepare(ENV, "woodstock-fever/1")[0], 0).observe(0)
    game = Game(_setup("hand_rotating"), 0)
    assert game.observe(0)["dealer"] == 0


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_a_chosen_dealer_and_a_hand_into_the_hand_to_the_end(bot):
    for name in ("hand_chosen", "hand_into_hand"):
        game = Game(_setup(name, express=True), 5)
        result = play_game(game, make_bots([bot] * 3, 5))
        assert game.over and result["rounds"] == 1
        if name == "hand_chosen":
            assert [e["event"] for e in game.log[:3]] == ["game_start", "decision", "dealer"]


OPENER = """power Opener {
  for faction Plain

  at start of round {
    next leader left
  }
}
"""


def test_next_leader_at_the_start_of_a_round_overrides_the_hands_first_leader(tmp_path: Path):
    (tmp_path / "opener.power").write_text(OPENER, encoding="utf-8")
    text = (MODS / "hand_rotating.scenario.yaml").read_text(encoding="utf-8").replace("plain.power", "opener.power")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    game = Game(prepare(ENV, tmp_path / "s.yaml")[0], 0)
    while game.decision.kind == "transfer":
        game.apply(0)
    # the hook runs for seats 0, 1, 2 in turn, each naming its left neighbour: the last, seat 2's, is seat 0;
    # the hand's rule (the dealer's left) would have named seat 1
    assert (game.decision.kind, game.decision.actor) == ("lead", 0)


def test_the_dealer_decision_is_numbered_in_the_seat_block_for_learning_agents():
    from happydayz.kernel.actions import ActionSpace

    setup = _setup("hand_chosen", express=True)
    game, space = Game(setup, 0), ActionSpace(setup)
    assert game.decision.kind == "dealer"
    assert space.legal(game.decision) == [space.seat + s for s in range(3)]
    assert [space.describe(a) for a in space.legal(game.decision)] == ["Community 0", "Community 1", "Community 2"]
    game.apply(space.option_index(game.decision, space.seat + 2))
    assert game.dealer == 2



@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_bids_at_the_bidding_moment_and_plays_oh_hells_hand_to_the_end(bot):
    setup = prepare(ENV, ROOT / "docs" / "cookbook" / "oh-hell-hand.scenario.yaml", express=True)[0]
    game = Game(setup, 2)
    result = play_game(game, make_bots([bot] * 3, 2))
    assert game.over and result["rounds"] == 1
    bids = [e for e in game.log if e["event"] == "decision" and e["decision"] == "choose"]
    assert [e["actor"] for e in bids] == [1, 2, 0]  # from the dealer's left round to the dealer


def test_both_loops_play_the_same_campaigns_with_a_bidding_moment(monkeypatch):
    setup = prepare(ENV, ROOT / "docs" / "cookbook" / "oh-hell-hand.scenario.yaml")[0]
    for game in _both_loops(setup, 5, monkeypatch):
        assert [len(h) for h in next(e for e in game.log if e["event"] == "deal")["hands"]] == [1, 1, 1]


AUCTIONS = ("hand_auction", "hand_auction_climbing", "hand_auction_pickup")


@pytest.mark.parametrize("name", AUCTIONS)
def test_both_loops_play_the_same_auctions(name, monkeypatch):
    for game in _both_loops(_setup(name), 10, monkeypatch):
        assert sum(e["event"] == "auction" for e in game.log) == len(game.history)


@pytest.mark.parametrize("name", AUCTIONS)
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_bids_in_an_auction_to_the_end_of_the_game(name, bot):
    game = Game(_setup(name, express=True), 3)
    result = play_game(game, make_bots([bot] * 3, 3))
    assert game.over and result["rounds"] == 1
    assert [e["event"] for e in game.log].count("auction") == 1


@pytest.mark.parametrize("name", AUCTIONS)
def test_every_bid_is_numbered_for_learning_agents(name):
    from happydayz.kernel.actions import ActionSpace

    setup = _setup(name, express=True)
    game, space = Game(setup, 0), ActionSpace(setup)
    while game.decision is not None and game.decision.kind == "bid":
        legal = space.legal(game.decision)
        assert len(legal) == len(game.decision.options) and all(space.bid <= a < space.size for a in legal)
        assert sorted(space.describe(a) for a in legal) == sorted(
            o.label if o.label == "pass" else f"bid {o.label}" for o in game.decision.options)
        game.apply(space.option_index(game.decision, legal[-1]))
    assert game.decision.kind in ("lead", "choose")  # (a choice: the Pickup power's discard, after the auction)


def test_the_auction_is_public_state_of_the_round():
    game = Game(_setup("hand_auction_climbing", express=True), 0)
    game.apply(game.decision.index_of_label("1 Plain"))
    seen = {(s["name"], s["seat"]): s["value"] for s in game.observe(2)["state"]}
    assert (seen[("winner", None)], seen[("contract", None)], seen[("trump", None)], seen[("bid", 0)]) == (
        0, 1, "Plain", 1)


def test_both_loops_and_every_bot_play_hearts_hand(monkeypatch):
    """The cookbook's Hearts: the holder of a card leads, a cycle of passes into the hand, an option."""
    setup = prepare(ENV, ROOT / "docs" / "cookbook" / "hearts-hand.scenario.yaml")[0]
    for game in _both_loops(setup, 5, monkeypatch):
        assert [len(e["passes"]) for e in game.log if e["event"] == "transfer"] == [3, 3]
    for bot in sorted(BOTS):
        game = Game(setup, 1)
        play_game(game, make_bots([bot] * 3, 1))
        assert game.over and len(game.history) == 2


def _into_hand_game(tmp_path: Path, seen_by: str) -> Game:
    text = (MODS / "hand_into_hand.scenario.yaml").read_text(encoding="utf-8").replace(
        "seen_by: giver_and_receiver", f"seen_by: {seen_by}")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "plain.power").write_text((MODS / "plain.power").read_text(encoding="utf-8"), encoding="utf-8")
    game = Game(prepare(ENV, tmp_path / "s.yaml", express=True)[0], 1)
    game.rig_deal({0: [_card(game, "Scientists 9"), _card(game, "Plain 4")],
                   1: [_card(game, "Scientists 2"), _card(game, "Plain 10")],
                   2: [_card(game, "Scientists 5"), _card(game, "Plain 7")]}, [])
    for label in ("Plain 4", "Plain 10", "Scientists 5"):  # each to its right neighbour, into the hand
        game.apply(game.decision.index_of_label(label))
    return game


def _card(game: Game, label: str) -> int:
    return game.tables.label.index(label)


@pytest.mark.parametrize("seen_by, known_to_seat_0", [
    ("everyone", [[], [{"id": 14, "label": "Scientists 5"}], [{"id": 26, "label": "Plain 4"}]]),
    ("giver_and_receiver", [[], [], [{"id": 26, "label": "Plain 4"}]]),
])
def test_who_knows_a_card_passed_into_a_hand(tmp_path, seen_by, known_to_seat_0):
    game = _into_hand_game(tmp_path, seen_by)
    shown = game.observe(0)["hands_known"]
    assert [[c["label"] for c in seat] for seat in shown] == [[c["label"] for c in seat] for seat in known_to_seat_0]
    assert "hands_known" not in Game(_setup("hand_rotating"), 0).observe(0)


def test_a_sampled_state_keeps_the_cards_known_in_a_hand_there(tmp_path):
    from happydayz.kernel.determinize import Sampler

    game = _into_hand_game(tmp_path, "everyone")
    seat = game.decision.actor  # (the Community that decides samples what it cannot see)
    assert any(game.observe(seat)["hands_known"])
    sampler = Sampler(game.setup, game.observe(seat), game.decision)
    for s in range(20):
        sampled = sampler.sample(random.Random(s))
        for other, cards in enumerate(game.observe(seat)["hands_known"]):
            assert {c["id"] for c in cards} <= set(sampled.zone("hand", other))


ALONE = """power Alone {
  added
  mark alone for round

  after transfer {
    if self == auction_winner {
      ask "Go alone?" { set alone = true }
    }
  }
}
"""


def test_the_auctions_winner_may_be_asked_a_yes_no_question_after_the_auction(tmp_path: Path):
    # Euchre's "going alone": a decision of the maker once the auction is over, before the first lead
    (tmp_path / "alone.power").write_text(ALONE, encoding="utf-8")
    (tmp_path / "plain.power").write_text((MODS / "plain.power").read_text(encoding="utf-8"), encoding="utf-8")
    text = (MODS / "hand_auction_pickup.scenario.yaml").read_text(encoding="utf-8")
    (tmp_path / "s.yaml").write_text(text.replace("Pickup", "Alone").replace("pickup.power", "alone.power"),
                                     encoding="utf-8")
    game = Game(prepare(ENV, tmp_path / "s.yaml")[0], 0)
    assert (game.decision.kind, game.decision.actor) == ("bid", 1)
    game.apply([o.label for o in game.decision.options].index("Scientists"))
    while game.decision.kind == "bid":
        game.apply([o.label for o in game.decision.options].index("pass"))
    assert (game.decision.kind, game.decision.actor, [o.label for o in game.decision.options]) == (
        "ask", 1, ["yes", "no"])
    game.apply(0)
    assert (game.decision.kind, game.decision.actor) == ("lead", 2)


def test_the_generated_loop_keeps_no_copy_of_who_leads_or_wins(monkeypatch):
    """Issue 26, item 1: both loops read the kernel's one rule of who leads a trick and who wins it. With that rule
    replaced (the last card played wins; the lead passes one seat on), both loops still play the same games, and
    those differ from the games of the rule as it stands (the negative control)."""
    setup = _setup("hand_rotating")
    as_it_stands = [_random_game(setup, seed, True, monkeypatch).log for seed in range(4)]
    original_leader = Game._trick_leader

    def next_seat_leads(self):
        leader = (original_leader(self) + 1) % self.n
        while not (self.zones[self.hand_keys[leader]] or self.zones[self.transfer_keys[leader]]):
            leader = (leader + 1) % self.n
        return leader

    monkeypatch.setattr(Game, "_winning_play", lambda self: self.trick.plays[-1])
    monkeypatch.setattr(Game, "_trick_leader", next_seat_leads)
    games = _both_loops(setup, 4, monkeypatch)
    assert fastpath.loop_for(games[-1]) is not None  # the generated loop did play them
    assert [g.log for g in games] != as_it_stands
    checked = 0
    for game in games:  # the last card played took every trick, and the seat after its taker led the next one
        last_play, last_win = None, None
        for event in game.log:
            if event["event"] == "play":
                last_play = event["seat"]
            elif event["event"] == "win":
                assert event["seat"] == last_play
                last_win, checked = event, checked + 1
            elif event["event"] == "encounter" and last_win is not None and last_win["round"] == event["round"]:
                assert event["leader"] == (last_win["seat"] + 1) % game.n
            elif event["event"] == "deal":
                last_win = None
    assert checked > 4
