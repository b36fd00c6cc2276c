"""The long random run of docs/reliability.md: every bundled scenario, every player count, every option set.

Each game is played with random answers, and after every decision the kernel's invariants are checked
(every card in exactly one zone, the zone index agreeing, no population below 0, what a Community saw is
true). Each game is then replayed from its seed and answers, and resumed from a save file (checksum
included) made halfway: both must give the very same event log. The counts are those documented.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

from conftest import ENV, check_invariants

from happydayz.base.errors import HappyError
from happydayz.kernel.game import Game
from happydayz.kernel.savegame import load_game, save_game
from happydayz.kernel.setup import GameOptions, build_setup

SEEDS = 3
MAX_DECISIONS = 5_000
OPTION_SETS = [dict(zip(("express", "promos", "random_powers"), flags))
               for flags in itertools.product((False, True), repeat=3)]


def _play(setup, seed: int, counts: dict) -> Game:
    game = Game(setup, seed)
    chooser = random.Random(seed)
    check_invariants(game)
    counts["invariant checks"] += 1
    while (decision := game.decision) is not None:
        assert decision.options and 0 <= decision.actor < game.n
        assert len(game.answers) < MAX_DECISIONS, "the game did not end"
        game.apply(chooser.randrange(len(decision.options)))
        check_invariants(game)
        counts["invariant checks"] += 1
        counts["decisions"] += 1
    return game


@pytest.mark.slow
@pytest.mark.first
def test_the_long_random_run_of_the_documentation(tmp_path):
    counts = dict.fromkeys(["games", "scenarios", "set-ups", "decisions", "invariant checks", "replays",
                            "saves resumed"], 0)
    players_seen: set[int] = set()
    scenarios = ENV.library.scenarios()
    counts["scenarios"] = len(scenarios)
    for scenario_def in scenarios:
        scenario, library = ENV.resolve_scenario(scenario_def.id)
        for players, options in itertools.product((2, 3, 4, 5), OPTION_SETS):
            try:
                setup = build_setup(scenario, library, GameOptions(players=players, **options), ENV)
            except HappyError:  # a scenario made for other player counts
                continue
            counts["set-ups"] += 1
            players_seen.add(players)
            for seed in range(SEEDS):
                game = _play(setup, seed, counts)
                counts["games"] += 1
                again = Game(setup, seed)  # a seed and the answers replay the game exactly
                for answer in game.answers:
                    again.apply(answer)
                assert again.log == game.log and again.result() == game.result()
                counts["replays"] += 1
                if seed == 0:  # saved halfway, resumed through the save file and its checksum
                    half = Game(setup, seed)
                    for answer in game.answers[: len(game.answers) // 2]:
                        half.apply(answer)
                    path = tmp_path / "game.json"
                    save_game(path, half, scenario_def.id, env=ENV)  # (without ENV, each save loads every box again)
                    resumed, _ = load_game(path, ENV)
                    for answer in game.answers[len(game.answers) // 2:]:
                        resumed.apply(answer)
                    assert resumed.log == game.log
                    counts["saves resumed"] += 1
    counts["player counts"] = len(players_seen)
    counts["option sets"] = len(OPTION_SETS)
    print(counts)
    documented = _documented_counts()
    assert set(documented) == set(counts)
    for name, (about, number) in documented.items():
        if about:  # depends on the powers' rules: documented to within a fifth
            assert 0.8 * number <= counts[name] <= 1.2 * number, (name, number, counts[name])
        else:
            assert counts[name] == number, (name, number, counts[name])


def _documented_counts() -> dict[str, tuple[bool, int]]:
    """The table between the two <!-- long-run --> marks of docs/reliability.md: name -> (about?, number)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "reliability.md").read_text(encoding="utf-8")
    block = text.split("<!-- long-run -->", 2)[1]
    rows = re.findall(r"^\| (.+?) \| (about )?([\d,]+) \|$", block, re.MULTILINE)
    return {name: (bool(about), int(number.replace(",", ""))) for name, about, number in rows}
