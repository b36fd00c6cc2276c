"""`happydayz check`: every problem of power, box and scenario files.

Power files are checked against the Factions the loaded boxes know, plus the
Factions that the checked files themselves define (a new Faction's power file
names its own Faction).
"""

from __future__ import annotations

import os
from pathlib import Path

from happydayz.base.errors import Diagnostic, DiagnosticSink, HappyError, Span
from happydayz.base.safeyaml import format_path, load_yaml
from happydayz.data.boxes import check_data_file, detect_kind, load_scenario_file, scenario_hand
from happydayz.data.options import option_problem
from happydayz.data.environment import Environment
from happydayz.data.model import Library
from happydayz.kernel.scripted import check_script, is_script
from happydayz.language import ast
from happydayz.language.checker import check
from happydayz.language.parser import parse_file
from happydayz.language.scenario_state import read_state_entry

POWER_SUFFIXES = (".power",)
DATA_SUFFIXES = (".yaml", ".yml")


def expand(paths: list[str | os.PathLike]) -> tuple[list[Path], list[Diagnostic]]:
    """Files named, and the power/box/scenario files inside named folders."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in POWER_SUFFIXES + DATA_SUFFIXES
                           and "schema" not in p.parts[len(path.parts):])
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "no such file or folder", "F001"))
    return files, problems


def _check_yaml(path: Path, library: Library | None, trees: dict, env: Environment) -> list[Diagnostic]:
    """A box, scenario or scripted-game file; a scenario's own power files join the power checks."""
    try:
        doc = load_yaml(path)
    except HappyError as exc:
        return list(exc.diagnostics)
    if is_script(doc.data):
        return check_script(path, env, doc)  # (read and parsed once: doc)
    if library is None:  # a broken bundled box (reported once): a box file can still be checked
        return check_data_file(path, Library({}), env.power_dirs, doc) if detect_kind(doc.data) == "box" else []
    found = check_data_file(path, library, env.power_dirs, doc)  # (the file is read and parsed once: doc)
    if found or detect_kind(doc.data) != "scenario":
        return found
    return _check_scenario_powers(path, doc, library, trees, env)


def _check_scenario_powers(path: Path, doc, library: Library, trees: dict, env: Environment) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    try:
        scenario, extended = load_scenario_file(path, library, env.power_dirs, doc)
    except HappyError as exc:
        return list(exc.diagnostics)
    factions = extended.all_factions()
    for index, choice in enumerate(scenario.factions):
        fdef = factions.get(choice.faction)
        if fdef is None:
            continue
        power_path = Path(fdef.power_file).resolve()
        if choice.faction in extended.extra_factions and power_path not in trees:
            try:
                trees[power_path] = parse_file(power_path)
            except HappyError as exc:
                problems.extend(exc.diagnostics)
                continue
        tree = trees.get(power_path)
        if tree is None:
            try:
                tree = parse_file(power_path)
            except HappyError:
                continue  # a bundled power's problems are reported when it is checked itself
        if tree.binding.kind != "faction" or tree.binding.faction != choice.faction:
            bound = f"for the Faction {tree.binding.faction}" if tree.binding.kind == "faction" else \
                ("for a card" if tree.binding.kind == "card" else "an added power")
            problems.append(Diagnostic(doc.span(("factions", index)),
                                       f"factions[{index}]: {power_path.name} is {bound}, so it cannot be the power "
                                       f"of {choice.faction}", "D034",
                                       hint=f"begin {power_path.name} with 'power ... {{ for faction {choice.faction}'"))
            continue
        if choice.variant != "basic" and not tree.variants:
            problems.append(Diagnostic(doc.span(("factions", index)),
                                       f"factions[{index}]: the power of {choice.faction} has no variants, "
                                       f"so it cannot be played as '{choice.variant}'", "D033",
                                       hint=f"write the three variants in {power_path.name}, or play it as basic"))
    problems += _option_problems(doc, scenario, extended, trees)
    problems += _shared_problems(scenario, extended, trees)
    problems += _precedence_warnings(scenario, extended, trees)
    problems += _turned_up_problems(doc, scenario, extended, library, trees)
    problems += _dummy_warnings(doc, scenario, extended, library, trees)
    for index, entry in enumerate(doc.data.get("added_powers", ())):  # the scenario's own added powers
        power = extended.extra_added.get(entry["name"])
        if power is None:
            continue
        power_path = Path(power.power_file).resolve()
        try:
            tree = trees[power_path] if power_path in trees else trees.setdefault(power_path, parse_file(power_path))
        except HappyError as exc:
            problems.extend(exc.diagnostics)
            continue
        if tree.binding.kind != "added":
            bound = f"for the Faction {tree.binding.faction}" if tree.binding.kind == "faction" else "for a card"
            problems.append(Diagnostic(doc.span(("added_powers", index, "power")),
                                       f"added_powers[{index}].power: {power_path.name} is {bound}, so it cannot be "
                                       f"the added power {entry['name']}", "D034",
                                       hint=f"begin {power_path.name} with 'power ... {{ added'"))
    return problems


