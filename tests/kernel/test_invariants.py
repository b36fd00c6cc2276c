"""Random playouts: invariants that hold after every decision of any game.

Both first-game scenarios, 2 to 5 players, campaigns (4 rounds or until a
Community reaches 0), Patient Zero on and off. Answers are drawn from a
random.Random seeded like the game, so a seed replays a whole game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ENV, check_invariants

from happydayz.base.errors import GameRuleError
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SCENARIOS = ("woodstock-fever/1", "american-dream/1")
MAX_DECISIONS = 5_000  # a 2-player campaign has about 4 x (4 transfers + 32 plays + powers)
_SETUPS: dict = {}


def setup_for(scenario_id, players, patient_zero, express=False, random_powers=False):
    key = (scenario_id, players, patient_zero, express, random_powers)
    if key not in _SETUPS:
        scenario, lib = ENV.resolve_scenario(scenario_id)
        _SETUPS[key] = build_setup(scenario, lib, GameOptions(players=players, express=express, promos=patient_zero,
                                                              random_powers=random_powers), ENV)
    return _SETUPS[key]


def playout(setup, seed, check=True) -> Game:
    g = Game(setup, seed)
    chooser = random.Random(seed)
    if check:
        check_invariants(g)
    steps = 0
    while g.decision is not None:
        steps += 1
        assert steps <= MAX_DECISIONS, "the game did not end"
        d = g.decision
        assert d.options, f"a decision without options: {d.prompt}"
        values = [repr(o.value) for o in d.options]  # (a Faction change's value is a list)
        assert len(set(values)) == len(values), f"an option offered twice: {values}"
        assert 0 <= d.actor < g.n
        if check and d.kind in ("lead", "follow"):
            check_play_options(g, d)
        g.apply(chooser.randrange(len(d.options)))
        if check:
            check_invariants(g)
    return g


def check_play_options(g: Game, d) -> None:
    """A lead may be any held card on either side; a follow obeys the Faction led."""
    held = sorted(g.held(d.actor))
    assert held, "a Community without cards is asked to play"
    if d.kind == "lead":
        if g.trick.led is not None:  # a Faction named before the lead (Governors): not checked here
            return
        assert sorted(o.value[0] for o in d.options) == sorted(held * 2)
        assert {o.value[1] for o in d.options} == {"+", "-"}
        return
    led = g.trick.led
    offered = sorted(o.value for o in d.options)
    same = [c for c in held if g.cards[c].faction == led]
    if led is None or not same:
        assert offered == held
    else:
        assert offered == sorted(same + [c for c in held if g.cards[c].faction == "Mini-van"])


def check_end(g: Game) -> None:
    assert g.over and g.decision is None
    assert g.history, "no round was counted"
    assert 1 <= len(g.history) <= g.setup.rounds
    if len(g.history) < g.setup.rounds:  # an early end: a Community reached 0
        assert min(g.population) == 0
    assert g.population == g.history[-1]["populations"]
    best = max(g.population)
    if best == 0:
        assert g.winners == []  # the Zombies win
    else:
        assert g.winners == [s for s in range(g.n) if g.population[s] == best]
    # every count agrees with the populations it started from (floor at 0)
    before = [g.setup.starting_population] * g.n
    for record in g.history:
        assert record["populations"] == [max(0, p + d) for p, d in zip(before, record["deltas"])]
        before = record["populations"]


@pytest.mark.parametrize("patient_zero", [False, True], ids=["plain", "patient-zero"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_random_campaigns_keep_every_invariant(scenario_id, players, patient_zero):
    setup = setup_for(scenario_id, players, patient_zero)
    for seed in range(3):
        g = playout(setup, seed)
        check_end(g)


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_random_express_games(scenario_id):
    for players in (2, 3, 4, 5):
        setup = setup_for(scenario_id, players, True, express=True)
        for seed in range(2):
            g = playout(setup, seed)
            check_end(g)
            assert len(g.history) == 1


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_random_campaigns_with_random_powers(scenario_id):
    setup = setup_for(scenario_id, 4, True, random_powers=True)
    for seed in range(3):
        check_end(playout(setup, seed))


@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_same_seed_same_game(scenario_id):
    setup = setup_for(scenario_id, 4, True)
    a = playout(setup, 7, check=False)
    b = playout(setup, 7, check=False)
    assert a.answers == b.answers
    assert a.log == b.log
    assert a.result() == b.result()
    c = playout(setup, 8, check=False)
    assert c.log != a.log


def test_replaying_the_answers_replays_the_game():
    setup = setup_for("woodstock-fever/1", 3, False)
    a = playout(setup, 3, check=False)
    b = Game(setup, 3)
    for index in a.answers:
        b.apply(index)
    assert b.over and b.log == a.log and b.population == a.population


def test_copy_is_independent():
    setup = setup_for("american-dream/1", 3, True)
    g = Game(setup, 5)
    chooser = random.Random(5)
    for _ in range(40):
        g.apply(chooser.randrange(len(g.decision.options)))
    twin = g.copy()
    seq = random.Random(99)
    answers = []
    while g.decision is not None:
        answers.append(seq.randrange(len(g.decision.options)))
        g.apply(answers[-1])
    for index in answers:
        twin.apply(index)
    assert twin.log == g.log and twin.population == g.population
    check_invariants(twin)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_id=st.sampled_from(SCENARIOS + ("woodstock-fever/4", "american-dream/5")),
       players=st.integers(2, 5), random_powers=st.booleans(), seed=st.integers(0, 2**32 - 1),
       where=st.floats(0, 1))
def test_a_copy_taken_anywhere_plays_on_as_the_original(scenario_id, players, random_powers, seed, where):
    """Copies share what never changes; playing the original must not move the copy (mid-power too)."""
    setup = setup_for(scenario_id, players, False, random_powers=random_powers)
    original = playout(setup, seed, check=False)
    stop = int(where * (len(original.answers) - 1))
    g = Game(setup, seed)
    for index in original.answers[:stop]:
        g.apply(index)
    twin = g.copy()
    snapshot = (twin.log[:], [list(z) for z in twin.zones.values()], list(twin.population))
    for index in original.answers[stop:]:
        g.apply(index)
    assert (twin.log, [list(z) for z in twin.zones.values()], twin.population) == snapshot
    for index in original.answers[stop:]:
        twin.apply(index)
    assert twin.over and twin.log == original.log and twin.population == original.population


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_id=st.sampled_from(SCENARIOS), players=st.integers(2, 5), patient_zero=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_hypothesis_playouts(scenario_id, players, patient_zero, seed):
    g = playout(setup_for(scenario_id, players, patient_zero), seed)
    check_end(g)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario_id=st.sampled_from(SCENARIOS), players=st.integers(2, 5), patient_zero=st.booleans(),
       record=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_play_is_the_apply_loop(scenario_id, players, patient_zero, record, seed):
    """Game.play (the playout loop) answers exactly as apply would, event log included."""
    setup = setup_for(scenario_id, players, patient_zero)
    original = playout(setup, seed, check=False)
    g = Game(setup, seed, record=record)
    chooser = random.Random(seed)
    g.play(lambda d: chooser.randrange(len(d.options)))
    assert g.over and g.answers == original.answers and g.population == original.population
    assert g.winners == original.winners and g.history == original.history
    assert g.log == (original.log if record else [])
    check_invariants(g)


def test_play_can_stop_when_the_round_is_counted():
    setup = setup_for("woodstock-fever/1", 4, False)
    g = Game(setup, 3, record=False)
    chooser = random.Random(3)
    g.play(lambda d: chooser.randrange(len(d.options)), round_only=True)
    assert len(g.history) == 1 and g.round_no == 1 and not g.over
    assert g.decision is not None  # the first decision of round 2 waits: nothing of it was played
    g.play(lambda d: chooser.randrange(len(d.options)), round_only=True)
    assert len(g.history) == 2 and not g.over


@pytest.mark.parametrize("answer", [-1, 99, "0", 1.0])
def test_play_refuses_an_illegal_answer_as_apply_does(answer):
    setup = setup_for("american-dream/1", 4, False)
    g = Game(setup, 1, record=False)
    d = g.decision
    with pytest.raises(GameRuleError) as caught:
        g.play(lambda decision: answer)
    message = caught.value.diagnostics[0].message
    assert message == f"illegal answer {answer!r} to '{d.prompt}': choose 0 to {len(d.options) - 1}"
    assert g.decision == d and g.answers == []  # nothing was answered
