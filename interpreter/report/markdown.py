"""report.md: the tables and words of a balance report, around its plots."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from happydayz.kernel.outcome import NOBODY_WINS
from happydayz.report.results import Results
from happydayz.report.stats import Mean, Rate

def _pct(r: Rate | None) -> str:
    if r is None or r.value is None:
        return "–"
    return f"{r.value:.1%} [{r.low:.1%}, {r.high:.1%}]"


def _num(m: Mean | None, digits: int = 1) -> str:
    if m is None or m.mean is None:
        return "–"
    return f"{m.mean:.{digits}f} [{m.low:.{digits}f}, {m.high:.{digits}f}]"


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def _table(head: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _markdown(results: Results, analysis: dict, images: dict[str, Path], out: Path) -> str:
    overall = analysis["overall"]
    floors = analysis.get("floors", [0])  # the hands' floors (docs/rules.md: elimination reaches the floor)
    at_floor = "at 0" if floors in ([], [0]) else "at the floor"
    games = overall["games"]
    lines = ["# Balance report", ""]
    source = f"`{results.path.name}`: {games} games ({results.kind} results)"
    summary = results.summary or {}
    if summary.get("scenario"):
        options = summary.get("options") or {}
        mode = "express" if options.get("express") else "campaign"
        extra = [name for key, name in (("promos", "promo cards"), ("random_powers", "random powers"))
                 if options.get(key)]
        source += (f", scenario `{summary['scenario']}`" + (f" ({summary['title']})" if summary.get("title") else "")
                   + f", {mode}" + "".join(f", {e}" for e in extra)
                   + (f", seed {summary['seed']}" if summary.get("seed") is not None else ""))
    lines.append(source + ".")
    players = ", ".join(str(p) for p in analysis["players"])
    lines.append(f"Players: {players}. Bots: {'; '.join(analysis['bots']) or 'not recorded'}.")
    lines.append("")
    lines.append("Every rate is shown as `rate [95% CI]` (Wilson score interval), every mean as "
                 "`mean [95% CI]` (normal approximation). A shared win counts for each of its winners.")
    for note in results.notes:
        lines += ["", f"> {note}"]

    lines += ["", "## Overview", ""]
    lines += _table(["measure", "value"], [
        ["games", str(games)],
        ["rounds played (mean)", _num(overall["rounds"], 2)],
        ["final population (mean, every Community)", _num(overall["population"])],
        [f"a Community {at_floor} at the end (elimination)", _pct(overall["eliminated"])],
        [f"every Community {at_floor} ({NOBODY_WINS})", _pct(overall["no_winner"])],
        ["shared wins", _pct(overall["shared"])],
        ["the first leader wins", _pct(overall["leader_win"])],
    ])

    if analysis["teams"]:
        lines += ["", "## Win rate by team", ""]
        lines.append("A team wins together: a game it won counts once for the team, never once for each of its "
                     "Communities. The fair share is the win rate every team would have if teams did not matter "
                     "(wins per game ÷ teams); the population is the team's: its one score if pooled, else the sum of its "
                     "Communities'.")
        for section in analysis["teams"]:
            layout = " against ".join("+".join(str(s) for s in team) for team in section["teams"])
            lines += ["", f"**Teams {layout}** ({section['games']} games, fair share {section['fair_share']:.1%}):",
                      ""]
            lines += _table(["team", "seats", "win rate", "p", "mean final population"],
                            [[str(r["team"]), ", ".join(str(s) for s in r["seats"]), _pct(r["win"]),
                              _p(r["p_value"]), _num(r["population"])] for r in section["rows"]])

    lines += ["", "## Win rate by seat", ""]
    lines.append("Seat 0 is the first seat, not necessarily the first to lead: the first leader is decided by the "
                 "Transfer. The fair share is the win rate every seat would have if seats did not matter "
                 "(wins per game ÷ players); p is a two-sided test against it.")
    for n, section in analysis["seats"].items():
        lines += ["", f"**{n} players** ({section['games']} games, fair share {section['fair_share']:.1%}):", ""]
        lines += _table(["seat", "win rate", "p", "mean final population", "eliminated"],
                        [[str(s["seat"]), _pct(s["win"]), _p(s["p_value"]), _num(s["population"]),
                          _pct(s["eliminated"])] for s in section["seats"]])
    if "seats" in images:
        lines += ["", f"![Win rate by seat]({images['seats'].name})"]
    else:
        lines += ["", "No game without teams: a team's win is shown by team (above), not by seat."]

    lines += ["", "## First leader", ""]
    if "leader" in images:
        for n, section in analysis["seats"].items():
            leader = section["leader"]
            if leader is None:
                continue
            lines += [f"**{n} players** ({leader['games']} games with the first leader recorded):", ""]
            lines += _table(["seat, clockwise from the first leader", "win rate", "p"],
                            [["first leader" if o["offset"] == 0 else f"+{o['offset']}", _pct(o["win"]),
                              _p(o["p_value"])] for o in leader["offsets"]])
            lines += ["", "How often each seat leads first: "
                      + ", ".join(f"seat {s} {_pct(r)}" for s, r in enumerate(leader["leads"])), ""]
        lines.append(f"![Win rate relative to the first leader]({images['leader'].name})")
    else:
        lines.append("Skipped: the results do not record who led first (the per-game field `first_leader`, "
                     "from `happydayz.simulation.records.first_leader(game)`).")

    lines += ["", "## Faction variants", ""]
    variants = analysis["variants"]
    if variants is None:
        lines.append("Skipped: the results do not say which Factions each game started with.")
    else:
        lines.append("The Factions are shared by every Community, so a Faction's variant cannot win or lose by "
                     "itself: it shows in how many Survivors are left, how often a Community is wiped out, how "
                     "long games last and whether the first leader gains. Games are grouped by the variant each "
                     "Faction had at the start (a Faction change may replace it later).")
        lines += [""]
        lines += _table(["Faction", "variant", "games", "mean final population", "a Community at 0",
                         "every Community at 0", "rounds", "first leader wins"],
                        [[r["faction"], r["variant"], str(r["games"]), _num(r["population"]), _pct(r["eliminated"]),
                          _pct(r["no_winner"]), _num(r["rounds"], 2), _pct(r["leader_win"])]
                         for r in variants["rows"]])
        if "variants" in images:
            lines += ["", f"![By Faction variant]({images['variants'].name})"]
        else:
            lines += ["", "No plot: every game started with the same variant of each Faction, so there is nothing "
                      "to compare. A sweep over variants compares them."]

    if len(analysis["cells"]) > 1:
        lines += ["", "## Cells", ""]
        if analysis["cells_shared"]:
            lines += [f"Every cell: {analysis['cells_shared']}.", ""]
        lines += _table(["cell", "games", "mean final population", "a Community at 0", "every Community at 0",
                         "rounds", "first leader wins"],
                        [[label, str(m["games"]), _num(m["population"]), _pct(m["eliminated"]), _pct(m["no_winner"]),
                          _num(m["rounds"], 2), _pct(m["leader_win"])] for label, m in analysis["cells"].items()])

    lines += ["", "## Final populations", ""]
    pops = sorted(analysis["populations"])

    def quantile(q: float) -> int:
        return pops[min(len(pops) - 1, int(q * len(pops)))]

    lines.append(f"Every Community's final population: minimum {pops[0]}, quartiles {quantile(0.25)} / "
                 f"{quantile(0.5)} / {quantile(0.75)}, maximum {pops[-1]}.")
    if analysis["winning_populations"]:
        win = sorted(analysis["winning_populations"])
        lines.append(f"The winner's: median {win[len(win) // 2]}, range {win[0]}–{win[-1]}.")
    lines += ["", f"![Final populations]({images['populations'].name})"]

    lines += ["", "## Game length", ""]
    lines += _table(["rounds played", "share of games"], [[str(r), _pct(v)] for r, v in analysis["rounds"].items()])
    if analysis["rounds_left_out"]:
        lines += ["", f"(The {len(analysis['rounds'])} most common game lengths; {analysis['rounds_left_out']} rarer "
                      "ones are left out.)"]
    lines += ["", f"![Game length]({images['rounds'].name})"]

    lines += ["", "## Elimination", ""]
    if at_floor == "at 0":
        lines.append("A game ends at the count where a Community reaches 0 Survivors.")
    elif floors == ["none"]:
        lines.append("The scores have no floor (score.floor: none): nobody is eliminated, a game ends at its "
                     "target or after its last round.")
    else:
        lines.append("A game ends at the count where a Community reaches the hand's floor ("
                     + ", ".join(map(str, floors)) + "); with no floor (none) nobody is eliminated.")
    lines += [""]
    lines += _table([f"Communities {at_floor} at the end", "share of games"],
                    [[str(k), _pct(v)] for k, v in analysis["communities_at_zero"].items()])
    lines += ["", f"![Elimination]({images['elimination'].name})"]

    lines += ["", "## Per-power effect", ""]
    powers = analysis["powers"]
    if powers is None:
        lines.append("Skipped: the results have no per-game `powers` record (from "
                     "`happydayz.simulation.records.power_stats(game)`).")
    else:
        if powers["moved"]:
            ran = "its gain/lose and moved Survivors together (*gain/lose* + *moved*)"
        else:
            ran = ("its gain/lose Survivors only: not every record has `moved` (results written before it was "
                   "recorded), so moved cards are left out of this column")
        lines.append(f"{powers['games']} games with a `powers` record. *Triggers*: times a power ran for a "
                     "Community with an effect. *Gain/lose*: Survivors its gain/lose effects gave (+) or took (−), "
                     "summed over every Community. *Moved*: Survivors on the cards it moved into (+) or out of (−) "
                     "an Expedition, summed over every Community, so a power that only moves cards from one "
                     "Expedition to another adds up to 0 there. *Per Community when it ran*: the Survivors a "
                     f"Community it ran for got from it in the game, {ran}. The win rates compare Communities the "
                     "power ran for with those it did not: a correlation (winning tricks both triggers powers and "
                     "wins games), not the power's effect by itself.")
        lines += [""]
        lines += _table(["power", "games", "triggers per game", "gain/lose Survivors per game",
                         "Survivors moved per game", "per Community when it ran", "win rate when it ran",
                         "win rate otherwise"],
                        [[r["power"], str(r["games"]), _num(r["triggers"], 2), _num(r["score_per_game"], 2),
                          _num(r["moved_per_game"], 2), _num(r["survivors_when_fired"], 2), _pct(r["win_fired"]),
                          _pct(r["win_idle"])] for r in powers["rows"]])
        lines += ["", f"![Per-power effect]({images['powers'].name})"]
    lines.append("")
    return "\n".join(lines)
