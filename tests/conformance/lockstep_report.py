"""What both lockstep harnesses print from the command line: each setting's figures, then their total."""

from __future__ import annotations

from typing import Callable


def report_runs(game: str, runs: list, run: Callable, shown: Callable[[dict], str]) -> int:
    """Play each (settings, hands) of `runs` with `run` and print its figures; 1 if any hand mismatched."""
    hands = decisions = mismatches = 0
    for settings, count in runs:
        figures, found = run(settings, hands=count, stop_at_first=False)
        for text in found:
            print(text)
        played = figures.hands + figures.mismatches
        print(f"{game} ({shown(settings)}): {played} hands, {figures.decisions} decisions compared, "
              f"mismatches: {figures.mismatches}", flush=True)
        hands, decisions, mismatches = hands + played, decisions + figures.decisions, mismatches + figures.mismatches
    if len(runs) > 1:
        print(f"{game}, every setting: {hands} hands, {decisions} decisions compared, mismatches: {mismatches}")
    return 1 if mismatches else 0
