#!/usr/bin/env python3
"""What a greedy decision costs before it scores a single option: a lower bound for issue 34's first target.

    python bench/greedy_floor.py              # the package as it runs: pure Python
    python bench/greedy_floor.py --json       # the same figures as JSON, and nothing else, on stdout
    python bench/greedy_floor.py --compiled   # also with the greedy bot's modules compiled by Cython
                                              # (needs `pip install cython` and a C compiler; nothing is installed)
    python bench/greedy_floor.py --quick      # 2 decisions, 1 repeat: checks the script, not the speed

Issue 34 asks for a `greedy` decision of at most 12 floor tricks in bench/bots.py. This script
runs bench/bots.py's own measurement (its decisions, its floor timed around them, the median of
its repeats, CPU time) with two more bots beside the registry's `greedy` and
`greedy-reference`, each cutting one more part of `greedy`'s decision away:

- `greedy-facts`: reads the observation and makes the decision's facts as `greedy` does
  (lean_play.prepare: the cards it has seen, the unseen cards by Faction and their worth,
  the trick, the voids, who is still to play), then plays a random option: no option scored;
- `greedy-read`: only reads the observation's keys `greedy` reads (lean_play.read), then
  plays a random option.

Both keep the rest of a decision's overhead: the seat's tables looked up, one draw.

So any bot that reads what `greedy` reads costs at least `greedy-read`, and one that also
knows which cards are still unseen costs at least `greedy-facts`, however cheaply it then
values its options. Where `greedy-facts` is near 12 floor tricks, no valuation as detailed
as GreedyAgent's (the chance of each later seat following and beating, the trick's likely
content) fits in what is left.

`--compiled` builds the modules of COMPILED with Cython in a temporary folder (the same
source, each under its real module name) and runs the same measurement again in a process
that imports those builds in place of the .py files: what compiling the code buys (the
moves are the same: the fingerprints are printed). The figures are printed, never checked.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CUTS = ("greedy-facts", "greedy-read")  # greedy with its scoring cut away, then its facts too
VARIANTS = ("greedy", *CUTS, "greedy-reference")
#: The greedy bot's path from the observation to its scores: what --compiled builds.
COMPILED = ("happydayz.kernel.observation", "happydayz.players.greedy", "happydayz.players.contract",
            "happydayz.players.lean_play", "happydayz.players.fast_greedy")
_CHILD_ENV = "HAPPYDAYZ_BENCH_COMPILED_DIR"  # (the child process of --compiled: where the built modules are)


class _Compiled(importlib.abc.MetaPathFinder):
    """Finds the modules of COMPILED in the folder they were built into (the child process of --compiled)."""

    def __init__(self, lib: Path):
        self.lib = lib

    def find_spec(self, name, path, target=None):
        if name not in COMPILED:
            return None
        folder = self.lib.joinpath(*name.split(".")[:-1])
        stem = name.rpartition(".")[2]
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            file = folder / (stem + suffix)
            if file.is_file():
                return importlib.util.spec_from_file_location(
                    name, str(file), loader=importlib.machinery.ExtensionFileLoader(name, str(file)))
        raise ImportError(f"greedy_floor: {name} was not built in {folder}")


if os.environ.get(_CHILD_ENV):  # (before anything imports the package)
    sys.meta_path.insert(0, _Compiled(Path(os.environ[_CHILD_ENV])))
sys.path.insert(0, str(HERE))

import bots  # noqa: E402  (this folder: bench/bots.py's harness)


def variant(name: str):
    """A FastGreedyAgent that stops after reading the observation (`read`) or after its facts (`facts`)."""
    from happydayz.players import lean_play
    from happydayz.players.fast_greedy import FastGreedyAgent, hook_table
    from happydayz.players.greedy import _readable

    stop = lean_play.read if name == "greedy-read" else lean_play.prepare

    class Cut(FastGreedyAgent):
        def decide(self, observation, decision):
            kind = decision.kind
            if self.model is not None and len(decision.options) > 1 and kind in ("lead", "follow"):
                obs = _readable(observation)
                S = lean_play.statics(self.model, obs, obs["seat"], hook_table)
                if S.ok:
                    stop(S, obs)
                    return self.rng.randrange(len(decision.options))
            return super().decide(observation, decision)

    Cut.__name__ = Cut.__qualname__ = name
    return Cut


def measure(count: int, repeats: int, seed: int) -> dict:
    """bench/bots.py's measurement (its ISMCTS searches of 100 iterations in between too), the variants beside
    the registry's two greedy bots."""
    factory, names = bots.greedy_factory, bots.GREEDY_BOTS
    made = {name: variant(name) for name in CUTS}
    bots.GREEDY_BOTS = VARIANTS
    bots.greedy_factory = lambda name: made[name] if name in made else factory(name)
    try:
        result = bots.measure(count, 100, repeats, seed)
    finally:  # (bench/bots.py as it was, for whoever else uses it in this process)
        bots.greedy_factory, bots.GREEDY_BOTS = factory, names
    out = {"budget": result["budget"], "floor_us_per_trick": result["floor_us_per_trick"], "scenarios": {}}
    for sid, r in result["scenarios"].items():
        out["scenarios"][sid] = {name: r[f"{name.replace('-', '_')}_decision_floor_tricks"] for name in VARIANTS}
        out["scenarios"][sid]["moves"] = {name: r["moves"][name] for name in ("greedy", "greedy-reference")}
    return out


