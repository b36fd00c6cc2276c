"""The plots of a balance report, drawn with matplotlib's Agg renderer on bare Figures.

No pyplot: no display is needed and no global backend is changed.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

from happydayz.base.errors import Diagnostic, Span
from happydayz.base.files import write_atomic
from happydayz.report.results import A_WRITE, ResultsProblem
from happydayz.report.stats import Mean, Rate

PLOT_DPI = 100


def _figure(width: float = 7.0, height: float = 4.0):
    # A bare Figure, not pyplot: no GUI, no global state; PNGs are drawn by Agg.
    try:
        from matplotlib.figure import Figure  # here, not at the top: a third of a second, and only reports draw
    except ImportError:
        raise ResultsProblem(Diagnostic(Span("<report>", 1, 1), "the report needs matplotlib to draw its plots",
                                        A_WRITE, hint="pip install matplotlib")) from None
    return Figure(figsize=(width, height), dpi=PLOT_DPI, layout="constrained")


def _errors(rates: list[Rate]) -> tuple[list[float], list[list[float]]]:
    values = [r.value or 0.0 for r in rates]
    return values, [[v - r.low for v, r in zip(values, rates)], [r.high - v for v, r in zip(values, rates)]]


def _mean_errors(means: list[Mean]) -> tuple[list[float], list[list[float]]]:
    values = [m.mean if m.mean is not None else 0.0 for m in means]
    low = [v - (m.low if m.low is not None else v) for v, m in zip(values, means)]
    high = [(m.high if m.high is not None else v) - v for v, m in zip(values, means)]
    return values, [low, high]


def _save(fig, out: Path, name: str) -> Path:
    target = out / name
    image = io.BytesIO()
    fig.savefig(image, dpi=PLOT_DPI, format="png", backend="agg", metadata={"Software": None})
    write_atomic(target, image.getvalue(), code=A_WRITE, error=ResultsProblem, what="plot")
    return target


def _bar_groups(ax, groups: list[tuple], many: bool) -> None:
    """Win-rate bars with 95% error bars: one group per player count, each with its fair-share line.

    `groups` holds (players, rates, colour or colours, bar names, fair share or None).
    """
    x = 0
    ticks, labels = [], []
    for n, rates, colour, names, fair_share in groups:
        values, errors = _errors(rates)
        xs = list(range(x, x + n))
        ax.bar(xs, values, yerr=errors, capsize=4, color=colour, alpha=0.85)
        if fair_share is not None:
            ax.hlines(fair_share, xs[0] - 0.4, xs[-1] + 0.4, colors="tab:red", linestyles="dashed",
                      label="fair share" if x == 0 else None)
        ticks += xs
        labels += [name + (f"\n({n}p)" if many else "") for name in names]
        x += n + 1
    ax.set_xticks(ticks, labels)
    ax.set_ylabel("win rate (95% CI)")
    ax.legend(loc="lower right")


def _seats_figure(seats: dict):
    return _figure(max(5.0, 1.2 * sum(len(s["seats"]) for s in seats.values()) + 2), 4.0)


def _plot_seats(analysis: dict, out: Path) -> Path:
    seats = analysis["seats"]
    fig = _seats_figure(seats)
    ax = fig.add_subplot()
    _bar_groups(ax, [(n, [s["win"] for s in section["seats"]], "tab:blue", [f"seat {s}" for s in range(n)],
                      section["fair_share"]) for n, section in seats.items()], many=len(seats) > 1)
    ax.set_title("Win rate by seat")
    ax.set_ylim(0, min(1.0, max(r["win"].high for s in seats.values() for r in s["seats"]) * 1.25 + 0.02))
    return _save(fig, out, "seat_win_rate.png")


def _plot_leader(analysis: dict, out: Path) -> Path:
    seats = analysis["seats"]
    fig = _seats_figure(seats)
    ax = fig.add_subplot()
    _bar_groups(ax, [(n, [o["win"] for o in section["leader"]["offsets"]], ["tab:orange"] + ["tab:gray"] * (n - 1),
                      ["first\nleader" if k == 0 else f"+{k}" for k in range(n)], section["fair_share"])
                     for n, section in seats.items() if section["leader"] is not None], many=len(seats) > 1)
    ax.set_xlabel("seat, clockwise from the first leader")
    ax.set_title("Win rate by position relative to the first leader")
    return _save(fig, out, "first_leader_win_rate.png")


def _plot_variants(analysis: dict, out: Path) -> Path:
    rows = analysis["variants"]["rows"]
    colours = {"basic": "tab:gray", "positive": "tab:green", "negative": "tab:red"}
    fig = _figure(max(6.0, 0.5 * len(rows) + 3), 6.0)
    top, bottom = fig.subplots(2, 1, sharex=True)
    xs, names, x, previous = [], [], 0.0, None
    for row in rows:
        if previous is not None and row["faction"] != previous:
            x += 0.6
        xs.append(x)
        names.append(f"{row['faction']}\n{row['variant']}")
        previous = row["faction"]
        x += 1
    cs = [colours.get(r["variant"], "tab:blue") for r in rows]
    values, errors = _mean_errors([r["population"] for r in rows])
    top.bar(xs, values, yerr=errors, capsize=3, color=cs)
    top.set_ylabel("mean final population")
    top.set_title("By Faction variant present at the start (95% CI)")
    values, errors = _errors([r["eliminated"] for r in rows])
    bottom.bar(xs, values, yerr=errors, capsize=3, color=cs)
    bottom.set_ylabel("games with a Community at 0")
    bottom.set_xticks(xs, names, rotation=60, ha="right", fontsize=8)
    return _save(fig, out, "variants.png")


def _plot_populations(analysis: dict, out: Path) -> Path:
    fig = _figure()
    ax = fig.add_subplot()
    populations = analysis["populations"]
    top = max(populations + analysis["winning_populations"] + [1])
    width = max(1, math.ceil((top + 1) / 40))
    bins = list(range(0, top + width + 1, width))
    ax.hist(populations, bins=bins, color="tab:blue", alpha=0.7, label="every Community")
    if analysis["winning_populations"]:
        ax.hist(analysis["winning_populations"], bins=bins, histtype="step", color="tab:orange", linewidth=2,
                label="the winner")
    ax.set_xlabel("final population (Survivors)")
    ax.set_ylabel("Communities")
    ax.set_title("Distribution of final populations")
    ax.legend()
    return _save(fig, out, "final_populations.png")


def _plot_rounds(analysis: dict, out: Path) -> Path:
    fig = _figure(6.0, 3.5)
    ax = fig.add_subplot()
    rounds = analysis["rounds"]
    values, errors = _errors(list(rounds.values()))
    ax.bar([str(r) for r in rounds], values, yerr=errors, capsize=4, color="tab:purple")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games (95% CI)")
    ax.set_title("Game length")
    return _save(fig, out, "rounds.png")


def _plot_elimination(analysis: dict, out: Path) -> Path:
    labels, rates = ["any\nCommunity"], [analysis["overall"]["eliminated"]]
    for n, section in analysis["seats"].items():
        suffix = f" ({n}p)" if len(analysis["seats"]) > 1 else ""
        for s in section["seats"]:
            labels.append(f"seat {s['seat']}{suffix}")
            rates.append(s["eliminated"])
    labels.append("every\nCommunity")
    rates.append(analysis["overall"]["no_winner"])
    fig = _figure(max(5.0, 0.9 * len(labels) + 2), 4.0)
    ax = fig.add_subplot()
    values, errors = _errors(rates)
    ax.bar(range(len(labels)), values, yerr=errors, capsize=4,
           color=["tab:red"] + ["tab:pink"] * (len(labels) - 2) + ["black"])
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel("share of games (95% CI)")
    ax.set_title("Elimination: a Community at 0 Survivors at the end")
    return _save(fig, out, "elimination.png")


def _plot_powers(analysis: dict, out: Path) -> Path:
    rows = analysis["powers"]["rows"]
    fig = _figure(10.0, max(3.0, 0.4 * len(rows) + 1.5))
    left, right = fig.subplots(1, 2, sharey=True)
    ys = list(range(len(rows)))
    names = [r["power"] for r in rows]
    values, errors = _mean_errors([r["survivors_when_fired"] for r in rows])
    left.barh(ys, values, xerr=errors, capsize=3, color=["tab:green" if v >= 0 else "tab:red" for v in values])
    left.axvline(0, color="black", linewidth=0.8)
    left.set_yticks(ys, names, fontsize=8)
    left.invert_yaxis()
    what = "gain/lose + moved" if analysis["powers"]["moved"] else "gain/lose effects only"
    left.set_xlabel(f"Survivors from the power ({what})\nper Community it ran for, per game (95% CI)")
    fired_values, fired_errors = _errors([r["win_fired"] for r in rows])
    idle_values, idle_errors = _errors([r["win_idle"] for r in rows])
    h = 0.38
    right.barh([y - h / 2 for y in ys], fired_values, height=h, xerr=fired_errors, capsize=2, color="tab:orange",
               label="the power ran for it")
    right.barh([y + h / 2 for y in ys], idle_values, height=h, xerr=idle_errors, capsize=2, color="tab:gray",
               label="it did not")
    right.set_xlabel("win rate of a Community (95% CI)")
    right.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    fig.suptitle("Per-power effect (correlation, not cause)")
    return _save(fig, out, "powers.png")
