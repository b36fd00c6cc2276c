"""The `happydayz` command line.

    happydayz simulate   play many games between bots; a summary, JSON, event logs
    happydayz play       play a game in the terminal against bots
    happydayz scenarios  list the bundled scenarios
    happydayz check      check power, box and scenario files

`main(argv) -> int` is thin: each command parses its arguments and calls the
library. Exit codes: 0 success, 1 invalid input found (a check with errors, a
bad scenario or save file), 2 a usage error, 130 interrupted. A user's
mistake never prints a traceback.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
from typing import Callable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__
from .authoring import COMMANDS as AUTHORING_COMMANDS
from .errors import HappyError, UsageError, suggest

# The end-of-game wording when nobody survives; play.py and the simulate
# summary use it from here.
NOBODY_WINS = "The Zombies win"


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose mistakes raise UsageError instead of exiting."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.format_usage().rstrip()}\n{self.prog}: error: {message}")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def _players(text: str) -> int:
    value = _int(text)
    if not 2 <= value <= 5:
        raise argparse.ArgumentTypeError(f"2 to 5 players play, not {value}")
    return value


def _stdout() -> Console:
    return Console(file=sys.stdout, highlight=False)


def _stderr() -> Console:
    return Console(file=sys.stderr, highlight=False)


def winners_text(winners: Sequence[int], you: int | None = None) -> str:
    """The end-of-game sentence for a list of winning seats."""
    def name(seat: int) -> str:
        return f"Community {seat}" + (" (you)" if seat == you else "")

    if not winners:
        return f"{NOBODY_WINS}: no Community has a Survivor left."
    if len(winners) == 1:
        return f"{name(winners[0])} wins."
    listed = ", ".join(name(s) for s in winners[:-1]) + f" and {name(winners[-1])}"
    return f"{listed} share the win."


def promo_flags(library=None) -> list[str]:
    """The option names of the promo-card switch: --promos, and the promo cards' own name.

    The second is taken from the bundled box files: the name that all their
    promo cards share, before " - " (so the code names no card).
    """
    flags = ["--promos"]
    try:
        if library is None:
            from .boxes import load_library

            library = load_library()
        names = [promo.name for box in library.boxes.values() for promo in box.promos]
    except HappyError:  # a broken bundled box: the generic name still works
        return flags
    if not names:
        return flags
    shared = os.path.commonprefix(names)
    if len(names) > 1:
        shared = shared.rpartition(" - ")[0] if " - " in shared else ""
    slug = re.sub(r"[^a-z0-9]+", "-", shared.lower()).strip("-")
    if slug and f"--{slug}" not in flags:
        flags.append(f"--{slug}")
    return flags


@functools.lru_cache(maxsize=1)
def _bundled_promo_flags() -> tuple[str, ...]:
    return tuple(promo_flags())


def _add_promos(parser) -> None:
    parser.add_argument(*_bundled_promo_flags(), dest="promos", action="store_true",
                        help="play with the promo cards, each standing in for one card of its Faction")


def _scenario_help(default: str = "scenario 1 of the last box by id") -> str:
    return f"a scenario id (see 'happydayz scenarios') or the path of a scenario .yaml file (default: {default})"


# ------------------------------------------------------------------ simulate

def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play games between bots and summarise them",
                       description="Play games between bots and summarise them. The same arguments always give "
                                   "the same games.")
    p.add_argument("--scenario", metavar="ID|PATH", help=_scenario_help())
    p.add_argument("--players", type=_players, default=None, metavar="N",
                   help="2 to 5 (default: the scenario's own count, else 4)")
    p.add_argument("--games", type=_positive_int, default=1, metavar="N", help="games to play (default: 1)")
    p.add_argument("--seed", type=_int, default=0, metavar="S", help="the seed of the whole run (default: 0)")
    p.add_argument("--express", action="store_true", help="play one round instead of the campaign")
    _add_promos(p)
    p.add_argument("--random-powers", action="store_true", help="the optional rule: a random power each round")
    p.add_argument("--bots", metavar="LIST", help="one bot per seat, comma-separated, or one for every seat "
                                                  "(default: random)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH ('-': standard output)")
    p.add_argument("--log", metavar="PATH", help="write every event of every game as JSON Lines to PATH "
                                                 "('-': standard output)")
    p.set_defaults(run=_run_simulate)


def _run_simulate(args) -> int:
    from .boxes import load_library
    from .simulate import default_scenario, simulate, to_json

    if args.json == "-" and args.log == "-":
        raise UsageError("--json - and --log - cannot both write to standard output")
    for target in (args.json, args.log):  # fail now, not after the games
        if target not in (None, "-") and not os.path.isdir(os.path.dirname(os.path.abspath(target))):
            raise UsageError(f"cannot write {target}: its folder does not exist")
    library = load_library()
    scenario = args.scenario if args.scenario is not None else default_scenario(library)
    kwargs = dict(players=args.players, games=args.games, seed=args.seed, express=args.express,
                  promos=args.promos, random_powers=args.random_powers, bots=args.bots,
                  log=args.log, library=library)
    if sys.stderr.isatty() and args.games > 1:
        from rich.progress import Progress

        with Progress(console=_stderr(), transient=True) as bar:
            task = bar.add_task("Simulating", total=args.games)
            result = simulate(scenario, progress=lambda done, total: bar.update(task, completed=done), **kwargs)
    else:
        result = simulate(scenario, **kwargs)
    if args.json is not None:
        text = to_json(result)
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w", encoding="utf-8") as handle:
                handle.write(text)
    if args.json != "-" and args.log != "-":
        _print_summary(result["summary"])
    return 0


def _print_summary(summary: dict) -> None:
    console = _stdout()
    options = summary["options"]
    mode = "express" if options["express"] else "campaign"
    extras = [name for key, name in (("promos", "promo cards"), ("random_powers", "random powers"))
              if options[key]]
    console.print(Text(f"{summary['scenario']} - {summary['title']}", style="bold"))
    console.print(Text(f"{summary['players']} players, {summary['games']} games, seed {summary['seed']}, {mode}"
                       + "".join(f", {e}" for e in extras)))
    table = Table(show_edge=False, pad_edge=False)
    for heading, justify in (("Seat", "left"), ("Bot", "left"), ("Wins", "right"), ("Win rate", "right"),
                             ("Mean final population", "right")):
        table.add_column(heading, justify=justify)
    for seat in range(summary["players"]):
        rate = summary["win_rate"][seat]
        mean = summary["mean_final_population"][seat]
        table.add_row(f"Community {seat}", summary["bots"][seat], str(summary["wins"][seat]),
                      "-" if rate is None else f"{rate:.1%}", "-" if mean is None else f"{mean:.1f}")
    console.print(table)
    games = summary["games"]
    rate = summary["no_winner_rate"]
    console.print(Text(f"{NOBODY_WINS}: {summary['no_winner']} of {games} games"
                       + ("" if rate is None else f" ({rate:.1%})")))
    console.print(Text(f"Shared wins: {summary['shared_wins']}; mean rounds played: "
                       + ("-" if summary["mean_rounds"] is None else f"{summary['mean_rounds']:.2f}")))


# ---------------------------------------------------------------------- play

def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat of a game in the terminal; random bots play the others. "
                                   "At your turn type an option number, 'save PATH', 'help' or 'quit'.")
    p.add_argument("--scenario", metavar="ID|PATH", help=_scenario_help())
    p.add_argument("--players", type=_players, default=None, metavar="N",
                   help="2 to 5 (default: the scenario's own count, else 4)")
    p.add_argument("--seat", type=_int, default=0, metavar="N", help="your seat, from 0 (default: 0)")
    p.add_argument("--seed", type=_int, default=0, metavar="S", help="the seed of the game (default: 0)")
    p.add_argument("--express", action="store_true", help="play one round instead of the campaign")
    _add_promos(p)
    p.add_argument("--random-powers", action="store_true", help="the optional rule: a random power each round")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game (its own scenario, options and seat)")
    p.set_defaults(run=_run_play)


def _run_play(args) -> int:
    from .boxes import load_library
    from .play import Session, faction_label, resume_game, start_game

    library = load_library()
    console = _stdout()
    if args.resume:
        game, bots, reference, seat = resume_game(args.resume, args.seat, library=library)
        console.print(Text(f"Resuming {args.resume}: {len(game.answers)} answers replayed.", style="bold"), soft_wrap=True)
    else:
        game, bots, reference = start_game(args.scenario, args.players, args.seat, args.seed, args.express,
                                           args.promos, args.random_powers, library=library)
        seat = args.seat
    scenario = game.setup.scenario
    factions = ", ".join(faction_label(f, v) for f, v in (tuple(x) for x in game.factions))
    console.print(Text(f"{scenario.id} - {scenario.title}: {game.n} players, you are {game.seat_label(seat)}. "
                       f"Factions: {factions}. Type 'help' for the commands.", style="bold"), soft_wrap=True)
    session = Session(game, seat, bots, reference, console, sys.stdin)
    if session.run() != "over":
        return 0
    session.show_final()
    console.print(Text(winners_text(game.winners, you=seat), style="bold"))
    return 0


# ----------------------------------------------------------------- scenarios

def _add_scenarios(sub) -> None:
    p = sub.add_parser("scenarios", help="list the bundled scenarios",
                       description="List every bundled scenario: its id, title, Factions (with power variants: "
                                   "(+) positive, (-) negative) and added powers.")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=_run_scenarios)


def _run_scenarios(args) -> int:
    from .boxes import load_library
    from .play import faction_label

    scenarios = sorted(load_library().scenarios(), key=lambda s: (s.box, int(s.id.rpartition("/")[2])
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
        table.add_row(s.id, Text(s.title), Text(", ".join(faction_label(c.faction, c.variant) for c in s.factions)),
                      Text(", ".join(s.added) or "-"))
    _stdout().print(table)
    return 0


# --------------------------------------------------------------------- check

def _add_check(sub) -> None:
    p = sub.add_parser("check", help="check power, box and scenario files",
                       description="Check power files (.power), box and scenario files (.yaml), or every such "
                                   "file in the folders named. Exit 1 if any error is found.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--json", action="store_true", help="print the diagnostics as a JSON list")
    p.set_defaults(run=_run_check)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _run_check(args) -> int:
    from .checking import check_paths, expand

    files, _ = expand(args.paths)
    diagnostics = check_paths(args.paths)
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    if args.json:
        sys.stdout.write(json.dumps([d.record() for d in diagnostics], indent=2) + "\n")
    else:
        for diagnostic in diagnostics:
            print(diagnostic.render())
        print(f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')} in {_plural(len(files), 'file')}")
    return 1 if errors else 0


# ---------------------------------------------------------------------- main

#: Each command adds its sub-parser (which sets `run`); a new command is one more entry.
COMMANDS: list[Callable] = [_add_simulate, _add_play, _add_scenarios, _add_check, *AUTHORING_COMMANDS]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="happydayz",
                            description="A rules language and a generic trick-taking kernel for Happy DayZ.")
    parser.add_argument("--version", action="version", version=f"happydayz {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for add in COMMANDS:
        add(sub)
    return parser


def _unknown_command(argv: list[str], parser: ArgumentParser) -> str | None:
    """A did-you-mean for a misspelt command name."""
    names = list(parser._subparsers._group_actions[0].choices) if parser._subparsers else []
    first = next((a for a in argv if not a.startswith("-")), None)
    if first is None or first in names:
        return None
    guess = suggest(first, names)
    return f"unknown command {first!r}" + (f"; did you mean {guess!r}?" if guess else "") + \
        f" (commands: {', '.join(names)})"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except UsageError:
            message = _unknown_command(argv, parser)
            if message:
                raise UsageError(f"{parser.format_usage().rstrip()}\nhappydayz: error: {message}") from None
            raise
        if getattr(args, "run", None) is None:
            parser.print_help(sys.stderr)
            return 2
        return args.run(args)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except UsageError as exc:
        text = str(exc)
        print(text if text.startswith("usage:") else f"happydayz: error: {text}", file=sys.stderr)
        return 2
    except HappyError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nhappydayz: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:  # the reader went away: say nothing more
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except OSError as exc:  # a file that cannot be written or read
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"happydayz: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1


__all__ = ["main", "build_parser", "winners_text", "NOBODY_WINS", "COMMANDS"]
