"""The benchmark script runs and reports every figure (its speed is measured by the script, not tested here)."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import random
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

BENCH = ROOT / "bench" / "bench.py"

KEYS = {
    "machine", "budget", "playout_us_per_trick", "playout_us_per_trick_by_scenario", "tricks_per_round",
    "simulate_us_per_trick", "floor_us_per_trick", "playout_floor_ratio", "simulate_kernel_ratio",
    "logged_playout_us_per_trick", "logged_playout_floor_ratio", "greedy_random_ratio", "greedy_random_ratio_range",
    "playout_floor_ratio_range", "load_powers", "load_powers_cold_ms", "load_powers_warm_parser_ms", "copy_us",
    "targets", "meets", "openspiel", "openspiel_python_floor_ratio", "openspiel_cpp_floor_ratio",
    "playout_openspiel_python_ratio", "random_game_floor_tricks", "greedy_choices_per_game",
    "greedy_decision_budget_floor_tricks",
}


def test_quick_json_run_has_every_key():
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)  # JSON only on stdout
    assert KEYS <= set(result)
    assert result["budget"]["quick"] is True
    assert set(result["playout_us_per_trick_by_scenario"]) == {"woodstock-fever/1", "american-dream/1"}
    for key in ("playout_us_per_trick", "logged_playout_us_per_trick", "simulate_us_per_trick", "floor_us_per_trick", "playout_floor_ratio",
                "simulate_kernel_ratio", "greedy_random_ratio",
                "load_powers_cold_ms", "load_powers_warm_parser_ms", "copy_us"):
        assert isinstance(result[key], (int, float)) and result[key] > 0, key
    # the headline ratio is the first key naming a ratio (what a script searching the JSON finds first)
    assert next(key for key in result if "ratio" in key) == "playout_floor_ratio"
    assert result["load_powers"] >= 1
    assert all(10 <= t <= 20 for t in result["tricks_per_round"].values())
    # a greedy bot looks ahead, a random one does not: a game between greedy bots costs more
    low, high = result["greedy_random_ratio_range"]
    assert 1 < low <= result["greedy_random_ratio"] <= high
    assert result["budget"]["greedy_games_per_scenario"] >= 1
    # a 4-player express round asks each seat a dozen leads and follows and more: most of them are choices
    assert 40 <= result["greedy_choices_per_game"] <= 120
    assert result["greedy_decision_budget_floor_tricks"] == pytest.approx(
        (result["targets"]["greedy_random_ratio"] - 1) * result["random_game_floor_tricks"]
        / result["greedy_choices_per_game"], rel=0.02)
    if importlib.util.find_spec("pyspiel") is not None:  # OpenSpiel's hearts beside the floor ([rl] extra)
        hearts = result["openspiel"]
        assert hearts["game"] == "hearts" and hearts["deals"] >= 1
        # OpenSpiel's C++ loop is faster than a Python loop over the same pyspiel states
        assert 0 < hearts["cpp_loop_us_per_trick"] < hearts["python_loop_us_per_trick"]
        assert result["openspiel_python_floor_ratio"] == pytest.approx(
            hearts["python_loop_us_per_trick"] / result["floor_us_per_trick"], rel=0.5)
        assert result["playout_openspiel_python_ratio"] > 0


def test_no_openspiel_leaves_the_hearts_figures_out():
    done = subprocess.run([sys.executable, str(BENCH), "--quick", "--json", "--no-openspiel"], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["openspiel"] is None
    assert result["openspiel_python_floor_ratio"] is result["playout_openspiel_python_ratio"] is None


def test_the_floor_plays_twelve_tricks_of_four_cards():
    sys.path.insert(0, str(BENCH.parent))
    try:
        import bench
    finally:
        sys.path.remove(str(BENCH.parent))
    deck = bench.floor_deck()
    assert len(deck) == 62
    assert bench.floor_round(random.Random(0), deck) == 12


def test_calls_counts_python_calls_per_trick():
    done = subprocess.run([sys.executable, str(BENCH), "--calls", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    calls = json.loads(done.stdout)
    assert set(calls) == {"playout", "logged_playout", "floor"}
    # the event log costs calls, and the kernel does more than the bare loop: real counts, not placeholders
    assert calls["floor"] < calls["playout"] < calls["logged_playout"]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="counting instructions needs valgrind")
def test_instructions_are_counted_inside_the_games_only():
    script = BENCH.parent / "instructions.py"
    done = subprocess.run([sys.executable, str(script), "--games", "1", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    # the loading (hundreds of millions of instructions) is not counted: a trick is tens of thousands
    assert 10_000 < counts["floor_instructions_per_trick"] < counts["playout_instructions_per_trick"] < 2_000_000
    ratio = counts["playout_instructions_per_trick"] / counts["floor_instructions_per_trick"]
    assert counts["instructions_ratio"] == pytest.approx(ratio, abs=0.01)


def test_paired_ismcts_compares_with_a_greedy_baseline_on_the_same_games():
    script = BENCH.parent / "paired_ismcts.py"
    done = subprocess.run([sys.executable, str(script), "--games", "2", "--config", '{"iterations": 3}'],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "2 games of american-dream/1 (4 players) against 3 greedy-reference"
    baseline = lines[2].split()
    assert baseline[:2] == ["greedy-reference", "(baseline)"]
    assert baseline[4:] == ["+0.000", "±", "0.000", "+0.00", "±", "0.00"]  # the baseline against itself
    assert lines[3].startswith('{"iterations": 3}')


def test_paired_ismcts_plays_a_classic_with_its_own_seats_and_a_side_winning_together(tmp_path):
    script = BENCH.parent / "paired_ismcts.py"
    out = tmp_path / "spades.json"
    done = subprocess.run([sys.executable, str(script), "--scenario", "spades/1", "--opponents", "greedy", "--games",
                           "2", "--config", '{"iterations": 3}', "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "2 games of spades/1 (4 players) against 3 greedy"
    results = json.loads(out.read_text())["results"]
    assert list(results) == ["greedy (baseline)", '{"iterations": 3}']
    for share, _ in results["greedy (baseline)"] + results['{"iterations": 3}']:
        assert share in (0.0, 0.5, 1.0)  # two partnerships: a side's whole win, half of a shared one, or none


def test_win_hooks_share_times_both_ways_and_puts_the_hooks_back():
    sys.path.insert(0, str(BENCH.parent))
    try:
        import win_hooks_share
        from happydayz.kernel.game import Game

        done = subprocess.run([sys.executable, str(BENCH.parent / "win_hooks_share.py"), "--turns", "2", "--games",
                               "3", "--json"], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert len(result["with_win_hooks"]) == len(result["without_win_hooks"]) == 2

        setup = next(iter(win_hooks_share.bench.setups().values()))[0]

        def powers_run(seed: int) -> int:
            game = Game(setup, seed)
            game.play(lambda d: 0)
            return sum(1 for event in game.log if event["event"] == "power")

        before = [powers_run(seed) for seed in (1, 2)]
        assert all(before)
        with win_hooks_share.without_win_hooks([setup]):
            assert [powers_run(seed) for seed in (1, 2)] == [0, 0]
        assert [powers_run(seed) for seed in (1, 2)] == before
    finally:
        sys.path.remove(str(BENCH.parent))


def _before_folder(tmp_path, edit=None):
    for rel in ("interpreter/players/lean_play.py", "interpreter/kernel/observation.py"):
        text = (ROOT / rel).read_text()
        if edit is not None and rel.endswith("lean_play.py"):
            text = edit(text)
        (tmp_path / rel.rsplit("/", 1)[1]).write_text(text)
    return tmp_path


def _greedy_ab(*args):
    return subprocess.run([sys.executable, str(BENCH.parent / "greedy_ab.py"), *args], capture_output=True,
                          text=True, timeout=300)


def test_greedy_ab_compares_two_versions_of_the_scoring_in_one_process(tmp_path):
    done = _greedy_ab("--before", str(_before_folder(tmp_path)), "--decisions", "6", "--rounds", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["woodstock-fever/1", "american-dream/1"]
    for line in lines:
        assert line.split()[1] == "after/before" and float(line.split()[2]) > 0
        assert line.endswith("(6 decisions, 2 rounds, the same moves)")


def test_greedy_ab_stops_when_the_versions_choose_differently(tmp_path):
    """The negative control: a 'before' whose scores are turned round chooses other moves, and the script says so."""
    turned = _before_folder(tmp_path, lambda text: text.replace(
        "    return score_options(prepare(S, obs), options, lead)",
        "    return [-x for x in score_options(prepare(S, obs), options, lead)]"))
    done = _greedy_ab("--before", str(turned), "--decisions", "30", "--rounds", "1")
    assert done.returncode != 0
    assert "woodstock-fever/1: the two versions chose different moves" in done.stderr


def test_greedy_ab_names_what_is_missing(tmp_path):
    done = _greedy_ab("--before", str(tmp_path))
    assert done.returncode != 0
    assert f"greedy_ab: --before {tmp_path}: no {tmp_path / 'lean_play.py'}, {tmp_path / 'observation.py'}" in done.stderr


def _greedy_passes(*args):
    return subprocess.run([sys.executable, str(BENCH.parent / "greedy_passes.py"), *args], capture_output=True,
                          text=True, timeout=300)


def test_greedy_passes_differ_where_the_fewest_win_and_nowhere_else():
    hearts = _greedy_passes("--scenario", "hearts/1", "--games", "20")
    assert hearts.returncode == 0, hearts.stderr
    assert hearts.stdout.startswith("hearts/1, games 0-19: greedy 40.0%, passing as GreedyAgent 25.0%; win share +0.1500")
    # Happy DayZ keeps GreedyAgent's passes: the same games, to the point (the control)
    dayz = _greedy_passes("--scenario", "woodstock-fever/1", "--games", "6")
    assert dayz.returncode == 0, dayz.stderr
    assert "win share +0.0000 (95% +0.0000 to +0.0000); points +0.0000 (95% +0.0000 to +0.0000)" in dayz.stdout


def test_greedy_passes_needs_two_games():
    done = _greedy_passes("--games", "1")
    assert done.returncode == 2 and "--games must be at least 2" in done.stderr


def _greedy_floor_module():
    """bench/greedy_floor.py as a module (it puts bench/ on the path for its harness, bench/bots.py)."""
    spec = importlib.util.spec_from_file_location("greedy_floor", BENCH.parent / "greedy_floor.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_greedy_floor_prints_each_cut_of_the_decision_beside_greedy_in_one_run():
    done = subprocess.run([sys.executable, str(BENCH.parent / "greedy_floor.py"), "--quick", "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["python"]
    assert set(result["scenarios"]) == {"woodstock-fever/1", "american-dream/1"}
    for figures in result["scenarios"].values():
        for name in ("greedy", "greedy-facts", "greedy-read", "greedy-reference"):
            assert figures[name] > 0, name
    # the moves of bench/bots.py's own run over the same decisions: the harness is the same
    bots = subprocess.run([sys.executable, str(BENCH.parent / "bots.py"), "--quick", "--json"], capture_output=True,
                          text=True, timeout=600)
    assert bots.returncode == 0, bots.stderr
    for sid, figures in result["scenarios"].items():
        made = json.loads(bots.stdout)["scenarios"][sid]["moves"]
        assert figures["moves"] == {"greedy": made["greedy"], "greedy-reference": made["greedy-reference"]}


@pytest.mark.parametrize("name, made, scored", [("greedy-facts", True, False), ("greedy-read", False, False),
                                                ("greedy", True, True)])
def test_greedy_floor_cuts_the_decision_where_it_says(monkeypatch, name, made, scored):
    """greedy-facts makes the decision's facts and scores nothing; greedy-read only reads the observation."""
    floor = _greedy_floor_module()
    from happydayz.players import lean_play

    calls = []
    for part in ("read", "prepare", "score_options"):
        real = getattr(lean_play, part)
        monkeypatch.setattr(lean_play, part, lambda *a, _real=real, _part=part: (calls.append(_part), _real(*a))[1])
    agent_class = floor.variant(name) if name != "greedy" else floor.bots.greedy_factory("greedy")
    game, decision = floor.bots.decisions("woodstock-fever/1", 1, 1)[0]
    agent = agent_class(7).bind(game.setup, decision.actor)
    move = agent.decide(floor.bots._observation(game, decision.actor), decision)
    assert 0 <= move < len(decision.options)
    assert "read" in calls
    assert ("prepare" in calls) is made and ("score_options" in calls) is scored


