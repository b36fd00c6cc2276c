"""FastGreedyAgent (the `greedy` bot): seeded games pinned, its hook table, its answer to a decision kind it does
not know, and the cost cut it is for (no draw, no hook run per card).

GreedyAgent (`greedy-reference`) stays pinned by test_bots_decide_the_same.py; these are the new bot's pins. If
its play is changed on purpose, record them again: `PYTHONPATH=tests python tests/players/test_fast_greedy.py`.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from happydayz.kernel.game import Decision, Game
from happydayz.kernel.tables import Option
from happydayz.players.agents import play_game
from happydayz.players.fast_greedy import FastEstimate, FastGreedyAgent, hook_table
from happydayz.players.greedy import GreedyAgent
from happydayz.players.registry import BOTS

from test_bots import setup_for
from test_bots_decide_the_same import GREEDY_GAMES, _play, _setup


def fast_moves(name: str, tmp_path) -> list[int]:
    scenario, players, express, extras, seed, lazy = GREEDY_GAMES[name]
    game = Game(_setup(scenario, players, express, extras, tmp_path), seed)
    _play(game, [FastGreedyAgent(seed * 10 + s) for s in range(players)], lazy)
    assert game.over
    return list(game.answers)


def digest(moves: list[int]) -> str:
    return hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:16]


# name -> (number of answers, their digest), from the code as committed (leads and follows by lean_play, ties
# broken by one draw among the best options; jesters-3's bid and plays by players/contract.py: its power
# scores an exact bid)
FAST_EXPECTED: dict[str, tuple[int, str]] = {
    "american-3-campaign": (171, "1ee9c61bec7f9470"),
    "american-4": (66, "02c834450b2e59ce"),
    "jesters-3": (73, "640ce180ee2a05cb"),
    "woodstock-4": (72, "ed8ebe47682710ab"),
    "woodstock-5-campaign": (293, "b4cbcc973e90f848"),
}


def test_the_registry_names_both_greedy_bots():
    assert BOTS["greedy"] is FastGreedyAgent and BOTS["greedy-reference"] is GreedyAgent


@pytest.mark.parametrize("name", sorted(GREEDY_GAMES))
def test_fast_greedy_decides_as_recorded(name, tmp_path):
    moves = fast_moves(name, tmp_path)
    assert (len(moves), digest(moves)) == FAST_EXPECTED[name]
    assert fast_moves(name, tmp_path) == moves  # the same seed, the same game


def test_fast_greedy_plays_other_moves_than_the_reference(tmp_path):
    """The negative control of the pins: the two bots are told apart by the same games."""
    from test_bots_decide_the_same import greedy_moves

    assert any(fast_moves(name, tmp_path) != greedy_moves(name, tmp_path) for name in ("woodstock-4", "american-4"))


def test_the_hook_table_reads_the_bikers_threshold():
    """american-dream/1's Bikers power (powers/bikers.power): +1 a Biker under 7 of them, -2 each from 7 on."""
    setup = setup_for("american-dream/1", 4)
    game = Game(setup, 3)
    agent = FastGreedyAgent(1).bind(setup, game.decision.actor)
    est = FastEstimate(agent.model, game.observe(game.decision.actor), agent.rng)
    table = hook_table(agent.model, est.obs, est.in_play, est.me)
    bikers = [f for f in est.factions if f == "Bikers"]
    assert bikers, est.factions
    assert [table.h("Bikers", c) for c in range(9)] == [0, 1, 2, 3, 4, 5, 6, -14, -16]
    others = [f for f in est.factions if f not in ("Bikers",)]
    assert all(table.h(f, 3) == 0 for f in others)


def test_an_estimate_draws_nothing():
    """The cost cut: no guess of the face-down cards, no sampled means (GreedyAgent's Estimate draws)."""
    setup = setup_for("american-dream/1", 4)
    game = Game(setup, 4)
    for _ in range(9):
        game.apply(0)
    seat = game.decision.actor
    fast, reference = FastGreedyAgent(2).bind(setup, seat), GreedyAgent(2).bind(setup, seat)
    before = fast.rng.getstate()
    est = fast._estimate(game.observe(seat))
    [est.m(c) for c in est.hand], est.faction_mean(None)
    assert fast.rng.getstate() == before
    reference._estimate(game.observe(seat))
    assert reference.rng.getstate() != before  # the negative control: the reference draws its guesses


def _positions(scenario: str, count: int, seed: int = 1):
    """Every third lead or follow with a choice of random express 4-player games: chosen as bench/bots.py chooses
    its set, though from other random moves (its generator is seeded by the scenario too), so not the same set."""
    setup = setup_for(scenario, 4)
    rng = random.Random(seed)
    out, game_seed = [], seed
    while len(out) < count:
        game = Game(setup, game_seed)
        seen = 0
        while game.decision is not None and len(out) < count:
            d = game.decision
            if d.kind in ("lead", "follow") and len(d.options) > 1:
                seen += 1
                if seen % 3 == 0:
                    out.append((game.copy(), d))
            game.apply(rng.randrange(len(d.options)))
        game_seed += 1
    return out


