"""`happydayz --help` and every command's --help load no box file and compile no power."""

from __future__ import annotations

import pytest

import happydayz.data.boxes
import happydayz.data.environment
from happydayz.cli.app import COMMANDS, build_parser, main


@pytest.fixture
def no_loading(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("--help loaded the box files")

    monkeypatch.setattr(happydayz.data.boxes, "load_library", refuse)
    monkeypatch.setattr(happydayz.data.environment, "load_library", refuse)
    monkeypatch.setattr(happydayz.data.environment, "load_power", refuse)


def _commands() -> list[str]:
    parser = build_parser()
    return sorted(parser._subparsers._group_actions[0].choices)


def test_every_command_is_listed():
    assert len(_commands()) == len(COMMANDS)


@pytest.mark.parametrize("argv", [["--help"], *[[name, "--help"] for name in _commands()]])
def test_help_loads_nothing(no_loading, argv, capsys):
    assert main(argv) == 0
    assert "usage: happydayz" in capsys.readouterr().out
