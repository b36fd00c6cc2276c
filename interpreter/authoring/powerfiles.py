"""Finding a power file by path or by a bundled power's name, and reading it checked."""

from __future__ import annotations

from pathlib import Path

from happydayz.base.errors import UsageError, suggest
from happydayz.base.resources import data_dir
from happydayz.data.environment import Environment
from happydayz.language.checker import CheckedPower, check
from happydayz.language.parser import parse_file


def bundled_powers() -> dict[str, Path]:
    """The bundled power files by file stem."""
    return {p.stem: p for p in sorted(data_dir("powers").glob("*.power"))}


def find_power(ref: str) -> Path:
    """A power file by path, or a bundled power by file stem or power name."""
    path = Path(ref)
    if path.is_file():
        if path.suffix.lower() in (".yaml", ".yml"):
            raise UsageError(f"{ref} is a box, scenario or scripted-game file, not a power: give a power file "
                             "(.power) or a bundled power's name, e.g. the power file a scenario names")
        return path
    powers = bundled_powers()
    key = ref.lower().replace(" ", "_").replace("-", "_")
    if key in powers:
        return powers[key]
    for stem, p in powers.items():
        if stem.replace("_", "") == key.replace("_", ""):
            return p
    guess = suggest(key, list(powers))
    hint = f"; did you mean '{guess}'?" if guess else ""
    raise UsageError(f"no power file '{ref}' and no bundled power of that name{hint} "
                     f"(bundled: {', '.join(powers)})")


def checked_power(path: Path, env: Environment, known_factions_only: bool = True) -> CheckedPower:
    """Parse and check a power file against the Factions of the loaded boxes.

    With `known_factions_only=False` a Faction no box has is taken as one a scenario brings
    (to word a power, `explain` need not know every Faction it names).
    """
    tree = parse_file(path)
    known = set(env.library.all_factions()) if known_factions_only else None
    return check(tree, known)


__all__ = ["bundled_powers", "find_power", "checked_power"]