@pytest.mark.parametrize("scenario", ["woodstock-fever/1", "american-dream/1"])
def test_the_lean_scores_are_the_rules_of_thumb(scenario):
    """players/lean_play.py scores a lead or follow as FastGreedyAgent's general scoring (GreedyAgent's rules of
    thumb on FastEstimate) does: the same best option at each of 150 decisions, every score within 0.02 (the
    general scoring keeps a later seat's likely addition by its chance of following rounded to 0.01)."""
    from happydayz.players import lean_play
    from happydayz.players.agents import Observation, seat_view

    for k, (game, d) in enumerate(_positions(scenario, 150)):
        agent = FastGreedyAgent(k).bind(game.setup, d.actor)
        general = agent._play_scores(FastEstimate(agent.model, game.observe(d.actor), agent.rng), d,
                                     d.kind == "lead")
        view = Observation(lambda: game.observe(d.actor), seat_view(game, d.actor))
        statics = lean_play.statics(agent.model, view, d.actor, hook_table)
        assert statics.ok
        lean = lean_play.scores(statics, view, d.options, d.kind == "lead")
        assert max(abs(a - b) for a, b in zip(general, lean)) < 0.02
        assert max(range(len(lean)), key=lean.__getitem__) == max(range(len(general)), key=general.__getitem__)
        dict_lean = lean_play.scores(statics, game.observe(d.actor), d.options, d.kind == "lead")
        assert dict_lean == lean  # (an observation as a dict: the same scores)


def test_the_lean_path_is_taken_only_where_its_tables_hold():
    """Happy DayZ and Hearts (no trumps, teams, `counts as`) are scored by lean_play; Spades (trumps) and Bridge
    (teams) by the general scoring — both answered (test_every_decision_of_a_bundled_game_is_answered)."""
    from happydayz.players import lean_play

    for scenario, ok in (("woodstock-fever/1", True), ("american-dream/1", True), ("hearts/1", True),
                         ("spades/1", False), ("bridge/1", False)):
        setup = setup_for(scenario, 4, express=scenario not in ("hearts/1", "spades/1", "bridge/1"))
        game = Game(setup, 2)
        seat = game.decision.actor
        agent = FastGreedyAgent(1).bind(setup, seat)
        assert lean_play.statics(agent.model, game.observe(seat), seat, hook_table).ok is ok, scenario


def test_a_decision_kind_it_does_not_know_gets_a_legal_seeded_answer():
    setup = setup_for("woodstock-fever/1", 4)
    game = Game(setup, 5)
    seat = game.decision.actor
    decision = Decision(seat, "unheard_of", "Your answer?", tuple(Option(v, f"answer {v}") for v in range(5)))
    answers = [FastGreedyAgent(9).bind(setup, seat).decide(game.observe(seat), decision) for _ in range(2)]
    assert answers[0] == answers[1] and 0 <= answers[0] < 5
    seeds = {FastGreedyAgent(s).bind(setup, seat).decide(game.observe(seat), decision) for s in range(40)}
    assert len(seeds) > 1  # a random legal option, not always the first


def test_every_decision_of_a_bundled_game_is_answered():
    for scenario in ("woodstock-fever/1", "american-dream/1"):
        game = Game(setup_for(scenario, 4, express=False), 6)
        play_game(game, [FastGreedyAgent(s) for s in range(4)])
        assert game.over
    for scenario in ("hearts/1", "spades/1", "bridge/1", "euchre/1"):  # the lean path and the general one
        game = Game(setup_for(scenario, 4, express=False), 6)
        play_game(game, [FastGreedyAgent(s) for s in range(4)])
        assert game.over


if __name__ == "__main__":  # print the records of the code as it is now (to paste above)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        out = {}
        for name in sorted(GREEDY_GAMES):
            moves = fast_moves(name, Path(folder))
            out[name] = [len(moves), digest(moves)]
    print(json.dumps(out, indent=4))


def _passes(bot_class, seed: int = 0) -> tuple[list[str], list[str]]:
    """(seat 0's hand, the cards it passes) in hearts/1 game `seed`, every seat a `bot_class`."""
    from happydayz.data.environment import Environment
    from happydayz.kernel.setup import GameOptions, build_setup

    env = Environment()
    sc, lib = env.resolve_scenario("hearts/1")
    setup = build_setup(sc, lib, GameOptions(players=4, express=True), env)
    game = Game(setup, seed)
    bots = [bot_class(s).bind(setup, s) for s in range(4)]
    hand = sorted(game.label(c) for c in game.zones[game.hand_keys[0]])
    passed = []
    while game.decision is not None and game.decision.kind == "transfer":
        d = game.decision
        i = bots[d.decider].decide(game.observe(d.decider), d)
        if d.decider == 0:
            passed.append(game.label(d.options[i].value))
        game.apply(i)
    return hand, passed


def test_where_the_fewest_win_greedy_passes_the_cards_that_win_tricks():
    """Hearts: the king of hearts and the jack of spades go, the two of hearts stays; GreedyAgent (the
    reference) passes hearts, any of them, before anything else (the negative control)."""
    hand, passed = _passes(FastGreedyAgent)
    assert {"Hearts 2", "Hearts 13", "Spades 11"} <= set(hand)
    assert passed == ["Hearts 13", "Spades 11", "Hearts 8"]
    _, reference = _passes(GreedyAgent)
    assert all(card.startswith("Hearts ") for card in reference) and reference != passed
