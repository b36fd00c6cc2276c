"""`happydayz new faction NAME` and `happydayz new scenario NAME`: starting files.

A new Faction gets a power file with all three variants (an `on win` power
and an `at end of round` power, ready to edit) and a scenario file that puts
it in play beside two Factions of a bundled box, so that
`happydayz simulate --scenario FILE` plays it at once.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from happydayz.base.errors import UsageError, quote
from happydayz.base.files import write_atomic
from happydayz.data.model import Library

NAME = re.compile(r"^[A-Z][A-Za-z0-9_'-]*( [A-Za-z0-9_'-]+)*$")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "faction"


def faction_literal(name: str) -> str:
    """How the name is written in the language: bare when it can be, else quoted."""
    return name if re.fullmatch(r"[A-Z][A-Za-z0-9_'-]*", name) else f'"{name}"'


def yaml_text(text: str) -> str:
    """A text as a YAML value that reads back as it is, whatever it holds (`Night: the return`, a quote, a #):
    a double-quoted scalar, written as JSON writes a string (YAML reads JSON's escapes)."""
    return json.dumps(text, ensure_ascii=False)


def check_name(name: str) -> None:
    if not NAME.match(name):
        better = name[:1].upper() + name[1:]
        hint = f" (try '{better}')" if NAME.match(better) else ""
        raise UsageError(f"'{name}' is not a usable Faction name: start it with a capital letter and use letters, "
                         f"digits, spaces, hyphens or apostrophes{hint}")


POWER_TEMPLATE = '''# {name}: a new Faction. Edit it, then check it with
#   happydayz check {file}
# and read it back as card text with
#   happydayz explain {file}
power {lit} {{
  for faction {lit}

  variant basic {{
    # When you win a trick of {name} led: take the top card of the Reserve
    # into your hand, then put a card of your hand under the Reserve.
    on win {{
      draw 1
      choose spare from held {{
        move spare to bottom of reserve
      }}
    }}

    # At the count: one more Survivor for every 3 {name} cards you won.
    at end of round {{
      gain count(expedition where faction is {lit}) / 3
    }}
  }}

  variant positive "{upper} RISING" {{
    on win {{
      draw 2
      choose 2 spares from held {{
        move spares to bottom of reserve
      }}
    }}

    at end of round {{
      gain count(expedition where faction is {lit}) / 2
    }}
  }}

  variant negative "{upper} FALLING" {{
    on win {{
      draw 1
      move random(held) to bottom of reserve
    }}

    at end of round {{
      if self in everyone with strictly most count(expedition of it where faction is {lit}) {{
        lose 2
      }}
    }}
  }}
}}
'''

SCENARIO_TEMPLATE = '''# A scenario that puts {name} in play. Play it with
#   happydayz simulate --scenario {file}
title: {title}
box: {box}
factions:
{factions}
players: 4
custom_factions:
  - name: {name}
    power: {power}
    # 13 cards valued 1 to 13, each worth +1 Survivor; change them here
    cards: [{{values: "1-13", survivors: 1}}]
'''

PLAIN_SCENARIO_TEMPLATE = '''# A scenario: three Factions in rank order, each with its variant
# (basic, positive or negative). Play it with
#   happydayz simulate --scenario {file}
title: {title}
box: {box}
factions:
{factions}
# added: [...]        # an added power of the box, if you like
players: 4
promos: false         # true: the promo cards replace the cards they stand in for
'''


def _default_box(library: Library) -> tuple[str, list[str]]:
    box = library.boxes[sorted(library.boxes)[-1]]
    factions = [name for name in box.factions if name not in box.always]
    return box.id, factions


def _write(path: Path, text: str, force: bool) -> Path:
    if os.path.lexists(path) and not force:  # lexists: a link (even one to nothing) is never written through
        raise UsageError(f"{path} already exists; pass --force to overwrite it")
    write_atomic(path, text, what="new file")  # refuses a link, a folder or a device in the file's place
    return path


def new_faction(name: str, directory: Path, library: Library, force: bool = False) -> list[Path]:
    check_name(name)
    if name in library.all_factions():
        raise UsageError(f"'{name}' is already a Faction of a bundled box; choose another name")
    stem = slug(name)
    power_file = directory / f"{stem}.power"
    scenario_file = directory / f"{stem}.yaml"
    lit = faction_literal(name)
    box_id, factions = _default_box(library)
    entries = "\n".join(f"  - {f}" for f in [name] + factions[:2])
    written = [
        _write(power_file, POWER_TEMPLATE.format(name=name, lit=lit, file=power_file.name, upper=name.upper()), force),
        _write(scenario_file, SCENARIO_TEMPLATE.format(name=name, title=yaml_text(f"{name} join the fight"), box=box_id,
                                                       factions=entries, power=power_file.name,
                                                       file=scenario_file.name), force),
    ]
    return written


def new_scenario(name: str, directory: Path, library: Library, force: bool = False) -> list[Path]:
    if not name.isprintable():
        raise UsageError(f"the title {quote(name)} holds an invisible or control character; write it without")
    stem = slug(name)
    scenario_file = directory / f"{stem}.yaml"
    box_id, factions = _default_box(library)
    entries = "\n".join(f"  - {{faction: {f}, variant: basic}}" for f in factions[:3])
    text = PLAIN_SCENARIO_TEMPLATE.format(title=yaml_text(name), box=box_id, factions=entries, file=scenario_file.name)
    return [_write(scenario_file, text, force)]
