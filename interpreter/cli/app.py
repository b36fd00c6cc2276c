"""The `happydayz` command line.

    happydayz simulate   play many games between bots; a summary, JSON, event logs
    happydayz sweep      play a grid of simulations into a JSON Lines file (resumable)
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
from pathlib import Path
import re
import sys
from typing import Callable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from happydayz import __version__
from happydayz.cli.authoring import COMMANDS as AUTHORING_COMMANDS
from happydayz.report.report import COMMANDS as REPORT_COMMANDS
from happydayz.base.errors import HappyError, UsageError, suggest

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
            from happydayz.data.boxes import load_library

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

def _jobs(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 (every CPU) or more, got {value}")
    return value


def _add_parallel_options(p, what: str) -> None:
    """--jobs, --backend, --address, --progress, --quiet: shared by simulate and sweep."""
    p.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                   help=f"play the {what} in N worker processes; 0: one per CPU (default: 1; with --backend ray: "
                        "one per CPU)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the worker processes run: this machine, or Ray (default: local)")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: join the Ray cluster at ADDR instead of "
                                                    "starting a local Ray instance")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--progress", action="store_true",
                       help="show a progress bar on a terminal even for a few games")
    shown.add_argument("--quiet", action="store_true", help="no progress bar and no summary table")


def _resolve_jobs(args) -> int:
    from happydayz.simulation.parallel import check_backend, default_jobs

    check_backend(args.backend, args.address)
    if args.jobs is None:
        return default_jobs() if args.backend == "ray" else 1
    return args.jobs or default_jobs()


def _add_game_options(p) -> None:
    """The options that choose a game: shared by simulate and play."""
    p.add_argument("--scenario", metavar="ID|PATH", help=_scenario_help())
    p.add_argument("--players", type=_players, default=None, metavar="N",
                   help="2 to 5 (default: the scenario's own count, else 4)")
    p.add_argument("--express", action="store_true", help="play one round instead of the campaign")
    _add_promos(p)
    p.add_argument("--random-powers", action="store_true", help="the optional rule: a random power each round")


def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play games between bots and summarise them",
                       description="Play games between bots and summarise them. The same arguments always give "
                                   "the same games, whatever --jobs and --backend.")
    _add_game_options(p)
    p.add_argument("--games", type=_positive_int, default=1, metavar="N", help="games to play (default: 1)")
    p.add_argument("--seed", type=_int, default=0, metavar="S", help="the seed of the whole run (default: 0)")
    p.add_argument("--bots", metavar="LIST", help="one bot per seat, comma-separated, or one for every seat "
                                                  "(default: random)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH ('-': standard output)")
    p.add_argument("--log", metavar="PATH", help="write every event of every game as JSON Lines to PATH "
                                                 "('-': standard output)")
    _add_parallel_options(p, "games")
    p.set_defaults(run=_run_simulate)


#: A progress bar is shown on a terminal for more games than this (or with --progress).
PROGRESS_ABOVE = 20


class _ProgressBar:
    """A rich progress bar on standard error: games done, games/s, elapsed, ETA. Nothing when not `enabled`.

    It starts at the first update, so that no display thread is running while
    the worker processes are created. The speed is the mean since the bar was
    made (the games come back a batch at a time, so a momentary speed jumps).
    """

    def __init__(self, enabled: bool, total: int, label: str):
        import time

        self.enabled = enabled
        self.total = total
        self.label = label
        self.bar = None
        self.task = None
        self.clock = time.monotonic
        self.started = self.clock()

    def update(self, done: int, total: int | None = None) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn

            bar = self

            def clock(seconds: float | None) -> str:
                if seconds is None:
                    return "-:--"
                seconds = int(round(seconds))
                if seconds >= 3600:
                    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
                return f"{seconds // 60}:{seconds % 60:02d}"

            class Rate(ProgressColumn):
                def render(self, task) -> Text:
                    elapsed = bar.clock() - bar.started
                    speed = task.completed / elapsed if elapsed > 0 and task.completed else None
                    left = None
                    if speed and task.total is not None:
                        left = max(task.total - task.completed, 0) / speed
                    return Text(("- games/s" if speed is None else f"{speed:.1f} games/s")
                                + f"  {clock(elapsed)}  ETA {clock(left)}")

            self.bar = Progress(TextColumn("{task.description}"), BarColumn(bar_width=20), MofNCompleteColumn(), Rate(),
                                console=_stderr(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total if total is not None else self.total)
        self.bar.update(self.task, completed=done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self) -> "_ProgressBar":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _show_progress(args, games: int) -> bool:
    return not args.quiet and sys.stderr.isatty() and (games > PROGRESS_ABOVE or args.progress)


def _run_simulate(args) -> int:
    from happydayz.data.boxes import load_library
    from happydayz.simulation.simulate import SimulationInterrupted, default_scenario, simulate, to_json

    if args.json == "-" and args.log == "-":
        raise UsageError("--json - and --log - cannot both write to standard output")
    for target in (args.json, args.log):  # fail now, not after the games
        if target not in (None, "-") and not os.path.isdir(os.path.dirname(os.path.abspath(target))):
            raise UsageError(f"cannot write {target}: its folder does not exist")
    jobs = _resolve_jobs(args)
    library = load_library()
    scenario = args.scenario if args.scenario is not None else default_scenario(library)
    kwargs = dict(players=args.players, games=args.games, seed=args.seed, express=args.express,
                  promos=args.promos, random_powers=args.random_powers, bots=args.bots,
                  log=args.log, library=library, jobs=jobs, backend=args.backend, address=args.address)
    interrupted = False
    with _ProgressBar(_show_progress(args, args.games), args.games, "Simulating") as bar:
        try:
            result = simulate(scenario, progress=bar.update, **kwargs)
        except SimulationInterrupted as stop:
            bar.close()
            result, interrupted = stop.result, True
            print(f"\nhappydayz: interrupted after {len(result['games'])} of {args.games} games", file=sys.stderr)
    if args.json is not None:
        text = to_json(result)
        if args.json == "-":
            sys.stdout.write(text)
        else:
            with open(args.json, "w", encoding="utf-8") as handle:
                handle.write(text)
            if interrupted:
                print(f"happydayz: the {len(result['games'])} games finished are in {args.json}", file=sys.stderr)
    if args.json != "-" and args.log != "-" and not args.quiet:
        _print_summary(result["summary"])
    return 130 if interrupted else 0


def _print_summary(summary: dict) -> None:
    console = _stdout()
    options = summary["options"]
    mode = "express" if options["express"] else "campaign"
    extras = [name for key, name in (("promos", "promo cards"), ("random_powers", "random powers"))
              if options[key]]
    console.print(Text(f"{summary['scenario']} - {summary['title']}", style="bold"))
    console.print(Text(f"{summary['players']} players, {summary['games']} games, seed {summary['seed']}, {mode}"
                       + "".join(f", {e}" for e in extras)
                       + (" (interrupted: the games finished)" if summary.get("interrupted") else "")))
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


# --------------------------------------------------------------------- sweep

def _add_sweep(sub) -> None:
    p = sub.add_parser("sweep", help="play a grid of simulations into one JSON Lines file",
                       description="Play every cell of a sweep specification (scenarios x player counts x power "
                                   "variants x bots, see docs/simulation.md) and write one JSON line per game. "
                                   "--resume continues an interrupted sweep.")
    p.add_argument("spec", metavar="SPEC.yaml", help="the sweep specification")
    p.add_argument("--out", metavar="PATH", help="the results file ('-': standard output; default: SPEC's name "
                                                 "with .results.jsonl, beside it)")
    p.add_argument("--resume", action="store_true", help="skip the games already in the results file")
    p.add_argument("--force", action="store_true", help="start again even if the results file holds results")
    _add_parallel_options(p, "games")
    p.set_defaults(run=_run_sweep)


def _default_results_path(spec: str) -> str:
    root, _ = os.path.splitext(spec)
    return root + ".results.jsonl"


def _run_sweep(args) -> int:
    from happydayz.simulation.sweep import SweepInterrupted, cell_summaries, load_sweep, read_results, run_sweep

    out = args.out if args.out is not None else _default_results_path(args.spec)
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one")
    jobs = _resolve_jobs(args)
    sweep = load_sweep(args.spec)
    left = sweep.total
    interrupted = False
    with _ProgressBar(False, left, "Sweeping") as bar:
        def progress(done: int, total: int) -> None:
            bar.enabled = _show_progress(args, total)
            bar.update(done, total)

        try:
            report = run_sweep(sweep, out, jobs=jobs, backend=args.backend, address=args.address,
                               resume=args.resume, overwrite=args.force, progress=progress)
        except SweepInterrupted as stop:
            bar.close()
            report, interrupted = stop.report, True
    if interrupted:
        written = report["resumed"] + report["played"]
        print(f"\nhappydayz: interrupted: {written} of {report['games']} games are in {out}"
              + ("" if out == "-" else "; run again with --resume to finish"), file=sys.stderr)
        return 130
    if out != "-" and not args.quiet:
        _print_sweep(report, cell_summaries(sweep, read_results(out, sweep, repair=False)))
    return 0


def _print_sweep(report: dict, cells: list[dict]) -> None:
    console = _stdout()
    console.print(Text(f"{report['cells']} cells, {report['games']} games: {report['played']} played, "
                       f"{report['resumed']} already in {report['out']}", style="bold"))
    table = Table(show_edge=False, pad_edge=False)
    for heading, justify in (("Scenario", "left"), ("Players", "right"), ("Variants", "left"), ("Bots", "left"),
                             ("Games", "right"), ("Win rate by seat", "left"), ("No winner", "right"),
                             ("Rounds", "right")):
        table.add_column(heading, justify=justify, overflow="fold")
    for cell in cells:
        coords = cell["cell"]
        variants = ", ".join(f"{f} {v}" for f, v in coords["variants"].items()) or "-"
        bots = coords["bots"][0] if len(set(coords["bots"])) == 1 else ",".join(coords["bots"])
        rates = " ".join("-" if r is None else f"{r:.0%}" for r in cell["win_rate"])
        games = cell["games"]
        nobody = "-" if not games else f"{cell['no_winner'] / games:.0%}"
        rounds = "-" if cell["mean_rounds"] is None else f"{cell['mean_rounds']:.2f}"
        table.add_row(Text(coords["scenario"]), str(coords["players"]), Text(variants), Text(bots), str(games),
                      rates, nobody, rounds)
    console.print(table)


# ---------------------------------------------------------------------- play

def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat of a game in the terminal; random bots play the others. "
                                   "At your turn type an option number, 'save PATH', 'help' or 'quit'.")
    _add_game_options(p)
    p.add_argument("--seat", type=_int, default=0, metavar="N", help="your seat, from 0 (default: 0)")
    p.add_argument("--seed", type=_int, default=0, metavar="S", help="the seed of the game (default: 0)")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game (its own scenario, options and seat)")
    p.set_defaults(run=_run_play)


def _run_play(args) -> int:
    from happydayz.data.boxes import load_library
    from happydayz.cli.play import Session, faction_label, resume_game, start_game

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
    from happydayz.data.boxes import load_library
    from happydayz.cli.play import faction_label

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
    from happydayz.authoring.checking import check_paths, expand

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
COMMANDS: list[Callable] = [_add_simulate, _add_sweep, _add_play, _add_scenarios, _add_check, *AUTHORING_COMMANDS,
                            *REPORT_COMMANDS]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="happydayz",
                            description="A rules language and a generic trick-taking kernel for Happy DayZ.")
    parser.add_argument("--version", action="version", version=f"happydayz {__version__}")
    parser.add_argument("--powers", action="append", metavar="DIR", default=[],
                        help="another folder in which to look for the power files a scenario names "
                             "(after the scenario's own folder); may be repeated")
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
        if args.powers:  # an environment variable, so that worker processes see it too
            from happydayz.data.boxes import POWERS_PATH_VARIABLE

            extra = [str(Path(d).resolve()) for d in args.powers]
            previous = os.environ.get(POWERS_PATH_VARIABLE)
            os.environ[POWERS_PATH_VARIABLE] = os.pathsep.join(extra + ([previous] if previous else []))
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
