"""bench/strength_table.py: rows per box from the library, batches appended and resumed, paired comparisons,
the table written between its markers."""

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
    assert cells[:4] == ["american-dream/1", "greedy", "3 × random", "4"]  # every rate with its games
    assert "–" in cells[5] and cells[4].endswith("%**")  # … and its interval
    missing = tmp_path / "none.md"
    missing.write_text("no markers\n")
    done = run("--out", str(out), "--no-play", "--markdown", str(missing))
    assert done.returncode != 0 and "markers" in done.stderr
