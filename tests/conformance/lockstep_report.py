"""What every lockstep harness shares: its mismatch, its figures, the loop over the seeds, and its command
line (its settings' figures and their total, or its negative controls); each harness gives its own game's
hand, parameters, settings and controls."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Callable


class Mismatch(AssertionError):
    """The two engines disagree: the text names the seed, the decision and both move sets."""


@dataclass
class Figures:
    """What a run compared (a harness adds the counts of its own game's rare events)."""
    hands: int = 0
    decisions: int = 0
    mismatches: int = 0


def apply_both(state, game, move, action: int, seed: int, step: int) -> None:
    """One chosen move to both engines: OpenSpiel's action to its state, the kernel's `move` to its game
    (a move the kernel refuses is a mismatch)."""
    state.apply_action(action)
    try:
        game.apply(move)
    except Exception as exc:
        raise Mismatch(f"seed {seed}, decision {step}: the kernel refused OpenSpiel's move: {exc}") from None


def play_hands(play: Callable[[int], None], figures: Figures, hands: int, first_seed: int = 0,
               stop_at_first: bool = True) -> tuple[Figures, list[str]]:
    """play(seed) for each of `hands` seeds from first_seed; the mismatches' texts (at most one with stop_at_first)."""
    found: list[str] = []
    for seed in range(first_seed, first_seed + hands):
        try:
            play(seed)
        except Mismatch as exc:
            figures.mismatches += 1
            found.append(str(exc))
            if stop_at_first:
                break
    return figures, found


def shown(settings: dict) -> str:
    """A setting as the figures name it: "players=5, off_bid_penalty=true", or "defaults"."""
    return ", ".join(f"{k}={str(v).lower()}" for k, v in settings.items()) or "defaults"


def report_runs(game: str, runs: list, run: Callable, shown: Callable[[dict], str] = shown, unit: str = "hands") -> int:
    """Play each (settings, hands) of `runs` with `run` and print its figures; 1 if any hand mismatched."""
    hands = decisions = mismatches = 0
    for settings, count in runs:
        figures, found = run(settings, hands=count, stop_at_first=False)
        for text in found:
            print(text)
        played = figures.hands + figures.mismatches
        print(f"{game} ({shown(settings)}): {played} {unit}, {figures.decisions} decisions compared, "
              f"mismatches: {figures.mismatches}", flush=True)
        hands, decisions, mismatches = hands + played, decisions + figures.decisions, mismatches + figures.mismatches
    if len(runs) > 1:
        print(f"{game}, every setting: {hands} {unit}, {decisions} decisions compared, mismatches: {mismatches}")
    return 1 if mismatches else 0


def report_controls(controls: list[tuple[str, Callable]], unit: str = "hands") -> int:
    """Run each (name, control) until its first mismatch (a control plays at most 2,000 hands and returns
    (figures, found)); print after how many hands it came; 1 if a control found none."""
    missed = 0
    for name, control in controls:
        figures, found = control()
        if found:
            print(f"{name}: first mismatch after {figures.hands + 1} {unit[:-1]}(s): {found[0].splitlines()[0][:150]}",
                  flush=True)
        else:
            missed += 1
            print(f"{name}: NO mismatch in 2000 {unit}", flush=True)
    return 1 if missed else 0


def command_line(doc: str, game: str, parameters: dict, settings: list[dict], run: Callable,
                 controls: list[tuple[str, Callable]], argv=None, unit: str = "hands") -> int:
    """The harness's command: --hands N and --setting NAME=VALUE (typed by `parameters`' defaults), --all
    (2,000 at the defaults, the first of `settings`, and 200 for each other one) or --controls."""
    def setting(text: str) -> tuple[str, object]:
        name, _, value = text.partition("=")
        if name not in parameters:
            raise argparse.ArgumentTypeError(f"unknown parameter {name!r} (known: {', '.join(parameters)})")
        default = parameters[name]
        if isinstance(default, bool):
            return name, value.lower() in ("1", "true", "yes")
        return name, value if isinstance(default, str) else int(value)

    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--setting", type=setting, action="append", default=[],
                        help="NAME=VALUE, for both engines (several allowed)")
    parser.add_argument("--controls", action="store_true",
                        help=f"the negative controls: how many {unit} until the first mismatch (at most 2,000)")
    parser.add_argument("--all", action="store_true",
                        help=f"every setting: the defaults (2,000 {unit}) and each other one (200)")
    args = parser.parse_args(argv)
    if args.controls:
        return report_controls(controls, unit)
    runs = [(s, 2000 if not s else 200) for s in settings] if args.all else [(dict(args.setting), args.hands)]
    return report_runs(game, runs, run, shown, unit)
