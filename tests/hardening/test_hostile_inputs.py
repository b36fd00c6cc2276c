"""Every command, fed hostile files and values, answers with one error and an exit code: never a traceback.

The files: a device, a pipe, a folder, a link to a device, JSON nested 100,000 deep, an integer of 5,000
digits, a sparse file of hundreds of MB, and Hypothesis' random JSON, YAML, power text and command-line
values. In this process each case asserts the exit code and the single error line; as a separate program
(the slow cases), also the time and the memory it took (docs/reliability.md).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hardening.support import assert_one_error, run_main, run_program

from happydayz.base.errors import MAX_SHOWN
from happydayz.base.files import LIMITS, MAX_JSON_DEPTH, MAX_JSON_DIGITS, size_text
from happydayz.simulation.simulate import MAX_GAMES

MEMORY_KIB = 400 * 1024  # what a refused input may cost, at most
SECONDS = 30  # alone it takes about a second; a loaded machine (a full test run) is slower

DEEP = "[" * 100_000 + "]" * 100_000
BIG_INT = '{"games": [{"seed": ' + "9" * 5000 + "}]}"


def hostile_files(tmp: Path) -> dict[str, str]:
    """Name -> path of each hostile file (made in `tmp`)."""
    (tmp / "folder.json").mkdir()
    os.mkfifo(tmp / "pipe.json")
    (tmp / "zero.json").symlink_to("/dev/zero")
    (tmp / "deep.json").write_text(DEEP, encoding="utf-8")
    (tmp / "bigint.json").write_text(BIG_INT, encoding="utf-8")
    (tmp / "deep-lines.jsonl").write_text('{"event": "game_start"}\n' + DEEP + "\n", encoding="utf-8")
    (tmp / "bigint-lines.jsonl").write_text('{"event": "game_start", "seed": ' + "1" * 4400 + "}\n",
                                            encoding="utf-8")
    with open(tmp / "sparse.json", "wb") as handle:  # larger than every limit, and nothing but NUL bytes
        handle.truncate(max(LIMITS.values()) + 1)
    return {"device": "/dev/zero", "link to a device": str(tmp / "zero.json"), "pipe": str(tmp / "pipe.json"),
            "folder": str(tmp / "folder.json"), "missing": str(tmp / "missing.json"),
            "deep JSON": str(tmp / "deep.json"), "5000-digit integer": str(tmp / "bigint.json"),
            "deep JSON line": str(tmp / "deep-lines.jsonl"), "4400-digit integer line": str(tmp / "bigint-lines.jsonl"),
            "sparse file": str(tmp / "sparse.json")}


COMMANDS = {  # how each command takes a file
    "report": lambda f, tmp: ["report", f, "--out", str(tmp / "report")],
    "replay-log": lambda f, tmp: ["replay-log", f],
    "play --resume": lambda f, tmp: ["play", "--resume", f],
    "replay": lambda f, tmp: ["replay", "--quiet", f],
    "simulate --scenario": lambda f, tmp: ["simulate", "--scenario", f, "--games", "1"],
    "sweep": lambda f, tmp: ["sweep", f, "--out", str(tmp / "out.jsonl")],
    "sweep --resume": lambda f, tmp: ["sweep", str(tmp / "spec.yaml"), "--resume", "--out", f],
}
KINDS = ["device", "link to a device", "pipe", "folder", "missing", "deep JSON", "5000-digit integer",
         "deep JSON line", "4400-digit integer line", "sparse file"]


@pytest.fixture
def files(tmp_path_factory):  # new for every test: sweep --resume may cut a last line it cannot read
    tmp = tmp_path_factory.mktemp("hostile")
    (tmp / "spec.yaml").write_text("scenarios: [woodstock-fever/1]\nplayers: 3\ngames: 1\nexpress: true\n",
                                   encoding="utf-8")
    return tmp, hostile_files(tmp)


# sweep --resume drops a last line cut short (an interrupted sweep's), so these are not refused but repaired
REPAIRED = {("sweep --resume", "missing"), ("sweep --resume", "deep JSON"), ("sweep --resume", "5000-digit integer")}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_refuses_every_hostile_file_with_one_error(files, command, kind):
    tmp, paths = files
    path = paths[kind]
    code, output = run_main(*COMMANDS[command](path, tmp))
    assert "Traceback" not in output and "\x00" not in output
    if (command, kind) in REPAIRED:
        assert code == 0, output[:2000]
        assert Path(path).read_text(encoding="utf-8").count("\n") == 1  # the game played, on a line of its own
        return
    line = assert_one_error(code, output)
    if kind in ("device", "link to a device", "pipe"):
        assert "not a regular file" in line or "must be a regular file" in line or "unknown scenario" in line, line
    elif kind == "sparse file":
        assert "larger than" in line, line
    elif (kind == "deep JSON" and command in ("report", "replay-log", "play --resume")
          or kind == "deep JSON line" and command in ("report", "replay-log")):
        assert f"nested too deeply (more than {MAX_JSON_DEPTH} levels)" in line, line
    elif (kind == "5000-digit integer" and command in ("report", "replay-log", "play --resume")
          or kind == "4400-digit integer line" and command in ("report", "replay-log", "play --resume")):
        assert f"is too long (at most {MAX_JSON_DIGITS} digits)" in line, line


def test_check_refuses_devices_pipes_and_folders_of_the_wrong_kind(files):
    tmp, paths = files
    for kind in ("device", "link to a device", "pipe"):
        code, output = run_main("check", paths[kind])
        assert code == 1 and "Traceback" not in output and "error[F00" in output, output


def test_a_long_line_is_shown_cut_around_its_column(tmp_path):
    path = tmp_path / "wide.json"
    path.write_text('{"games": [' + " " * 100_000 + "oops]}", encoding="utf-8")
    code, output = run_main("report", str(path), "--out", str(tmp_path / "r"))
    assert_one_error(code, output)
    source, caret = output.splitlines()[1:3]
    assert len(source) <= 4 + MAX_SHOWN + 2 and source.strip().startswith("…") and "oops" in source
    assert source.index("oops") == caret.index("^")


def test_the_games_limit_is_a_usage_error_before_anything_is_made():
    code, output = run_main("simulate", "--games", str(MAX_GAMES + 1), "--express")
    assert code == 2 and "Traceback" not in output
    assert f"at most {MAX_GAMES:,} games" in output


# ------------------------------------------------------------------ Hypothesis

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10 ** 40, max_value=10 ** 40) | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(
        ["games", "summary", "final_populations", "winners", "rounds", "event", "format", "scenario", "seed",
         "answers", "options", "cell", "game", "checksum", "players", "factions"]) | st.text(max_size=8), inner,
        max_size=6),
    max_leaves=30)


@st.composite
def hostile_json(draw) -> str:
    import json
    value = draw(json_values)
    text = json.dumps(value)
    how = draw(st.sampled_from(["plain", "nested", "long number", "cut", "lines"]))
    if how == "nested":
        depth = draw(st.integers(min_value=MAX_JSON_DEPTH - 2, max_value=5000))
        text = "[" * depth + text + "]" * depth
    elif how == "long number":
        text = text + "\n" + "[" + "7" * draw(st.integers(min_value=90, max_value=6000)) + "]"
    elif how == "cut":
        text = text[: draw(st.integers(min_value=0, max_value=max(0, len(text) - 1)))]
    elif how == "lines":
        text = "\n".join(json.dumps(v) for v in draw(st.lists(json_values, max_size=4)))
    return text


HYPOTHESIS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@HYPOTHESIS
@given(text=hostile_json(), command=st.sampled_from(["report", "replay-log", "play --resume", "sweep --resume"]))
def test_random_json_never_escapes_as_a_traceback(tmp_path_factory, text, command):
    tmp = tmp_path_factory.mktemp("json")
    (tmp / "spec.yaml").write_text("scenarios: [woodstock-fever/1]\nplayers: 3\ngames: 1\nexpress: true\n",
                                   encoding="utf-8")
    path = tmp / "input.json"
    path.write_text(text, encoding="utf-8")
    code, output = run_main(*COMMANDS[command](str(path), tmp))
    assert "Traceback" not in output
    if code != 0:
        assert_one_error(code, output)


yaml_text = st.one_of(
    st.text(alphabet=st.sampled_from(list("abcHippies:[]{}-,&*!|>'\"#\n\t 0123456789.\\\x00\x85\u2028")),
            max_size=200),
    st.lists(st.sampled_from(["title: t", "box: woodstock-fever", "box: 7", "factions: [Hippies, Soldiers, Dogs]",
                              "factions: [Hippies]", "players: 3", "players: 99", "custom_factions:",
                              "  - {name: X, power: /etc/passwd}", "  - {name: X, power: ../x.power}",
                              "  - {name: X, power: x.power}", "added: [Bunker]", "- a", "? [a]", "a: &x 1",
                              "b: *x", "k: !!python/object 1", "n: " + "9" * 50, "deep: " + "[" * 80 + "]" * 80]),
             max_size=8).map("\n".join),
)


@HYPOTHESIS
@given(text=yaml_text, command=st.sampled_from(["check", "simulate --scenario", "replay", "sweep"]))
def test_random_yaml_never_escapes_as_a_traceback(tmp_path_factory, text, command):
    tmp = tmp_path_factory.mktemp("yaml")
    path = tmp / "input.yaml"
    path.write_text(text, encoding="utf-8")
    argv = ["check", str(path)] if command == "check" else COMMANDS[command](str(path), tmp)
    code, output = run_main(*argv)
    assert "Traceback" not in output and code in (0, 1, 2), output[:2000]
    if code != 0:  # a file may have several mistakes: every one is a positioned diagnostic
        heads = [line for line in output.splitlines() if line and not line.startswith(" ")]
        assert heads and all(re.match(r"^\S.*:\d+:\d+: (error|warning)\[[A-Z]\d{3}\]: |happydayz: error: |\d+ errors?, ",
                                      line) for line in heads), output[:2000]


power_text = st.lists(st.sampled_from(
    ["power", "Hippies", "{", "}", "(", ")", "for", "faction", "on", "win", "gain", "lose", "1", "-", "+", "if",
     "else", "choose", "\n", " ", "\"", "variant", "positive", "when", "at", "end", "of", "round", "x", "=", "*",
     "999999999999999999999999999999", "\x00", "#", "//"]), max_size=80).map(" ".join)


@HYPOTHESIS
@given(text=power_text)
def test_random_power_text_never_escapes_as_a_traceback(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("power") / "input.power"
    path.write_text(text, encoding="utf-8")
    code, output = run_main("check", str(path))
    assert "Traceback" not in output and code in (0, 1), output[:2000]


values = st.one_of(st.text(max_size=12), st.integers(min_value=-10 ** 4000, max_value=10 ** 4000).map(str),
                   st.sampled_from(["0", "-1", "1e9", "0x10", "", " ", "--", "nan", str(MAX_GAMES + 1),
                                    "9" * 4400]))


@HYPOTHESIS
@given(games=values, seed=values, players=values, jobs=values)
def test_random_command_line_values_never_escape_as_a_traceback(games, seed, players, jobs):
    def number(text: str) -> int | None:
        try:
            return int(text)
        except ValueError:
            return None

    assume(not (number(games) is not None and 2 < number(games) <= MAX_GAMES))  # a real run: not the point here
    assume(not (number(jobs) is not None and number(jobs) > 4))
    code, output = run_main("simulate", "--express", "--quiet", "--games", games, "--seed", seed,
                            "--players", players, "--jobs", jobs)
    assert "Traceback" not in output and code in (0, 1, 2), output[:2000]
    if code:
        assert_one_error(code, output, code)


# ------------------------------------------------------------------ as a program: time and memory

PROGRAM_CASES = [
    ("check", "/dev/zero"), ("replay", "/dev/zero"), ("report", "/dev/zero"), ("replay-log", "/dev/zero"),
    ("play --resume", "/dev/zero"),
    ("simulate --scenario", "huge"), ("replay", "huge"), ("report", "huge"), ("replay-log", "huge"),
    ("report", "deep"), ("replay-log", "deep"), ("report", "bigint"),
    ("check", "huge"),
]


@pytest.fixture(scope="module")
def program_files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("program")
    with open(tmp / "huge.power", "wb") as handle:
        handle.truncate(300 * 1024 * 1024)
    for suffix in ("yaml", "json"):
        os.link(tmp / "huge.power", tmp / f"huge.{suffix}")
    (tmp / "deep.json").write_text(DEEP, encoding="utf-8")
    (tmp / "bigint.json").write_text(BIG_INT, encoding="utf-8")
    return tmp


@pytest.mark.slow
@pytest.mark.parametrize("command, which", PROGRAM_CASES)
def test_a_refused_input_costs_bounded_time_and_memory(program_files, command, which):
    tmp = program_files
    if which == "/dev/zero":
        path = "/dev/zero"
    elif which == "huge":
        path = str(tmp / ("huge.power" if command == "check" else
                          "huge.json" if command in ("report", "replay-log") else "huge.yaml"))
    else:
        path = str(tmp / f"{which}.json")
    argv = ["check", path] if command == "check" else COMMANDS[command](path, tmp)
    code, output, seconds, memory = run_program(*argv, timeout=120)
    assert "Traceback" not in output
    assert code == 1, output[:2000]
    assert seconds < SECONDS, f"{seconds:.1f} s"
    assert memory < MEMORY_KIB, f"{memory} KiB"


@pytest.mark.slow
def test_a_hundred_million_games_is_refused_at_once():
    code, output, seconds, memory = run_program("simulate", "--games", "100000000", "--express")
    assert code == 2 and "Traceback" not in output and "MemoryError" not in output
    assert f"at most {MAX_GAMES:,} games" in output
    assert memory < 120 * 1024 and seconds < SECONDS


def test_the_limits_are_documented_where_a_user_looks():
    root = Path(__file__).resolve().parents[2]
    reliability = (root / "docs" / "reliability.md").read_text(encoding="utf-8")
    cli = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    for kind, limit in LIMITS.items():
        assert size_text(limit) in reliability, (kind, size_text(limit))
    for text in (reliability, cli):
        assert f"{MAX_GAMES:,}" in text
    assert str(MAX_JSON_DEPTH) in reliability and str(MAX_JSON_DIGITS) in reliability
