"""Compiled powers reach a game only through language.host.PowerHost.

Every bundled power runs here against a host that offers the declared members
and nothing else: reading any other attribute of the game fails the test. The
greedy bot's look-ahead, which runs end-of-round powers on a table it
imagines, implements the same interface.
"""

from __future__ import annotations

import random

import pytest

from happydayz.language import vm
from happydayz.language.host import FACT_MEMBERS, HOST_MEMBERS, PowerHost
from happydayz.kernel.game import Game
from happydayz.players.greedy import _Probe

from conftest import ENV, library, prepare


class _Strict:
    """Offers `allowed` attributes of `inner` and fails on any other."""

    def __init__(self, inner, allowed: frozenset, what: str):
        object.__setattr__(self, "_inner", inner)
        object.__setattr__(self, "_allowed", allowed)
        object.__setattr__(self, "_what", what)

    def __getattr__(self, name: str):
        if name not in self._allowed:
            raise AssertionError(f"a compiled power read {self._what}.{name}, which language.host does not declare")
        value = getattr(self._inner, name)
        return _Strict(value, FACT_MEMBERS, "game.tables") if name == "tables" else value

    def __setattr__(self, name, value):
        raise AssertionError(f"a compiled power wrote {self._what}.{name}")


@pytest.fixture
def strict_host(monkeypatch):
    run, ctx = vm.run, vm.Ctx
    monkeypatch.setattr(vm, "run", lambda game, frame, program: run(_Strict(game, HOST_MEMBERS, "game"),
                                                                      frame, program))
    monkeypatch.setattr(vm, "Ctx", lambda game, *a, **k: ctx(_Strict(game, HOST_MEMBERS, "game"), *a, **k))


@pytest.mark.parametrize("scenario", sorted(s.id for s in library().scenarios()))
def test_every_bundled_power_runs_through_the_declared_interface_only(strict_host, scenario):
    setup, _ = prepare(scenario, 4, promos=True, random_powers=True)
    powers_ran = set()
    for seed in range(3):
        game = Game(setup, seed)
        rng = random.Random(seed)
        while game.decision is not None:
            game.apply(rng.randrange(len(game.decision.options)))
        powers_ran |= {e["power"] for e in game.log if e["event"] in ("power", "score", "move")}
    assert powers_ran  # the hooks did run, through the strict host


def test_the_greedy_look_ahead_implements_the_same_interface():
    assert PowerHost in _Probe.__mro__
    setup, _ = prepare("woodstock-fever/1", 4)
    game = Game(setup, 1)
    probe = _Probe(setup, game.observe(0), game.factions_in_play(), {})
    missing = sorted(name for name in HOST_MEMBERS if not hasattr(probe, name))
    assert not missing, f"the greedy bot's probe lacks {missing}"


def test_the_game_implements_the_interface():
    setup, _ = prepare("woodstock-fever/1", 4)
    game = Game(setup, 1)
    assert all(hasattr(game, name) for name in HOST_MEMBERS)
    assert all(hasattr(game.tables, name) for name in FACT_MEMBERS)
    assert ENV.library is library()