def _option_problems(doc, scenario, extended: Library, trees: dict) -> list[Diagnostic]:
    """The scenario's `options:` against the options its powers declare (D037), at each value's place."""
    if not scenario.options:
        return []
    declared: dict[str, int | bool] = {}
    files = [extended.all_factions()[c.faction].power_file for c in scenario.factions
             if c.faction in extended.all_factions()]
    added = extended.all_added_powers()
    files += [added[name].power_file for name in scenario.added if name in added]
    for file in files:
        path = Path(file).resolve()
        try:
            tree = trees[path] if path in trees else parse_file(path)
        except HappyError:
            continue  # reported when the power file is checked
        declared.update((d.name, d.option) for d in tree.state if d.option is not None and type(d.option) is not str)
    problems = []
    for name, value in scenario.options:
        problem = option_problem(name, value, declared)
        if problem:
            problems.append(Diagnostic(doc.span(("options", name)), f"options.{name}: {problem}", "D037"))
    return problems


def _shared_problems(scenario, extended: Library, trees: dict) -> list[Diagnostic]:
    """Each `uses` line of the scenario's powers against the shared state it names (D050, D051), at its line; a
    shared state declared by two of them (D052), at the second declaration."""
    files = [extended.all_factions()[c.faction].power_file for c in scenario.factions
             if c.faction in extended.all_factions()]
    added = extended.all_added_powers()
    files += [added[name].power_file for name in scenario.added if name in added]
    declared: dict[str, tuple] = {}  # name -> (its declaration, the file)
    uses: list = []
    problems = []
    for entry in scenario.state:  # the scenario's own `state:` (D085 at the entry when one is wrong)
        decl, _ = read_state_entry(entry)
        if decl is not None:
            declared[decl.name] = (decl, Path(scenario.source or "the scenario"))
    for file in dict.fromkeys(Path(f).resolve() for f in files):
        try:
            tree = trees[file] if file in trees else parse_file(file)
        except HappyError:
            continue  # reported when the power file is checked
        for d in tree.state:
            if d.shared == "uses":
                uses.append(d)
            elif d.shared and d.name in declared:
                problems.append(Diagnostic(d.span, f"the shared {d.kind} '{d.name}' is declared twice in this game: "
                                           f"{declared[d.name][1].name} declares it too"
                                           + (" (state:)" if declared[d.name][1] == Path(scenario.source or "the scenario") else ""), "D052",
                                           hint=f"keep one declaration; the other powers say 'uses {d.kind} {d.name}'"))
            elif d.shared:
                declared[d.name] = (d, file)
    for d in uses:
        found = declared.get(d.name)
        if found is None:
            problems.append(Diagnostic(d.span, f"no power of this game declares the shared {d.kind} '{d.name}'",
                                       "D050", hint=f"an added power of the scenario declares it: "
                                       f"'shared {_shape(d)}', or the scenario: 'state: [\"{_shape(d)}\"]'"))
        elif _shape(found[0]) != _shape(d):
            problems.append(Diagnostic(d.span, f"'uses {_shape(d)}' does not match the declaration "
                                       f"'shared {_shape(found[0])}' in {found[1].name}"
                                       + (" (state:)" if found[1] == Path(scenario.source or "the scenario") else ""), "D051",
                                       hint=f"uses {_shape(found[0])}"))
    return problems


