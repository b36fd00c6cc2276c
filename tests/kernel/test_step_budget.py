"""One step budget for all the work a power does (language.budget), and powers as deep as `check` lets them be.

A hook's run and a rule's evaluation each have 100,000 steps, counted alike by the
compiler's closures and the generated code: statement loops and the elements an
expression walks (`sum(... for v in ...)`, `where`, `with most`). The hooks of a round
share 1,000,000. `check` warns (W012) when its bound of a hook's work passes the budget.
Every tree the parser accepts (at most ast.MAX_NESTING levels) compiles to generated code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from happydayz.base.errors import HappyError
from happydayz.data.environment import Environment
from happydayz.language import codegen, vm
from happydayz.language.checker import check
from happydayz.language.compiler import compile_power
from happydayz.language.parser import parse
from happydayz.simulation.simulate import simulate


def power(body: str, hook: str = "at end of round") -> str:
    return f"power Mutants {{\n for faction Mutants\n {hook} {{\n  {body}\n }}\n}}\n"


def nested_sum(levels: int) -> str:
    inner = "1"
    for i in range(levels):
        inner = f"sum({inner} for v{i} in numbers(1, 50))"
    return inner


def scenario(folder: Path, text: str) -> Path:
    (folder / "mutants.power").write_text(text, encoding="utf-8")
    path = folder / "scenario.yaml"
    path.write_text("box: american-dream\nfactions: [Mutants, Bikers, Nurses]\ncustom_factions:\n"
                    "  - name: Mutants\n    power: mutants.power\n", encoding="utf-8")
    return path


def play(path: Path, codegen_on: bool, games: int = 1) -> dict | HappyError:
    try:
        return simulate(path, players=3, games=games, seed=1, express=True, env=Environment(codegen=codegen_on))
    except HappyError as exc:
        return exc


@pytest.mark.parametrize("codegen_on", [True, False], ids=["generated code", "closures"])
def test_nested_sums_stop_at_the_budget_naming_the_power_and_the_loop(tmp_path, codegen_on):
    # 50**4 = 6,250,000 elements: before the budget, plain Python loops that nothing counted
    text = power(f"gain {nested_sum(4)}")
    outcome = play(scenario(tmp_path, text), codegen_on)
    assert isinstance(outcome, HappyError), "the game ran the whole nest"
    d = outcome.diagnostics[0]
    assert d.code == "R001"
    assert d.message == "the power 'Mutants' ran for too long and was stopped"
    assert (Path(d.span.file).name, d.span.line, d.span.column) == ("mutants.power", 4, 20)  # the innermost loop
    assert "more than 100,000 steps" in d.hint


@pytest.mark.parametrize("codegen_on", [True, False], ids=["generated code", "closures"])
def test_a_rule_has_a_budget_of_its_own(tmp_path, codegen_on):
    # read for every trick with a card of Mutants in it: 3 * 127,550 steps, and those of the `where`
    text = ("power Mutants {\n for faction Mutants\n rule wins when "
            f"count(everyone where population(it) < {nested_sum(3)}) > 0\n}}\n")
    outcome = play(scenario(tmp_path, text), codegen_on)
    assert isinstance(outcome, HappyError) and outcome.diagnostics[0].code == "R001"
    assert outcome.diagnostics[0].span.line == 3


@pytest.mark.parametrize("codegen_on", [True, False], ids=["generated code", "closures"])
def test_a_nest_within_the_budget_plays_and_the_two_agree(tmp_path, codegen_on):
    # the negative control: 2,550 steps per run, far within the budget
    text = power(f"gain {nested_sum(2)} - 2500")
    outcome = play(scenario(tmp_path, text), codegen_on, games=2)
    assert not isinstance(outcome, HappyError), outcome
    other = play(scenario(tmp_path, text), not codegen_on, games=2)
    assert outcome["games"] == other["games"]


def test_the_hooks_of_a_round_share_a_budget(tmp_path, monkeypatch):
    # Each `after trick` run spends 2,551 steps, within a hook's budget; a round of them passes 20,000.
    monkeypatch.setattr(vm, "MAX_ROUND_STEPS", 20_000)
    text = power(f"gain {nested_sum(2)} - 2500", hook="after trick")
    outcome = play(scenario(tmp_path, text), True)
    assert isinstance(outcome, HappyError), "the round's hooks ran on without a bound"
    d = outcome.diagnostics[0]
    assert (d.code, d.span.line) == ("R001", 3)
    assert "the hooks of this round took more than" in d.hint


def test_check_warns_when_its_bound_of_a_hooks_work_exceeds_the_budget():
    three = check(parse(power(f"gain {nested_sum(3)}"), "m.power"))
    assert [(w.code, w.message) for w in three.warnings] == [
        ("W012", "this hook may take 127,550 steps, more than the 100,000 a hook may run")]
    two = check(parse(power(f"gain {nested_sum(2)}"), "m.power"))
    assert two.warnings == []  # 2,550 steps
    cards = check(parse(power("each a in reserve { each b in reserve { each c in reserve { gain 1 } } }"), "m.power"))
    assert [w.code for w in cards.warnings] == ["W012"]  # 100 cards a group, as the estimate assumes


def test_the_estimate_counts_what_the_budget_counts():
    from happydayz.language import budget  # (here: the module is what this test is about)

    tree = parse(power(f"repeat 3 {{ gain {nested_sum(2)} }}"), "m.power")
    hook = tree.hooks[0]
    assert budget.estimate(hook.body, lambda group: 50) == 3 * (1 + 2550)


# ------------------------------------------------------------- as deep as check lets a power be

MAX_NESTING = 256  # language.ast.MAX_NESTING, documented in docs/language.md ("Guarantees")

DEEP_FORMS = {
    "nested parentheses": lambda n: "gain " + "(" * n + "1" + " + 1)" * n,
    "unary minus": lambda n: "gain " + "-" * n + "1",
    "and": lambda n: "if " + " and ".join(["true"] * n) + " { gain 1 }",
    "union": lambda n: "gain count(" + " + ".join(["others"] * n) + ")",
    "not": lambda n: "if " + "not " * n + "true { gain 1 }",
    "nested ifs": lambda n: "if true { " * n + "gain 1" + " }" * n,
}


def deepest(form) -> int:
    """The most repetitions of `form` that the parser and checker accept."""
    low, high = 1, 2 * MAX_NESTING
    while low < high:
        middle = (low + high + 1) // 2
        try:
            check(parse(power(form(middle)), "m.power"))
            low = middle
        except HappyError:
            high = middle - 1
    return low


@pytest.mark.parametrize("name", list(DEEP_FORMS))
def test_the_deepest_power_check_accepts_compiles_and_runs(tmp_path, name):
    form = DEEP_FORMS[name]
    n = deepest(form)
    assert n >= 120  # the examples: 120 parentheses, 200 minus signs, 200 `and`s, a 200-way union
    checked = check(parse(power(form(n)), "m.power"))
    generated = codegen.generate(checked, compile_power(checked, Path("m.power")))
    compile(generated.source, "generated", "exec")  # Python takes it: no fallback to the closures needed
    path = scenario(tmp_path, power(form(n)))
    outcome = play(path, True)
    assert not isinstance(outcome, HappyError), outcome
    assert outcome["games"] == play(path, False)["games"]
    with pytest.raises(HappyError) as refused:  # one level more: refused by the parser, with its position
        check(parse(power(form(n + 1)), "m.power"))
    assert refused.value.diagnostics[0].code == "S013"


@pytest.mark.parametrize("name", ["unary minus", "and", "union"])
def test_two_hundred_deep_is_well_within_the_limit(name):
    checked = check(parse(power(DEEP_FORMS[name](200)), "m.power"))
    compiled = codegen.install(checked, compile_power(checked, Path("m.power")))
    program = compiled.variants["fixed"].hooks["end"]
    functions = [f for ins in program.instructions for f in ins if callable(f)]
    assert functions and all(f.__code__.co_filename == "<generated from m.power>" for f in functions)


def test_the_nesting_limit_is_the_one_documented():
    from happydayz.language import ast  # (here: the constant is what this test is about)

    assert ast.MAX_NESTING == MAX_NESTING
