"""Checked syntax tree → Python source: the compiler's closures as generated functions, once per power file.

In the manner of Jinja2's code generator. Where the compiler (compiler.py) builds a
closure for each node of an expression, calling one closure per node when it runs,
the code generator writes one Python function for each closure that the VM or the
kernel calls — the expression an instruction reads (a `let`'s value, an `if`'s
condition, what an `each` walks, what a choice offers and who makes it), each effect
statement, each rule's condition — with the whole expression inline in its body. The
module is compiled once per power file (the Environment caches the compiled power),
and each function takes the place of its closure in the CompiledPower: the
instruction list, the VM and the Frame stay as they are, so a game in the middle of a
power is still plain data and copies.

The compiler stays the reference: a generated function computes what its closure
computes, evaluating the same sub-expressions in the same order and as many times
(the same random draws, the same reads and writes of the variables, the same
errors). `Environment(codegen=False)` (the command line's `--no-codegen`) runs the
closures instead.

Nothing a power file says is pasted into the source:

- identifiers are the generator's own (`ctx`, `_e1`, `_f2`, `_x3`, the names of
  NAMESPACE); a variable of the power is a key of `ctx.env`, written as a string
  literal;
- literals (a Faction's name, a variable's name, a counter's key, a number) are the
  checked tree's values, re-emitted with repr() once their type is checked;
- the words of the language (zones, attributes, operators, effects) come from the
  generator's own tables, the node's word serving only to look them up.

The module runs with NAMESPACE for its globals and no other builtins.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace
from itertools import filterfalse
from typing import Any, Callable

from happydayz.language import ast
from happydayz.language.budget import spend
from happydayz.language.checker import CARD, CARDS, COMMUNITIES, COMMUNITY, FACTION, FACTIONS, MAX_NUMBERS, ORIGINS, CheckedPower, as_set
from happydayz.language.compiler import (AUCTION_STATE, DEALER_STATE, TURNED_STATE, ASK, CHOOSE, EACH_INIT, EFFECT, HOOK_NAMES, JUMP_UNLESS, LET, MAX_NUMBER, MODE,
                                         OPCODE_NAMES, SHARED_DESTINATIONS, Blind, CompiledPower, StateSpec, _before, held_card,
                                         _divide, _MISSING, _player, _position, _unique, attribute_test)
from happydayz.language.visitor import Visitor

#: Whether a power runs as generated code unless told otherwise (Environment(codegen=...), --no-codegen).
DEFAULT = True

#: The globals of a generated module: all it may name besides its own functions and `ctx`.
NAMESPACE: dict[str, Any] = {
    "__builtins__": {},
    "tuple": tuple, "list": list, "dict": dict, "set": set, "len": len, "max": max, "min": min, "sum": sum,
    "range": range, "sorted": sorted, "bool": bool, "filter": filter, "enumerate": enumerate,
    "_filterfalse": filterfalse, "_unique": _unique, "_divide": _divide, "_player": _player, "_position": _position,
    "_before": _before, "_Blind": Blind, "_held_card": held_card, "_MISSING": _MISSING, "_spend": spend,
    "_spans": (),  # (power, span) of each of the power's loops (Generated.spans), for R001: set by install
}
#: The generator's own identifiers: functions (_e entry points of instructions, _r of rules, _f helpers) and locals.
OWN_NAME = re.compile(r"_[efrx][0-9]+")
PARAMETER = "ctx"

# The words of the language as the generated code writes them: each is the generator's own string.
_ZONES = ("hand", "transfer", "expedition")
_RULE_ZONES = ("encounter",)  # the zone of the trick's turned-up card, read by `encounter` in a rule
_ATTRIBUTES = ("value", "survivors", "faction")
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_ARITHMETIC = ("+", "-", "*")
_AGGREGATES = ("sum", "min", "max")  # Python's functions of the same names
_ENDS = ("trick", "round", "game")
_VARIANT_KINDS = ast.VARIANTS + ("fixed",)
# a rule's attribute of a VariantProgram: its kind, or KIND_when for a conditional yes/no rule
_RULE_ATTRIBUTES = ast.RULE_KINDS + tuple(f"{kind}_when" for kind in ast.CONDITIONAL_FLAGS)
_EFFECTS = ("move", "score", "next_leader", "next_lead", "state", "declare", "side", "end", "next_side", "untaken")
_OWN_WORDS = ("hand", "expedition", "end", "it", "+", "-", "@movers", "@from") + ORIGINS + tuple(
    word for place in SHARED_DESTINATIONS.values() for word in place)
_AUCTION = (*AUCTION_STATE.values(), DEALER_STATE, TURNED_STATE)  # the keys of the hand's record in the game's state
#: Every string the generator writes of its own accord (a power's strings are its Factions, variables and counters).
VOCABULARY = frozenset(_ZONES + _RULE_ZONES + _ATTRIBUTES + _ENDS + _EFFECTS + _OWN_WORDS + _AUCTION)


def _auction_read(part: str, owner: str = "None", default: str = "0") -> str:
    """The auction's record as the kernel keeps it in the game's state (compiler.AUCTION_STATE: its own words)."""
    return f"ctx.g.state.get(({AUCTION_STATE[part]!r}, {owner}), {default})"

# The built-in names, as the compiler's _BUILTIN_READERS read them.
_BUILTINS = {
    "self": "ctx.me",
    "others": "ctx.g.tables.clockwise[ctx.me][1:]",
    "everyone": "ctx.g.tables.clockwise[ctx.me]",
    "factions": "tuple(dict.fromkeys(ctx.g.factions_in_play()))",
    "reserve": "tuple(ctx.g.reserve)",
    "round": "ctx.g.round_no",
    "players": "ctx.g.n",
    "trick": "ctx.trick",
    "encounter": "ctx.encounter",
    "led": "ctx.led",
    "leader": "ctx.leader",
    "this": "ctx.this",
    "played": "ctx.card",
    "before": "_before(ctx)",
    "winner": "ctx.winner",
    "winning": "ctx.winning",
    "entered": "ctx.card",
    "mover": "ctx.env.get('@movers', ())",
    **{f"from_{origin}": f"ctx.env.get('@from') == {origin!r}" for origin in ORIGINS},
    "sides": "('+', '-')",
    "void": "ctx.void",
    "side": "ctx.side",
    "plus": "'+'",
    "minus": "'-'",
    "true": "True",
    "false": "False",
    "offered": "ctx.offer[0]",
    "offered_faction": "ctx.offer[1]",
    "passing": "ctx.offer[2]",
    "bids_so_far": _auction_read("made"),
    "auction_winner": _auction_read("winner"),
    "winning_bid": _auction_read("contract"),
    "winning_faction": _auction_read("trump", default="None"),
    "auction_stage": _auction_read("stage", default="1"),
    "turned_up": f"ctx.g.state[({TURNED_STATE!r}, None)]",
    "dealer": f"ctx.g.state.get(({DEALER_STATE!r}, None), 0)",
    "dummy": "(ctx.g.dummy or 0)",
    "partner": "ctx.g.tables.partner_of[ctx.me]",
    "team": "ctx.g.tables.team_of[ctx.me]",
}
# `partner of C`, `team of C`: the card facts' table each reads (language.host: the hand's teams)
_TEAM_TABLES = {"partner": "partner_of", "team": "team_of"}
_SPLIT = 25  # an expression this many nodes deep becomes a function (see CodeGenerator.expr)
_INLINE = 60  # an expression evaluated twice (as its closure does) longer than this becomes a function of its own


def _literal(value: Any, kind: type) -> str:
    """A value of the checked tree as a Python literal: repr() of an int or a str, nothing else."""
    if type(value) is not kind or kind not in (int, str):
        raise TypeError(f"the code generator writes ints and strings, not {value!r}")
    text = repr(value)
    return f"({text})" if kind is int and value < 0 else text


def _word(word: str, words: tuple[str, ...]) -> str:
    """A word of the language, as a string literal of the generator's own (the node's word only picks it)."""
    if word not in words:
        raise ValueError(f"the code generator does not know the word {word!r}")
    return repr(words[words.index(word)])


def _symbol(word: str, words: tuple[str, ...]) -> str:
    """An operator of the language as the generator's own Python operator."""
    if word not in words:
        raise ValueError(f"the code generator does not know the operator {word!r}")
    return words[words.index(word)]


