"""The generated code (language/codegen.py) does what the compiler's closures do, and nothing a power says reaches it unescaped.

- Games: every bundled scenario and every cookbook scenario, each variant of its powers, played with
  the same seeds and the same random answers by powers run as closures and as generated code, give
  the same event log (a few games here, thousands in the slow test).
- Expressions and statements: Hypothesis writes typed expressions of every form, and statements of every
  kind around them; each function is evaluated as the closure and as the generated function on the same
  game, with the same random source: the same value (or the same error), the same random draws, the same
  variables afterwards.
- Hostile names: Faction names, variable names, counter names and texts full of quotes, backslashes,
  line breaks and code are fed through the generator; the generated source, parsed with the ast module,
  holds no string that is not one of the power's own values (or the generator's words) and no name that
  is not the generator's own.
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from happydayz.base.errors import DiagnosticSink, HappyError
from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.language import ast, codegen, vm
from happydayz.language.checker import BUILTINS, FUNCTIONS, check
from happydayz.language.compiler import _BUILTIN_READERS, CHOOSE, SHARED_STATE, compile_power
from happydayz.language.host import FACT_MEMBERS, HOST_MEMBERS
from happydayz.language.parser import parse, parse_file

from conftest import ROOT

COOKBOOK = sorted((ROOT / "docs" / "cookbook").glob("*.scenario.yaml"))
POWER_FILES = sorted((ROOT / "powers").glob("*.power")) + sorted((ROOT / "docs" / "cookbook").glob("*.power")) + [
    ROOT / "tests" / "language" / "data" / "every_new_construct.power"]
ENVS = {True: Environment(codegen=True), False: Environment(codegen=False)}


def _scenarios() -> list[str]:
    return sorted(s.id for s in ENVS[True].library.scenarios()) + [str(p) for p in COOKBOOK]


def _scenario_id(scenario: str) -> str:
    return Path(scenario).name if scenario.endswith(".yaml") else scenario


# ------------------------------------------------------------------------ games


def _setups(scenario: str, variant: str, players: int | None, extras: bool):
    """The set-up of a scenario, both ways, with every variable power in `variant` (None: a count it cannot deal)."""
    out = {}
    for codegen_on, env in ENVS.items():
        try:
            base, chosen = prepare(env, scenario, players, promos=extras, random_powers=extras)
            variants = {c.faction: variant for c in chosen.factions if not base.faction_power[c.faction].fixed}
            out[codegen_on] = prepare(env, scenario, players, promos=extras, random_powers=extras, variants=variants)[0]
        except HappyError:
            return None
    return out


def _play(setup, seed: int):
    game = Game(setup, seed, record=True)
    rng = random.Random(seed * 7919 + 1)
    try:
        game.play(lambda decision: rng.randrange(len(decision.options)))
    except HappyError as error:  # a power that stops a game stops it both ways alike
        return game.log, ("error", type(error).__name__, str(error))
    return game.log, game.result()


def _same_games(scenario: str, seeds, players_choices=(None,), variants=ast.VARIANTS) -> int:
    played = 0
    for variant in variants:
        for i, seed in enumerate(seeds):
            players = players_choices[i % len(players_choices)]
            setups = _setups(scenario, variant, players, extras=seed % 2 == 1)
            if setups is None:
                continue
            generated, closures = _play(setups[True], seed), _play(setups[False], seed)
            assert generated[0] == closures[0], f"{scenario} {variant} seed {seed}: the event logs differ"
            assert generated[1] == closures[1]
            played += 1
    return played


@pytest.mark.parametrize("scenario", _scenarios(), ids=_scenario_id)
def test_a_game_of_each_scenario_and_variant_is_the_same_with_generated_code(scenario):
    assert _same_games(scenario, seeds=[11]) == 3


@pytest.mark.slow
@pytest.mark.parametrize("scenario", _scenarios(), ids=_scenario_id)
def test_many_games_of_each_scenario_are_the_same_with_generated_code(scenario):
    # every scenario x 3 variants x 24 seeds: over 4,000 games each way, 3 to 5 players, promos and added powers
    assert _same_games(scenario, seeds=range(100, 124), players_choices=(None, 3, 4, 5)) >= 3 * 12


def test_the_powers_run_as_generated_code_by_default_and_as_closures_when_asked():
    assert codegen.DEFAULT is True and Environment().codegen is True
    for codegen_on, env in ENVS.items():
        setup, _ = prepare(env, "woodstock-fever/1", 4)
        for program in setup.programs.values():
            for ins in program.instructions:
                for item in ins:
                    if callable(item) and hasattr(item, "__code__"):
                        generated = item.__code__.co_filename.startswith("<generated from ")
                        assert generated is codegen_on, (ins, item.__code__.co_filename)


def test_the_environment_keeps_its_choice_when_pickled():
    env = pickle.loads(pickle.dumps(Environment(codegen=False)))
    assert env.codegen is False and "codegen=False" in repr(env)
    assert pickle.loads(pickle.dumps(Environment())).codegen is True


def test_a_game_copied_in_the_middle_of_a_generated_power_plays_on_alike():
    setup, _ = prepare(ENVS[True], "woodstock-fever/1", 4)
    for seed in range(20):
        game = Game(setup, seed)
        rng = random.Random(seed)
        while game.decision is not None and game.decision.kind != "choose":
            game.apply(rng.randrange(len(game.decision.options)))
        if game.decision is None:
            continue
        twin = game.copy()
        for g in (game, twin):
            g.play(lambda decision, r=random.Random(seed): r.randrange(len(decision.options)))
        assert game.log == twin.log
        return
    pytest.fail("no game stopped at a power's choice")


def test_compile_python_prints_the_generated_source(capsys):
    assert main(["compile", "--python", "zombies"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Generated by happydayz.language.codegen")
    assert "'Zombies'" in out and "def _f" in out
    pyast.parse(out)


def test_no_codegen_plays_the_same_game(tmp_path):
    logs = []
    for flag in ([], ["--no-codegen"]):
        out = tmp_path / f"log{len(flag)}.jsonl"
        assert main([*flag, "simulate", "--games", "3", "--seed", "4", "--quiet", "--log", str(out)]) == 0
        logs.append(out.read_text(encoding="utf-8"))
    assert logs[0] == logs[1]


def test_every_built_in_name_is_generated():
    assert set(codegen._BUILTINS) == set(_BUILTIN_READERS) == set(BUILTINS)


# ------------------------------------------------------- what the source may hold
# The generator's own names, the attributes its code reads (of a frame, the game, the tables, Python's
# types), and the strings a power's tree gives it.

OWN_NAMES = (set(codegen.NAMESPACE) - {"__builtins__"}) | {codegen.PARAMETER}
FRAME_ATTRIBUTES = {f.name for f in dataclasses.fields(vm.Ctx)} | {f.name for f in dataclasses.fields(vm.Frame)}
PYTHON_ATTRIBUTES = {"get", "pop", "append", "sort", "sample", "fromkeys", "__contains__", "__getitem__"}
ATTRIBUTES = FRAME_ATTRIBUTES | HOST_MEMBERS | FACT_MEMBERS | {"round_no"} | PYTHON_ATTRIBUTES
FORBIDDEN = (pyast.Import, pyast.ImportFrom, pyast.Global, pyast.Nonlocal, pyast.ClassDef, pyast.AsyncFunctionDef,
             pyast.Lambda, pyast.Yield, pyast.YieldFrom, pyast.Await, pyast.JoinedStr, pyast.Delete, pyast.With)


def _tree_strings(power: ast.PowerFile) -> set[str]:
    """The strings a power's tree may give the generated code: its Factions, its variables, its counters' keys."""
    out = {f"{SHARED_STATE if d.shared else power.name + ':'}{d.name}" for d in power.state}  # a shared one: the game's
    for node in ast.walk(power):
        if isinstance(node, ast.FactionLit):
            out.add(node.name)
        elif isinstance(node, (ast.NameRef, ast.Let, ast.SetVar, ast.Choose, ast.Each)):
            out.add(node.name)
        elif isinstance(node, ast.Comprehension):
            out.add(node.var)
    return out


def _assert_clean(source: str, allowed: set[str]) -> None:
    tree = pyast.parse(source)
    assert all(isinstance(statement, pyast.FunctionDef) for statement in tree.body), "the module only defines"
    for node in pyast.walk(tree):
        assert not isinstance(node, FORBIDDEN), pyast.dump(node)
        if isinstance(node, pyast.Constant) and isinstance(node.value, str):
            assert node.value in allowed | codegen.VOCABULARY, f"a string the power did not give: {node.value!r}"
        elif isinstance(node, pyast.Constant):
            assert node.value is None or type(node.value) in (int, bool), node.value
        elif isinstance(node, pyast.Name):
            assert node.id in OWN_NAMES or codegen.OWN_NAME.fullmatch(node.id), f"a name not the generator's: {node.id}"
        elif isinstance(node, pyast.FunctionDef):
            assert codegen.OWN_NAME.fullmatch(node.name) and [a.arg for a in node.args.args] == [codegen.PARAMETER]
            assert not node.decorator_list
        elif isinstance(node, pyast.Attribute):
            assert node.attr in ATTRIBUTES, f"an attribute the generator does not read: {node.attr}"
        elif isinstance(node, pyast.keyword):
            assert node.arg in ("key", "reverse")


def _generated(tree: ast.PowerFile, path: Path):
    checked = check(tree)
    compiled = compile_power(checked, path)
    return checked, compiled, codegen.generate(checked, compiled)


@pytest.mark.parametrize("path", POWER_FILES, ids=lambda p: p.name)
def test_the_source_of_each_power_holds_only_its_own_values_and_the_generators_names(path):
    tree = parse_file(path)
    _, compiled, generated = _generated(tree, path.resolve())
    _assert_clean(generated.source, _tree_strings(tree))
    generated.install(compiled)


# ------------------------------------------------------------ hostile names
# A power with every place a name or a text can stand; each placeholder is then replaced in the tree
# by a hostile string (which the grammar could not always have read: the generator must not rely on it).

TEMPLATE = '''
power "ZQPOWER" {
  for faction "ZQF0"
  counter zqs1 per community for round public
  mark zqs2 for game
  variant basic "ZQTITLE" {
    on win {
      let zqv1 = count(trick where faction is "ZQF1") + zqs1 + zqs1 of winner
      choose zqv2 from trick where faction is not "ZQF2" {
        move zqv2 to expedition of winner
      } else {
        next lead "ZQF3"
      }
      ask "ZQPROMPT" {
        add zqv1 to zqs1 of winner
      }
      choose "ZQMODE1" { set zqs2 = true } or "ZQMODE2" { end round }
      each zqv3 in ["ZQF1", "ZQF2"] {
        if zqv3 == led { add 1 to zqs1 }
      }
      set zqs1 = sum(count(trick where faction is zqv4) for zqv4 in ["ZQF4"] + factions)
      let zqv5 = zqv1
      set zqv5 = zqv1 + 1
      if zqv5 > 0 and winner in (everyone where count(expedition of it where faction is "ZQF1") > zqv5) {
        gain zqv5
      }
    }
    rule trumps when faction of played == "ZQF5" and zqs1 > 0
    rule beats ["ZQF6", "ZQF0"]
  }
  variant positive { on win { next lead "ZQF6" } }
  variant negative { on win { next lead "ZQF5" } }
}
'''
FACTION_SLOTS = ("ZQF0", "ZQF1", "ZQF2", "ZQF3", "ZQF4", "ZQF5", "ZQF6")
NAME_SLOTS = ("zqv1", "zqv2", "zqv3", "zqv4", "zqv5")
STATE_SLOTS = ("zqs1", "zqs2")
TEXT_SLOTS = ("ZQPOWER", "ZQTITLE", "ZQPROMPT", "ZQMODE1", "ZQMODE2")
HOSTILE = st.one_of(
    st.sampled_from(['"; import os #', "__import__('os')", "')\nimport os\n('", 'a"b', "a'b", "'''", '"""', "back\\slash",
                     "\\", "line\nbreak", "\r", "\u2028", "\x00", "{ctx}", "%s", "\\N{BULLET}", "ctx", "_e1", "_f2",
                     "__builtins__", "tuple", "Zömbïes 🧟", "\u202eevil", "x" * 300]),
    st.text(min_size=1, max_size=40),
)
RESERVED = set(BUILTINS) | set(FUNCTIONS) | {"it"}


