"""The Euchre box in lockstep with OpenSpiel's "euchre" (tests/conformance/euchre_lockstep.py says how).

Each setting is one of OpenSpiel's two parameters at its other value, the other at its default: the legal
moves of every decision (the bids of both rounds, the dealer's discard, going alone and defending alone,
the cards) and every player's points at the end must agree. The negative controls give the two engines
different values of one parameter and must find a mismatch (each says after how many hands). Skipped
without OpenSpiel.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import euchre_lockstep as lockstep  # noqa: E402  (this folder is on sys.path: pytest's rootdir-less import)

SETTINGS = lockstep.SETTINGS


def _id(setting: dict) -> str:
    return ",".join(f"{k}={str(v).lower()}" for k, v in setting.items()) or "defaults"


def _agree(setting: dict, hands: int) -> lockstep.Figures:
    figures, found = lockstep.run(setting, hands=hands)
    assert not found, found[0]
    # every hand: at least one bid per player, or the eight passes of a hand nobody bids in
    assert figures.hands == hands and figures.decisions >= 4 * hands
    return figures


@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_quick(setting):
    _agree(setting, 50)


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_slow(setting):
    _agree(setting, 2000 if not setting else 200)


CONTROLS = lockstep.CONTROLS


@pytest.mark.parametrize("name,ours,theirs", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_negative_control_finds_the_difference(name, ours, theirs, capsys):
    figures, found = lockstep.run(ours, theirs, hands=2000)
    assert figures.mismatches == 1 and found, f"{name}: no mismatch in 2000 hands"
    first = found[0].splitlines()[0]
    assert first.startswith("seed "), first
    with capsys.disabled():
        print(f"\nnegative control {name}: first mismatch after {figures.hands + 1} hand(s): {first[:160]}")


def test_every_rule_of_the_bidding_and_going_alone_is_reached():
    """50 hands of each setting reach the second round, the stuck dealer, a lone maker, a lone defender and a
    hand nobody bids in (each where its setting has it)."""
    defaults = _agree({}, 50)
    assert defaults.second_round >= 5 and defaults.stuck >= 3 and defaults.alone >= 10
    assert defaults.defended_alone == 0 and defaults.redeals == 0
    lone = _agree({"allow_lone_defender": True}, 50)
    assert lone.defended_alone >= 10
    loose = _agree({"stick_the_dealer": False}, 50)
    assert loose.stuck == 0 and loose.redeals >= 2


def test_a_mismatch_names_the_seed_the_decision_and_both_move_sets():
    _, found = lockstep.run({}, {"allow_lone_defender": True}, hands=5)
    first = found[0].splitlines()[0]
    assert first.startswith("seed 0, decision ") and "kernel: player" in first and "OpenSpiel: player" in first
    assert "to go alone ['Alone', 'Partner']" in first


def test_the_box_is_a_game_for_openspiel_too():
    """The project's own OpenSpiel game plays the Euchre box (OpenSpiel's own random checks)."""
    import pyspiel

    import happydayz.openspiel  # noqa: F401  (registers "happydayz")

    game = pyspiel.load_game("happydayz", {"scenario": "euchre/2", "players": 4, "express": True})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


RULE_CONTROLS = lockstep.RULE_CONTROLS


@pytest.mark.parametrize("name,edit", RULE_CONTROLS, ids=[c[0] for c in RULE_CONTROLS])
def test_a_rule_of_the_box_broken_is_found(name, edit, capsys):
    """The kernel plays the box with one of its rules broken (its added power's text edited), OpenSpiel its own
    game: the lockstep finds the difference."""
    figures, found = lockstep.run({}, hands=2000, edit=edit)
    assert figures.mismatches == 1 and found, f"{name}: no mismatch in 2000 hands"
    with capsys.disabled():
        first = found[0].splitlines()[0]
        print(f"\nrule control {name}: first mismatch after {figures.hands + 1} hand(s): {first[:160]}")
