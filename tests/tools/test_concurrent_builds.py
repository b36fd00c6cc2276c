"""Two `pip install .` of one checkout at once: each builds in folders of its own (setup.py), none in the tree.

setuptools built in the source tree (build/, happydayz.egg-info/), where two builds at once removed
each other's files ("error removing build/bdist.linux-x86_64/wheel/..."). Building a wheel is
what `pip install .` does first; two are built here at once from a copy of the project.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_two_builds_of_one_checkout_at_once_both_succeed_and_leave_the_tree_clean(tmp_path):
    tree = tmp_path / "checkout"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                              ".pytest_cache", ".hypothesis", "tests"))
    builds = [subprocess.Popen([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", ".", "-w",
                                str(tmp_path / f"wheels{i}")], cwd=tree, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True) for i in range(2)]
    outputs = [b.communicate(timeout=600)[0] for b in builds]
    assert [b.returncode for b in builds] == [0, 0], outputs
    assert [len(list((tmp_path / f"wheels{i}").glob("happydayz-*.whl"))) for i in range(2)] == [1, 1]
    assert not (tree / "build").exists() and not list(tree.glob("*.egg-info"))