def _replace(node, mapping: dict[str, str]):
    """The tree with each string field that is a placeholder replaced."""
    if isinstance(node, ast.Node):
        changes = {f.name: _replace(getattr(node, f.name), mapping) for f in dataclasses.fields(node)
                   if f.name not in ("span", "source")}
        return dataclasses.replace(node, **changes)
    if isinstance(node, tuple):
        return tuple(_replace(item, mapping) for item in node)
    if isinstance(node, str):
        return mapping.get(node, node)
    return node


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(factions=st.lists(HOSTILE, min_size=len(FACTION_SLOTS), max_size=len(FACTION_SLOTS), unique=True),
       names=st.lists(HOSTILE, min_size=len(NAME_SLOTS) + len(STATE_SLOTS),
                      max_size=len(NAME_SLOTS) + len(STATE_SLOTS), unique=True),
       texts=st.lists(HOSTILE, min_size=len(TEXT_SLOTS), max_size=len(TEXT_SLOTS), unique=True))
def test_hostile_names_and_texts_reach_the_source_only_as_escaped_literals(factions, names, texts):
    assume(not RESERVED & set(names))
    assume(texts[3].strip() and texts[4].strip() and texts[3] != texts[4])  # the choice's two courses have words
    mapping = dict(zip(FACTION_SLOTS + NAME_SLOTS + STATE_SLOTS + TEXT_SLOTS, factions + names + texts))
    tree = _replace(parse(TEMPLATE, "hostile.power"), mapping)
    sink = DiagnosticSink()
    check(tree, None, sink)
    assert not sink.errors, [d.render() for d in sink.errors]
    _, compiled, generated = _generated(tree, Path("hostile.power"))
    _assert_clean(generated.source, _tree_strings(tree))
    prompt_texts = {mapping[slot] for slot in TEXT_SLOTS[1:]} - _tree_strings(tree) - codegen.VOCABULARY
    assert not prompt_texts & {n.value for n in pyast.walk(pyast.parse(generated.source))
                               if isinstance(n, pyast.Constant)}, "prompts, courses and titles stay data"
    generated.install(compiled)  # compiles, and defines only functions
    module = compiled.variants["basic"].trumps.__globals__
    assert all(name in codegen.NAMESPACE or codegen.OWN_NAME.fullmatch(name) for name in module)


