"""The Hearts box in lockstep with OpenSpiel's "hearts" (tests/conformance/hearts_lockstep.py says how).

Each setting is one of OpenSpiel's parameters at its non-default value, the others at their defaults:
the legal moves of every decision and every player's points at the end must agree. The negative
controls give the two engines different values of one parameter and must find a mismatch (each
says after how many hands); can_lead_hearts_instead_of_qs, which random play reaches only every few
hundred hands, gets a laid deal that reaches it. Skipped without OpenSpiel (the [test] or [rl] extra).
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import hearts_lockstep as lockstep  # noqa: E402  (this folder is on sys.path: pytest's rootdir-less import)

SETTINGS = [{}] + [{name: not default} for name, default in lockstep.DEFAULTS.items()]


def _id(setting: dict) -> str:
    return ",".join(f"{k}={str(v).lower()}" for k, v in setting.items()) or "defaults"


QUEEN_AND_HEARTS = lockstep.QUEEN_AND_HEARTS


def _agree(setting: dict, hands: int, laid=None) -> None:
    figures, found = lockstep.run(setting, hands=hands, laid=laid)
    assert not found, found[0]
    assert figures.hands == hands and figures.decisions >= 52 * hands


@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_quick(setting):
    _agree(setting, 50)


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_slow(setting):
    _agree(setting, 2000 if not setting else 200)


@pytest.mark.parametrize("value", [False, True], ids=["default", "on"])
def test_lockstep_on_the_laid_deal_that_reaches_the_queen_and_hearts(value):
    _agree({"can_lead_hearts_instead_of_qs": value}, 50, laid=QUEEN_AND_HEARTS)


def test_the_laid_deal_reaches_the_rule():
    """The laid deal is a deal of the whole deck, and random play reaches the rule on it at once."""
    assert sorted(sum(QUEEN_AND_HEARTS["hands"].values(), [])) == list(range(52))
    figures, found = lockstep.run({}, {"can_lead_hearts_instead_of_qs": True}, hands=20, laid=QUEEN_AND_HEARTS)
    assert found and figures.hands <= 5


CONTROLS = lockstep.CONTROLS


@pytest.mark.parametrize("name,ours,theirs,laid", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_negative_control_finds_the_difference(name, ours, theirs, laid, capsys):
    figures, found = lockstep.run(ours, theirs, hands=2000, laid=laid)
    assert figures.mismatches == 1 and found, f"{name}: no mismatch in 2000 hands"
    hands = figures.hands + 1
    first = found[0].splitlines()[0]
    assert first.startswith("seed "), first
    assert "decision" in first and "kernel: player" in first and "OpenSpiel: player" in first \
        or "points differ at the end" in first, first
    with capsys.disabled():
        print(f"\nnegative control {name}: first mismatch after {hands} hand(s): {first[:160]}")


def test_the_box_is_a_game_for_openspiel_too():
    """The project's own OpenSpiel game plays the Hearts box (OpenSpiel's own random checks)."""
    import pyspiel

    import happydayz.openspiel  # noqa: F401  (registers "happydayz")

    game = pyspiel.load_game("happydayz", {"scenario": "hearts/1", "players": 4, "express": True})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
