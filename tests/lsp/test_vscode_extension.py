"""The VS Code extension under Node: its TextMate grammar and its activate(), and the packaged .vsix.

The tests themselves are JavaScript (editors/vscode/test/, node's built-in test runner): the grammar is
tokenized with vscode-textmate and vscode-oniguruma, the libraries VS Code uses, on every bundled and
cookbook power; activate() runs against a stub `vscode` module. They need `npm ci` in editors/vscode
(.ci/run does it, then `npm run package`); without Node or the installed packages they are skipped with
the command to run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"
VSIX = EXTENSION / "happydayz.vsix"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the VS Code extension's tests need Node 20")
    if not (EXTENSION / "node_modules" / "vscode-textmate").is_dir():
        pytest.skip("run `npm ci` in editors/vscode first (.ci/run does)")
    return node


def test_the_extensions_node_tests_pass():
    out = subprocess.run([_node(), "--test", "test/"], cwd=EXTENSION, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "# fail 0" in out.stdout and "# pass " in out.stdout


def test_the_packaged_vsix_holds_the_extension():
    if not VSIX.is_file():
        pytest.skip("no editors/vscode/happydayz.vsix: run `npm ci && npm run package` there (.ci/run does)")
    with zipfile.ZipFile(VSIX) as vsix:
        names = set(vsix.namelist())
        shipped = vsix.read("extension/syntaxes/power.tmLanguage.json").decode("utf-8")
        manifest = json.loads(vsix.read("extension/package.json"))
    assert {"extension/extension.js", "extension/language-configuration.json",
            "extension/node_modules/vscode-languageclient/node.js"} <= names
    assert not any(name.startswith(("extension/test/", "extension/node_modules/vscode-textmate/")) for name in names)
    assert shipped == (EXTENSION / "syntaxes" / "power.tmLanguage.json").read_text(encoding="utf-8")
    assert manifest["main"] == "./extension.js"
