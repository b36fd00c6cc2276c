"""A scripted game finds its scenario as a save does, and a message quotes a value in one short, escaped line.

A scripted game from someone else names a bundled scenario id, or a scenario file
inside its own folder (or a --powers folder): an absolute path elsewhere or a `..`
is refused (D031) without reading the file, by `replay` and by `test`. A value a
message quotes is cut to its first line and 500 characters, its escape sequences
and bidi controls escaped; the source line keeps its caret, its bidi controls shown
as U+FFFD.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hardening.support import run_main
from happydayz.base.errors import Diagnostic, Span

SECRET = "box: american-dream\ntitle: SECRET-CONTENT\nfactions: [Bikers, Nurses, Soldiers\n"  # broken: would be quoted
VALID = "box: american-dream\ntitle: elsewhere\nfactions: [Survivalists, Bikers, Cheerleaders]\n"


def folders(tmp_path: Path) -> tuple[Path, Path]:
    games, elsewhere = tmp_path / "games", tmp_path / "elsewhere"
    games.mkdir()
    elsewhere.mkdir()
    (elsewhere / "secret.yaml").write_text(SECRET, encoding="utf-8")
    return games, elsewhere


def scripted(folder: Path, reference: str) -> Path:
    path = folder / "game.game.yaml"
    path.write_text(f"scenario: {reference}\nplayers: 3\nanswers: []\nend: waiting\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["replay", "test"])
@pytest.mark.parametrize("form", ["absolute", "dotdot"])
def test_a_scenario_file_outside_the_scripted_games_folder_is_not_read(tmp_path, command, form):
    games, elsewhere = folders(tmp_path)
    reference = str(elsewhere / "secret.yaml") if form == "absolute" else "../elsewhere/secret.yaml"
    code, output = run_main(command, str(scripted(games, reference)))
    assert code == 1, output
    assert "SECRET" not in output and "Traceback" not in output
    assert ("error[D031]: scenario: the scenario file named is outside the scripted game's folder, so it is not "
            "read") in output


def test_a_scenario_file_in_its_folder_or_a_powers_folder_is_read(tmp_path):
    games, elsewhere = folders(tmp_path)
    (elsewhere / "valid.yaml").write_text(VALID, encoding="utf-8")
    (games / "here.yaml").write_text(VALID, encoding="utf-8")
    code, output = run_main("replay", str(scripted(games, "here.yaml")))
    assert code == 0, output
    code, output = run_main("--powers", str(elsewhere), "replay", str(scripted(games, str(elsewhere / "valid.yaml"))))
    assert code == 0, output
    code, output = run_main("replay", str(scripted(games, "woodstock-fever/1")))  # a bundled id
    assert code == 0, output


def test_a_value_of_twenty_thousand_lines_is_quoted_as_one_short_line(tmp_path):
    text = "\n".join(f"  line {i} with some words" for i in range(20_000))
    path = tmp_path / "big.game.yaml"
    path.write_text(f"scenario: woodstock-fever/1\nplayers: |\n{text}\nanswers: []\n", encoding="utf-8")
    code, output = run_main("replay", str(path))
    assert code == 1
    assert "error[D012]: players: expected a whole number, got the text 'line 0 with some words…'" in output
    assert len(output) < 1000, len(output)


def test_a_quoted_value_is_cut_and_escaped():
    from happydayz.base.errors import escaped, quote  # (here: the functions are what this test is about)

    assert quote("x" * 600) == "'" + "x" * 500 + "…'"
    assert quote("first\nsecond") == "'first…'"
    assert quote("red \x1b[31m\u202eevil") == "'red \\x1b[31m\\u202eevil'"
    assert escaped("a \x1b[2J b \u2066c\td\n") == "a \\x1b[2J b \\u2066c\td\n"


def test_a_diagnostic_escapes_its_message_and_keeps_its_line_and_caret(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("box: american-dream\n\u202etitle: x\n", encoding="utf-8")
    shown = Diagnostic(Span(str(path), 2, 1, 2, 2), "key '\u202etitle' \x1b[31m", "D010").render()
    head, line, caret = shown.splitlines()
    assert head.endswith("error[D010]: key '\\u202etitle' \\x1b[31m")
    assert line == "    \ufffdtitle: x" and caret == "    ^"


def test_an_answer_of_twenty_thousand_lines_is_quoted_as_one_short_line(tmp_path):
    lines = "\n".join(f"    line {i} \x5cu202e" for i in range(20_000))
    path = tmp_path / "answer.game.yaml"
    path.write_text(f"scenario: woodstock-fever/1\nplayers: 3\nanswers:\n  - |\n{lines}\n", encoding="utf-8")
    code, output = run_main("replay", str(path))
    assert code == 1 and len(output) < 2000, len(output)
    assert "illegal answer 'line 0 \\\\u202e…' to Community" in output


def test_a_message_is_cut_whatever_it_holds():
    shown = Diagnostic(Span("x.yaml", 1, 1), "unknown name " + "N" * 5000, "D020", quote=False).render()
    assert shown == "x.yaml:1:1: error[D020]: unknown name " + "N" * (2000 - len("unknown name ")) + "…"
