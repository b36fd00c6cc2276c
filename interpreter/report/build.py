"""Balance reports: report.md and its PNG plots from simulation results.

    happydayz report RESULTS [--out DIR]

RESULTS is the JSON of `happydayz simulate --json` or the JSON Lines of
`happydayz sweep` (happydayz.report.results reads both); happydayz.report.analysis
works out the numbers, happydayz.report.plots draws them and
happydayz.report.markdown writes report.md.
"""

from __future__ import annotations

from pathlib import Path

from happydayz.base.files import write_atomic
from happydayz.data.environment import Environment
from happydayz.report.analysis import analyse
from happydayz.report.markdown import _markdown
from happydayz.report.plots import (_plot_elimination, _plot_leader, _plot_populations, _plot_powers, _plot_rounds,
                                    _plot_seats, _plot_variants)
from happydayz.report.results import A_WRITE, ResultsProblem, _problem, load_results

DEFAULT_OUT = "report"
REPORT_NAME = "report.md"
PLOT_NAMES = ("seat_win_rate.png", "first_leader_win_rate.png", "variants.png", "final_populations.png",
              "rounds.png", "elimination.png", "powers.png")


def build_report(results_path: str | Path, out_dir: str | Path = DEFAULT_OUT, env: Environment | None = None,
                 scenario_folder: Path | None = None) -> Path:
    """Read the results, write report.md and its PNG plots into out_dir; the path of report.md.

    A scenario file the results name is read only inside `scenario_folder` (by default the results' folder).

    Raises ResultsProblem (a HappyError: exit 1 on the command line) for a bad
    results file or a folder that cannot be written. A plot of an earlier
    report that this one has no data for is removed, so the folder always
    matches report.md.
    """
    results = load_results(results_path, env, scenario_folder)
    analysis = analyse(results)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _problem(out, f"cannot create the report folder: {exc.strerror or exc}", A_WRITE) from None
    try:
        images: dict[str, Path] = {
            **({"seats": _plot_seats(analysis, out)} if analysis["seats"] else {}),  # (every game in teams: none)
            "populations": _plot_populations(analysis, out),
            "rounds": _plot_rounds(analysis, out),
            "elimination": _plot_elimination(analysis, out),
        }
        if any(s["leader"] for s in analysis["seats"].values()):
            images["leader"] = _plot_leader(analysis, out)
        if analysis["variants"] is not None and analysis["variants"]["compared"]:
            images["variants"] = _plot_variants(analysis, out)
        if analysis["powers"] is not None:
            images["powers"] = _plot_powers(analysis, out)
        target = out / REPORT_NAME
        write_atomic(target, _markdown(results, analysis, images, out), code=A_WRITE, error=ResultsProblem,
                     what="report")
        written = {p.name for p in images.values()}
        for name in PLOT_NAMES:
            if name not in written and (out / name).is_file():
                (out / name).unlink()
    except OSError as exc:
        raise _problem(out, f"cannot write the report: {exc.strerror or exc}", A_WRITE) from None
    return target


__all__ = ["build_report", "DEFAULT_OUT", "REPORT_NAME", "PLOT_NAMES"]