# ----------------------------------------------------------------- expressions
# Hypothesis writes an expression of each type from the language's parts (every built-in name, function,
# operator and group form), in a hook (`let v = ...` in `on win`) or in a rule (`rule wins when ...`).
# Both are evaluated on one game, the closure's way and the generated way, from the same random state.

NUMBER, BOOL, CARD, CARDS, SEAT, SEATS, FACTION, FACTIONS = "N", "B", "C", "CS", "P", "PS", "F", "FS"
ELEMENT = {CARDS: CARD, SEATS: SEAT, FACTIONS: FACTION}
FACTION_NAMES = ("Hippies", "Zombies", "Bikers", '"Police Officers"', "Nobody")  # (one that is not in play)
WIN_NAMES = {NUMBER: ["players", "round", "n0", "tally", "pot"], BOOL: ["true", "false", "flag"],
             CARD: ["winning", "c0"], CARDS: ["trick", "encounter", "reserve", "hand", "transfer", "held",
                                              "expedition", "cs0"],
             SEAT: ["self", "winner", "leader", "p0", "left", "right"], SEATS: ["others", "everyone"],
             FACTION: ["led", "f0"], FACTIONS: ["factions"]}
RULE_NAMES = {NUMBER: ["players", "round", "tally", "pot"], BOOL: ["true", "false", "void", "flag"],
              CARD: ["played"], CARDS: ["trick", "reserve", "hand", "held", "before"],
              SEAT: ["self", "leader"], SEATS: ["others", "everyone"], FACTION: ["led"], FACTIONS: ["factions"]}


