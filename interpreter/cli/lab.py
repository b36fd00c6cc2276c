"""`happydayz simulate` and `happydayz sweep`: games between bots, one set-up or a grid of them."""

from __future__ import annotations

import argparse
import os
import sys

from rich.table import Table
from rich.text import Text

from happydayz.base.errors import UsageError
from happydayz.base.files import write_output
from happydayz.cli.common import (ProgressBar, add_game_options, add_parallel_options, add_random_setup, positive_int,
                                  resolve_jobs, show_progress, stdout_console, whole_number)
from happydayz.data.boxes import default_scenario
from happydayz.kernel.outcome import NOBODY_WINS
from happydayz.simulation.precision import describe, parse_width
from happydayz.simulation.simulate import MAX_GAMES, SimulationIncomplete, SimulationInterrupted, simulate, to_json
from happydayz.simulation.sweep import (SweepIncomplete, SweepInterrupted, cell_summaries, load_sweep, read_results,
                                        run_sweep)


def game_count(text: str) -> int:
    """--games: a whole number from 1 to MAX_GAMES."""
    value = positive_int(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"at most {MAX_GAMES:,} games in one simulation, got {value:,} "
                                         f"(run several with different --seed, or a sweep)")
    return value


#: --games when --until-ci is given without it: the cap.
UNTIL_CI_CAP = 100_000


def half_width(text: str) -> float:
    """--until-ci: a fraction more than 0 and at most 1 (0.02), or a percentage (2%)."""
    try:
        return parse_width(text)
    except ValueError as problem:
        raise argparse.ArgumentTypeError(str(problem)) from None


def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play games between bots and summarise them",
                       description="Play games between bots and summarise them. The same arguments always give "
                                   "the same games, whatever --jobs and --backend.")
    add_game_options(p)
    add_random_setup(p)
    p.add_argument("--games", type=game_count, default=None, metavar="N",
                   help=f"games to play, 1 to {MAX_GAMES:,} (default: 1); with --until-ci, the most games to "
                        f"play (default: {UNTIL_CI_CAP:,})")
    p.add_argument("--until-ci", type=half_width, default=None, metavar="W",
                   help="play games in rounds (100, then as many more as the widest interval needs, at most "
                        "doubling) until the 95%% interval of every rate reported (each seat's win rate, games "
                        "nobody won, each power's win rates when it ran and otherwise) is narrower than +/-W; "
                        "W is a fraction (0.02) or a percentage (2%%); --games is then the cap")
    p.add_argument("--seed", type=whole_number, default=0, metavar="S", help="the seed of the whole run (default: 0)")
    p.add_argument("--bots", metavar="LIST", help="one bot per seat, comma-separated, or one for every seat "
                                                  "(default: random)")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON to PATH ('-': standard output)")
    p.add_argument("--log", metavar="PATH", help="write every event of every game as JSON Lines to PATH "
                                                 "('-': standard output)")
    add_parallel_options(p, "games")
    p.set_defaults(run=_run_simulate)


def _run_simulate(args) -> int:
    if args.json == "-" and args.log == "-":
        raise UsageError("--json - and --log - cannot both write to standard output")
    for target in (args.json, args.log):  # fail now, not after the games
        if target not in (None, "-") and not os.path.isdir(os.path.dirname(os.path.abspath(target))):
            raise UsageError(f"cannot write {target}: its folder does not exist")
    if args.games is None:
        args.games = 1 if args.until_ci is None else UNTIL_CI_CAP
    jobs = resolve_jobs(args)
    env = args.env
    scenario = args.scenario if args.scenario is not None else default_scenario(env.library)
    kwargs = dict(players=args.players, games=args.games, until_ci=args.until_ci, seed=args.seed, express=args.express,
                  promos=args.promos, random_powers=args.random_powers, random_setup=args.random_setup,
                  bots=args.bots,
                  log=args.log, env=env, jobs=jobs, backend=args.backend, address=args.address)
    interrupted, incomplete = False, ""
    with ProgressBar(show_progress(args, args.games), args.games, "Simulating") as bar:
        try:
            result = simulate(scenario, progress=bar.update, **kwargs)
        except SimulationInterrupted as stop:
            bar.close()
            result, interrupted = stop.result, True
            print(f"\nhappydayz: interrupted after {len(result['games'])} of {args.games} games", file=sys.stderr)
        except SimulationIncomplete as stop:
            bar.close()
            result, incomplete = stop.result, stop.reason
    if args.json is not None:
        write_output(args.json, to_json(result), what="results")  # whole, or the old file kept
        if args.json != "-":
            if interrupted:
                print(f"happydayz: the {len(result['games'])} games finished are in {args.json}", file=sys.stderr)
    if incomplete:
        where = f" and are in {args.json}" if args.json not in (None, "-") else ""
        print(f"happydayz: error: the run could not finish ({incomplete}); {len(result['games'])} of {args.games} "
              f"games were played{where}", file=sys.stderr)
        return 1
    if args.json != "-" and args.log != "-" and not args.quiet:
        _print_summary(result["summary"])
    return 130 if interrupted else 0


