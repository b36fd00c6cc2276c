"""Shared helpers for the game tests. Import them with `from conftest import ...`.

Stable API (other test files rely on these names and signatures):

    make_game(factions, players=3, added=(), patient_zero=False, express=True,
              box="woodstock-fever", seed=0) -> Game
        A new game. `factions` lists "Name" or ("Name", "variant"), in rank
        order (Faction 1 first). `added` names added powers ("Bunker",
        "Horde"). Promo cards are found in any loaded box.

    position(game, **kw) -> Game
        happydayz.kernel.position.set_position: hands={seat: [labels]},
        transfers=..., expeditions=..., reserve=[labels, top first],
        populations=[...], active=seat, round_no=1, carried=...

    answer(game, *labels) -> Game
        Answers the pending decisions in order, each by its option label
        (case-insensitive). "label@seat" also asserts who must answer.
        A label that is not offered fails with the prompt and the legal options.

    options(game) -> list[str]
        The labels of the pending decision's options ([] when none is pending).

    labels(game, kind, seat=None) -> list[str]
        The sorted labels of a zone: labels(g, "expedition", 1),
        labels(g, "reserve"), labels(g, "discard").

    ordered(game, kind, seat=None) -> list[str]
        The same, in zone order (the Reserve: index 0 = top).

    last_count(game) -> dict
        The last end-of-round record of game.history (deltas, populations, ...).

    deltas(game) -> list[int]
        What each Community gained or lost at the last count.

    check_invariants(game)
        Every card in exactly one zone, game.loc agreeing with the zone lists,
        no population below 0.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.data.model import FactionChoice, Scenario
from happydayz.kernel.position import set_position
from happydayz.kernel.setup import GameOptions, build_setup
from happydayz.kernel.setup import prepare as _prepare

ROOT = Path(__file__).resolve().parent.parent  # the project's folder


#: One Environment for the whole test session: each power file is compiled once.
ENV = Environment()


def library():
    return ENV.library


def pytest_collection_modifyitems(items):
    """The tests marked `first` run first: under xdist's worksteal a worker starts them at once, and the
    others share the rest, instead of one of them starting a test of minutes near the end."""
    items.sort(key=lambda item: item.get_closest_marker("first") is None)  # (a stable sort keeps the rest)


#: The playouts a decision of ISMCTS gets under `quick_ismcts`: with up to six root candidates, some ten each.
QUICK_ISMCTS_ITERATIONS = 60


@pytest.fixture
def quick_ismcts(monkeypatch):
    """`ismcts` by name (--bots, make_bots) at QUICK_ISMCTS_ITERATIONS instead of the default 600: for the tests
    that check it answers every decision of whole games, or sees only its seat, not how well it plays. Its code
    paths are the same (every candidate is still sampled and played out); a game takes a tenth of the time."""
    from happydayz.players.ismcts import ISMCTSAgent
    from happydayz.players.registry import BOTS
    monkeypatch.setitem(BOTS, "ismcts", lambda seed: ISMCTSAgent(seed=seed, iterations=QUICK_ISMCTS_ITERATIONS))


def prepare(scenario, players=None, **options):
    """happydayz.kernel.setup.prepare in the test session's Environment: (setup, scenario)."""
    return _prepare(ENV, scenario, players, **options)


def _choice(entry) -> FactionChoice:
    if isinstance(entry, str):
        return FactionChoice(entry)
    name, variant = entry
    return FactionChoice(name, variant)


def make_game(factions, players=3, added=(), patient_zero=False, express=True, box="woodstock-fever", seed=0) -> Game:
    scenario = Scenario(id="test", title="test", box=box,
                        factions=tuple(_choice(f) for f in factions), added=tuple(added))
    setup = build_setup(scenario, library(), GameOptions(players=players, express=express, promos=patient_zero), ENV)
    return Game(setup, seed)


def position(game: Game, **kw) -> Game:
    return set_position(game, **kw)


def options(game: Game) -> list[str]:
    d = game.decision
    return [o.label for o in d.options] if d is not None else []


def answer(game: Game, *answers: str) -> Game:
    for step, text in enumerate(answers, 1):
        label, _, seat = text.rpartition("@") if "@" in text else (text, "", "")
        d = game.decision
        if d is None:
            pytest.fail(f"answer {step} ({text!r}): no decision is pending (the game is over: {game.over})")
        if seat:
            assert d.actor == int(seat), (
                f"answer {step} ({text!r}): Community {d.actor} must answer '{d.prompt}', not Community {seat}")
        index = d.index_of_label(label)
        if index is None:
            pytest.fail(f"answer {step} ({text!r}) is not offered to Community {d.actor} for '{d.prompt}' "
                        f"[{d.kind}]; legal options: {[o.label for o in d.options]}")
        game.apply(index)
    return game


def _zone(game: Game, kind: str, seat) -> list[int]:
    return game.zones[kind] if seat is None else game.zone(kind, seat)


def labels(game: Game, kind: str, seat=None) -> list[str]:
    return sorted(game.label(c) for c in _zone(game, kind, seat))


def ordered(game: Game, kind: str, seat=None) -> list[str]:
    return [game.label(c) for c in _zone(game, kind, seat)]


def last_count(game: Game) -> dict:
    assert game.history, "no round has been counted yet"
    return game.history[-1]


def deltas(game: Game) -> list[int]:
    """What each Community gained or lost at the last count."""
    return last_count(game)["deltas"]


def check_invariants(game: Game) -> None:
    total = len(game.cards)
    assert sum(len(z) for z in game.zones.values()) == total
    seen = set()
    for name, zone in game.zones.items():
        for card in zone:
            assert card not in seen, f"card {game.label(card)} is in two zones"
            seen.add(card)
            assert game.loc[card] == name, f"{game.label(card)}: loc says {game.loc[card]}, found in {name}"
    assert len(seen) == total
    floor = game.setup.floor
    assert floor is None or min(game.population) >= floor, game.population  # (no floor: below zero too)
    # what everyone has seen is true: a card known to lie in an Expedition zone is there,
    # a hand known to lack a Faction lacks it
    for seat in range(game.n):
        for card in game.known[seat]:
            assert game.loc[card] == f"expedition:{seat}", f"{game.label(card)} is known in expedition {seat}"
        held = {game.cards[c].faction for c in game.held(seat)}
        assert not held & game.voids[seat], f"seat {seat} holds a Faction it is known to lack"