@st.composite
def expressions(draw, kind: str, depth: int, names: dict, it: str | None = None, loops: int = 0):
    """Source text of an expression of `kind`; `it` the type of the element a condition is about."""
    leaves = list(names[kind]) + (["it"] if it == kind else [])
    if kind == NUMBER:
        leaves.append(str(draw(st.integers(0, 12))))
        if it == CARD:
            leaves += ["value", "survivors"]
    if kind == FACTION:
        leaves += list(FACTION_NAMES)
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(leaves))

    def sub(k, **kw):
        return draw(expressions(k, depth - 1, names, kw.get("it", it), kw.get("loops", loops)))

    def group():
        return draw(st.sampled_from([CARDS, SEATS, FACTIONS]))

    def comprehension():
        source = group()
        var = f"q{loops}"
        inner = {**names, ELEMENT[source]: names[ELEMENT[source]] + [var]}
        body = draw(expressions(NUMBER, depth - 1, inner, it, loops + 1))
        return f"{draw(st.sampled_from(['sum', 'min', 'max']))}({body} for {var} in {sub(source)})"

    def member():
        source = group()
        return f"({sub(ELEMENT[source])} {draw(st.sampled_from(['in', 'not in']))} {sub(source)})"

    def condition(element: str) -> str:
        if element == CARD and draw(st.booleans()):  # the forms the compiler reads without binding `it`
            attribute = draw(st.sampled_from(["value", "survivors", "faction"]))
            if attribute == "faction":
                return f"faction {draw(st.sampled_from(['is', 'is not', '!=']))} {sub(FACTION)}"
            return f"{attribute} {draw(st.sampled_from(['>', '<=', '==']))} {sub(NUMBER)}"
        if draw(st.booleans()):
            return f"{sub(NUMBER, it=element)} {draw(st.sampled_from(['>', '>=', '!=']))} {sub(NUMBER)}"
        group_of = {CARD: CARDS, SEAT: SEATS, FACTION: FACTIONS}[element]
        return f"it {draw(st.sampled_from(['in', 'not in']))} {sub(group_of)}"

    forms = {
        NUMBER: [lambda: f"count({sub(group())})", lambda: f"value of {sub(CARD)}", lambda: f"survivors of {sub(CARD)}",
                 lambda: f"population({sub(SEAT)})", lambda: f"tricks({sub(SEAT)})", lambda: f"position({sub(CARD)})",
                 lambda: f"({sub(NUMBER)} {draw(st.sampled_from('+-*/'))} {sub(NUMBER)})", lambda: f"(-{sub(NUMBER)})",
                 lambda: f"{draw(st.sampled_from(['min', 'max', 'sum']))}({sub(NUMBER)}, {sub(NUMBER)})",
                 lambda: f"max({sub(NUMBER)}, {sub(NUMBER)}, {sub(NUMBER)})", lambda: f"tally of {sub(SEAT)}",
                 lambda: f"count(numbers({sub(NUMBER)}, {sub(NUMBER)}))", comprehension],
        BOOL: [lambda: f"({sub(NUMBER)} {draw(st.sampled_from(['==', '!=', '<', '<=', '>', '>=']))} {sub(NUMBER)})",
               lambda: member(), lambda: f"(not {sub(BOOL)})", lambda: f"({sub(BOOL)} {draw(st.sampled_from(['and', 'or']))} {sub(BOOL)})",
               lambda: f"({sub(FACTION)} {draw(st.sampled_from(['is', 'is not', '==']))} {sub(FACTION)})",
               lambda: f"({sub(SEAT)} != {sub(SEAT)})", lambda: f"({sub(CARD)} == {sub(CARD)})",
               lambda: f"(side == {draw(st.sampled_from(['plus', 'minus']))})", lambda: f"flag of {sub(SEAT)}"],
        CARD: [lambda: sub(CARD)],
        SEAT: [lambda: f"{draw(st.sampled_from(['left', 'right']))} of {sub(SEAT)}", lambda: f"player({sub(CARD)})"],
        FACTION: [lambda: f"faction of {sub(CARD)}"],
        CARDS: [lambda: f"{draw(st.sampled_from(['hand', 'transfer', 'held', 'expedition']))} of {sub(SEAT)}",
                lambda: f"highest({sub(CARDS)})", lambda: f"lowest({sub(CARDS)}, {sub(NUMBER)})",
                lambda: f"random({sub(CARDS)}, {sub(NUMBER)})", lambda: f"random({sub(CARDS)})",
                lambda: f"({sub(CARDS)} + {sub(CARD)})", lambda: f"[{sub(CARD)}, {sub(CARD)}]"],
        SEATS: [lambda: f"[{sub(SEAT)}, {sub(SEAT)}]", lambda: f"({sub(SEATS)} + {sub(SEAT)})"],
        FACTIONS: [lambda: f"[{sub(FACTION)}, {sub(FACTION)}]", lambda: f"({sub(FACTIONS)} + {sub(FACTIONS)})"],
    }

    if kind in ELEMENT:  # the forms of every group
        element = ELEMENT[kind]
        forms[kind] += [
            lambda: f"({sub(kind)} where {condition(element)})", lambda: f"({sub(kind)} except {sub(kind)})",
            lambda: f"({sub(kind)} otherwise {sub(kind)})", lambda: f"first({sub(kind)}, {sub(NUMBER)})",
            lambda: f"last({sub(kind)}, {sub(NUMBER)})", lambda: f"last({sub(kind)})",
            lambda: (f"({sub(kind)} with {draw(st.sampled_from(['most', 'fewest', 'strictly most', 'strictly fewest']))} "
                     f"{sub(NUMBER, it=element)})")]
    return draw(st.sampled_from(forms[kind]))()