def _bounded(x: str) -> str:
    """compiler._bounded, inline."""
    return f"max({-MAX_NUMBER!r}, min({MAX_NUMBER!r}, {x}))"


@dataclass
class Generated:
    """The Python source of one power and where each of its functions goes in the CompiledPower."""

    source: str
    rules: list[tuple[str, str, str]] = field(default_factory=list)  # (variant kind, rule attribute, function)
    # (variant kind, hook, pc) -> the functions of the instruction: {field index or "source"/"chooser": function}
    instructions: dict[tuple[str, str, int], dict[Any, str]] = field(default_factory=dict)
    spans: tuple = ()  # _spans[i] of the source: (power, span) of a loop that spends the step budget

    def install(self, compiled: CompiledPower) -> CompiledPower:
        """Compile the source once and put each generated function where its closure was."""
        namespace = dict(NAMESPACE, _spans=self.spans)
        exec(compile(self.source, f"<generated from {compiled.file.name}>", "exec"), namespace)
        for kind, attribute, name in self.rules:
            setattr(compiled.variants[kind], attribute, namespace[name])
        for (kind, hook, pc), names in self.instructions.items():
            code = compiled.variants[kind].hooks[hook].instructions
            code[pc] = _rewrite(code[pc], {slot: namespace[name] for slot, name in names.items()})
        return compiled


