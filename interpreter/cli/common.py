"""What the commands share: the argument parser that raises instead of exiting, argument types,
the options that choose a game or a parallel run, consoles and the progress bar."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
from rich.text import Text

from happydayz.base.errors import UsageError
from happydayz.data.boxes import MAX_PLAYERS
from happydayz.data.model import Library
from happydayz.simulation.parallel import check_backend, default_jobs


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose mistakes raise UsageError instead of exiting."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.format_usage().rstrip()}\n{self.prog}: error: {message}")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def player_count(text: str) -> int:
    value = whole_number(text)
    if not 2 <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"2 to {MAX_PLAYERS} players play, not {value}")
    return value


def stdout_console() -> Console:
    return Console(file=sys.stdout, highlight=False)


def stderr_console() -> Console:
    return Console(file=sys.stderr, highlight=False)


def promo_flags(library: Library) -> list[str]:
    """The option names of the promo-card switch: --promos, and the promo cards' own name.

    The second is taken from the box files: the name that all their promo cards
    share, before " - " (so the code names no card).
    """
    flags = ["--promos"]
    names = [promo.name for box in library.boxes.values() for promo in box.promos]
    if not names:
        return flags
    shared = os.path.commonprefix(names)
    if len(names) > 1:
        shared = shared.rpartition(" - ")[0] if " - " in shared else ""
    slug = re.sub(r"[^a-z0-9]+", "-", shared.lower()).strip("-")
    if slug and f"--{slug}" not in flags:
        flags.append(f"--{slug}")
    return flags


def add_promos(parser) -> None:
    # The promo cards' own name as an option is read from the boxes only when it is typed
    # (see app.promo_aliases): building the parser, and so --help, loads no box.
    parser.add_argument("--promos", dest="promos", action="store_true",
                        help="play with the promo cards, each standing in for one card of its Faction "
                             "(the promo cards' shared name in the box files works too, e.g. --<that-name>)")


def scenario_help(default: str = "scenario 1 of the last box by id") -> str:
    return f"a scenario id (see 'happydayz scenarios') or the path of a scenario .yaml file (default: {default})"



def job_count(text: str) -> int:
    value = whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 (every CPU) or more, got {value}")
    return value


def add_parallel_options(p, what: str) -> None:
    """--jobs, --backend, --address, --progress, --quiet: shared by simulate and sweep."""
    p.add_argument("--jobs", type=job_count, default=None, metavar="N",
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


def resolve_jobs(args) -> int:
    check_backend(args.backend, args.address)
    if args.jobs is None:
        return default_jobs() if args.backend == "ray" else 1
    return args.jobs or default_jobs()


def add_game_options(p) -> None:
    """The options that choose a game: shared by simulate and play."""
    p.add_argument("--scenario", metavar="ID|PATH", help=scenario_help())
    p.add_argument("--players", type=player_count, default=None, metavar="N",
                   help=f"2 to {MAX_PLAYERS}, as the box deals (default: the scenario's own count, else 4)")
    p.add_argument("--express", action="store_true", help="play one round instead of the campaign")
    add_promos(p)
    p.add_argument("--random-powers", action="store_true", help="the optional rule: a random power each round")


def add_random_setup(p) -> None:
    """--random-setup: shared by simulate and play."""
    p.add_argument("--random-setup", action="store_true",
                   help="draw the Factions at random from the box's Power cards, as the rulebooks allow (a drawn "
                        "added power joins them); --seed makes the draw")


#: A progress bar is shown on a terminal for more games than this (or with --progress).
PROGRESS_ABOVE = 20


class ProgressBar:
    """A rich progress bar on standard error: games done, games/s, elapsed, ETA. Nothing when not `enabled`.

    It starts at the first update, so that no display thread is running while
    the worker processes are created. The speed is the mean since the bar was
    made (the games come back a batch at a time, so a momentary speed jumps).
    """

    def __init__(self, enabled: bool, total: int, label: str):
        self.enabled = enabled
        self.total = total
        self.label = label
        self.bar = None
        self.task = None
        self.clock = time.monotonic
        self.started = self.clock()

    def update(self, done: int, total: int | None = None) -> None:
        """`done` games of `total` (which may change: simulate --until-ci gives the end of its current round)."""
        if not self.enabled:
            return
        if self.bar is None:
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
                                console=stderr_console(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total if total is not None else self.total)
        self.bar.update(self.task, completed=done, total=total if total is not None else self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def show_progress(args, games: int) -> bool:
    return not args.quiet and sys.stderr.isatty() and (games > PROGRESS_ABOVE or args.progress)



def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