def test_greedy_floor_finds_the_compiled_modules_where_they_were_built(tmp_path):
    floor = _greedy_floor_module()
    finder = floor._Compiled(tmp_path)
    assert finder.find_spec("happydayz.kernel.game", None) is None  # (not one it builds)
    with pytest.raises(ImportError, match=r"greedy_floor: happydayz.players.lean_play was not built in "):
        finder.find_spec("happydayz.players.lean_play", None)
    built = tmp_path / "happydayz" / "players" / ("lean_play" + importlib.machinery.EXTENSION_SUFFIXES[0])
    built.parent.mkdir(parents=True)
    built.write_bytes(b"")
    spec = finder.find_spec("happydayz.players.lean_play", None)
    assert spec.origin == str(built) and spec.name == "happydayz.players.lean_play"


def test_greedy_floor_says_at_once_that_compiling_needs_cython():
    no_cython = ("import runpy, sys\n"
                 "sys.modules['Cython'] = None  # (import Cython fails, as where it is not installed)\n"
                 "sys.argv = ['greedy_floor.py', '--compiled', '--quick']\n"
                 f"runpy.run_path({str(BENCH.parent / 'greedy_floor.py')!r}, run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", no_cython], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "error: --compiled needs Cython (pip install cython) and a C compiler" in done.stderr
