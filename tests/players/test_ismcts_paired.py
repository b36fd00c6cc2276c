"""Issue 34: ISMCTSAgent's paired search (its default): common random numbers, the anchor, the budget, every box.

What the search must do, tested on real decisions of seeded games: each sample is played out once for every
candidate root move from the same determinization and the same playout seed; the move played is the anchor bot's
(the `greedy` bot by default) unless another's paired difference clears `confidence` standard errors; an iteration
budget is a count of playouts in whole samples. Its strength is bench/bot_strength.py's (docs/bots.md), not a test's.
"""

from __future__ import annotations

import pytest

from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.players import ismcts_paired
from happydayz.players.agents import as_dict, play_game
from happydayz.players.fast_greedy import FastGreedyAgent
from happydayz.players.greedy import GreedyAgent
from happydayz.players.ismcts import ISMCTSAgent

from conftest import ENV
from test_bots import setup_for


class Recording(ISMCTSAgent):
    """An ISMCTSAgent that notes, for every playout, what it starts from and the search's choice."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.starts: list[list] = []  # per search: (the others' hands, the policy's draw state) of each playout
        self.searches: list[dict] = []

    def _paired_chooser(self, crn):
        inner = super()._paired_chooser(crn)
        me = self.seat
        starts = self.starts[-1]

        def for_game(game):
            hands = tuple(tuple(game.held(s)) for s in range(game.n) if s != me)
            starts.append((hands, crn.getstate(), game.rng.getstate()))
            return inner(game)

        return for_game

    def search(self, observation, decision):
        self.starts.append([])
        self.last_search = {}
        got = super().search(observation, decision)
        if self.last_search:
            self.searches.append(self.last_search)
        return got


def _game_with(agent, scenario="woodstock-fever/1", seed=3, seat=1):
    setup = setup_for(scenario, 4)
    agent.bind(setup, seat)
    agents = [agent if s == seat else GreedyAgent(seed * 10 + s) for s in range(4)]
    game = Game(setup, seed)
    play_game(game, agents)
    assert game.over
    return game


def test_every_candidate_of_a_sample_starts_from_the_same_deal_and_the_same_draws():
    agent = Recording(5, iterations=60)
    _game_with(agent)
    assert agent.searches
    groups = 0
    for starts, found in zip([s for s in agent.starts if s], agent.searches):
        k = len(found["candidates"])
        assert len(starts) == k * found["samples"]
        samples = [starts[i:i + k] for i in range(0, len(starts), k)]
        for sample in samples:
            assert all(start == sample[0] for start in sample)  # one deal, one seed, every move
            groups += 1
        # the negative control: different samples deal or draw differently
        assert len({(s[0][0], s[0][1]) for s in samples}) == len(samples)
    assert groups > 20


def test_an_iteration_budget_is_a_count_of_playouts_in_whole_samples():
    agent = Recording(5, iterations=50)
    _game_with(agent)
    for found in agent.searches:
        k = len(found["candidates"])
        assert found["playouts"] == k * found["samples"]
        assert found["playouts"] <= max(50, k)
        assert found["samples"] == max(1, 50 // k)
    assert agent.stats["iterations"] == sum(f["playouts"] for f in agent.searches)


def test_the_anchor_is_played_unless_a_move_clearly_beats_it():
    stubborn = Recording(5, iterations=60, confidence=1e9)
    _game_with(stubborn)
    assert stubborn.searches and all(f["chosen"] == f["anchor"] for f in stubborn.searches)
    # the negative control: with no evidence asked for, the best mean is played, and it is not always the anchor
    eager = Recording(5, iterations=60, confidence=-1e9)
    _game_with(eager)
    assert all(f["chosen"] == f["best"] for f in eager.searches)
    assert any(f["chosen"] != f["anchor"] for f in eager.searches)
    # the default: a move other than the anchor only on a paired difference over 2 standard errors
    default = Recording(5, iterations=120)
    _game_with(default, scenario="american-dream/1")
    for f in default.searches:
        if f["chosen"] != f["anchor"]:
            assert f["difference"] > 2.0 * f["error"]
    # the anchor is the anchor bot's best-scored move (its tie-breaks aside)
    assert all(f["anchor"] in f["candidates"] for f in default.searches)


def test_the_same_seed_and_budget_replay_the_same_game():
    a = _game_with(ISMCTSAgent(9, iterations=40))
    b = _game_with(ISMCTSAgent(9, iterations=40))
    c = _game_with(ISMCTSAgent(10, iterations=40))
    assert a.answers == b.answers
    assert a.answers != c.answers  # (the negative control: another seed searches other samples)


def test_the_win_reward_is_half_the_win_share_and_half_the_squashed_margin():
    setup = setup_for("woodstock-fever/1", 4)
    got = ismcts_paired.win_rewards([10, 4, 10, 1], setup, 12.0)
    assert got[0] == got[2] == pytest.approx(0.5 * 0.5 + 0.5 * 0.5)  # a win shared by two, no margin
    assert got[1] == pytest.approx(0.5 * (0.5 + 0.5 * __import__("math").tanh(-6 / 12)))
    assert got[3] < got[1] < got[0]
    clear = ismcts_paired.win_rewards([11, 4, 10, 1], setup, 12.0)
    assert clear[0] > 0.75 and clear[2] < 0.5


def test_the_win_reward_counts_a_team_together():
    spades, _ = prepare(ENV, "spades/1")
    assert spades.teams is not None
    team = spades.teams[0]
    scores = [0, 0, 0, 0]
    scores[team[0]] = 5
    if not spades.pooled:
        scores[team[1]] = 5
    got = ismcts_paired.win_rewards(scores, spades, 12.0)
    assert got[team[0]] == got[team[1]] > 0.75
    assert all(got[s] < 0.25 for s in range(4) if s not in team)


@pytest.mark.parametrize("scenario", ["hearts/1", "spades/1", "bridge/1", "euchre/1", "oh-hell/3"])
def test_the_paired_search_plays_every_classic_box(scenario):
    setup, _ = prepare(ENV, scenario, express=True)
    seat = 1
    agent = Recording(2, iterations=12)
    agents = [agent if s == seat else GreedyAgent(s) for s in range(setup.n)]
    game = Game(setup, 7, record=False)
    play_game(game, agents)
    assert game.over
    assert agent.searches  # it searched leads and follows there, not only handed them to GreedyAgent


def test_racing_drops_the_clearly_worse_candidates_and_keeps_the_anchor():
    racer = Recording(5, iterations=200, race=0.0)  # any candidate behind the leader goes at the first look
    _game_with(racer)
    looked = [f for f in racer.searches if len(f["candidates"]) > 2 and f["samples"] > 16]
    assert looked
    for f in looked:
        assert f["anchor"] in f["active"] and len(f["active"]) < len(f["candidates"])
        assert f["playouts"] <= 200
    assert any(f["samples"] > 200 // len(f["candidates"]) for f in looked)  # the freed playouts went to more samples
    # the negative control: without racing every candidate plays every sample
    steady = Recording(5, iterations=200)
    _game_with(steady)
    assert all(f["active"] == f["candidates"] for f in steady.searches)


class NotingBids(ISMCTSAgent):
    """An ISMCTSAgent that notes every decision it does not search (a bid, here) and its answer."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.unsearched: list = []

    def decide(self, observation, decision):
        got = super().decide(observation, decision)
        if decision.kind not in self.tree_kinds and len(decision.options) > 1:
            self.unsearched.append((as_dict(observation), decision, got))
        return got


@pytest.mark.parametrize("scenario", ["oh-hell/3", "spades/1"])
def test_the_anchor_is_the_greedy_bot_which_bids_for_a_contract(scenario):
    setup, _ = prepare(ENV, scenario, express=True)

    def bids(anchor):
        noted = []
        for seed in (7, 8, 9):
            agent = NotingBids(2, iterations=12, anchor=anchor)
            game = Game(setup, seed, record=False)
            play_game(game, [agent if s == 1 else FastGreedyAgent(s) for s in range(setup.n)])
            noted += agent.unsearched
        assert noted
        greedy = [FastGreedyAgent(0).bind(setup, 1).decide(o, d) for o, d, _ in noted]  # (its bids: no draws)
        return [got for *_, got in noted], greedy

    mine, greedy = bids("greedy")
    assert mine == greedy
    # the negative control: anchored to greedy-reference, which does not bid for a contract, it bids otherwise
    mine, greedy = bids("greedy-reference")
    assert mine != greedy


def test_an_unknown_anchor_is_refused_with_the_names_it_takes():
    with pytest.raises(ValueError, match="anchor must be one of 'greedy', 'greedy-reference', not 'smart'"):
        ISMCTSAgent(anchor="smart")
