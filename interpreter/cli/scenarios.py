"""`happydayz scenarios`: the scenarios of the loaded boxes."""

from __future__ import annotations

import json
import sys

from rich.table import Table
from rich.text import Text

from happydayz.cli.common import stdout_console
from happydayz.language.english import variant_label


def _add_scenarios(sub) -> None:
    p = sub.add_parser("scenarios", help="list the bundled scenarios",
                       description="List every bundled scenario: its id, title, Factions (with power variants: "
                                   "(+) positive, (-) negative) and added powers.")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=_run_scenarios)


def _run_scenarios(args) -> int:
    scenarios = sorted(args.env.library.scenarios(), key=lambda s: (s.box, int(s.id.rpartition("/")[2])
                                                                  if s.id.rpartition("/")[2].isdigit() else 0, s.id))
    if args.json:
        records = [{"id": s.id, "title": s.title, "box": s.box,
                    "factions": [{"faction": c.faction, "variant": c.variant} for c in s.factions],
                    "added": list(s.added), "players": s.players}
                   for s in scenarios]
        sys.stdout.write(json.dumps(records, indent=2) + "\n")
        return 0
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("Scenario", no_wrap=True)
    table.add_column("Title")
    table.add_column("Factions")
    table.add_column("Added powers")
    for s in scenarios:
        table.add_row(s.id, Text(s.title), Text(", ".join(variant_label(c.faction, c.variant) for c in s.factions)),
                      Text(", ".join(s.added) or "-"))
    stdout_console().print(table)
    return 0


COMMANDS = [_add_scenarios]
