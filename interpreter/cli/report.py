"""`happydayz report`: a balance report from simulation results."""

from __future__ import annotations

from happydayz.report.build import DEFAULT_OUT, PLOT_NAMES, build_report


def add_report(sub) -> None:
    p = sub.add_parser("report", help="a balance report (Markdown and plots) from simulation results",
                       description="Read the results of 'happydayz simulate --json' or 'happydayz sweep' and write "
                                   "report.md with tables (every rate with its 95% confidence interval) and PNG "
                                   "plots: win rate by seat and by first leader, Faction variants, final "
                                   "populations, game length, elimination, per-power effects.")
    p.add_argument("results", metavar="RESULTS", help="a simulate JSON file or a sweep JSON Lines file")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                   help=f"the folder to write report.md and the plots into (default: {DEFAULT_OUT}/)")
    p.set_defaults(run=run_report)


def run_report(args) -> int:
    path = build_report(args.results, args.out, args.env)
    plots = [name for name in PLOT_NAMES if (path.parent / name).is_file()]
    print(f"wrote {path} and {len(plots)} plots: {', '.join(plots)}")
    return 0


COMMANDS = [add_report]
