"""docs/tutorial.md runs: every code block of the tutorial is executed, in order.

The tutorial is read top to bottom in one empty folder, and so is this test.
Each fenced code block carries an info string that says what to do with it:

    ```power file=NAME      write the block into NAME (a later block overwrites it)
    ```yaml file=NAME       the same, for a YAML file
    ```diff file=NAME       edit NAME: lines starting with ' ' (context) or '-'
                            must be found there, once, in that order, and are
                            replaced by the ' ' and '+' lines; '@@' separates
                            hunks. A blank line is a blank context line.
    ```console              '$ happydayz ...' lines are commands; the lines after
                            one, up to the next '$ ', are its output, compared
                            exactly (trailing spaces ignored). Exit code 0.
    ```console lenient      the same, but the output lines shown must appear in
                            the real output, in order, and a line '...' stands
                            for lines left out
    ```console fails        the commands must exit with 1 (also: exit=N)

Options combine (```console lenient fails). A block with any other info
string, or none, fails the test, so that no block can escape it; so does an
indented code block or a fence left open.

Commands run in-process through happydayz.cli.app.main (standard output and error
together, standard input empty, 80 columns), which keeps the test fast. Set
HAPPYDAYZ_TUTORIAL_SUBPROCESS=1 to run them with the installed `happydayz`
command instead.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

from happydayz.cli.app import main

from conftest import ROOT

TUTORIAL = ROOT / "docs" / "tutorial.md"
FILE_KINDS = {"power", "yaml", "diff"}
CONSOLE_FLAGS = {"lenient", "fails"}
FENCE = re.compile(r"^(`{3,}|~{3,})(.*)$")
HIDDEN_FENCE = re.compile(r"^[ \t>]+(`{3,}|~{3,})|<pre\b", re.IGNORECASE)
SHELL_SYNTAX = re.compile(r"[|&;<>`$()]")
COLUMNS = "80"


class TutorialError(Exception):
    """A block that cannot be run, or ran and did not do what the page shows."""


@dataclass
class Block:
    line: int                 # 1-based line of the opening fence
    info: str
    body: list[str]
    kind: str = ""
    file: str | None = None
    lenient: bool = False
    exit: int = 0

    def where(self) -> str:
        return f"{TUTORIAL.name}:{self.line}: ```{self.info}"


# --- reading the page ------------------------------------------------------------

def parse_blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, its info string checked."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    previous_blank = True
    while i < len(lines):
        line = lines[i]
        match = FENCE.match(line)
        if match is None:
            if HIDDEN_FENCE.match(line):
                raise TutorialError(f"{TUTORIAL.name}:{i + 1}: a code block that does not start at the "
                                    "beginning of a line (indented, quoted or <pre>); the test would not run it")
            if previous_blank and (line.startswith("    ") or line.startswith("\t")) and line.strip():
                raise TutorialError(f"{TUTORIAL.name}:{i + 1}: an indented code block; "
                                    "use a fenced block with an info string so that the test runs it")
            previous_blank = not line.strip()
            i += 1
            continue
        fence, info = match.group(1), match.group(2).strip()
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and not closes(lines[i], fence):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise TutorialError(f"{TUTORIAL.name}:{start + 1}: a code fence that is never closed")
        i += 1
        previous_blank = True
        blocks.append(classify(Block(start + 1, info, body)))
    return blocks


def closes(line: str, fence: str) -> bool:
    """Whether a line closes a block opened by `fence`: the same character, at least as many, nothing else."""
    return line.startswith(fence) and not line.rstrip().strip(fence[0])


def classify(block: Block) -> Block:
    words = block.info.split()
    if not words:
        raise TutorialError(f"{block.where()}: a code block without an info string; "
                            "say what it is (power file=..., yaml file=..., diff file=..., console ...)")
    block.kind, options = words[0], words[1:]
    if block.kind in FILE_KINDS:
        if len(options) != 1 or not options[0].startswith("file="):
            raise TutorialError(f"{block.where()}: a {block.kind} block takes exactly one option, file=NAME")
        name = options[0][len("file="):]
        path = PurePosixPath(name)
        if not name or path.is_absolute() or ".." in path.parts:
            raise TutorialError(f"{block.where()}: file= must be a plain relative path")
        block.file = name
    elif block.kind == "console":
        for option in options:
            if option == "lenient":
                block.lenient = True
            elif option == "fails":
                block.exit = 1
            elif re.fullmatch(r"exit=\d+", option):
                block.exit = int(option[len("exit="):])
            else:
                raise TutorialError(f"{block.where()}: unknown console option {option!r} "
                                    f"(known: {', '.join(sorted(CONSOLE_FLAGS))}, exit=N)")
    else:
        raise TutorialError(f"{block.where()}: unknown info string {block.kind!r}; "
                            "known: power, yaml, diff (each with file=NAME) and console")
    return block


# --- running the blocks ----------------------------------------------------------

@dataclass
class Command:
    argv: list[str]
    expected: list[str] = field(default_factory=list)


def commands(block: Block) -> list[Command]:
    found: list[Command] = []
    for number, line in enumerate(block.body):
        if line.startswith("$ "):
            text = line[2:].strip()
            if SHELL_SYNTAX.search(text):
                raise TutorialError(f"{block.where()}: {text!r}: pipes, redirections and other "
                                    "shell syntax are not run by the test; write plain commands")
            argv = shlex.split(text)
            if not argv or argv[0] != "happydayz":
                raise TutorialError(f"{block.where()}: {text!r}: only happydayz commands are run")
            found.append(Command(argv))
        elif not found:
            if line.strip():
                raise TutorialError(f"{block.where()}: output line {number + 1} before any '$ ' command")
        else:
            found[-1].expected.append(line)
    if not found:
        raise TutorialError(f"{block.where()}: a console block without a '$ ' command")
    return found


def run_command(argv: list[str]) -> tuple[int, str]:
    """Run one happydayz command in the current folder: (exit code, stdout and stderr)."""
    if os.environ.get("HAPPYDAYZ_TUTORIAL_SUBPROCESS"):
        executable = shutil.which("happydayz")
        assert executable, "the happydayz command is not on PATH"
        env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
        env.update(COLUMNS=COLUMNS, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
        done = subprocess.run([executable, *argv[1:]], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=env, timeout=300)
        return done.returncode, done.stdout.decode("utf-8")
    out = io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(argv[1:])
    finally:
        sys.stdin = saved_stdin
    return code, out.getvalue()


def normalised(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def compare(block: Block, command: Command, code: int, output: str) -> None:
    shown = f"$ {shlex.join(command.argv)}"
    if "Traceback (most recent call last)" in output:
        raise TutorialError(f"{block.where()}: {shown} crashed:\n{output}")
    actual = normalised(output.splitlines())
    expected = normalised(command.expected)
    if code != block.exit:
        raise TutorialError(f"{block.where()}: {shown} exited with {code}, the page expects {block.exit}; "
                            "its output:\n" + "\n".join(actual))
    if not block.lenient:
        if actual != expected:
            raise TutorialError(f"{block.where()}: {shown}: the output differs from the page.\n"
                                "--- on the page\n" + "\n".join(expected) +
                                "\n--- real\n" + "\n".join(actual))
        return
    position = 0
    for line in expected:
        if not line or line.strip() == "...":
            continue
        try:
            position = actual.index(line, position) + 1
        except ValueError:
            raise TutorialError(f"{block.where()}: {shown}: the line {line!r} is not in the output "
                                "(or not in this order). The real output:\n" + "\n".join(actual)) from None


def apply_diff(block: Block, folder: Path) -> None:
    path = folder / block.file
    if not path.is_file():
        raise TutorialError(f"{block.where()}: {block.file} does not exist yet")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    hunks: list[list[str]] = [[]]
    for line in block.body:
        if line.startswith("@@"):
            hunks.append([])
        else:
            hunks[-1].append(line)
    for hunk in (h for h in hunks if h):
        old: list[str] = []
        new: list[str] = []
        for line in hunk:
            mark, rest = (line[:1], line[1:]) if line else (" ", "")
            if mark not in " +-":
                raise TutorialError(f"{block.where()}: a diff line must start with ' ', '-' or '+': {line!r}")
            if mark in " -":
                old.append(rest)
            if mark in " +":
                new.append(rest)
        if not old:
            raise TutorialError(f"{block.where()}: a hunk needs a context or '-' line to say where it goes")
        places = [i for i in range(len(lines) - len(old) + 1) if lines[i:i + len(old)] == old]
        if len(places) != 1:
            raise TutorialError(f"{block.where()}: the lines to replace occur {len(places)} times "
                                f"in {block.file}, not once:\n" + "\n".join(old))
        lines[places[0]:places[0] + len(old)] = new
    path.write_text("\n".join(lines) + ("\n" if text.endswith("\n") else ""), encoding="utf-8")


def run_block(block: Block, folder: Path) -> None:
    if block.kind in ("power", "yaml"):
        path = folder / block.file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(block.body) + "\n", encoding="utf-8")
    elif block.kind == "diff":
        apply_diff(block, folder)
    else:
        for command in commands(block):
            code, output = run_command(command.argv)
            compare(block, command, code, output)


# --- the tests -------------------------------------------------------------------

@pytest.fixture
def isolated(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", COLUMNS)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_the_happydayz_command_is_installed():
    """The page tells the reader to type `happydayz`; the blocks above run in-process."""
    executable = shutil.which("happydayz")
    assert executable, "the happydayz command is not on PATH (pip install -e .)"
    done = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("happydayz ")


def test_every_block_of_the_tutorial_runs(isolated):
    blocks = parse_blocks(TUTORIAL.read_text(encoding="utf-8"))
    assert blocks, "the tutorial has no code block"
    kinds = {block.kind for block in blocks}
    assert {"power", "yaml", "diff", "console"} <= kinds
    for block in blocks:
        try:
            run_block(block, isolated)
        except TutorialError as problem:
            pytest.fail(str(problem), pytrace=False)


def test_the_tutorial_uses_each_command_it_teaches():
    blocks = parse_blocks(TUTORIAL.read_text(encoding="utf-8"))
    used = {cmd.argv[1] for b in blocks if b.kind == "console" for cmd in commands(b) if len(cmd.argv) > 1}
    assert {"new", "check", "explain", "replay", "play", "simulate"} <= used
    assert any(b.kind == "console" and b.exit == 1 and "check" in " ".join(b.body) for b in blocks), \
        "the tutorial shows a check that fails"


@pytest.mark.parametrize("info", ["", "text", "python", "yaml", "power file=", "console strict",
                                  "yaml file=../escape.yaml", "power file=a.power extra"])
def test_a_block_the_test_cannot_run_is_refused(info):
    page = f"Some text.\n\n```{info}\nsomething\n```\n"
    with pytest.raises(TutorialError):
        parse_blocks(page)


def test_an_indented_or_unclosed_block_is_refused():
    with pytest.raises(TutorialError, match="indented"):
        parse_blocks("Text.\n\n    happydayz check .\n")
    for hidden in ("- item\n\n  ```console\n  $ happydayz check .\n  ```\n",
                   "> ```console\n> $ happydayz check .\n> ```\n",
                   "<pre>happydayz check .</pre>\n"):
        with pytest.raises(TutorialError, match="beginning of a line"):
            parse_blocks(hidden)
    with pytest.raises(TutorialError, match="never closed"):
        parse_blocks("Text.\n\n```console\n$ happydayz check .\n")


def test_console_blocks_run_plain_happydayz_commands_only():
    for body in (["$ ls"], ["$ happydayz check . | tail -1"], ["output first", "$ happydayz check ."], []):
        with pytest.raises(TutorialError):
            commands(Block(1, "console", body, kind="console"))


def test_a_diff_must_match_once(tmp_path):
    (tmp_path / "f.power").write_text("a\nb\nc\nb\n", encoding="utf-8")
    apply_diff(Block(1, "diff file=f.power", [" a", "-b", "+B"], kind="diff", file="f.power"), tmp_path)
    assert (tmp_path / "f.power").read_text(encoding="utf-8") == "a\nB\nc\nb\n"
    (tmp_path / "f.power").write_text("a\nb\nc\nb\n", encoding="utf-8")
    with pytest.raises(TutorialError, match="2 times"):
        apply_diff(Block(1, "diff file=f.power", ["-b"], kind="diff", file="f.power"), tmp_path)
    with pytest.raises(TutorialError, match="0 times"):
        apply_diff(Block(1, "diff file=f.power", ["-zzz"], kind="diff", file="f.power"), tmp_path)