# A Faction's own rules that decide how its cards follow and win: a game-wide `rule counts as` overlaps them (W014).
COUNTED_OVER = ("trumps", "wild", "always_playable", "wins", "never_wins", "beats", "must_be_played")


def _precedence_warnings(scenario, extended: Library, trees: dict) -> list[Diagnostic]:
    """W013 at each Faction's `rule trumps` when an added power of the scenario has a game-wide one: both can
    apply to one card (the Faction's is tested first; the card trumps if either holds). The scenario's own
    added powers count too where `added` leaves them out: the random-power rule may draw them."""
    added = extended.all_added_powers()
    game_wide, counting = [], []
    for name in [*scenario.added, *(n for n in extended.extra_added if n not in scenario.added)]:
        tree = _tree(added[name].power_file, trees) if name in added else None
        if tree is not None and any(r.kind == "trumps" for r in tree.rules):
            game_wide.append(tree.name)
        if tree is not None and any(r.kind == "counts_as" for r in tree.rules):
            counting.append(tree.name)
    if not game_wide and not counting:
        return []
    problems = []
    factions = extended.all_factions()
    for choice in scenario.factions:
        tree = _tree(factions[choice.faction].power_file, trees) if choice.faction in factions else None
        if tree is None:
            continue
        rules = [r for v in tree.variants if v.kind == choice.variant for r in v.rules] or list(tree.rules)
        for rule in rules:
            if counting and rule.kind in COUNTED_OVER:
                problems.append(Diagnostic(rule.span, f"a card of {choice.faction} may count as another Faction by "
                                           f"the game-wide 'rule counts as' of {', '.join(counting)}: this rule still "
                                           "applies to it as a card of " + choice.faction
                                           + (", but the game-wide rule is tested first and decides the Faction it "
                                              "counts as" if rule.kind == "wild" else
                                              ", tested only when the Faction it counts as is not the Faction led"
                                              if rule.kind == "trumps" else ""), "W014", severity="warning",
                                           hint="name the Faction's own cards out of the game-wide rule's condition "
                                                "if they should keep their Faction"))
            if rule.kind == "trumps" and game_wide:
                problems.append(Diagnostic(rule.span, f"this rule and the game-wide 'rule trumps' of "
                                           f"{', '.join(game_wide)} can both apply to a card of {choice.faction}: "
                                           "this one is tested first, then the game-wide one, and the card trumps "
                                           "if either holds", "W013", severity="warning",
                                           hint="fold both conditions into one rule if the card should trump only "
                                                "when both hold"))
    return problems


def _tree(file, trees: dict):
    path = Path(file).resolve()
    try:
        return trees[path] if path in trees else parse_file(path)
    except HappyError:
        return None  # reported when the power file is checked


def _shape(d) -> str:
    """A shared state as a `uses` line names it: kind, name, what it holds, per Community."""
    return f"{d.kind} {d.name}" + (f": {d.holds}" if d.holds else "") + (" per community" if d.per_community else "")


