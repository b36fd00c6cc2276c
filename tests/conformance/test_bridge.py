"""The Bridge box in lockstep with OpenSpiel's "bridge" (tests/conformance/bridge_lockstep.py says how).

OpenSpiel's auction is driven with random calls and its contract laid into the kernel; then every play
decision (the player asked: the declarer for the dummy; the legal cards), the declarer's tricks and
every player's points must agree. Each setting is one of OpenSpiel's parameters at another value (the
dealer, the vulnerability), the others at their defaults. The negative controls give the engines
different values of one parameter, or lay the contract against one rule, and must find a mismatch.
The bots play the box to the end. Skipped without OpenSpiel (the bots' test is not).
"""

from __future__ import annotations

import pytest

from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots

def _id(setting: dict) -> str:
    return ",".join(f"{k}={str(v).lower()}" for k, v in setting.items()) or "defaults"


def _lockstep():
    pytest.importorskip("pyspiel")
    import bridge_lockstep  # (this folder is on sys.path: pytest's rootdir-less import)
    return bridge_lockstep


def _settings():
    try:
        import bridge_lockstep
        return bridge_lockstep.SETTINGS, bridge_lockstep.CONTROLS
    except ImportError:  # no OpenSpiel: the lockstep tests skip themselves
        return [{}], []


SETTINGS, CONTROLS = _settings()


def _agree(setting: dict, hands: int):
    lockstep = _lockstep()
    figures, found = lockstep.run(setting, hands=hands)
    assert not found, found[0]
    played = hands - figures.passed_out
    # every deal played: 52 cards, 13 of them (or more) the dummy's, asked of the declarer
    assert figures.hands == hands and figures.decisions == 52 * played
    assert figures.dummy_decisions == 13 * played
    return figures


def test_lockstep_quick_defaults():
    figures = _agree({}, 50)
    # the random auction reaches every kind of contract
    assert figures.passed_out > 0 and figures.doubled + figures.redoubled > 0 and figures.no_trump > 0
    assert 0 < figures.made < 50


@pytest.mark.parametrize("setting", SETTINGS[1:], ids=_id)
def test_lockstep_quick(setting):
    _agree(setting, 50)  # 50 deals per setting, as at the defaults


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS, ids=_id)
def test_lockstep_slow(setting):
    _agree(setting, 2000 if not setting else 200)


@pytest.mark.parametrize("name,ours,theirs,laying", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_negative_control_finds_the_difference(name, ours, theirs, laying, capsys):
    lockstep = _lockstep()
    figures, found = lockstep.run(ours, theirs, hands=2000, laying=laying)
    assert figures.mismatches == 1 and found, f"{name}: no mismatch in 2000 deals"
    first = found[0].splitlines()[0]
    assert first.startswith("seed "), first
    with capsys.disabled():
        print(f"\nnegative control {name}: first mismatch after {figures.hands + 1} deal(s): {first[:160]}")


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.usefixtures("quick_ismcts")
def test_every_bot_plays_the_box_to_the_end(bot):
    """The bots play bridge/2 to its end: the auction, the doubling, the dummy's cards for the declarer."""
    env = Environment()
    setup = build_setup(*env.resolve_scenario("bridge/2"), GameOptions(4, express=True), env)
    game = Game(setup, 3)
    asked = []
    agents = make_bots([bot] * 4, 3)

    class Counting:
        def __init__(self, agent):
            self.agent = agent
            self.bind = getattr(agent, "bind", None)

        def decide(self, observation, decision):
            asked.append((decision.actor, decision.decider))
            return self.agent.decide(observation, decision)

    result = play_game(game, [Counting(a) for a in agents])
    assert game.over and result["rounds"] >= 1
    dummy_plays = [(a, d) for a, d in asked if a != d]
    assert len(dummy_plays) >= 13 and all(d == game.setup.partner_of[a] for a, d in dummy_plays)
    scores = game.population
    assert scores[0] == scores[2] and scores[1] == scores[3]  # a team keeps one score
    assert scores[0] - 1000 == -(scores[1] - 1000)  # what one side gains the other loses


def test_the_box_is_a_game_for_openspiel_too():
    """The project's own OpenSpiel game plays the Bridge box (OpenSpiel's own random checks)."""
    pyspiel = pytest.importorskip("pyspiel")

    import happydayz.openspiel  # noqa: F401  (registers "happydayz")

    game = pyspiel.load_game("happydayz", {"scenario": "bridge/1", "players": 4, "express": True})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
