"""bench/ismcts_vs_openspiel.py: our ISMCTS on our engine against OpenSpiel's ISMCTS on OpenSpiel's hearts,
the two engines in lockstep — a few hands at tiny budgets (skipped without OpenSpiel)."""

from __future__ import annotations

import json
import sys

import pytest

from conftest import ROOT

pytest.importorskip("pyspiel")

BENCH = ROOT / "bench"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH))
    try:
        import ismcts_vs_openspiel
    finally:
        sys.path.remove(str(BENCH))
    return ismcts_vs_openspiel


def test_hands_in_lockstep_write_a_line_each_and_resume(bench, tmp_path, capsys):
    out = tmp_path / "h.jsonl"
    tiny = ["--iterations", "5", "--simulations", "20", "--out", str(out)]
    assert bench.main(["--hands", "2", *tiny]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["hand"], line["seat"]) for line in lines] == [(0, 0), (1, 1)]  # our seat rotates
    for line in lines:
        assert sum(line["points"]) in (26, 78)  # every point handed out (78: a moon), both engines agreeing
        assert line["decisions"] == 52 + (12 if line["direction"] != "none" else 0)
        assert line["share"] in (0.0, 1.0, 1 / 2, 1 / 3) and line["simulations"] == 20 and line["commit"]
        assert line["times"]["ours"]["play"][0] > 0 and line["times"]["theirs"]["play"][0] > 0
    assert bench.main(["--hands", "2", *tiny]) == 2  # the file holds them: no silent second copy
    assert bench.main(["--hands", "3", "--resume", *tiny]) == 0  # only the missing hand
    assert [json.loads(line)["hand"] for line in out.read_text().splitlines()] == [0, 1, 2]
    assert "3 hands, win rate" in capsys.readouterr().out


def test_the_turned_pass_state_gives_the_passer_the_same_choice(bench):
    """OpenSpiel's bot searches a pass from the seats turned (its resampling breaks once its giver passed):
    the same cards to choose from, player 0 to pass, the turned hands."""
    import random

    import pyspiel

    game = pyspiel.load_game("hearts")
    state = game.new_initial_state()
    state.apply_action(1)  # pass to the left
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(7):  # players 0 and 1 have passed, player 2 has passed one card
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == 2
    turned = bench.turned(state, game)
    assert turned.current_player() == 0 and sorted(turned.legal_actions()) == sorted(state.legal_actions())
    history = [int(a) for a in state.history()]
    assert [int(a) for a in turned.history()][53:] == history[59:60]  # only its own pass so far
    # seat 0 of the turned deal holds player 2's hand, seat 1 player 3's
    dealt, turned_dealt = history[1:53], [int(a) for a in turned.history()][1:53]
    assert turned_dealt[0::4] == dealt[2::4] and turned_dealt[1::4] == dealt[3::4]
    bot = bench.Theirs("ismcts", 1, 30, 26.0, "max_visit_count", -1.0)
    assert bot.decide(state, game) in state.legal_actions()  # (on the untouched state it crashes)


def test_a_random_bot_in_our_seat_is_told_apart_from_the_searcher(bench):
    """The control's line says it is the random bot's: the summary pools configurations apart."""
    lines = [{**dict.fromkeys(bench.KEY), "ours": ours, "share": share, "points": [0, 5, 8, 13], "seat": 0,
              "times": {s: {k: [1, 0.1, 0.1] for k in ("pass", "play")} for s in ("ours", "theirs")},
              "simulations": 20, "commit": "x"} for ours, share in (("ismcts", 1.0), ("random", 0.0), ("random", 0.0))]
    rows = {r["ours"]: r for r in bench.summary(lines)}
    assert (rows["ismcts"]["games"], rows["random"]["games"], rows["random"]["win_rate"]) == (1, 2, 0.0)
    assert rows["random"]["at_fair_share"] is False