def _print_summary(summary: dict) -> None:
    console = stdout_console()
    options = summary["options"]
    mode = "express" if options["express"] else "campaign"
    extras = [name for key, name in (("promos", "promo cards"), ("random_powers", "random powers"))
              if options[key]]
    console.print(Text(f"{summary['scenario']} - {summary['title']}", style="bold"))
    console.print(Text(f"{summary['players']} players, {summary['games']} games, seed {summary['seed']}, {mode}"
                       + "".join(f", {e}" for e in extras)
                       + (" (interrupted: the games finished)" if summary.get("interrupted") else "")))
    if "random_setup" in summary:
        drawn = summary["random_setup"]
        console.print(Text("Drawn at random: " + ", ".join(f for f, _ in drawn["factions"])
                           + "".join(f" + {a}" for a in drawn["added"])))
    table = Table(show_edge=False, pad_edge=False)
    if "teams" in summary:  # a team wins together: its wins, never its Communities' own
        _team_table(table, summary)
    else:
        _seat_table(table, summary)
    console.print(table)
    games = summary["games"]
    rate = summary["no_winner_rate"]
    console.print(Text(f"{NOBODY_WINS}: {summary['no_winner']} of {games} games"
                       + ("" if rate is None else f" ({rate:.1%})")))
    console.print(Text(f"Shared wins: {summary['shared_wins']}; mean rounds played: "
                       + ("-" if summary["mean_rounds"] is None else f"{summary['mean_rounds']:.2f}")))
    if "stopped" in summary:
        console.print(Text(describe(summary["stopped"])))


def _team_table(table: Table, summary: dict) -> None:
    for heading, justify in (("Team", "left"), ("Communities", "left"), ("Bots", "left"), ("Wins", "right"),
                             ("Win rate", "right"), ("Mean final population", "right")):
        table.add_column(heading, justify=justify)
    for index, team in enumerate(summary["teams"]):
        rate = summary["team_win_rate"][index]
        means = [summary["mean_final_population"][seat] for seat in team]
        table.add_row(f"Team {index}", ", ".join(str(seat) for seat in team),
                      ", ".join(summary["bots"][seat] for seat in team), str(summary["team_wins"][index]),
                      "-" if rate is None else f"{rate:.1%}",
                      ", ".join("-" if mean is None else f"{mean:.1f}" for mean in means))


def _seat_table(table: Table, summary: dict) -> None:
    for heading, justify in (("Seat", "left"), ("Bot", "left"), ("Wins", "right"), ("Win rate", "right"),
                             ("Mean final population", "right")):
        table.add_column(heading, justify=justify)
    for seat in range(summary["players"]):
        rate = summary["win_rate"][seat]
        mean = summary["mean_final_population"][seat]
        table.add_row(f"Community {seat}", summary["bots"][seat], str(summary["wins"][seat]),
                      "-" if rate is None else f"{rate:.1%}", "-" if mean is None else f"{mean:.1f}")


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
    add_parallel_options(p, "games")
    p.set_defaults(run=_run_sweep)


def _default_results_path(spec: str) -> str:
    root, _ = os.path.splitext(spec)
    return root + ".results.jsonl"


def _run_sweep(args) -> int:
    out = args.out if args.out is not None else _default_results_path(args.spec)
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one")
    jobs = resolve_jobs(args)
    sweep = load_sweep(args.spec, args.env)
    left = sweep.total
    interrupted = False
    with ProgressBar(False, left, "Sweeping") as bar:
        def progress(done: int, total: int) -> None:
            bar.enabled = show_progress(args, total)
            bar.update(done, total)

        try:
            report = run_sweep(sweep, out, jobs=jobs, backend=args.backend, address=args.address,
                               resume=args.resume, overwrite=args.force, progress=progress, env=args.env)
        except SweepInterrupted as stop:
            bar.close()
            report, interrupted = stop.report, True
        except SweepIncomplete as stop:
            bar.close()
            report = stop.report
            written = report["resumed"] + report["played"]
            print(f"happydayz: error: the sweep could not finish ({stop.reason}); {written} of {report['games']} "
                  f"games are in {out}" + ("" if out == "-" else "; run again with --resume to finish"),
                  file=sys.stderr)
            return 1
    if interrupted:
        written = report["resumed"] + report["played"]
        print(f"\nhappydayz: interrupted: {written} of {report['games']} games are in {out}"
              + ("" if out == "-" else "; run again with --resume to finish"), file=sys.stderr)
        return 130
    if out != "-" and not args.quiet:
        _print_sweep(report, cell_summaries(sweep, read_results(out, sweep, repair=False)))
    return 0


def _print_sweep(report: dict, cells: list[dict]) -> None:
    console = stdout_console()
    stopped = report.get("stopped")
    total = f"{report['games']} games" if stopped is None else f"at most {report['games']} games"
    console.print(Text(f"{report['cells']} cells, {total}: {report['played']} played, "
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
    if stopped:
        at_cap = [s for s in stopped if s["reason"] == "cap"]
        line = (f"Until every 95% interval is within ±{stopped[0]['until_ci']:.1%}: "
                f"{len(stopped) - len(at_cap)} of {len(stopped)} cells stopped by their intervals")
        if at_cap:
            widest = max(at_cap, key=lambda s: s["widest_half_width"] or 0.0)
            line += (f", {len(at_cap)} at the cap (the widest interval left: ±{widest['widest_half_width']:.2%}, "
                     f"{widest['widest']})")
        console.print(Text(line + "."))


COMMANDS = [_add_simulate, _add_sweep]
