"""The Spades box in lockstep with OpenSpiel's "spades" (tests/conformance/spades_lockstep.py says how).

Each setting is one of OpenSpiel's parameters at another value (the mercy rule off, the mercy and
win thresholds, the bonus, num_tricks), the others at their defaults, and combinations: the legal
moves of every decision (the bids, then the cards) and every player's points at the end must agree,
and whether the game is over. The negative controls give the two engines different values of one
parameter and must find a mismatch (each says after how many hands); the mercy end at the defaults,
which random play rarely reaches, is reached by a laid hand. Skipped without OpenSpiel.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import spades_lockstep as lockstep  # noqa: E402  (this folder is on sys.path: pytest's rootdir-less import)

SETTINGS = lockstep.SETTINGS


def _id(setting: dict) -> str:
    return ",".join(f"{k}={str(v).lower()}" for k, v in setting.items()) or "defaults"


def _agree(setting: dict, hands: int):
    figures, found = lockstep.run(setting, hands=hands)
    assert not found, found[0]
    # every hand: four bids and 52 cards
    assert figures.hands == hands and figures.decisions == 56 * hands
    return figures


@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_quick(setting):
    _agree(setting, 50)


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_slow(setting):
    _agree(setting, 2000 if not setting else 200)


def test_the_rules_are_reached():
    """The quick runs reach nil bids and the bag penalty at the defaults (the bags laid in), the mercy
    end at -100 and the win at 100 (running scores of 0)."""
    figures = _agree({}, 50)
    assert figures.nils >= 10 and figures.bag_penalties >= 1
    assert _agree({"mercy_threshold": -100, "scores": "zero"}, 50).mercies >= 10
    assert lockstep.run({"win_threshold": 100, "scores": "zero"}, hands=100)[0].wins >= 1


def test_the_mercy_end_at_the_defaults_agrees_on_a_laid_hand():
    figures, found = lockstep.run({}, hands=20, laid=lockstep.MERCY_AT_THE_DEFAULTS)
    assert not found, found[0]
    assert figures.hands == 20 and figures.mercies == 20 and figures.bag_penalties == 20


CONTROLS = lockstep.CONTROLS


@pytest.mark.parametrize("name,ours,theirs,laid", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_negative_control_finds_the_difference(name, ours, theirs, laid, capsys):
    figures, found = lockstep.run(ours, theirs, hands=2000, laid=laid)
    assert figures.mismatches == 1 and found, f"{name}: no mismatch in 2000 hands"
    first = found[0].splitlines()[0]
    assert first.startswith("seed "), first
    with capsys.disabled():
        print(f"\nnegative control {name}: first mismatch after {figures.hands + 1} hand(s): {first[:160]}")
