"""The generated trick loop (kernel.fastpath) plays exactly the games the kernel's own loop plays.

Every bundled scenario, 2 to 5 Communities, express and campaign, with the promo
cards and the random-power rule on some configurations (the powers in force then
change during a game): each game is played by Game.play, without an event log and
with one, once with the generated loop and once with it switched off, every decision
answered from a seeded random.Random, and the two games must agree on every decision
asked, every answer, every event logged, the random source's state and the whole final
state.
"""

import ast
import random

import pytest

from happydayz.kernel import fastpath
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

from conftest import ENV

# The Happy DayZ boxes' scenarios (Hearts' rules on leading and following are the kernel loop's).
SCENARIOS = sorted(s.id for s in ENV.library.scenarios() if s.box in ("woodstock-fever", "american-dream"))
PLAYERS = (2, 3, 4, 5)


def _setup(scenario_id: str, players: int, express: bool, twist: bool):
    scenario, library = ENV.resolve_scenario(scenario_id)
    return build_setup(scenario, library, GameOptions(players=players, express=express, promos=twist,
                                                      random_powers=twist and not express), ENV)


def _state(game: Game) -> dict:
    return {
        "population": game.population, "history": game.history, "zones": game.zones, "answers": game.answers,
        "loc": game.loc, "seen": game.seen, "voids": game.voids, "tricks_won": game.tricks_won,
        "tricks_played": game.tricks_played, "round_no": game.round_no, "round_gain": game.round_gain,
        "winners": game.winners, "over": game.over, "phase": game.phase, "state": game.state,
        "factions": game.factions, "added": game.added, "active": game.active, "rng": game.rng.getstate(),
        "decision": game.decision, "log": game.log,
    }


def _play(setup, seed: int, fast: bool, monkeypatch, round_only: bool = False,
          record: bool = False) -> tuple[Game, list]:
    monkeypatch.setattr(fastpath, "ENABLED", fast)
    game = Game(setup, seed, record=record)
    chooser = random.Random(seed * 7 + 1)
    asked = []

    def choose(decision):
        # what the chooser is shown, and the state of the game it may read
        asked.append((decision.actor, decision.kind, decision.prompt, decision.options, game.phase,
                      len(game.answers), game.trick.plays[:] if game.trick is not None else None, len(game.log)))
        return chooser.randrange(len(decision.options))

    if round_only:
        while game.decision is not None:
            game.play(choose, round_only=True)
            asked.append(("round", len(game.history)))
    else:
        game.play(choose)
    return game, asked


def _compare(setup, seeds, monkeypatch, round_only: bool = False) -> None:
    for seed in seeds:
        for record in (False, True):
            fast, fast_asked = _play(setup, seed, True, monkeypatch, round_only, record)
            slow, slow_asked = _play(setup, seed, False, monkeypatch, round_only, record)
            assert fast_asked == slow_asked
            assert _state(fast) == _state(slow)
            assert [list(event) for event in fast.log] == [list(event) for event in slow.log]  # keys in the same order
            assert fast.over
            assert bool(fast.log) == record


def _configurations():
    for scenario_id in SCENARIOS:
        for players in PLAYERS:
            for express in (True, False):
                twist = (SCENARIOS.index(scenario_id) + players) % 2 == 0
                yield pytest.param(scenario_id, players, express, twist,
                                   id=f"{scenario_id}-{players}p-{'express' if express else 'campaign'}")


@pytest.mark.parametrize("scenario_id, players, express, twist", list(_configurations()))
def test_same_games_as_the_kernel_loop(scenario_id, players, express, twist, monkeypatch):
    setup = _setup(scenario_id, players, express, twist)
    _compare(setup, (1, 2) if express else (1,), monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("scenario_id, players, express, twist", list(_configurations()))
def test_same_games_as_the_kernel_loop_many_seeds(scenario_id, players, express, twist, monkeypatch):
    setup = _setup(scenario_id, players, express, twist)
    _compare(setup, range(3, 23 if express else 8), monkeypatch)


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_round_by_round_as_the_kernel_loop(scenario_id, monkeypatch):
    setup = _setup(scenario_id, 4, False, True)
    _compare(setup, (5,), monkeypatch, round_only=True)


def test_the_bundled_scenarios_use_it():
    for scenario_id in SCENARIOS:
        setup = _setup(scenario_id, 4, True, False)
        game = Game(setup, 1, record=False)
        assert fastpath.loop_for(game) is not None, scenario_id
        assert fastpath.loop_for(game) is fastpath.loop_for(Game(setup, 2, record=False))  # made once per setup
        logged = Game(setup, 1, record=True)
        assert fastpath.loop_for(logged) is not None, scenario_id
        assert fastpath.loop_for(logged) is not fastpath.loop_for(game)  # its own loop, with the events written in


def test_an_illegal_answer_is_refused_as_before(monkeypatch):
    from happydayz.base.errors import GameRuleError

    setup = _setup(SCENARIOS[0], 4, True, False)
    for fast, record in ((True, False), (False, False), (True, True)):
        monkeypatch.setattr(fastpath, "ENABLED", fast)
        game = Game(setup, 1, record=record)
        calls = []

        def choose(decision):
            calls.append(decision.kind)
            return len(decision.options) if len(calls) > 6 else 0

        with pytest.raises(GameRuleError, match="illegal answer"):
            game.play(choose)


def test_the_source_names_only_its_own_and_literal_values():
    """No modder's text in the source: names are the generator's or the namespace's, strings are literals."""
    setup = _setup(SCENARIOS[0], 3, True, False)
    game = Game(setup, 1, record=False)
    source, namespace = fastpath.source_for(game)
    tree = ast.parse(source)
    assigned = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    assigned |= {arg.arg for node in ast.walk(tree) if isinstance(node, ast.arguments) for arg in node.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            assert node.id in assigned or node.id in namespace or node.id == "_", node.id


def test_a_modders_name_is_a_literal_in_the_source():
    weird = {"Mini-van", "it's \"quoted\"\n}{@NEXT@ \\", "__import__('os')"}
    assert eval(fastpath._strs(weird), {"__builtins__": {}}) == weird
    assert eval(fastpath._str_tuple(sorted(weird)), {"__builtins__": {}}) == tuple(sorted(weird))
    with pytest.raises(TypeError):
        fastpath._strs({1})


@pytest.mark.parametrize("hook", ["after_keys", "start_keys", "game_end_keys", "trick_hooks", "play_hooks",
                                  "ruled", "restricted"])
def test_an_event_hook_or_a_trick_rule_keeps_the_kernel_loop(hook, monkeypatch):
    from happydayz.kernel.tables import InForce

    setup = _setup(SCENARIOS[0], 4, True, False)
    game = Game(setup, 1, record=False)
    in_force = InForce(len(game.cards), game._in_force.always_playable)
    value = {"trick_hooks": {"Bikers": ("x", "basic", "trick")}, "play_hooks": {"Bikers": (None, None)},
             "ruled": frozenset({"Bikers"}), "restricted": frozenset({"Bikers"})}.get(hook, (("x", "basic", hook),))
    setattr(in_force, hook, value)
    game._in_force = in_force
    assert fastpath.source_for(game) is None
    assert fastpath.loop_for(game) is None
