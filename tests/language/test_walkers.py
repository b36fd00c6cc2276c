"""The walkers of the syntax tree share one dispatch (language/visitor.py).

Each walk handles exactly the node classes it must (a new class of the syntax
tree fails here until every walker knows it), and a node of a class it does
not handle raises UnknownNode at once instead of falling through to a default.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from happydayz.base.errors import DiagnosticSink, Span
from happydayz.language import ast, parser, render
from happydayz.language.cardtext import Ctx, Renderer, card_text
from happydayz.language.checker import CheckedPower, Checker, check
from happydayz.language.codegen import CodeGenerator
from happydayz.language.compiler import Compiler, compile_power
from happydayz.language.formatter import format_source
from happydayz.language.ir import _Export, power_ir, schema
from happydayz.language.parser import parse, parse_file
from happydayz.language.visitor import UnknownNode, Visitor

SPAN = Span("stray.power", 1, 1)


@dataclass(frozen=True)
class Stray(ast.Node):
    """A node class that no walker knows."""


STRAY = Stray(SPAN)
ONE = ast.IntLit(SPAN, 1)
POWER = ast.PowerFile(SPAN, "Strays", ast.Binding(SPAN, "faction", "Strays"), (), (), (), "")
CHECKED = CheckedPower(POWER, {})

# Conditions have words of their own in the card text; a number or a group is never one.
CONDITIONS = (ast.Logic, ast.Not, ast.Compare)
NAMED = tuple(c for c in ast.EXPRESSIONS if c not in CONDITIONS)
# A `let` changes the context of the rest of its block: the card text's block handles it.
NOT_LET = tuple(c for c in ast.STATEMENTS if c is not ast.Let)
# `set points = 3` sets a counter (an effect) where `set x = 3` sets a variable: the compiler and
# the IR export take a SetVar as an effect too.
EFFECTS_AND_STATE_WRITES = ast.EFFECTS + (ast.SetVar,)
# What an instruction refers to: expressions, and effect statements with their parts.
EXPORTED = ast.EXPRESSIONS + EFFECTS_AND_STATE_WRITES + (ast.Dest, ast.SortKey)

WALKS = [
    (Checker, "expr", ast.EXPRESSIONS),
    (Checker, "statement", ast.STATEMENTS),
    (Compiler, "expr", ast.EXPRESSIONS),
    (Compiler, "statement", ast.STATEMENTS),
    (Compiler, "effect", EFFECTS_AND_STATE_WRITES),
    (CodeGenerator, "expr", ast.EXPRESSIONS),
    (CodeGenerator, "effect", EFFECTS_AND_STATE_WRITES),
    (render._Words, "visit", ast.EXPRESSIONS),
    (Renderer, "group", NAMED),
    (Renderer, "num", NAMED),
    (Renderer, "cond", ast.EXPRESSIONS),
    (Renderer, "statement", NOT_LET),
    (_Export, "visit", EXPORTED),
]


@pytest.mark.parametrize("walker, walk, classes", WALKS, ids=lambda v: v if isinstance(v, str) else getattr(v, "__name__", ""))
def test_each_walk_handles_exactly_the_classes_it_must(walker, walk, classes):
    handled = walker.handled(walk)
    assert not set(classes) - handled, f"{walker.__name__} '{walk}' lacks {sorted(c.__name__ for c in set(classes) - handled)}"
    assert not handled - set(classes), f"{walker.__name__} '{walk}' handles {sorted(c.__name__ for c in handled - set(classes))} too"


def test_every_class_of_the_syntax_tree_is_of_one_kind():
    defined = {c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.Node) and c is not ast.Node}
    kinds = [ast.EXPRESSIONS, ast.STATEMENTS, ast.PARTS]
    assert set().union(*map(set, kinds)) == defined == set(ast.NODE_CLASSES.values())
    assert not set(ast.EXPRESSIONS) & set(ast.STATEMENTS) and not set(ast.STATEMENTS) & set(ast.PARTS)
    assert set(ast.EFFECTS) <= set(ast.STATEMENTS)


def _checker() -> Checker:
    return Checker(None, DiagnosticSink())


def _renderer() -> Renderer:
    return Renderer(CHECKED)


# Each way into a walker, with a Stray where a node of the language goes.
ENTRIES = {
    "checker expression": lambda: _checker().expr(STRAY, _checker().root_scope()),
    "checker expression below a known one": lambda: _checker().expr(ast.Neg(SPAN, STRAY), _checker().root_scope()),
    "checker statement": lambda: _checker().block(ast.Block(SPAN, (STRAY,)), _checker().root_scope()),
    "compiler expression": lambda: Compiler(CHECKED).expr(STRAY),
    "compiler expression below a known one": lambda: Compiler(CHECKED).expr(ast.Not(SPAN, STRAY)),
    "compiler statement": lambda: Compiler(CHECKED).block(ast.Block(SPAN, (STRAY,))),
    "compiler effect": lambda: Compiler(CHECKED).handler("effect", STRAY),
    "code generator expression": lambda: CodeGenerator(CHECKED, {}).expr(STRAY),
    "code generator expression below a known one": lambda: CodeGenerator(CHECKED, {}).expr(ast.Not(SPAN, STRAY)),
    "code generator effect": lambda: CodeGenerator(CHECKED, {}).handler("effect", STRAY),
    "decision prompt": lambda: render.expr(STRAY),
    "decision prompt below a known node": lambda: render.expr(ast.Arith(SPAN, "+", ONE, STRAY)),
    "decision prompt of a statement": lambda: render.expr(ast.Repeat(SPAN, 2, ast.Block(SPAN, ()))),
    "card text group": lambda: _renderer().group(STRAY, Ctx({})),
    "card text number": lambda: _renderer().num(STRAY, Ctx({})),
    "card text number below a known one": lambda: _renderer().num(ast.Neg(SPAN, STRAY), Ctx({})),
    "card text condition": lambda: _renderer().cond(STRAY, Ctx({})),
    "card text statement": lambda: _renderer().block((STRAY,), Ctx({})),
    "card text of a condition as a number": lambda: _renderer().num(ast.Not(SPAN, ONE), Ctx({})),
    "IR export": lambda: _Export({}).visit(STRAY),
    "IR export below a known node": lambda: _Export({}).visit(ast.Call(SPAN, "max", (ONE, STRAY))),
}


@pytest.mark.parametrize("entry", ENTRIES)
def test_a_walker_raises_unknown_node_on_a_class_it_does_not_handle(entry):
    with pytest.raises(UnknownNode) as caught:
        ENTRIES[entry]()
    assert caught.value.node_class in (Stray, ast.Repeat, ast.Not)
    assert isinstance(caught.value, TypeError)


def test_unknown_node_names_the_node_the_walker_and_the_walk():
    with pytest.raises(UnknownNode) as caught:
        _checker().expr(STRAY, _checker().root_scope())
    error = caught.value
    assert (error.node_class, error.visitor_class, error.walk) == (Stray, Checker, "expr")
    assert str(error) == "Checker does not handle a Stray node in its walk 'expr' (it has no method expr_Stray)"


def test_check_does_not_swallow_unknown_node():
    power = ast.PowerFile(SPAN, "Strays", ast.Binding(SPAN, "faction", "Strays"), (),
                          (ast.Hook(SPAN, "win", ast.Block(SPAN, (STRAY,))),), (), "")
    with pytest.raises(UnknownNode):
        check(power)


# ------------------------------------------------------------------ the mechanism


class Words(Visitor):
    def visit_IntLit(self, n):
        return str(n.value)

    def visit_Neg(self, n):
        return "minus " + self.visit(n.operand)

    def twice_IntLit(self, n, times):
        return str(n.value * times)


def test_handlers_are_found_by_name_in_one_table_per_walk():
    assert Words().visit(ast.Neg(SPAN, ast.IntLit(SPAN, 3))) == "minus 3"
    assert Words().handler("twice", ONE)(ONE, 2) == "2"
    assert Words.handled("visit") == {ast.IntLit, ast.Neg} and Words.handled("twice") == {ast.IntLit}
    assert Words.handled("nothing") == frozenset()


def test_a_subclass_inherits_handlers_and_may_replace_them():
    class Louder(Words):
        def visit_IntLit(self, n):
            return f"{n.value}!"

    assert Louder().visit(ast.Neg(SPAN, ast.IntLit(SPAN, 3))) == "minus 3!"
    assert Words().visit(ast.IntLit(SPAN, 3)) == "3"


def test_one_handler_serves_several_classes():
    class Kinds(Visitor):
        def literal(self, n):
            return "literal"

        visit_IntLit = visit_FactionLit = literal

    assert Kinds.handled("visit") == {ast.IntLit, ast.FactionLit}
    assert Kinds().visit(ast.FactionLit(SPAN, "Strays")) == "literal"


def test_a_handler_named_for_no_class_of_the_syntax_tree_fails_when_its_class_is_made():
    with pytest.raises(TypeError, match="'Compar' is not a class of the syntax tree"):
        class Misspelt(Visitor):  # noqa: F841 - the class statement itself fails
            def visit_Compar(self, n):
                return ""


# ------------------------------------------------------- every construct, every walker
# tests/language/data/every_new_construct.power writes every construct issue 14 added to the
# language (docs/language.md); each walker goes through all of it.

NEW_CONSTRUCTS = Path(__file__).parent / "data" / "every_new_construct.power"
NEW_CLASSES = (ast.StateOf, ast.SetState, ast.AddState, ast.ChooseMode, ast.ModeOption, ast.Declare, ast.SetSide,
               ast.End, ast.StateDecl, ast.NextSide, ast.NobodyTakes)


def _new_tree() -> ast.PowerFile:
    return parse_file(NEW_CONSTRUCTS)


def test_the_file_of_new_constructs_writes_each_of_them():
    tree = _new_tree()
    nodes = list(ast.walk(tree))
    assert set(NEW_CLASSES) <= {type(n) for n in nodes}
    rule_kinds = {name[len("rule_"):] for name in dir(parser._ToAst) if name.startswith("rule_")}
    assert {n.kind for n in nodes if isinstance(n, ast.Rule)} >= rule_kinds - {"always_playable", "never_leads", "trumps",
                                                                               "blocks_led_power", "face_up", "carried_over",
                                                                               "counts_as"}  # an added power's only: test_shared_state
    timings = {n.timing for n in nodes if isinstance(n, ast.Hook)}
    assert timings == {"win", "play", "lead", "trick", "after_trick", "start_of_round", "end_of_round", "end_of_game",
                       "enter_expedition", "enter_hand"}
    assert {(d.kind, d.per_community, d.lifetime, d.visibility) for d in tree.state} == {
        ("counter", True, "round", "secret"), ("mark", True, "game", "public"), ("counter", False, "game", "public"),
        ("mark", False, "round", "public")}
    assert {s.value is None for s in nodes if isinstance(s, ast.SetSide)} == {True, False}  # flip side, set side
    assert {s.what for s in nodes if isinstance(s, ast.End)} == {"trick", "round"}
    assert {s.chooser is None for s in nodes if isinstance(s, ast.ChooseMode)} == {True, False}


def test_the_file_of_new_constructs_checks_clean():
    sink = DiagnosticSink()
    check(_new_tree(), None, sink)
    assert not sink.items, [d.render() for d in sink.items]


def test_every_walker_goes_through_every_new_construct():
    tree = _new_tree()
    checked = check(tree)
    text = card_text(checked)  # the card text (explain)
    assert "None" not in text and "_" not in text
    out = format_source(NEW_CONSTRUCTS.read_text(encoding="utf-8"), str(NEW_CONSTRUCTS))  # fmt
    assert ast.strip_spans(parse(out)) == ast.strip_spans(tree)
    data = power_ir(compile_power(checked, NEW_CONSTRUCTS.resolve()))  # compile --json
    Draft202012Validator(schema()).validate(data)
    exported = {node["node"] for node in _exported_nodes(data)}  # a choice of courses is a `mode` instruction
    assert {c.__name__ for c in NEW_CLASSES if c not in (ast.ChooseMode, ast.ModeOption, ast.StateDecl)} <= exported
    assert any(ins["op"] == "mode" for v in data["variants"].values() for p in v["hooks"].values() for ins in p or ())
    assert set(data["state"]) == {d.name for d in tree.state}
    for node in ast.walk(tree):  # the prompts: any expression in words
        if isinstance(node, ast.EXPRESSIONS):
            assert render.expr(node)


def _exported_nodes(value):
    if isinstance(value, dict):
        if "node" in value:
            yield value
        for item in value.values():
            yield from _exported_nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _exported_nodes(item)
