"""Where the bundled data lives: the grammar, the power files and the box files.

In an installed wheel the data directories are package data under
happydayz/bundled/; in a source checkout (or an editable install) the package
directory sits beside them.
"""

from __future__ import annotations

from pathlib import Path

DATA_NAMES = ("grammar", "powers", "boxes")


def data_dir(name: str) -> Path:
    """The directory holding the bundled data called `name`.

    `name` is one of "grammar", "powers" or "boxes".
    """
    if name not in DATA_NAMES:
        raise ValueError(f"unknown data directory {name!r}; expected one of {', '.join(DATA_NAMES)}")
    here = Path(__file__).resolve().parent.parent  # the package folder (this file is in base/)
    for candidate in (here / "bundled" / name, here.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        f"the {name!r} data directory is missing: looked for {here / 'bundled' / name} and {here.parent / name}; "
        "reinstall the package or run from a complete source checkout"
    )


__all__ = ["DATA_NAMES", "data_dir"]
