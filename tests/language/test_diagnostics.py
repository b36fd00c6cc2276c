"""Diagnostics: every error and warning code, as a person sees it.

Golden files. `tests/golden/diagnostics/<CODE>-<slug>.<ext>` is a small bad
file; `<CODE>-<slug>.expected` beside it is exactly what the command prints for
it (standard output and standard error together), run from that folder:

    .save.json          happydayz play --resume FILE  (exit 1)
    *.replay.*          happydayz replay --quiet FILE (exit 1): a file of another kind given as a scripted game
    any other           happydayz check FILE          (exit 1; 0 when only warnings)

(`check` tells a box, a scenario and a scripted game, `.game.yaml` here, apart
by their keys.)

An absolute path inside the folder is shown as `$DIR`. The files in `support/`
are valid helpers (power files, a scenario) that the bad files use.

After a deliberate change of wording, regenerate the expected outputs with

    python tests/language/test_diagnostics.py --regenerate

and read every changed `.expected` file: each one is reviewed text.

The other tests: every example of the parser's table of common mistakes gives
its code; `check --json` records; docs/diagnostics.md lists every code of the
code base; no input, however broken, prints a traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from happydayz.cli.app import main
from happydayz.base.errors import SyntaxProblem
from happydayz.language.parser import MAX_SOURCE_BYTES, parse, parse_file
from happydayz.language.syntax_errors import SYNTAX_MISTAKES

if __name__ == "__main__":  # run as a script (--regenerate): the tests' helpers are one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from conftest import ROOT  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "diagnostics"
DOC = ROOT / "docs" / "diagnostics.md"
REGENERATE = "python tests/language/test_diagnostics.py --regenerate"
CODE = re.compile(r"^([A-Z][0-9]{3})-[a-z0-9-]+$")

# Codes without a golden file: no file shows them, or their files belong to other commands
# (docs/diagnostics.md, "Codes that do not come from a file").
NO_GOLDEN_FILE = {
    "S004": "a power file over 256 KiB (tested below with a generated file)",
    "S005": "a power file that cannot be read (permissions)",
    "D002": "a box or scenario file over 1 MiB (tested below with a generated file)",
    "D014": "a schema rule with no message of its own: none of the current schemas has one",
    "D099": "internal guard: a file too deeply nested for Python (D007 refuses it first)",
    "F001": "a path that does not exist (tested below)",
    "F003": "`fmt` cannot write a file",
    "F004": "a folder with nothing to check (tested below)",
    "G001": "reserved for game-setup errors; nothing raises it at present",
    "L006": "a save file or a log cannot be written",
    # Files the program writes itself, read back by other commands with tests of their own.
    "L010": "an event log that cannot be read (replay-log)",
    "L011": "an event log line that is not an event (replay-log)",
    "L012": "an event log without a game (replay-log)",
    "A001": "a results file that cannot be read (report)",
    "A002": "a results file that is not JSON (report)",
    "A003": "a results file that holds no simulation results (report)",
    "A004": "a report that cannot be written (report)",
}


def golden_inputs() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if p.is_file() and p.suffix != ".expected" and CODE.match(_stem(p)))


def _stem(path: Path) -> str:
    return path.name.split(".", 1)[0]


def _command(path: Path) -> list[str]:
    if path.name.endswith(".save.json"):
        return ["play", "--resume", path.name]
    if ".replay." in path.name:  # a file given to `replay` by mistake
        return ["replay", "--quiet", path.name]
    return ["check", path.name]


def run(args: list[str], cwd: Path = GOLDEN) -> tuple[int, str]:
    """Run the command line in-process from `cwd`: (exit code, what it printed)."""
    out = io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(args)
    return code, out.getvalue().replace(str(GOLDEN.resolve()), "$DIR")


def expected_path(path: Path) -> Path:
    return path.with_name(_stem(path) + ".expected")


# ------------------------------------------------------------------ golden files


@pytest.mark.parametrize("path", golden_inputs(), ids=lambda p: p.name)
def test_output_matches_the_reviewed_golden_file(path: Path):
    golden = expected_path(path)
    if not golden.is_file():
        pytest.fail(f"no {golden.name}: generate it with `{REGENERATE}`, then read it")
    code, output = run(_command(path))
    assert output == golden.read_text(encoding="utf-8"), (
        f"the output for {path.name} changed; if the new text is right, run `{REGENERATE}` and review it")
    assert f"[{_stem(path)[:4]}]" in output, f"{path.name} does not give its code {_stem(path)[:4]}"
    assert code == (1 if "error[" in output else 0)
    assert "Traceback" not in output


def test_golden_folder_is_tidy():
    stems = {_stem(p) for p in golden_inputs()}
    expected = {_stem(p) for p in GOLDEN.glob("*.expected")}
    assert not expected - stems, f"expected outputs without an input: {sorted(expected - stems)}"
    assert len(stems) == len(golden_inputs()), "two inputs share a name"
    strays = [p.name for p in GOLDEN.iterdir() if p.is_file() and not CODE.match(_stem(p))]
    assert not strays, f"files that are not named <CODE>-<slug>: {strays}"


def _codes_in_source() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "interpreter").rglob("*.py"):
        codes |= set(re.findall(r'"([A-Z][0-9]{3})"', path.read_text(encoding="utf-8")))
    codes.discard("E000")  # the default of Diagnostic, documented apart
    return codes


def test_every_code_that_a_file_can_trigger_has_a_golden_file():
    golden = {_stem(p)[:4] for p in golden_inputs()}
    missing = _codes_in_source() - golden - set(NO_GOLDEN_FILE)
    assert not missing, f"codes without a golden file in {GOLDEN}: {sorted(missing)}"


# ------------------------------------------------------------------ the documentation


def _documented() -> dict[str, str]:
    rows = re.findall(r"^\| `?([A-Z][0-9]{3})`? \|(.*)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return dict(rows)


def test_every_code_is_documented():
    documented = _documented()
    missing = (_codes_in_source() | {"E000"}) - set(documented)
    assert not missing, f"codes missing from the table of {DOC.name}: {sorted(missing)}"
    unknown = set(documented) - _codes_in_source() - {"E000"}
    assert not unknown, f"{DOC.name} documents codes the code base does not have: {sorted(unknown)}"


def test_every_syntax_mistake_is_documented():
    text = DOC.read_text(encoding="utf-8")
    for mistake in SYNTAX_MISTAKES:
        assert f"| {mistake.code} |" in text


def test_the_examples_of_the_documentation_are_the_golden_files():
    text = DOC.read_text(encoding="utf-8")
    assert _examples_block(text) == render_examples(), (
        f"the examples of {DOC.name} are stale: run `{REGENERATE}`")


def test_every_example_is_linked_from_the_tables():
    text = DOC.read_text(encoding="utf-8")
    for path in golden_inputs():
        assert f"(#{_stem(path).lower()})" in text, f"no row of {DOC.name} links to the example {_stem(path)}"


# ------------------------------------------------------------------ the table of common syntax mistakes


@pytest.mark.parametrize("code, example", [(m.code, e) for m in SYNTAX_MISTAKES for e in m.examples],
                         ids=lambda v: v if isinstance(v, str) and len(v) == 4 else "")
def test_each_example_of_a_common_mistake_gives_its_code(code: str, example: str):
    with pytest.raises(SyntaxProblem) as caught:
        parse(example, "example.power")
    [d] = caught.value.diagnostics
    assert d.code == code, d.render(example)
    assert d.span.line >= 1 and d.span.column >= 1
    assert d.message and "{{" not in d.message + (d.hint or "") and "}}" not in d.message + (d.hint or "")


def test_syntax_codes_are_distinct_and_keep_the_old_ones():
    codes = [m.code for m in SYNTAX_MISTAKES]
    assert codes.count("S002") == 1 and codes.count("S003") == 1
    new = [c for c in codes if c >= "S020"]
    assert len(new) == len(set(new))


def test_a_mistake_names_the_block_that_is_not_closed():
    text = ("power Goblins {\n  for faction Goblins\n  on win {\n    each c in others {\n      gain 1 for c\n"
            "  }\n  at end of round {\n    lose 1\n  }\n}\n")
    with pytest.raises(SyntaxProblem) as caught:
        parse(text, "g.power")
    [d] = caught.value.diagnostics
    assert d.code == "S002"
    assert "the 'each' block opened on line 4" in d.message
    assert (d.span.line, d.span.column) == (7, 3)


# ------------------------------------------------------------------ codes that no file in the folder gives


@pytest.mark.parametrize("name, size, first_line", [
    ("big.power", MAX_SOURCE_BYTES + 1,
     "big.power:1:1: error[S004]: the file is larger than 256 KiB (262145 bytes); refusing to read it"),
    ("big.yaml", 1024 * 1024 + 1,
     "big.yaml:1:1: error[D002]: the file is larger than 1048576 bytes (1024 KiB); refusing to read it"),
])
def test_a_file_that_is_too_large(tmp_path: Path, name, size, first_line):
    (tmp_path / name).write_text("#" * size, encoding="utf-8")
    code, output = run(["check", name], cwd=tmp_path)
    assert code == 1
    assert output.splitlines()[0] == first_line


def test_a_power_file_that_cannot_be_read(tmp_path: Path):
    folder = tmp_path / "folder.power"
    folder.mkdir()
    with pytest.raises(SyntaxProblem) as caught:
        parse_file(folder)
    [d] = caught.value.diagnostics
    assert d.code == "S005" and d.message == "this is a folder, not a file"


def test_a_path_that_does_not_exist(tmp_path: Path):
    code, output = run(["check", "missing.power"], cwd=tmp_path)
    assert code == 1
    assert output == "missing.power:1:1: error[F001]: no such file or folder\n1 error, 0 warnings in 0 files\n"


def test_a_folder_with_nothing_to_check_is_a_warning(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code = main(["check", str(tmp_path / "empty")])
    out = capsys.readouterr().out
    assert code == 0
    assert out == (f"{tmp_path / 'empty'}:1:1: warning[F004]: this folder holds no file to check (.power, .yaml)\n"
                   "0 errors, 1 warning in 0 files\n")


def test_explain_of_a_scenario_file_says_it_needs_a_power_file(capsys):
    assert main(["explain", str(ROOT / "boxes" / "woodstock_fever.yaml")]) == 2
    err = capsys.readouterr().err
    assert "woodstock_fever.yaml is a box, scenario or scripted-game file, not a power: give a power file" in err


# ------------------------------------------------------------------ check --json


def test_check_json_records_of_a_syntax_error():
    code, output = run(["check", "--json", "S021-equals-in-condition.power"])
    assert code == 1
    assert json.loads(output) == [{
        "file": "S021-equals-in-condition.power", "line": 4, "column": 12, "end": {"line": 4, "column": 13},
        "severity": "error", "code": "S021",
        "message": "'=' gives a name its value (in 'let' and 'set'); to compare, write 'is' or '=='",
        "hint": "write: if led is Goblins {",
    }]


def test_check_json_records_of_several_files():
    code, output = run(["check", "--json", "C006-unknown-function.power", "W005-unused-variable.power",
                        "D021-unknown-faction.yaml"])
    assert code == 1
    records = json.loads(output)
    assert [tuple(r) for r in records] == [
        ("file", "line", "column", "end", "severity", "code", "message", "hint")] * 3
    # Box, scenario and scripted-game files are reported as they are read; power files after them all.
    assert records[1] == {
        "file": "C006-unknown-function.power", "line": 4, "column": 10, "end": {"line": 4, "column": 21},
        "severity": "error", "code": "C006", "message": "unknown function 'cuont'", "hint": "did you mean 'count'?"}
    assert records[2] == {
        "file": "W005-unused-variable.power", "line": 4, "column": 5, "end": {"line": 4, "column": 14},
        "severity": "warning", "code": "W005", "message": "the variable 'n' is never used", "hint": "use it, or remove it"}
    assert records[0] == {
        "file": "D021-unknown-faction.yaml", "line": 2, "column": 31, "end": {"line": 2, "column": 35},
        "severity": "error", "code": "D021",
        "message": "factions[2]: 'Dgos' is not a faction of any loaded box (did you mean 'Dogs'?)", "hint": None}


def test_check_json_of_warnings_only_exits_0():
    code, output = run(["check", "--json", "W002-repeat-zero.power"])
    assert code == 0
    [record] = json.loads(output)
    assert (record["severity"], record["code"], record["line"], record["column"]) == ("warning", "W002", 4, 5)


# ------------------------------------------------------------------ no traceback, whatever the input


def _damaged(texts: list[str], rnd: random.Random) -> str:
    pieces = ["", "{", "}", "(", ")", '"', "#", "=", "&&", "||", "!", "for", "in", "from", "else", "Gain", ":",
              ";", "'", ".", "\n", "\t", "power", "on win", "at end of round {", "variant basic {", "é", "\x00"]
    text = rnd.choice(texts)
    for _ in range(rnd.randint(1, 3)):
        start = rnd.randrange(len(text) + 1)
        end = min(len(text), start + rnd.randrange(9))
        text = text[:start] + rnd.choice(pieces) + text[end:]
    return text


def test_damaged_powers_give_a_positioned_diagnostic_and_no_traceback():
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "powers").glob("*.power"))]
    rnd = random.Random(20240611)
    seen = set()
    for _ in range(3000):
        text = _damaged(texts, rnd)
        try:
            parse(text, "damaged.power")
        except SyntaxProblem as exc:
            [d] = exc.diagnostics
            lines = text.splitlines() or [""]
            assert 1 <= d.span.line <= len(lines) + 1 and d.span.column >= 1, (d, text)
            assert re.fullmatch(r"S0[0-9][0-9]", d.code)
            d.render(text)
            seen.add(d.code)
    assert {"S001", "S002", "S020", "S029", "S030"} <= seen


def test_broken_files_of_every_kind_print_no_traceback(tmp_path: Path):
    rnd = random.Random(7)
    samples = {
        "a.power": [b"", b"\xff\xfe", b"power", b"}}}", b"power X {" * 50, bytes(range(256))],
        "a.yaml": [b"", b":", b"- - -", b"box: [", b"\xff", b"{a: 1, a: 2}", b"box: 1\nfactions: 2", bytes(range(256))],
        "a.txt": [b"hello"],
    }
    for name, contents in samples.items():
        for content in contents + [bytes(rnd.randrange(256) for _ in range(60)) for _ in range(5)]:
            (tmp_path / name).write_bytes(content)
            code, output = run(["check", name], cwd=tmp_path)
            assert code in (0, 1) and "Traceback" not in output, output
    for content in [b"", b"[]", b"{}", b"\xff", b'{"format": "happydayz-save/1"}', b"nul\x00"]:
        (tmp_path / "s.save.json").write_bytes(content)
        code, output = run(["play", "--resume", "s.save.json"], cwd=tmp_path)
        assert code == 1 and "Traceback" not in output and "[L00" in output, output
    for content in [b"", b"players: 3", b"factions: [Hippies]\nplayers: 9", b"scenario: 3\nplayers: 3"]:
        (tmp_path / "g.game.yaml").write_bytes(content)
        code, output = run(["replay", "--quiet", "g.game.yaml"], cwd=tmp_path)
        assert code == 1 and "Traceback" not in output, output


def test_the_command_checks_the_whole_golden_folder_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "happydayz", "check", str(GOLDEN)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert re.search(r"^\d+ errors, \d+ warnings in \d+ files$", result.stdout, re.MULTILINE)


# ------------------------------------------------------------------ regenerate

BEGIN = "<!-- BEGIN EXAMPLES (generated by tests/language/test_diagnostics.py --regenerate) -->\n"
END = "<!-- END EXAMPLES -->\n"
FAMILIES = "SCWDFLARGE"


def _examples_block(text: str) -> str:
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def render_examples() -> str:
    """The examples of docs/diagnostics.md: each golden file and its output."""
    parts = []
    for path in sorted(golden_inputs(), key=lambda p: (FAMILIES.index(p.name[0]), p.name)):
        raw = path.read_bytes()
        try:
            content, note = raw.decode("utf-8"), ""
        except UnicodeDecodeError:
            content, note = raw.decode("utf-8", "backslashreplace"), " (not UTF-8: the faulty byte is shown as `\\x..`)"
        if not content.endswith("\n"):
            content += "\n"
        output = expected_path(path).read_text(encoding="utf-8") if expected_path(path).is_file() else ""
        parts.append(f"\n### {_stem(path)}\n\n`{path.name}`{note}:\n\n```\n{content}```\n\n"
                     f"```\n$ happydayz {' '.join(_command(path))}\n{output}```\n")
    return "".join(parts) + "\n"


def regenerate() -> None:
    changed = []
    for path in golden_inputs():
        _, output = run(_command(path))
        golden = expected_path(path)
        if not golden.is_file() or golden.read_text(encoding="utf-8") != output:
            golden.write_text(output, encoding="utf-8")
            changed.append(golden.name)
    for stale in sorted(set(GOLDEN.glob("*.expected")) - {expected_path(p) for p in golden_inputs()}):
        stale.unlink()
        changed.append(f"{stale.name} (deleted)")
    text = DOC.read_text(encoding="utf-8")
    updated = text.replace(BEGIN + _examples_block(text) + END, BEGIN + render_examples() + END)
    if updated != text:
        DOC.write_text(updated, encoding="utf-8")
        changed.append(str(DOC.relative_to(ROOT)))
    print("\n".join(changed) if changed else "nothing changed")
    if changed:
        print(f"\n{len(changed)} file(s) written: read each one before committing.")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit(f"usage: {REGENERATE}")
    regenerate()


# ------------------------------------------------------------------ hints read from the grammar


def _grammar_alternatives(rule: str) -> list[str]:
    """The keywords that start each alternative of `rule` in grammar/powers.lark, read from the text."""
    text = (ROOT / "grammar" / "powers.lark").read_text(encoding="utf-8")
    body = re.search(rf"^\??{rule}:(.*?)(?=^\S)", text, re.MULTILINE | re.DOTALL).group(1)
    phrases = []
    for alternative in re.split(r"^\s*\|", body, flags=re.MULTILINE):
        words = re.match(r'\s*((?:"[a-z]+"\s*)+)', alternative)
        if words:
            phrases.append(" ".join(re.findall(r'"([a-z]+)"', words.group(1))))
    return phrases


def test_the_hints_list_every_hook_and_statement_of_the_grammar():
    from happydayz.language import syntax_errors
    from happydayz.language.grammar import hooks, statement_words

    assert list(hooks()) == _grammar_alternatives("hook")
    starts = {phrase.split()[0] for phrase in _grammar_alternatives("stmt")} | {"if"}
    assert set(statement_words()) == starts
    assert syntax_errors._HOOKS == hooks() and syntax_errors._STATEMENT_WORDS == statement_words()
    _, output = run(["check", "S001-unknown-hook.power"])
    for hook in hooks():
        assert f"'{hook}'" in output, f"the hint for an unknown hook leaves out '{hook}'"
    _, output = run(["check", "S027-statement-outside-hook.power"])
    assert all(f"'{hook}'" in output for hook in hooks())
