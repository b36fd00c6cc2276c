"""The wheel carries every subpackage of interpreter/ (pyproject's explicit package list)."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_subpackage_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = {name for name in config["packages"] if not name.startswith("happydayz.bundled")}
    folders = {"happydayz" + ("." + ".".join(p.parent.relative_to(ROOT / "interpreter").parts)
                              if p.parent != ROOT / "interpreter" else "")
               for p in (ROOT / "interpreter").rglob("__init__.py")}
    assert folders == listed, f"in interpreter/ but not listed: {sorted(folders - listed)}; " \
                              f"listed but missing: {sorted(listed - folders)}"