HEADER = """power Probe {
  for faction Probe
  counter tally per community for game
  counter pot for game
  mark flag per community for round
"""
LETS = "    let n0 = 2\n    let c0 = winning\n    let p0 = winner\n    let f0 = led\n    let cs0 = trick\n"


def _both(source: str):
    """The power compiled twice, (with closures, with generated code); None if the checker refuses it."""
    try:
        checked = check(parse(source, "probe.power"))
    except HappyError:  # a form the checker refuses here (a warning is no refusal)
        return None
    closures, generated = (compile_power(checked, Path("probe.power")) for _ in range(2))
    return closures, codegen.install(checked, generated)


def _program(text: str, rule: bool):
    """(closure, generated function) of the expression in a hook's last `let` or a rule's condition."""
    both = _both(HEADER + (f"  rule wins when {text}\n}}\n" if rule else
                           f"  on win {{\n{LETS}    let v = {text}\n  }}\n}}\n"))
    if both is None:
        return None
    fixed = [compiled.variants["fixed"] for compiled in both]
    return [v.wins if rule else v.hooks["win"].instructions[-1][2] for v in fixed]


def _contexts():
    """A few games part-way through a round, each with what a hook and a rule of it would see."""
    setup, _ = prepare(ENVS[True], "woodstock-fever/1", 4)
    out = []
    for seed in range(3):
        game = Game(setup, seed, record=False)
        rng = random.Random(seed)
        for _ in range(9 + 7 * seed):
            game.apply(rng.randrange(len(game.decision.options)))
        cards = [c for key, zone in sorted(game.zones.items()) if key != "reserve" for c in zone]
        trick = tuple(cards[seed:seed + 4])
        me, winner = seed % 4, (seed + 2) % 4
        led = game.tables.faction[trick[0]]
        game.state.update({("Probe:tally", 0): 3, ("Probe:tally", winner): 5, ("Probe:pot", None): 4,
                           ("Probe:flag", me): True})
        frame = vm.frame(("probe",), me, None, trick, (cards[-1],), led, (seed + 1) % 4, winner=winner,
                         winning=trick[1], side="+-"[seed % 2])
        ctx = vm.Ctx(game, me, {}, trick=trick, led=led, leader=(seed + 1) % 4, card=trick[2], void=bool(seed % 2),
                     side="+-"[seed % 2])
        play = vm.frame(("probe",), me, None, trick[:3], (), led, (seed + 1) % 4, card=trick[2], side="+-"[seed % 2])
        out.append((game, frame, ctx, play))
    return out


