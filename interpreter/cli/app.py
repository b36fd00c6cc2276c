"""The `happydayz` command line: `main(argv) -> int`, thin over the library.

Each command lives in a module of this package that adds its sub-parser (see
COMMANDS); its `run(args)` calls the library with `args.env`, the Environment
made here from the global options. Exit codes: 0 success, 1 invalid input
found (a check with errors, a bad scenario or save file), 2 a usage error,
130 interrupted (Ctrl-C, or SIGTERM, which is treated the same). No failure
prints a traceback: what is not a user's mistake becomes one line too
(docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import Callable, Iterator, Sequence

from happydayz import __version__
from happydayz.base.errors import HappyError, UsageError, suggest
from happydayz.cli.authoring import COMMANDS as AUTHORING_COMMANDS
from happydayz.cli.common import ArgumentParser, promo_flags
from happydayz.cli.lab import COMMANDS as LAB_COMMANDS
from happydayz.cli.lsp import COMMANDS as LSP_COMMANDS
from happydayz.cli.play import COMMANDS as PLAY_COMMANDS
from happydayz.cli.report import COMMANDS as REPORT_COMMANDS
from happydayz.cli.scenarios import COMMANDS as SCENARIOS_COMMANDS
from happydayz.cli.serve import COMMANDS as SERVE_COMMANDS
from happydayz.data.environment import Environment

#: Each entry adds one sub-parser (which sets `run`); a new command is one more entry.
COMMANDS: list[Callable] = [*LAB_COMMANDS, *PLAY_COMMANDS, *SCENARIOS_COMMANDS, *AUTHORING_COMMANDS,
                            *REPORT_COMMANDS, *SERVE_COMMANDS, *LSP_COMMANDS]


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="happydayz",
                            description="A rules language and a generic trick-taking kernel for Happy DayZ.")
    parser.add_argument("--version", action="version", version=f"happydayz {__version__}")
    parser.add_argument("--powers", action="append", metavar="DIR", default=[],
                        help="another folder in which to look for the power files a scenario names "
                             "(after the scenario's own folder); may be repeated")
    parser.add_argument("--no-codegen", dest="codegen", action="store_false",
                        help="run powers through the compiler's closures instead of the Python code generated "
                             "for them (the same games, a little slower; docs/performance.md)")
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


def promo_aliases(argv: list[str], env: Environment) -> list[str]:
    """The arguments with the promo cards' shared name as an option (see promo_flags) turned into --promos.

    The name comes from the box files, so they are read only when an argument
    could be it: an option the parser does not know.
    """
    candidates = [a for a in argv if a.startswith("--") and "=" not in a and a != "--promos"]
    if not candidates:
        return argv
    try:
        aliases = set(promo_flags(env.library)) - {"--promos"}
    except HappyError:  # a broken box file: it is reported where it is used
        return argv
    return ["--promos" if a in aliases else a for a in argv]


def _terminate_as_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt meanwhile (main thread only): a run stops as on Ctrl-C, keeping its games."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.signal(signal.SIGTERM, _terminate_as_interrupt)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    with _sigterm_interrupts():
        code = _main(argv)
    if argv is None:
        _quiet_shutdown()
    return code


def _quiet_shutdown() -> None:
    """The program's work is done: a Ctrl-C or SIGTERM from now on ends it at once, silently.

    (Python then waits for threads, a process pool's among them, in threading._shutdown; the
    KeyboardInterrupt a signal raised there was printed with a traceback.)
    """
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except UsageError:
            message = _unknown_command(argv, parser)
            if message:
                raise UsageError(f"{parser.format_usage().rstrip()}\nhappydayz: error: {message}") from None
            powers = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--powers"]
            rewritten = promo_aliases(argv, Environment(power_dirs=powers))
            if rewritten == argv:
                raise
            args = parser.parse_args(rewritten)
        if getattr(args, "run", None) is None:
            parser.print_help(sys.stderr)
            return 2
        args.env = Environment(power_dirs=args.powers, codegen=args.codegen)
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
    except RecursionError:
        print("happydayz: error: the input is nested too deeply to handle", file=sys.stderr)
        return 1
    except MemoryError:
        print("happydayz: error: out of memory", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug: one line, never a traceback (docs/reliability.md)
        text = " ".join(str(exc).split())
        text = text if len(text) <= 200 else text[:200] + "…"
        print(f"happydayz: internal error: {type(exc).__name__}: {text} (please report it)", file=sys.stderr)
        return 1


__all__ = ["main", "build_parser", "COMMANDS", "promo_aliases"]
