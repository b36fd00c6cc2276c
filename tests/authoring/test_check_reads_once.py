"""`check` reads and parses each file it checks once (a 1 MiB scenario was read and parsed 4 times)."""

from __future__ import annotations

import collections

from happydayz.base import safeyaml
from happydayz.cli.app import main


def _reads_when_checked(path, monkeypatch, capsys) -> int:
    """How many times `happydayz check PATH` reads the file (it must pass)."""
    reads: collections.Counter = collections.Counter()
    real = safeyaml.read_text

    def counted(file, *args, **kwargs):
        reads[str(file)] += 1
        return real(file, *args, **kwargs)

    monkeypatch.setattr(safeyaml, "read_text", counted)
    assert main(["check", str(path)]) == 0, capsys.readouterr()
    return reads[str(path)]


def test_check_reads_a_scenario_once(tmp_path, monkeypatch, capsys):
    path = tmp_path / "big.yaml"
    padding = "".join(f"# line {i} of padding text for the scenario file\n" for i in range(20_000))
    path.write_text("box: american-dream\ntitle: big\nfactions: [Survivalists, Bikers, Cheerleaders]\n" + padding,
                    encoding="utf-8")
    assert _reads_when_checked(path, monkeypatch, capsys) == 1


def test_check_reads_a_scripted_game_once(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.yaml"
    padding = "".join(f"# line {i} of padding text for the scripted game\n" for i in range(5_000))
    path.write_text("box: woodstock-fever\nfactions: [Hippies, Soldiers, Dogs]\nplayers: 3\nexpress: true\n"
                    "seed: 1\nanswers: []\nend: waiting\n" + padding, encoding="utf-8")
    assert _reads_when_checked(path, monkeypatch, capsys) == 1