CONTEXTS = _contexts()


def _evaluate(function, game, ctx, env: dict, rng_state):
    game.rng.setstate(rng_state)
    ctx.env = dict(env)
    ctx.g = game
    try:
        value = ("value", type(value_ := function(ctx)).__name__, value_)
    except Exception as error:  # the same error both ways
        value = ("error", type(error).__name__, str(error))
    finally:
        if isinstance(ctx, vm.Frame):
            ctx.g = None
    return value, game.rng.getstate(), ctx.env


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), rule=st.booleans(), which=st.integers(0, len(CONTEXTS) - 1))
def test_every_expression_computes_the_same_when_generated(data, rule, which):
    names = RULE_NAMES if rule else WIN_NAMES
    kind = BOOL if rule else data.draw(st.sampled_from([NUMBER, BOOL, CARD, CARDS, SEAT, SEATS, FACTION, FACTIONS]))
    text = data.draw(expressions(kind, 4, names))
    pair = _program(text, rule)
    assume(pair is not None)
    game, frame, ctx, _ = CONTEXTS[which]
    context = ctx if rule else frame
    env = {} if rule else {"n0": 2, "c0": frame.winning, "p0": frame.winner, "f0": frame.led, "cs0": frame.trick}
    state = game.rng.getstate()
    closure, generated = (_evaluate(f, game, context, env, state) for f in pair)
    assert generated == closure, text


