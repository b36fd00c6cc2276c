"""Commands for people who write and validate powers and scenarios: check, replay, replay-log,
explain, fmt, compile, new. Each `add_*` function adds one sub-command to the parser."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from happydayz.authoring.checking import check_paths, expand
from happydayz.authoring.powerfiles import checked_power, find_power
from happydayz.authoring.scaffold import new_faction, new_scenario
from happydayz.authoring.testing import find_scripts, junit_xml, run_scripts
from happydayz.base.errors import CheckProblem, SyntaxProblem, UsageError
from happydayz.base.files import read_text, write_output
from happydayz.cli.common import plural
from happydayz.kernel.replaylog import verify
from happydayz.kernel.scripted import replay
from happydayz.language.cardtext import card_text
from happydayz.language.codegen import generate
from happydayz.language.compiler import compile_power
from happydayz.language.formatter import format_paths
from happydayz.language.ir import power_ir


# --------------------------------------------------------------------- check

def _add_check(sub) -> None:
    p = sub.add_parser("check", help="check power, box and scenario files",
                       description="Check power files (.power), box and scenario files (.yaml), or every such "
                                   "file in the folders named. Exit 1 if any error is found.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--json", action="store_true", help="print the diagnostics as a JSON list")
    p.set_defaults(run=_run_check)


def _run_check(args) -> int:
    files, _ = expand(args.paths)
    diagnostics = check_paths(args.paths, args.env)
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    if args.json:
        sys.stdout.write(json.dumps([d.record() for d in diagnostics], indent=2) + "\n")
    else:
        for diagnostic in diagnostics:
            print(diagnostic.render())
        print(f"{plural(errors, 'error')}, {plural(warnings, 'warning')} in {plural(len(files), 'file')}")
    return 1 if errors else 0


# ---------------------------------------------------------------------- test

def add_test(sub) -> None:
    p = sub.add_parser("test", help="run scripted games like unit tests",
                       description="Play every scripted game (docs/scripted-games.md) in the files or folders "
                                   "named (default: this folder) in one process, print one line per game and a "
                                   "summary, and show what differs for each game that fails. Exit 1 if any fails.")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH", help="scripted games, or folders of them")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE ('-': standard output)")
    p.add_argument("--junit", metavar="FILE", help="also write the results as JUnit XML to FILE, for a CI service")
    p.add_argument("--quiet", action="store_true", help="print only the failures and the summary")
    p.set_defaults(run=run_test)


def run_test(args) -> int:
    start = time.perf_counter()
    files, missing = find_scripts(args.paths)
    for problem in missing:
        print(problem.render(), file=sys.stderr)
    results = run_scripts(files, args.env)
    seconds = time.perf_counter() - start
    to_stdout = args.json == "-"
    show = (lambda *a, **k: None) if to_stdout else print
    for result in results:
        if result.passed:
            if not args.quiet:
                show(f"PASS  {result.path}")
            continue
        show(f"FAIL  {result.path}")
        for line in result.problems + ([result.error.render()] if result.error else []):
            show("\n".join("      " + part for part in line.splitlines()))
    failed = sum(1 for r in results if not r.passed)
    show(f"{plural(len(results), 'scripted game')}: {len(results) - failed} passed, {failed} failed "
         f"in {seconds:.2f} s")
    if args.json is not None:
        text = json.dumps({"games": [r.record() for r in results], "passed": len(results) - failed,
                           "failed": failed, "seconds": round(seconds, 3)}, indent=2) + "\n"
        write_output(args.json, text)
    if args.junit is not None:
        write_output(args.junit, junit_xml(results, seconds))
    if not results and not missing:
        print(f"happydayz: no scripted game found under {', '.join(args.paths)}", file=sys.stderr)
    return 1 if failed or missing or not results else 0


# -------------------------------------------------------------------- replay

def add_replay(sub) -> None:
    p = sub.add_parser("replay", help="play a scripted game and check its expectations",
                       description="Play a scripted game file (docs/scripted-games.md) and print the final state "
                                   "as JSON. Exit 1 when the file's expect: block does not match.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--quiet", action="store_true", help="print only the differences, not the final state")
    p.set_defaults(run=run_replay)


def run_replay(args) -> int:
    result = replay(args.file, args.env)
    if not args.quiet:
        print(json.dumps(result.output, indent=2))
    if result.mismatches:
        print(f"{args.file}: the game does not match its expect: block", file=sys.stderr)
        for line in result.mismatches:
            print(f"  - {line}", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- replay-log

def add_replay_log(sub) -> None:
    p = sub.add_parser("replay-log", help="replay a game from its event log and check it replays exactly",
                       description="Rebuild a game from a JSON Lines event log (simulate --log) and replay every "
                                   "logged answer. Exit 1 unless the replay reproduces the log event for event.")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--game", type=int, default=None, help="which game of a multi-game log (default: the first)")
    p.set_defaults(run=run_replay_log)


def run_replay_log(args) -> int:
    game, differences = verify(args.log, args.game, args.env)
    result = game.result()
    print(json.dumps({**result, "events": len(game.log), "exact": not differences}))
    for line in differences:
        print(f"  - {line}", file=sys.stderr)
    return 1 if differences else 0


# ------------------------------------------------------------------- explain

def add_explain(sub) -> None:
    p = sub.add_parser("explain", help="show a power as English card text",
                       description="Render a power as the card text a player would read, generated from the "
                                   "power file itself.")
    p.add_argument("power", metavar="POWER", help="a power file, or a bundled power's name (its file name without .power)")
    p.add_argument("--variant", choices=["basic", "positive", "negative"], help="only this variant")
    p.set_defaults(run=run_explain)


def run_explain(args) -> int:
    checked = checked_power(find_power(args.power), args.env, known_factions_only=False)
    if args.variant and not checked.power.variants:
        raise UsageError(f"the power '{checked.power.name}' has no variants")
    print(card_text(checked, args.variant))
    return 0


# ----------------------------------------------------------------------- fmt

def add_fmt(sub) -> None:
    p = sub.add_parser("fmt", help="lay out power files canonically",
                       description="Rewrite power files (or every .power file in the folders named) in the "
                                   "canonical layout, keeping comments. With --check, write nothing and exit 1 "
                                   "if any file would change.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--check", action="store_true", help="only report the files that would change")
    p.set_defaults(run=run_fmt)


def run_fmt(args) -> int:
    changed, problems = format_paths(args.paths, check=args.check)
    for problem in problems:
        print(problem.render(), file=sys.stderr)
    for path in changed:
        print(f"{'would reformat' if args.check else 'reformatted'} {path}")
    if problems or (args.check and changed):
        return 1
    return 0


# ------------------------------------------------------------------- compile

def add_compile(sub) -> None:
    p = sub.add_parser("compile", help="show a power's compiled program",
                       description="Compile a power and print its program: the rules and, for each hook, the "
                                   "instructions the interpreter runs. --json prints the stable JSON form "
                                   "(schema: boxes/schema/ir.schema.json); --python the Python source generated "
                                   "for its expressions, effects and rules (docs/architecture.md).")
    p.add_argument("power", metavar="POWER", help="a power file, or a bundled power's name")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the compiled power as JSON")
    shown.add_argument("--python", action="store_true", help="print the Python source generated for the power")
    p.set_defaults(run=run_compile)


def run_compile(args) -> int:
    path = find_power(args.power)
    checked = checked_power(path, args.env)
    compiled = compile_power(checked, path.resolve())
    if args.python:
        sys.stdout.write(generate(checked, compiled).source)
        return 0
    data = power_ir(compiled)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    source = read_text(path, "power", code="S005", error=SyntaxProblem, large_code="S004")  # already checked: bounded
    print(disassembly(data, source.splitlines()))
    return 0


def _jump_words(ins: dict) -> str:
    op = ins["op"]
    if op == "jump":
        return f"go to {ins['to']}"
    if op == "jump_unless":
        return f"if false, go to {ins['to']}"
    if op == "each_next":
        return f"next {ins['name'] or 'time'}; when done, go to {ins['done']}"
    if op == "each_init":
        return f"repeat {ins['times']} times" if "times" in ins else "walk a group"
    if op == "choose":
        count = {"one": "one", "exactly": str(ins["count"]), "up_to": f"up to {ins['count']}"}[ins["mode"]]
        return f"{count} {ins['element']} as {ins['name']}; if none, go to {ins['empty']}"
    if op == "ask":
        return f"yes/no; if no, go to {ins['no']}"
    if op == "mode":
        return f"one of {len(ins['options'])} courses: go to {', '.join(map(str, ins['to']))}"
    if op == "let":
        return f"{ins['name']} ="
    return ""


def disassembly(data: dict, source_lines: list[str]) -> str:
    """The compiled program as a readable listing, each instruction beside its source line."""
    out = [f"{data['name']} ({data['binding']}{' ' + data['faction'] if data['faction'] else ''})"]
    for kind, variant in data["variants"].items():
        out.append(f"  {kind}{' — ' + variant['title'] if variant['title'] else ''}")
        rules = [name.replace("_", " ") for name, on in variant["rules"].items() if on and name != "trumps_when"]
        if variant["rules"]["trumps_when"]:
            rules.append("trumps")
        if rules:
            out.append(f"    rules: {', '.join(rules)}")
        for hook, program in variant["hooks"].items():
            if not program:
                continue
            out.append(f"    {hook.replace('_', ' ')}:")
            for ins in program:
                line = ins.get("line")
                text = source_lines[line - 1].strip() if line and line <= len(source_lines) else ""
                where = f"  | {line}: {text}" if text else ""
                out.append(f"      {ins['pc']:3d}  {ins['op']:<11} {_jump_words(ins):<44}{where}".rstrip())
    return "\n".join(out)


# ----------------------------------------------------------------------- new

def add_new(sub) -> None:
    p = sub.add_parser("new", help="start a new Faction or scenario from a template",
                       description="new faction NAME: a power file with all three variants and a scenario that "
                                   "plays it. new scenario NAME: a scenario file to edit.")
    p.add_argument("what", choices=["faction", "scenario"])
    p.add_argument("name", metavar="NAME")
    p.add_argument("--dir", default=".", help="the folder to write into (default: here)")
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p.set_defaults(run=run_new)


def run_new(args) -> int:
    directory = Path(args.dir)
    if not directory.is_dir():
        raise UsageError(f"no folder {directory}")
    make = new_faction if args.what == "faction" else new_scenario
    written = make(args.name, directory, args.env.library, force=args.force)
    problems = [d for d in check_paths([str(p) for p in written], args.env) if d.severity == "error"]
    if problems:  # a template that does not check is our bug, but say so plainly
        raise CheckProblem(problems)
    for path in written:
        print(f"wrote {path}")
    scenario = next((p for p in written if p.suffix == ".yaml"), None)
    if scenario is not None:
        print(f"next: happydayz check {directory}  then  happydayz simulate --scenario {scenario}")
    return 0


COMMANDS = [_add_check, add_test, add_replay, add_replay_log, add_explain, add_fmt, add_compile, add_new]