def _powers_reading(name: str, doc, scenario, extended: Library, trees: dict):
    """(entry path, power name, file, the first read) of each power of the scenario (its `factions` and
    `added` entries) that reads the built-in `name` somewhere."""
    factions, added = extended.all_factions(), extended.all_added_powers()
    entries = [(("factions", i), c.faction, factions[c.faction].power_file) for i, c in enumerate(scenario.factions)
               if c.faction in factions]
    entries += [(("added", i), power, added[power].power_file) for i, power in enumerate(scenario.added)
                if power in added]
    for where, power, file in entries:
        path = Path(file).resolve()
        try:
            tree = trees[path] if path in trees else parse_file(path)
        except HappyError:
            continue  # reported when the power file is checked
        read = next((n for n in ast.walk(tree) if isinstance(n, ast.NameRef) and n.name == name), None)
        if read is not None and where in doc.values:
            yield where, power, path, read


def _turned_up_problems(doc, scenario, extended: Library, library: Library, trees: dict) -> list[Diagnostic]:
    """A power of the scenario that reads `turned_up` while its hand turns no card up (D046), at the power's entry."""
    box = library.boxes.get(scenario.box)
    if box is None or scenario_hand(box.hand, scenario.house_rules, scenario.hand).turn_up:
        return []
    return [Diagnostic(doc.span(where), f"{format_path(where)}: the power of {power} reads turned_up "
                       f"({path.name}:{read.span.line}:{read.span.column}), the card the hand turns "
                       "up, but this scenario's hand turns up none", "D046",
                       hint="say turn_up: true in the scenario's hand (docs/boxes.md, 'The auction')")
            for where, power, path, read in _powers_reading("turned_up", doc, scenario, extended, trees)]


def _dummy_warnings(doc, scenario, extended: Library, library: Library, trees: dict) -> list[Diagnostic]:
    """A power of the scenario that reads `dummy` while its hand has none (W024), at the power's entry: the
    name then always reads Community 0."""
    box = library.boxes.get(scenario.box)
    if box is None or scenario_hand(box.hand, scenario.house_rules, scenario.hand).dummy != "none":
        return []
    return [Diagnostic(doc.span(where), f"{format_path(where)}: the power of {power} reads dummy "
                       f"({path.name}:{read.span.line}:{read.span.column}), but this scenario's hand "
                       "has no dummy: it is always Community 0", "W024", severity="warning",
                       hint="say dummy: partner_of_declarer in the scenario's hand, with teams and "
                            "an auction (docs/boxes.md, 'The dummy')")
            for where, power, path, read in _powers_reading("dummy", doc, scenario, extended, trees)]


def check_paths(paths: list[str | os.PathLike], env: Environment | None = None) -> list[Diagnostic]:
    """Every diagnostic (errors and warnings) for the files under `paths`."""
    env = env if env is not None else Environment()
    files, problems = expand(paths)
    for raw in paths:
        path = Path(raw)
        if path.is_dir() and not any(f == path or path in f.parents for f in files):
            problems.append(Diagnostic(Span(str(path), 1, 1), "this folder holds no file to check (.power, .yaml)",
                                       "F004", severity="warning"))
    try:
        library = env.library
        known = set(library.all_factions())
    except HappyError as exc:  # a broken bundled box: report it, check powers without Faction names
        problems.extend(exc.diagnostics)
        library, known = None, None
    trees: dict[Path, object] = {}  # by resolved path, so a file reached twice is checked once
    for path in files:
        if path.suffix in POWER_SUFFIXES:
            try:
                trees[path.resolve()] = parse_file(path)
            except HappyError as exc:
                problems.extend(exc.diagnostics)
        elif path.suffix in DATA_SUFFIXES:
            problems.extend(_check_yaml(path, library, trees, env))
        else:
            problems.append(Diagnostic(Span(str(path), 1, 1), "not a power file (.power) nor a box or scenario file (.yaml)", "F002"))
    defined = {path: t.binding.faction for path, t in trees.items() if t.binding.faction}
    for path, tree in trees.items():
        sink = DiagnosticSink()
        # A file's own new Faction is known to it; the others' too, so powers can name each other.
        others = {f for p, f in defined.items() if p != path}
        check(tree, None if known is None else known | others, sink)
        problems.extend(sink.items)
    return problems