# Statements: each function of a hook's instructions (an effect, a condition, what a loop walks, what a
# choice offers and who makes it), in an `on win` or an `on play` hook.

PLAY_NAMES = {NUMBER: ["players", "round", "n0", "tally", "pot"], BOOL: ["true", "false", "flag"],
              CARD: ["played", "c0"], CARDS: ["trick", "reserve", "hand", "transfer", "held", "expedition", "before",
                                              "cs0"],
              SEAT: ["self", "leader", "p0", "left", "right"], SEATS: ["others", "everyone"], FACTION: ["led", "f0"],
              FACTIONS: ["factions"]}
PLAY_LETS = "    let n0 = 2\n    let c0 = played\n    let p0 = leader\n    let f0 = led\n    let cs0 = trick\n"


@st.composite
def statements(draw, play: bool):
    names = PLAY_NAMES if play else WIN_NAMES

    def e(kind):
        return draw(expressions(kind, 3, names))

    def dest():
        return draw(st.sampled_from([f"{z} of {e(SEAT)}" for z in ("hand", "transfer", "expedition")] + [
            "hand", "expedition", "top of reserve", "bottom of reserve", "discard"]))

    def order():
        keys = draw(st.lists(st.sampled_from(["highest value", "lowest value", "highest survivors",
                                              "lowest survivors"]), max_size=2))
        return " by " + " then ".join(keys) if keys else ""

    forms = [
        lambda: f"move {e(CARDS)} to {dest()}", lambda: f"discard {e(CARDS)}", lambda: f"draw {e(NUMBER)}",
        lambda: f"draw {e(NUMBER)} for {e(SEAT)}", lambda: f"deal {e(CARDS)} to {e(SEATS)}{order()}",
        lambda: f"gain {e(NUMBER)}", lambda: f"lose {e(NUMBER)} for {e(SEAT)}", lambda: f"next leader {e(SEAT)}",
        lambda: f"next lead {e(FACTION)}", lambda: f"set tally of {e(SEAT)} = {e(NUMBER)}",
        lambda: f"set pot = {e(NUMBER)}", lambda: f"add {e(NUMBER)} to tally",
        lambda: f"add {e(NUMBER)} to tally of {e(SEAT)}", lambda: f"add {e(NUMBER)} to pot",
        lambda: f"set flag = {e(BOOL)}", lambda: "end round", lambda: f"if {e(BOOL)} {{ gain 1 }} else {{ lose 1 }}",
        lambda: f"each q9 in {e(CARDS)} {{ move q9 to hand }}",
        lambda: f"each q9 in {e(CARDS)} simultaneously {{ move q9 to expedition }}",
        lambda: f"choose q8 from {e(CARDS)} by {e(SEAT)} {{ discard q8 }} else {{ gain 1 }}",
        lambda: f"choose up to 2 q8 from {e(CARDS)} {{ discard q8 }}",
        lambda: f"choose q8 from {e(SEATS)} {{ next leader q8 }}",
        lambda: f'ask "Sure?" by {e(SEAT)} {{ gain 1 }}', lambda: f'choose by {e(SEAT)} "A" {{ gain 1 }} or "B" {{ }}',
        lambda: "repeat 3 { gain 1 }", lambda: f"let q7 = {e(NUMBER)}\n    set q7 = {e(NUMBER)}\n    gain q7",
    ]
    if play:
        forms += [lambda: f"declare {e(CARD)} as {e(FACTION)}", lambda: "set side = minus", lambda: "flip side",
                  lambda: "end trick"]
    return draw(st.sampled_from(forms))()


