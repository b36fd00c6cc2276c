"""The Oh Hell box in lockstep with OpenSpiel's "oh_hell" (tests/conformance/oh_hell_lockstep.py says how).

Each setting is one of OpenSpiel's parameters at another value (every player count 3 to 7, one
suit, a fixed number of tricks, the off-bid penalty, the points per trick), the others at their
defaults: the legal moves of every decision (the bids, then the cards) and every player's points at
the end must agree. The negative controls give the two engines different values of one parameter
and must find a mismatch (each says after how many hands). Skipped without OpenSpiel.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import oh_hell_lockstep as lockstep  # noqa: E402  (this folder is on sys.path: pytest's rootdir-less import)

SETTINGS = lockstep.SETTINGS


def _id(setting: dict) -> str:
    return ",".join(f"{k}={str(v).lower()}" for k, v in setting.items()) or "defaults"


def _agree(setting: dict, hands: int) -> None:
    figures, found = lockstep.run(setting, hands=hands)
    assert not found, found[0]
    players = {**lockstep.DEFAULTS, **setting}["players"]
    # every hand: a bid per player and at least one card each
    assert figures.hands == hands and figures.decisions >= 2 * players * hands


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


def test_the_dealers_restriction_is_reached():
    """The lockstep reaches the last bidder's restriction: in most hands the dealer is refused a bid."""
    figures, found = lockstep.run({}, hands=50)
    assert not found
    assert 25 <= figures.restricted <= 50, figures


def test_the_box_is_a_game_for_openspiel_too():
    """The project's own OpenSpiel game plays the Oh Hell box (OpenSpiel's own random checks)."""
    import pyspiel

    import happydayz.openspiel  # noqa: F401  (registers "happydayz")

    game = pyspiel.load_game("happydayz", {"scenario": "oh-hell/3", "players": 3, "express": True})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