def _rewrite(ins: tuple, functions: dict[Any, Callable]) -> tuple:
    if ins[0] == CHOOSE:
        return (ins[0], replace(ins[1], **functions)) + ins[2:]
    out = list(ins)
    for index, function in functions.items():
        out[index] = function
    return tuple(out)


class CodeGenerator(Visitor):
    """One power's source. Walks: `expr` (a node → a Python expression) and `effect` (a statement → its effects' list)."""

    def __init__(self, checked: CheckedPower, state: dict[str, StateSpec]):
        self.types = checked.types
        self.state = state
        self.power_name = checked.power.name
        self.in_rule = False  # writing a rule's condition
        self.spans: list = []
        self.height = 0  # how deep the expression being written nests (see expr)
        self.defs: list[str] = []
        self._numbers = itertools.count(1)

    def fresh(self, stem: str) -> str:
        return f"_{stem}{next(self._numbers)}"

    def type_of(self, node: ast.Node) -> str:
        return self.types[id(node)]

    # ------------------------------------------------------------ functions
    def entry(self, stem: str, expression: str, comment: str) -> str:
        """A function `name(ctx) -> expression` for the VM or the kernel to call; its name."""
        helper = re.fullmatch(r"(_f[0-9]+)\(ctx\)", expression)
        if helper is not None:  # a helper already: no function around it
            self.defs.append(f"# {comment}: {helper.group(1)}")
            return helper.group(1)
        name = self.fresh(stem)
        self.defs.append(f"def {name}(ctx):  # {comment}\n    return {expression}")
        return name

    def helper(self, body: list[str]) -> str:
        """A function of the statements `body`; the expression that calls it."""
        name = self.fresh("f")
        self.defs.append("\n".join([f"def {name}(ctx):", *("    " + line for line in body)]))
        return f"{name}(ctx)"

    def spent(self, n: ast.Node, items: str) -> str:
        """`items` (a group), charged to the step budget (language.budget) by the loop of `n` that walks it."""
        self.spans.append((self.power_name, n.span))
        return f"_spend(ctx, {items}, _spans[{len(self.spans) - 1}])"

    def twice(self, expression: str) -> str:
        """An expression that its closure evaluates twice: inline if short, else a function called twice."""
        return expression if len(expression) <= _INLINE else self.helper([f"return {expression}"])

    # -------------------------------------------------------------- a power
    def power(self, compiled: CompiledPower) -> Generated:
        generated = Generated("")
        for kind, variant in compiled.variants.items():
            words = f"variant {_word(kind, _VARIANT_KINDS)}"
            self.in_rule = True  # (`encounter` reads the trick's turned-up card: see expr_NameRef)
            if variant.trumps_source is not None:
                name = self.entry("r", self.expr(variant.trumps_source), f"{words}, rule trumps")
                generated.rules.append((kind, "trumps", name))
            for rule, node in variant.sources.items():
                expression = self.group(node) if rule == "beats" else self.expr(node)
                name = self.entry("r", expression, f"{words}, rule {_word(rule, _RULE_ATTRIBUTES)}")
                generated.rules.append((kind, rule, name))
            self.in_rule = False
            for hook, program in variant.hooks.items():
                for pc, ins in enumerate(program.instructions):
                    comment = f"{words}, hook {_word(hook, tuple(HOOK_NAMES.values()))}, {pc}: {OPCODE_NAMES[ins[0]]}"
                    names = {slot: self.entry("e", expression, comment) for slot, expression in self.instruction(ins)}
                    if names:
                        generated.instructions[(kind, hook, pc)] = names
        generated.spans = tuple(self.spans)
        generated.source = ("# Generated by happydayz.language.codegen from a checked power: each function computes\n"
                            "# what the compiler's closure in its place computes.\n\n" + "\n\n".join(self.defs) + "\n")
        return generated

    def instruction(self, ins: tuple) -> list[tuple[Any, str]]:
        """(where in the instruction, expression) of each closure of one instruction."""
        op, node = ins[0], ins[-1]
        if op == LET:
            return [(2, self.expr(node.value))]
        if op == JUMP_UNLESS:
            return [(1, self.expr(node.condition))]
        if op == EACH_INIT:
            if isinstance(node, ast.Repeat):
                return [(2, f"tuple(range({_literal(node.count, int)}))")]
            return [(2, self.expr(node.source))]
        if op == EFFECT:
            return [(1, self.handler("effect", node)(node))]
        if op == CHOOSE:
            out = [("source", self.group(node.source))]
            return out + ([("chooser", self.expr(node.chooser))] if node.chooser is not None else [])
        if op in (ASK, MODE):
            return [(2, self.expr(node.chooser))] if node.chooser is not None else []
        return []

    # ------------------------------------------------------------- effects
    def effect_SetVar(self, s: ast.SetVar) -> str:
        return self.state_write(s.name, None, self.expr(s.value))

    def effect_SetState(self, s: ast.SetState) -> str:
        return self.state_write(s.name, self.expr(s.owner), self.expr(s.value))

    def effect_AddState(self, s: ast.AddState) -> str:
        owner = self.expr(s.owner) if s.owner else None
        if owner is not None and self.state[s.name].per_community:
            owner = self.twice(owner)  # the closure reads the owner twice: to write and to read the counter
        read = self.state_read(s.name, owner)
        return self.state_write(s.name, owner, _bounded(f"{read} + {self.expr(s.amount)}"))

    def state_owner(self, spec: StateSpec, owner: str | None) -> str:
        if not spec.per_community:
            return "None"
        return owner if owner is not None else "ctx.me"

    def state_write(self, name: str, owner: str | None, value: str) -> str:
        spec = self.state[name]
        return f"[({_word('state', _EFFECTS)}, {_literal(spec.key, str)}, {self.state_owner(spec, owner)}, {value})]"

    def state_read(self, name: str, owner: str | None) -> str:
        spec = self.state[name]
        if spec.holds == CARD:  # a mark holding a card reads as Cards (compiler.held_card)
            return f"_held_card(ctx.g.state.get(({_literal(spec.key, str)}, {self.state_owner(spec, owner)})))"
        default = spec.default
        default = ("True" if default else "False") if type(default) is bool else "None" if default is None else \
            _literal(default, type(default))
        return f"ctx.g.state.get(({_literal(spec.key, str)}, {self.state_owner(spec, owner)}), {default})"

    def effect_Declare(self, s: ast.Declare) -> str:
        return f"[({_word('declare', _EFFECTS)}, {self.expr(s.card)}, {self.expr(s.faction)})]"

    def effect_SetSide(self, s: ast.SetSide) -> str:
        side = "None" if s.value is None else self.expr(s.value)
        return f"[({_word('side', _EFFECTS)}, {side})]"

    def effect_End(self, s: ast.End) -> str:
        return f"[({_word('end', _EFFECTS)}, {_word(s.what, _ENDS)})]"

    def effect_Move(self, s: ast.Move) -> str:
        cards, d = self.group(s.cards), s.dest
        if d.kind in SHARED_DESTINATIONS:
            zone, position = SHARED_DESTINATIONS[d.kind]
            place = f"{_word(zone, _OWN_WORDS)}, None, {_word(position, _OWN_WORDS)}"
        else:
            place = f"{_word(d.kind, _ZONES)}, {self.seat(d.owner)}, {_word('end', _OWN_WORDS)}"
        return f"[({_word('move', _EFFECTS)}, {cards}, {place})]"

    def effect_Draw(self, s: ast.Draw) -> str:
        return (f"[({_word('move', _EFFECTS)}, tuple(ctx.g.reserve[:max({self.expr(s.count)}, 0)]), "
                f"{_word('hand', _ZONES)}, {self.seat(s.whom)}, {_word('end', _OWN_WORDS)})]")

    def effect_Deal(self, s: ast.Deal) -> str:
        pile, read, seats, i, card = (self.fresh("x") for _ in range(5))
        cards, to = self.group(s.cards), self.group(s.to)
        body = [f"{pile} = list({cards})", f"if len({pile}) > 1:", f"    {read} = ctx.g.tables.read"]
        for key in reversed(s.order):  # stable sorts, last key first
            body.append(f"    {pile}.sort(key={read}[{_word(key.attr, _ATTRIBUTES)}].__getitem__, "
                        f"reverse={key.direction == 'highest'!r})")
        body += [f"{seats} = {to}", f"if not {seats}:", "    return []",
                 f"return [({_word('move', _EFFECTS)}, ({card},), {_word('expedition', _ZONES)}, "
                 f"{seats}[{i} % len({seats})], {_word('end', _OWN_WORDS)}) for {i}, {card} in enumerate({pile})]"]
        return self.helper(body)

    def effect_Score(self, s: ast.Score) -> str:
        return f"[({_word('score', _EFFECTS)}, {self.seat(s.whom)}, {_literal(s.sign, int)} * {self.expr(s.amount)})]"

    def effect_NextLeader(self, s: ast.NextLeader) -> str:
        return f"[({_word('next_leader', _EFFECTS)}, {self.expr(s.who)})]"

    def effect_NobodyTakes(self, s: ast.NobodyTakes) -> str:
        zone, position = SHARED_DESTINATIONS[s.dest.kind if s.dest is not None else "discard"]
        return f"[({_word('untaken', _EFFECTS)}, {_word(zone, _OWN_WORDS)}, {_word(position, _OWN_WORDS)})]"

    def effect_NextSide(self, s: ast.NextSide) -> str:
        return f"[({_word('next_side', _EFFECTS)}, {self.expr(s.side)})]"

    def effect_NextLead(self, s: ast.NextLead) -> str:
        return f"[({_word('next_lead', _EFFECTS)}, {self.expr(s.faction)})]"

    # --------------------------------------------------------- expressions
    # Each handler returns a Python expression that is an atom (a name, a literal, a call, a
    # subscript) or is parenthesized, so that any of them can stand inside another.
    def expr(self, n: ast.Node) -> str:
        # Python refuses source nested beyond its limits (200 brackets, a parser stack): an expression
        # _SPLIT nodes deep (each node writes at most 4 brackets) becomes a function of its own.
        outer, self.height = self.height, 0
        expression = self.handler("expr", n)(n)
        height = self.height + 1
        if height >= _SPLIT:
            expression, height = self.helper([f"return {expression}"]), 1
        self.height = max(outer, height)
        return expression

    def seat(self, node: ast.Node | None) -> str:
        """A Community, the acting one when the code names none (`hand`, `draw 2`, `left`)."""
        return "ctx.me" if node is None else self.expr(node)

    def group(self, node: ast.Node) -> str:
        """An expression read as a group: a single card, Community or Faction becomes a 1-tuple."""
        expression = self.expr(node)
        if self.type_of(node) in (CARD, COMMUNITY, FACTION) and self.reads_unset(node):
            return f"_held_card({expression})"  # a mark holding a Faction, not set yet: no Faction
        return f"({expression},)" if self.type_of(node) in (CARD, COMMUNITY, FACTION) else expression

    def reads_unset(self, node: ast.Node) -> bool:
        """`node` reads a mark holding a Faction, None before it is set (compiler.Compiler.reads_unset)."""
        name = node.name if isinstance(node, (ast.NameRef, ast.StateOf)) else None
        return name in self.state and self.state[name].holds == FACTION and (
            isinstance(node, ast.StateOf) or name not in _BUILTINS)

    def expr_IntLit(self, n: ast.IntLit) -> str:
        return _literal(n.value, int)

    def expr_FactionLit(self, n: ast.FactionLit) -> str:
        return _literal(n.name, str)

    def expr_NameRef(self, n: ast.NameRef) -> str:
        if n.name in _BUILTINS:  # ('it' is not one: it is a variable)
            if n.name == "encounter" and self.in_rule:  # compiler._rule_encounter
                return f"tuple(ctx.g.zones.get({_word('encounter', _RULE_ZONES)}, ()))"
            return _BUILTINS[n.name]
        if n.name in self.state:
            return self.state_read(n.name, None)
        return self.variable(n.name)

    def variable(self, name: str) -> str:
        return f"ctx.env[{_literal(name, str)}]"

    def expr_StateOf(self, n: ast.StateOf) -> str:
        if n.name in _TEAM_TABLES:  # `partner of C`, `team of C` (the checker keeps these names for the hand)
            return f"ctx.g.tables.{_TEAM_TABLES[n.name]}[{self.expr(n.owner)}]"  # (the generator's own words)
        return self.state_read(n.name, self.expr(n.owner) if self.state[n.name].per_community else None)

    def expr_BareAttr(self, n: ast.BareAttr) -> str:
        return f"ctx.g.tables.read[{_word(n.attr, _ATTRIBUTES)}][{self.variable('it')}]"

    def expr_AttrOf(self, n: ast.AttrOf) -> str:
        return f"ctx.g.tables.read[{_word(n.attr, _ATTRIBUTES)}][{self.expr(n.target)}]"

    def expr_ZoneRef(self, n: ast.ZoneRef) -> str:
        if n.owner is not None and self.type_of(n.owner) == COMMUNITIES:  # compiler.Compiler.expr_ZoneRef
            seat, card = self.fresh("x"), self.fresh("x")
            if n.zone == "held":
                cards = f"ctx.g.held({seat})"
            else:
                cards = f"ctx.g.zones[ctx.g.tables.zone_keys[{_word(n.zone, _ZONES)}][{seat}]]"
            return f"tuple([{card} for {seat} in {self.group(n.owner)} for {card} in {cards}])"
        if n.zone == "held":
            return f"ctx.g.held({self.seat(n.owner)})"
        return f"tuple({self.zone_list(n)})"

    def zone_list(self, n: ast.ZoneRef) -> str:
        """The list of one Community's hand, Transfer or Expedition zone."""
        return f"ctx.g.zones[ctx.g.tables.zone_keys[{_word(n.zone, _ZONES)}][{self.seat(n.owner)}]]"

    def expr_Neighbour(self, n: ast.Neighbour) -> str:
        return f"(({self.seat(n.of)} + {_literal(1 if n.side == 'left' else -1, int)}) % ctx.g.n)"

    def expr_ListLit(self, n: ast.ListLit) -> str:
        return f"_unique([{', '.join(self.group(i) if self.reads_unset(i) else self.expr(i) for i in n.items)}])"

    def expr_Arith(self, n: ast.Arith) -> str:
        t = self.type_of(n)
        if as_set(t) == t and t in (CARDS, COMMUNITIES, FACTIONS):  # a union
            return f"_unique(list({self.group(n.left)}) + list({self.group(n.right)}))"
        left, right = self.expr(n.left), self.expr(n.right)
        if n.op == "/":
            return f"_divide({left}, {right})"
        return _bounded(f"{left} {_symbol(n.op, _ARITHMETIC)} {right}")

    def expr_Neg(self, n: ast.Neg) -> str:
        return _bounded(f"-{self.expr(n.operand)}")

    def expr_Logic(self, n: ast.Logic) -> str:
        op = "and" if n.op == "and" else "or"
        return f"(bool({self.expr(n.left)}) {op} bool({self.expr(n.right)}))"

    def expr_Not(self, n: ast.Not) -> str:
        return f"(not {self.expr(n.operand)})"

    def expr_Compare(self, n: ast.Compare) -> str:
        left = self.expr(n.left)
        if n.op in ("in", "not in"):
            return f"({left} {'in' if n.op == 'in' else 'not in'} {self.group(n.right)})"
        return f"({left} {_symbol(n.op, _COMPARE)} {self.expr(n.right)})"

    def expr_Where(self, n: ast.Where) -> str:
        source = self.group(n.source)
        test = attribute_test(n.condition)
        if test is not None:
            attr, op, right = test
            wanted = self.expr(right)
            if attr == "faction" and op in ("==", "!="):
                # `faction is X`: the cards of X are a set the tables hold; filter keeps the order
                sift = "filter" if op == "==" else "_filterfalse"
                return f"tuple({sift}(ctx.g.tables.cards_of.get({wanted}, ()).__contains__, {source}))"
            column, value, x = self.fresh("x"), self.fresh("x"), self.fresh("x")
            return self.helper([f"{column} = ctx.g.tables.read[{_word(attr, _ATTRIBUTES)}]", f"{value} = {wanted}",
                                f"return tuple([{x} for {x} in {source} if {column}[{x}] {_symbol(op, _COMPARE)} {value}])"])
        items, out, x = self.fresh("x"), self.fresh("x"), self.fresh("x")
        return self.it_loop(self.spent(n, source), items, [
            f"{out} = []", f"for {x} in {items}:", f"    {self.variable('it')} = {x}", f"    if {self.expr(n.condition)}:",
            f"        {out}.append({x})", f"return tuple({out})"])

    def expr_WithExtreme(self, n: ast.WithExtreme) -> str:
        source = self.group(n.source)
        items, scored, x, score, target, winners = (self.fresh("x") for _ in range(6))
        best = "max" if n.extreme.endswith("most") else "min"
        strict = n.extreme.startswith("strictly")
        return self.it_loop(self.spent(n, source), items, [
            f"{scored} = []", f"for {x} in {items}:", f"    {self.variable('it')} = {x}",
            f"    {scored}.append(({self.expr(n.key)}, {x}))", f"if not {scored}:", "    return ()",
            f"{target} = {best}([{score} for {score}, {x} in {scored}])",
            f"{winners} = tuple([{x} for {score}, {x} in {scored} if {score} == {target}])",
            *([f"if len({winners}) > 1:", "    return ()"] if strict else []), f"return {winners}"])

    def it_loop(self, source: str, items: str, body: list[str]) -> str:
        """compiler._with_it: `body` binds `it` to each of `items` (the source, read first); `it` is then given back."""
        env, saved = self.fresh("x"), self.fresh("x")
        it = _literal("it", str)
        return self.helper([
            f"{env} = ctx.env", f"{saved} = {env}.get({it}, _MISSING)", "try:", f"    {items} = {source}",
            *("    " + line for line in body),
            "finally:", f"    if {saved} is _MISSING:", f"        {env}.pop({it}, None)", "    else:",
            f"        {env}[{it}] = {saved}"])

    def expr_Except(self, n: ast.Except) -> str:
        gone, x = self.fresh("x"), self.fresh("x")
        removed = self.group(n.removed)  # read before the source, as the closure does
        return self.helper([f"{gone} = set({removed})",
                            f"return tuple([{x} for {x} in {self.group(n.source)} if {x} not in {gone}])"])

    def expr_Otherwise(self, n: ast.Otherwise) -> str:
        return f"({self.group(n.first)} or {self.group(n.fallback)})"

    def expr_Comprehension(self, n: ast.Comprehension) -> str:
        values, env, x = self.fresh("x"), self.fresh("x"), self.fresh("x")
        var = _literal(n.var, str)
        fn = _symbol(n.function, _AGGREGATES)
        return self.helper([
            f"{values} = []", f"{env} = ctx.env", f"for {x} in {self.spent(n, self.group(n.source))}:", f"    {env}[{var}] = {x}",
            f"    {values}.append({self.expr(n.body)})", f"{env}.pop({var}, None)",
            f"return {_bounded(f'{fn}({values})')} if {values} else 0"])

    def expr_Call(self, n: ast.Call) -> str:
        name, args = n.function, n.args
        if name == "count":
            if isinstance(args[0], ast.ZoneRef) and args[0].zone != "held" and not (
                    args[0].owner is not None and self.type_of(args[0].owner) == COMMUNITIES):
                return f"len({self.zone_list(args[0])})"  # the zone's size, without copying it
            return f"len({self.group(args[0])})"
        if name in ("min", "max", "sum"):
            fn = _symbol(name, _AGGREGATES)
            return _bounded(f"{fn}([{', '.join(self.expr(a) for a in args)}])")
        if name == "tricks" and self.type_of(args[0]) == "Communities":  # tricks(team of C): the sum
            seat = self.fresh("x")
            return f"sum([ctx.g.tricks_won[{seat}] for {seat} in {self.expr(args[0])}])"
        if name in ("population", "tricks"):
            table = "population" if name == "population" else "tricks_won"
            return f"ctx.g.{table}[{self.expr(args[0])}]"
        if name == "bid_of":
            return _auction_read("bid", self.expr(args[0]))
        if name in ("player", "position"):
            return f"{'_player' if name == 'player' else '_position'}(ctx, {self.expr(args[0])})"
        if name == "numbers":
            low, high = self.twice(self.expr(args[0])), self.expr(args[1])
            return f"tuple(range({low}, min({high}, {low} + {_literal(MAX_NUMBERS, int)} - 1) + 1))"
        source = self.group(args[0])
        how_many = self.expr(args[1]) if len(args) > 1 else "1"
        if name == "first":
            return f"tuple({source}[:max({how_many}, 0)])"
        if name == "last":
            how_many = self.twice(how_many)
            return f"(tuple({source}[-{how_many}:]) if {how_many} > 0 else ())"
        if name in ("highest", "lowest"):
            return (f"tuple(sorted({source}, key=ctx.g.tables.read[{_word('value', _ATTRIBUTES)}].__getitem__, "
                    f"reverse={name == 'highest'!r})[:max({how_many}, 0)])")
        if name == "random":
            pool, k = self.fresh("x"), self.fresh("x")
            return self.helper([f"{pool} = list({source})", f"{k} = min(max({how_many}, 0), len({pool}))",
                                f"return _Blind(ctx.g.rng.sample({pool}, {k})) if {k} else ()"])
        raise TypeError(f"unknown function {name}")  # pragma: no cover


def generate(checked: CheckedPower, compiled: CompiledPower) -> Generated:
    """The Python source of a compiled power (compiled from `checked`), and where its functions go."""
    with ast.room_to_recurse():
        return CodeGenerator(checked, compiled.state).power(compiled)


def install(checked: CheckedPower, compiled: CompiledPower) -> CompiledPower:
    """The compiled power with generated functions in place of its closures.

    A power whose source Python cannot compile (nesting beyond its limits, which expr's splitting
    should prevent) keeps its closures: they compute the same, a checked power always runs.
    """
    try:
        return generate(checked, compiled).install(compiled)
    except (SyntaxError, RecursionError, MemoryError):
        return compiled


__all__ = ["DEFAULT", "NAMESPACE", "OWN_NAME", "VOCABULARY", "CodeGenerator", "Generated", "generate", "install"]