def _functions(text: str, play: bool):
    """(closure, generated function) of every function of the hook's instructions."""
    hook = "play" if play else "win"
    both = _both(HEADER + f"  on {hook} {{\n{PLAY_LETS if play else LETS}    {text}\n  }}\n}}\n")
    if both is None:
        return None
    sides = []
    for compiled in both:
        functions = []
        for ins in compiled.variants["fixed"].hooks[hook].instructions:
            items = (ins[1].source, ins[1].chooser) if ins[0] == CHOOSE else ins
            functions += [item for item in items if callable(item)]
        sides.append(functions)
    assert len(sides[0]) == len(sides[1])
    return list(zip(*sides))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), play=st.booleans(), which=st.integers(0, len(CONTEXTS) - 1))
def test_every_statement_computes_the_same_when_generated(data, play, which):
    text = data.draw(statements(play))
    pairs = _functions(text, play)
    assume(pairs is not None)
    game, frame, _, play_frame = CONTEXTS[which]
    context = play_frame if play else frame
    env = {"n0": 2, "c0": context.card if play else context.winning, "p0": context.leader if play else context.winner,
           "f0": context.led, "cs0": context.trick, "q9": context.trick[0], "q8": context.trick[-1], "q7": 4}
    state = game.rng.getstate()
    for closure, generated in pairs:
        assert _evaluate(generated, game, context, env, state) == _evaluate(closure, game, context, env, state), text
