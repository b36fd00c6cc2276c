"""bench/strength_table.py: rows per box from the library at each scenario's own number of players, express
games only for Happy DayZ's hand, a side (a team) winning as a whole, batches appended and resumed, rows
forgotten and played again, other result files read, paired comparisons, the table written between its
markers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT

SCRIPT = ROOT / "bench" / "strength_table.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def table():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import strength_table
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return strength_table


def test_every_box_of_the_library_is_a_row(table):
    from happydayz.data.environment import Environment

    boxes = Environment().library.boxes
    assert table.box_scenarios() == [boxes[b].scenarios[0].id for b in sorted(boxes)]
    assert {"woodstock-fever/1", "american-dream/1"} <= set(table.box_scenarios())


def test_batches_append_resume_and_compare(tmp_path):
    out = tmp_path / "s.jsonl"
    common = ["--out", str(out), "--scenario", "woodstock-fever/1", "--bots", "random,greedy", "--opponents",
              "random", "--batch", "3"]
    done = run(*common, "--games", "3")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["bot"], x["first"], len(x["winners"])) for x in lines] == [("random", 0, 3), ("greedy", 0, 3)]
    again = run(*common, "--games", "3")  # without --resume, a file holding games is not overwritten
    assert again.returncode == 2 and "--resume" in again.stderr
    done = run(*common, "--games", "5", "--resume")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(x["bot"], x["first"], len(x["winners"])) for x in lines][2:] == [("random", 3, 2), ("greedy", 3, 2)]
    fresh = tmp_path / "fresh.jsonl"
    done = run("--out", str(fresh), *common[2:], "--games", "5", "--batch", "5")
    assert done.returncode == 0, done.stderr
    whole = [json.loads(line) for line in fresh.read_text().splitlines()]
    # the same games whether played in one batch or resumed in two: seeded by (seed, scenario, index) only
    assert whole[0]["winners"] == lines[0]["winners"] + lines[2]["winners"]
    assert whole[1]["margins"] == lines[1]["margins"] + lines[3]["margins"]
    compared = run("--out", str(out), "--no-play", "--compare", "greedy", "random", "--opponents", "random",
                   "--json")
    assert compared.returncode == 0, compared.stderr
    (result,) = json.loads(compared.stdout[:compared.stdout.rindex("]") + 1])
    assert result["games"] == 5 and result["ci95"][0] <= result["difference"] <= result["ci95"][1]


def test_the_markdown_table_goes_between_the_markers(tmp_path, table):
    out = tmp_path / "s.jsonl"
    done = run("--out", str(out), "--scenario", "american-dream/1", "--bots", "greedy", "--opponents", "random",
               "--games", "4")
    assert done.returncode == 0, done.stderr
    page = tmp_path / "page.md"
    page.write_text(f"# Bots\n\nbefore\n{table.START}\nold\n{table.END}\nafter\n")
    done = run("--out", str(out), "--no-play", "--markdown", str(page))
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert "old" not in text and text.startswith("# Bots\n\nbefore\n") and text.endswith(f"{table.END}\nafter\n")
    (row,) = [line for line in text.splitlines() if line.startswith("| american-dream/1")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:5] == ["american-dream/1", "4", "greedy", "3 × random", "4"]  # every rate with its games
    assert "–" in cells[6] and cells[5].endswith("%**")  # … and its interval
    assert cells[10].endswith(" s")  # time per game
    missing = tmp_path / "none.md"
    missing.write_text("no markers\n")
    done = run("--out", str(out), "--no-play", "--markdown", str(missing))
    assert done.returncode != 0 and "markers" in done.stderr


def lines_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_scenario_plays_its_own_players_and_only_happy_dayz_express(table):
    class Args:
        players, campaign = 4, False

    rows = {scenario: table.row_of(scenario, Args) for scenario in table.box_scenarios()}
    assert rows["woodstock-fever/1"] == (4, True) and rows["american-dream/1"] == (4, True)
    assert rows["oh-hell/3"] == (3, False)  # the classics: their own seats, their whole game
    assert rows["bridge/1"] == rows["spades/1"] == rows["hearts/1"] == rows["euchre/1"] == (4, False)
    Args.campaign = True
    assert table.row_of("woodstock-fever/1", Args) == (4, False)


@pytest.mark.parametrize("scenario, sides", [("spades/1", 2), ("hearts/1", 4), ("bridge/1", 2)])
def test_a_side_wins_as_a_whole(table, scenario, sides):
    """A team game counts the bot's team (2 sides, not 4 seats); the margin is its side's, signed so that ahead is
    positive whichever way the game counts (Hearts: fewest points): a win is a margin of 0 or more, a sole win
    one above 0, in every game."""
    for index in range(6):
        r = table.play((scenario, "random", "random", 4, False, 1, index))
        assert r["sides"] == sides and r["decisions"] > 0
        assert (r["winners"] > 0) == (r["margin"] >= 0)
        assert (r["winners"] == 1) == (r["margin"] > 0)


def test_shares_and_fair_share_per_side(table):
    line = {"scenario": "s/1", "bot": "b", "opponents": "o", "players": 4, "express": False, "seed": 1, "first": 0,
            "sides": 2, "winners": [1, 0, 2, 1], "margins": [3, -1, 0, 2], "decisions": 8, "seconds": 0.008,
            "game_seconds": 2.0}
    (row,) = table.summary([line])
    assert row["win_rate"] == (1 + 0 + 0.5 + 1) / 4 and row["fair_share"] == 0.5 and row["games"] == 4
    assert row["ms_per_decision"] == pytest.approx(1.0) and row["s_per_game"] == pytest.approx(0.5)
    older = {k: v for k, v in line.items() if k not in ("sides", "game_seconds")}  # a line of before: seats
    (row,) = table.summary([older])
    assert row["fair_share"] == 0.25 and row["s_per_game"] is None


def test_forget_also_and_games_for(tmp_path):
    out, also = tmp_path / "s.jsonl", tmp_path / "also.jsonl"
    common = ["--scenario", "woodstock-fever/1", "--scenario", "spades/1", "--opponents", "random", "--batch", "2"]
    done = run("--out", str(also), *common, "--bots", "random", "--games", "2")
    assert done.returncode == 0, done.stderr
    # the rows of --also are not played again; --games-for gives a scenario (or a box) its own count
    done = run("--out", str(out), *common, "--bots", "random,greedy", "--games", "2", "--games-for", "spades=3",
               "--also", str(also))
    assert done.returncode == 0, done.stderr
    played = [(x["scenario"], x["bot"], x["first"], len(x["winners"])) for x in lines_of(out)]
    assert sorted(played) == [("spades/1", "greedy", 0, 2), ("spades/1", "greedy", 2, 1), ("spades/1", "random", 2, 1),
                              ("woodstock-fever/1", "greedy", 0, 2)]
    shown = run("--out", str(out), "--also", str(also), "--no-play", "--json")
    rows = {(r["scenario"], r["bot"]): r for r in json.loads(shown.stdout)}
    assert rows[("spades/1", "random")]["games"] == 3 and rows[("woodstock-fever/1", "random")]["games"] == 2
    assert rows[("spades/1", "greedy")]["fair_share"] == 0.5 and rows[("spades/1", "greedy")]["players"] == 4
    before = lines_of(out)
    # --forget greedy drops its rows (here all of --out's but the random one), and the resumed run plays them again
    done = run("--out", str(out), *common, "--bots", "random,greedy", "--games", "2", "--games-for", "spades=3",
               "--also", str(also), "--forget", "greedy", "--resume")
    assert done.returncode == 0, done.stderr
    assert f"{out}: 3 batch lines of greedy dropped" in done.stderr and "greedy vs 3 random: games 0-1" in done.stderr
    again = lines_of(out)
    assert [x for x in again if x["bot"] == "random"] == [x for x in before if x["bot"] == "random"]
    key = lambda x: (x["scenario"], x["first"])  # noqa: E731
    drop = ("seconds", "game_seconds")  # (the same games: only the times differ)
    assert sorted(({k: v for k, v in x.items() if k not in drop} for x in again if x["bot"] == "greedy"), key=key) == \
        sorted(({k: v for k, v in x.items() if k not in drop} for x in before if x["bot"] == "greedy"), key=key)
    assert lines_of(also) == [x for x in lines_of(also) if x["bot"] == "random"]
    # with --scenario, only the rows of those scenarios are forgotten
    done = run("--out", str(out), "--no-play", "--forget", "greedy", "--scenario", "spades/1")
    assert done.returncode == 0, done.stderr
    assert sorted({(x["scenario"], x["bot"]) for x in lines_of(out)}) == [("spades/1", "random"),
                                                                        ("woodstock-fever/1", "greedy")]
    done = run("--out", str(out), "--no-play", "--forget", "random")
    assert done.returncode == 0 and all(x["bot"] != "random" for x in lines_of(out))


def test_a_win_rate_interval_is_wilson_s_and_means_something_at_a_handful_of_games(table):
    """5 wins in 5 games: the normal approximation's interval is a point (100%-100%), Wilson's 56.6%-100%; at
    2,000 games the two agree to a tenth of a point; shared wins (1/k) count as the share."""
    mean, low, high = table.rate_interval([1.0] * 5)
    assert (mean, round(low, 3), high) == (1.0, 0.566, 1.0)
    assert table.interval([1.0] * 5)[1:] == (1.0, 1.0)  # (the negative control: the normal interval degenerates)
    mean, low, high = table.rate_interval([1.0] * 516 + [0.0] * 1484)
    n_mean, n_low, n_high = table.interval([1.0] * 516 + [0.0] * 1484)
    assert mean == n_mean == 0.258 and abs(low - n_low) < 0.001 and abs(high - n_high) < 0.001
    mean, low, high = table.rate_interval([0.5, 0.5, 0.0, 1.0])
    assert mean == 0.5 and 0.0 < low < 0.5 < high < 1.0