def build(folder: Path) -> Path:
    """The modules of COMPILED built by Cython into `folder` (main has checked that Cython and setuptools are there)."""
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    import happydayz

    package = Path(happydayz.__file__).resolve().parent
    modules = [Extension(name, [str(package.joinpath(*name.split(".")[1:]).with_suffix(".py"))]) for name in COMPILED]
    cwd = os.getcwd()
    os.chdir(folder)  # (setuptools writes its build folders here)
    try:
        done = cythonize(modules, build_dir=str(folder / "c"), quiet=True,
                         compiler_directives={"language_level": 3, "annotation_typing": False})
        setup(name="greedy-floor-compiled", ext_modules=done, script_args=[
            "-q", "build_ext", "--build-lib", str(folder / "lib"), "--build-temp", str(folder / "tmp")])
    finally:
        os.chdir(cwd)
    return folder / "lib"


def compiled(count: int, repeats: int, seed: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="greedy-floor-") as tmp:
        lib = build(Path(tmp))
        env = dict(os.environ, **{_CHILD_ENV: str(lib)})
        argv = [sys.executable, __file__, "--json", "--decisions", str(count), "--repeats", str(repeats),
                "--seed", str(seed)]
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"greedy_floor: the compiled run failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def render(result: dict, title: str) -> str:
    lines = [title, f"  {'':<22}" + "".join(f"{name:>18}" for name in VARIANTS) + "   moves (greedy, greedy-reference)"]
    for sid, r in result["scenarios"].items():
        lines.append(f"  {sid:<22}" + "".join(f"{r[name]:>18.1f}" for name in VARIANTS)
                     + f"   {r['moves']['greedy']} {r['moves']['greedy-reference']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A greedy decision's cost before it scores an option, in floor tricks.")
    parser.add_argument("--decisions", type=int, default=12, help="decisions per scenario (default 12, as bench/bots.py)")
    parser.add_argument("--repeats", type=int, default=3, help="runs over the same decisions; the median (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games and the bots (default 1)")
    parser.add_argument("--compiled", action="store_true", help="also with the greedy bot's modules compiled (Cython)")
    parser.add_argument("--quick", action="store_true", help="2 decisions per scenario, 1 repeat")
    parser.add_argument("--json", action="store_true", help="print JSON only, on stdout")
    args = parser.parse_args(argv)
    if args.quick:
        args.decisions, args.repeats = 2, 1
    if args.compiled:  # (said before minutes of measuring, not after)
        for module, hint in (("Cython", "Cython (pip install cython) and a C compiler"),
                             ("setuptools", "setuptools (pip install setuptools)")):
            try:
                __import__(module)
            except ImportError:
                parser.error(f"--compiled needs {hint}")
    result = {"python": measure(args.decisions, args.repeats, args.seed)}
    if args.compiled:
        result["compiled"] = compiled(args.decisions, args.repeats, args.seed)["python"]
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    b = result["python"]["budget"]
    print(f"a greedy decision and what is left of it, in floor tricks (bench/bots.py's harness: "
          f"{b['decisions_per_scenario']} decisions a scenario, median of {b['repeats']}, seed {b['seed']})\n")
    print(render(result["python"], "pure Python (as the package runs)"))
    if args.compiled:
        print()
        print(render(result["compiled"], f"the modules {', '.join(m.rpartition('.')[2] for m in COMPILED)} compiled by Cython"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
