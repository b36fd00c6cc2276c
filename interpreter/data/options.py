"""Scenario options: typed values a scenario sets (`options: {jd_bonus: true}`) that its powers declare.

A power declares an option with its default (`option jd_bonus = false`: a Yes/No; `option
pass_cards = 3`: a Number) and reads it by name like a counter or a mark; a scenario sets it for
every power of the game that declares it, so one set of power files serves every setting of a
game. This module says whether a value a scenario sets fits what its powers declare; `happydayz
check` asks it with the parsed powers, the kernel's set-up with the compiled ones.
"""

from __future__ import annotations

from typing import Mapping


def kind_of(value: int | bool) -> str:
    return "yes or no" if type(value) is bool else "a number"


def option_problem(name: str, value, declared: Mapping[str, int | bool]) -> str | None:
    """Why the scenario's `name: value` does not fit the options its powers declare (name -> default), or None."""
    if name not in declared:
        known = ", ".join(sorted(declared)) or "none"
        return f"no power of this game declares the option '{name}' (declared: {known})"
    wanted = declared[name]
    if (type(value) is bool) != (type(wanted) is bool):
        shown = str(value).lower() if type(value) is bool else str(value)  # as the file writes it
        return f"the option '{name}' is {kind_of(wanted)}, so {shown} does not fit it"
    return None


__all__ = ["option_problem", "kind_of"]
