"""Checked syntax tree → executable program, once per power file.

Expressions become Python closures `f(ctx) -> value`; statements become a
flat list of instructions that the VM (vm.py) steps through. A choice is an
instruction at which the VM stops and asks a decision; nothing else can stop
it, and every loop walks a finite list, so a power always ends.

Runtime values: a card is its id (int), a Community its seat (int), a Faction
its name (str); groups are tuples in a meaningful order (zone order, or
clockwise from the acting Community) that never hold an element twice (a
card is in one zone; lists and unions drop repeats), so a choice offers each
element once without checking.
"""

from __future__ import annotations

import operator
from itertools import filterfalse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from happydayz.language import ast
from happydayz.base.errors import Span, SyntaxProblem
from happydayz.language.budget import spend
from happydayz.language.checker import (CARD, CARDS, COMMUNITIES, COMMUNITY, ELEMENT_OF, FACTION, FACTIONS, MAX_NUMBERS,
                                       ORIGINS, SIDE, CheckedPower, as_set)
from happydayz.language.render import Prompts
from happydayz.language.visitor import Visitor

Fn = Callable[[Any], Any]


# ------------------------------------------------------------- instructions
# Each instruction is a tuple whose first item is its opcode.
LET, JUMP, JUMP_UNLESS, EACH_INIT, EACH_NEXT, CHOOSE, ASK, EFFECT, SIMUL_BEGIN, SIMUL_END, MODE = range(11)
OPCODE_NAMES = ["let", "jump", "jump_unless", "each_init", "each_next", "choose", "ask", "effect", "simul_begin", "simul_end",
                "mode"]

# A hook's short name (in frame keys and events) by its timing in the syntax tree.
HOOK_NAMES = {"win": "win", "end_of_round": "end", "play": "play", "lead": "lead", "trick": "trick",
              "after_trick": "after_trick", "start_of_round": "start", "after_transfer": "after_transfer",
              "end_of_game": "game_end", "enter_expedition": "enter_expedition", "enter_hand": "enter_hand"}


@dataclass(frozen=True)
class ChoiceSpec:
    """What a `choose` instruction asks."""

    name: str
    mode: str  # one, exactly, up_to
    count: int
    source: Fn
    chooser: Fn | None
    element: str  # Card, Community, Faction
    prompt: str
    else_target: int  # where to go when there is nothing to choose
    span: Span


@dataclass
class Program:
    instructions: list[tuple]
    span: Span
    # whose hook this is, for the events of what it does: the power's name, the variant kind, "win" or "end"
    power: str = ""
    variant: str = ""
    hook: str = ""


@dataclass
class VariantProgram:
    kind: str  # basic, positive, negative, or "fixed"
    title: str | None
    on_win: Program | None = None
    end_of_round: Program | None = None
    hooks: dict[str, Program] = field(default_factory=dict)  # every hook by its short name (HOOK_NAMES)
    always_playable: bool = False
    never_leads: bool = False
    # `rule always playable when C`, `rule never leads when C`: the rule holds only while C does (a closure
    # of a vm.Ctx); the flag above stays False, so what is decided once per set-up never counts them.
    always_playable_when: Fn | None = None
    never_leads_when: Fn | None = None
    face_up: bool = False
    carried_over: bool = False
    blocks_led_power: bool = False
    trumps: Fn | None = None
    trumps_source: ast.Node | None = None  # for the IR export
    # the game-wide `rule counts as F ranked V when C` of an added power: (C, F, V) each, in the file's order
    counts_as: list = field(default_factory=list)
    counts_as_source: list = field(default_factory=list)  # their ast.Rule, for the IR export
    # The rules that read the whole trick (see docs/language.md, "Trick rules"); a condition is a closure
    # of a vm.Ctx, or _ALWAYS when the rule has none.
    wins: Fn | None = None
    never_wins: Fn | None = None
    wild: bool = False
    beats: Fn | None = None  # -> the Factions this Faction's cards beat
    leads_only_when: Fn | None = None
    only_leads: bool = False
    must_be_played: Fn | None = None
    bids_only_when: Fn | None = None  # a bid of the hand's auction may be made only when this holds
    must_beat: bool = False  # a card of these played must take the trick from the card winning it, if one can
    must_trump: bool = False  # a Community holding such a card that would trump must play one
    names_side: bool = False  # a hook of these says `next side` (the generated trick loop steps aside)
    sources: dict[str, ast.Node] = field(default_factory=dict)  # rule kind -> its condition, for the IR export
    # `must_be_played` and `leads_only_when` conditions split for Game._restrict: kind -> (the `and` of the
    # conjuncts that do not read the card, the `and` of those that do), either None when it has none of them.
    # A condition has no effects, so the first part, decided once a decision, rules out or lets through every
    # card of the Faction, and only the second is read card by card.
    card_split: dict[str, tuple] = field(default_factory=dict)

    @property
    def decides_the_winner(self) -> bool:
        """A rule of these reads the whole trick to say who wins."""
        return bool(self.wins or self.never_wins or self.wild or self.beats)

    @property
    def restricts_play(self) -> bool:
        """A rule of these narrows which cards may be led or played."""
        return bool(self.wild or self.leads_only_when or self.only_leads or self.must_be_played
                    or self.always_playable_when or self.never_leads_when or self.must_beat or self.must_trump)


@dataclass(frozen=True)
class StateSpec:
    """A declared counter or mark, as the game keeps it: under `key`, one value per Community or one in all."""

    key: str  # "power:name": the names of two powers never meet
    name: str
    kind: str  # counter, mark
    per_community: bool
    lifetime: str  # round, game
    visibility: str  # public, secret
    option: int | bool | None = None  # a scenario option: its declared default (the scenario may set another)
    holds: str | None = None  # a mark's `: TYPE` (Faction, Card, Community, Side); None: a Number or a Yes/No
    shared: str = ""  # "declares" or "uses": one state of the game, kept under SHARED_STATE + name

    @property
    def default(self) -> int | bool | str | None:
        if self.option is not None:
            return self.option
        if self.holds is not None:
            return HOLDS_DEFAULT[self.holds]
        return 0 if self.kind == "counter" else False

    @property
    def shape(self) -> tuple:
        """What a `uses` line must say of a shared state as its declaration does: kind, what it holds, per Community."""
        return self.kind, self.holds, self.per_community


@dataclass
class CompiledPower:
    name: str
    binding: str  # faction, card, added
    faction: str | None
    file: Path
    variants: dict[str, VariantProgram] = field(default_factory=dict)  # "fixed" for a fixed power
    state: dict[str, StateSpec] = field(default_factory=dict)  # its counters and marks, by name
    types: dict[int, str] = field(default_factory=dict, repr=False)  # id(expression) -> type, for the IR export
    turned_up_at: Span | None = None  # where it first reads `turned_up` (a game whose hand turns up none: D046)

    @property
    def fixed(self) -> bool:
        return "fixed" in self.variants

    def variant(self, kind: str) -> VariantProgram:
        if self.fixed:
            return self.variants["fixed"]
        return self.variants[kind]

    def hook_key(self, variant: str, hook: str) -> tuple | None:
        """The key of this power's `hook` ("win" or "end") with `variant` in force, None if it has no such hook.

        A frame and GameSetup.programs name a compiled hook by it: (power file, variant kind, hook).
        """
        kind = "fixed" if self.fixed else variant
        return (str(self.file), kind, hook) if hook in self.variants[kind].hooks else None


# ------------------------------------------------------------------ compiler


class Compiler(Visitor):
    def __init__(self, checked: CheckedPower):
        self.types = checked.types
        self.slot_counter = 0
        self.prompts = Prompts(checked)  # each choice's words, naming the power and its variant
        power = checked.power
        self.power_name = power.name  # for R001, when a loop of its expressions spends the step budget
        self.in_rule = False  # compiling a rule's condition
        self.turned_up_at: Span | None = None
        self.state = {d.name: StateSpec(SHARED_STATE + d.name if d.shared else f"{power.name}:{d.name}", d.name,
                                        d.kind, d.per_community, d.lifetime, d.visibility, d.option,
                                        *((d.holds, d.shared) if d.holds or d.shared else ())) for d in power.state}

    def type_of(self, node: ast.Node) -> str:
        return self.types[id(node)]

    def fresh(self, stem: str) -> str:
        self.slot_counter += 1
        return f"#{stem}{self.slot_counter}"

    # ---------------------------------------------------------------- powers
    def compile_power(self, power: ast.PowerFile, path: Path) -> CompiledPower:
        compiled = CompiledPower(power.name, power.binding.kind, power.binding.faction, path, state=dict(self.state))
        if power.variants:
            for v in power.variants:
                compiled.variants[v.kind] = self.variant(v.kind, v.title, v.hooks, v.rules)
        else:
            compiled.variants["fixed"] = self.variant("fixed", None, power.hooks, power.rules)
        compiled.turned_up_at = self.turned_up_at
        return compiled

    def variant(self, kind, title, hooks, rules) -> VariantProgram:
        vp = VariantProgram(kind, title)
        for hook in hooks:
            program = Program(self.block(hook.body) + [], hook.span)
            vp.hooks[HOOK_NAMES[hook.timing]] = program
        vp.on_win, vp.end_of_round = vp.hooks.get("win"), vp.hooks.get("end")
        vp.names_side = any(isinstance(n, ast.NextSide) for hook in hooks for n in ast.walk(hook.body))
        for rule in rules:
            self.in_rule = True  # (`encounter` reads the trick's turned-up card: see expr_NameRef)
            if rule.kind == "counts_as":  # (game-wide: an added power's, in order; the first that holds decides)
                vp.counts_as.append((self.expr(rule.condition), self.expr(rule.counts_as), self.expr(rule.ranked)))
                vp.counts_as_source.append(rule)
            elif rule.kind == "trumps":
                vp.trumps = self.expr(rule.condition)
                vp.trumps_source = rule.condition
            elif rule.kind == "beats":
                vp.beats = self.group(rule.condition)
                vp.sources[rule.kind] = rule.condition
            elif rule.condition is not None:
                kind = f"{rule.kind}_when" if rule.kind in ast.CONDITIONAL_FLAGS else rule.kind
                setattr(vp, kind, self.expr(rule.condition))
                vp.sources[kind] = rule.condition
                if kind in _SPLIT_BY_CARD:
                    vp.card_split[kind] = self._split_by_card(rule.condition)
            elif rule.kind in ("wins", "never_wins"):
                setattr(vp, rule.kind, _ALWAYS)
            else:
                setattr(vp, rule.kind, True)
        self.in_rule = False
        return vp

    def _split_by_card(self, condition: ast.Node) -> tuple:
        """(the conjuncts of `condition` that do not read the card, those that do), each `and`ed and compiled, or
        None where there are none (see VariantProgram.card_split)."""
        parts = _conjuncts(condition)
        reads = [any(isinstance(x, ast.NameRef) and x.name in _CARD_READERS for x in ast.walk(p)) for p in parts]

        def joined(nodes: list) -> Fn | None:
            if not nodes:
                return None
            node = nodes[0]
            for more in nodes[1:]:
                node = ast.Logic(node.span, "and", node, more)
            return self.expr(node)

        return (joined([p for p, r in zip(parts, reads) if not r]), joined([p for p, r in zip(parts, reads) if r]))

    # ------------------------------------------------------------ statements
    def block(self, block: ast.Block) -> list[tuple]:
        """Instructions for each statement in turn; jump targets are relative until `link`."""
        out: list[tuple] = []
        for s in block.statements:
            out.extend(self.handler("statement", s)(s))
        return out

    def statement_Let(self, s: ast.Let | ast.SetVar) -> list[tuple]:
        return [(LET, s.name, self.expr(s.value), s)]

    def statement_If(self, s: ast.If) -> list[tuple]:
        then = self.block(s.then)
        other = self.block(s.otherwise) if s.otherwise else []
        if other:
            return [(JUMP_UNLESS, self.expr(s.condition), len(then) + 2, s)] + then + [(JUMP, len(other) + 1, None)] + other
        return [(JUMP_UNLESS, self.expr(s.condition), len(then) + 1, s)] + then

    def statement_Each(self, s: ast.Each) -> list[tuple]:
        slot = self.fresh("each")
        body = self.block(s.body)
        loop = [(EACH_INIT, slot, self.expr(s.source), s), (EACH_NEXT, slot, s.name, len(body) + 2, s)] + body + [(JUMP, -(len(body) + 1), None)]
        if s.simultaneous:
            return [(SIMUL_BEGIN, s)] + loop + [(SIMUL_END, s)]
        return loop

    def statement_Repeat(self, s: ast.Repeat) -> list[tuple]:
        slot = self.fresh("repeat")
        body = self.block(s.body)
        counter = lambda ctx, n=s.count: tuple(range(n))  # noqa: E731
        return [(EACH_INIT, slot, counter, s), (EACH_NEXT, slot, None, len(body) + 2, s)] + body + [(JUMP, -(len(body) + 1), None)]

    def statement_Choose(self, s: ast.Choose) -> list[tuple]:
        body = self.block(s.body)
        other = self.block(s.otherwise) if s.otherwise else []
        element = _element(self.type_of(s.source))
        spec = ChoiceSpec(
            name=s.name, mode=s.mode, count=s.count, source=self.group(s.source),
            chooser=self.expr(s.chooser) if s.chooser else None, element=element,
            prompt=self.prompts.choice(s), else_target=0, span=s.span,
        )
        if other:
            # choose; body; jump over else; else-part
            return [(CHOOSE, spec, len(body) + 2, s)] + body + [(JUMP, len(other) + 1, None)] + other
        return [(CHOOSE, spec, len(body) + 1, s)] + body

    def statement_Ask(self, s: ast.Ask) -> list[tuple]:
        yes = self.block(s.yes)
        no = self.block(s.no) if s.no else []
        chooser = self.expr(s.chooser) if s.chooser else None
        prompt = self.prompts.ask(s)
        if no:
            return [(ASK, prompt, chooser, len(yes) + 2, s)] + yes + [(JUMP, len(no) + 1, None)] + no
        return [(ASK, prompt, chooser, len(yes) + 1, s)] + yes

    def statement_ChooseMode(self, s: ast.ChooseMode) -> list[tuple]:
        # mode; body 1; jump to the end; body 2; jump to the end; ...; body n
        bodies = [self.block(option.body) for option in s.options]
        starts, offset, out = [], 1, []
        for i, body in enumerate(bodies):
            starts.append(offset)
            last = i == len(bodies) - 1
            rest = sum(len(b) + 1 for b in bodies[i + 1:]) - 1  # the bodies (and their jumps) after this one
            out += body + ([] if last else [(JUMP, rest + 1, None)])
            offset += len(body) + (0 if last else 1)
        texts = tuple(option.text for option in s.options)
        chooser = self.expr(s.chooser) if s.chooser else None
        return [(MODE, texts, chooser, tuple(starts), self.prompts.mode(s), s)] + out

    def _effect_statement(self, s: ast.Node) -> list[tuple]:
        return [(EFFECT, self.handler("effect", s)(s), s)]

    statement_Move = statement_Draw = statement_Deal = statement_Score = _effect_statement
    statement_NextLeader = statement_NextLead = statement_NextSide = statement_NobodyTakes = _effect_statement
    statement_SetState = statement_AddState = statement_Declare = statement_SetSide = statement_End = _effect_statement

    def statement_SetVar(self, s: ast.SetVar) -> list[tuple]:
        # the checker refuses a variable named like a counter or mark: a state's name is never a local
        if s.name in self.state:
            return self._effect_statement(s)
        return self.statement_Let(s)

    def effect_SetVar(self, s: ast.SetVar) -> Fn:
        return self._state_writer(s.name, None, self.expr(s.value))

    def effect_SetState(self, s: ast.SetState) -> Fn:
        return self._state_writer(s.name, self.expr(s.owner), self.expr(s.value))

    def effect_AddState(self, s: ast.AddState) -> Fn:
        read = self._state_reader(s.name, self.expr(s.owner) if s.owner else None)
        amount = self.expr(s.amount)
        return self._state_writer(s.name, self.expr(s.owner) if s.owner else None,
                                  lambda ctx: _bounded(read(ctx) + amount(ctx)))

    def _state_owner(self, spec: StateSpec, owner: Fn | None) -> Fn:
        if not spec.per_community:
            return lambda ctx: None
        return owner or _me

    def _state_writer(self, name: str, owner: Fn | None, value: Fn) -> Fn:
        spec = self.state[name]
        key, whose = spec.key, self._state_owner(spec, owner)
        return lambda ctx: [("state", key, whose(ctx), value(ctx))]

    def _state_reader(self, name: str, owner: Fn | None) -> Fn:
        spec = self.state[name]
        key, whose, default = spec.key, self._state_owner(spec, owner), spec.default
        if spec.holds == CARD:  # a mark holding a card reads as Cards: none until it is set
            return lambda ctx: held_card(ctx.g.state.get((key, whose(ctx))))
        return lambda ctx: ctx.g.state.get((key, whose(ctx)), default)

    def effect_Declare(self, s: ast.Declare) -> Fn:
        card, faction = self.expr(s.card), self.expr(s.faction)
        return lambda ctx: [("declare", card(ctx), faction(ctx))]

    def effect_SetSide(self, s: ast.SetSide) -> Fn:
        if s.value is None:
            return lambda ctx: [("side", None)]
        side = self.expr(s.value)
        return lambda ctx: [("side", side(ctx))]

    def effect_End(self, s: ast.End) -> Fn:
        what = s.what
        return lambda ctx: [("end", what)]

    # Each effect statement becomes a closure returning the list of effects (plain tuples) it makes.
    def effect_Move(self, s: ast.Move) -> Fn:
        cards = self.group(s.cards)
        zone, owner, position = self.dest(s.dest)
        if owner is None:
            return lambda ctx: [("move", cards(ctx), zone, None, position)]
        return lambda ctx: [("move", cards(ctx), zone, owner(ctx), position)]

    def effect_Draw(self, s: ast.Draw) -> Fn:
        count = self.expr(s.count)
        whom = self.expr(s.whom) if s.whom else _me
        return lambda ctx: [("move", tuple(ctx.g.reserve[: max(count(ctx), 0)]), "hand", whom(ctx), "end")]

    def effect_Deal(self, s: ast.Deal) -> Fn:
        cards = self.group(s.cards)
        to = self.group(s.to)
        sorts = [(k.attr, k.direction == "highest") for k in reversed(s.order)]  # stable sorts, last key first

        def deal(ctx):
            pile = list(cards(ctx))
            if len(pile) > 1:
                read = ctx.g.tables.read
                for attr, reverse in sorts:
                    pile.sort(key=read[attr].__getitem__, reverse=reverse)
            seats = to(ctx)
            if not seats:
                return []
            return [("move", (card,), "expedition", seats[i % len(seats)], "end") for i, card in enumerate(pile)]

        return deal

    def effect_Score(self, s: ast.Score) -> Fn:
        amount = self.expr(s.amount)
        whom = self.expr(s.whom) if s.whom else _me
        sign = s.sign
        return lambda ctx: [("score", whom(ctx), sign * amount(ctx))]

    def effect_NextLeader(self, s: ast.NextLeader) -> Fn:
        who = self.expr(s.who)
        return lambda ctx: [("next_leader", who(ctx))]

    def effect_NobodyTakes(self, s: ast.NobodyTakes) -> Fn:
        zone, position = SHARED_DESTINATIONS[s.dest.kind if s.dest is not None else "discard"]
        return lambda ctx: [("untaken", zone, position)]

    def effect_NextSide(self, s: ast.NextSide) -> Fn:
        side = self.expr(s.side)
        return lambda ctx: [("next_side", side(ctx))]

    def effect_NextLead(self, s: ast.NextLead) -> Fn:
        faction = self.expr(s.faction)
        return lambda ctx: [("next_lead", faction(ctx))]

    def dest(self, d: ast.Dest) -> tuple[str, Fn | None, str]:
        """(zone, owner, position) of a move's destination; the owner a closure, None for a shared zone."""
        if d.kind in SHARED_DESTINATIONS:
            zone, position = SHARED_DESTINATIONS[d.kind]
            return zone, None, position
        return d.kind, self.expr(d.owner) if d.owner else _me, "end"

    # ----------------------------------------------------------- expressions
    def group(self, node: ast.Node) -> Fn:
        """An expression read as a group: a single card or Community becomes a 1-tuple."""
        f = self.expr(node)
        if self.type_of(node) in (CARD, COMMUNITY, FACTION):
            if self.reads_unset(node):  # a mark holding a Faction, not set yet: no Faction
                return lambda ctx: held_card(f(ctx))
            return lambda ctx: (f(ctx),)
        return f

    def reads_unset(self, node: ast.Node) -> bool:
        """`node` reads a mark holding a Faction, which is None before it is set (HOLDS_DEFAULT)."""
        name = node.name if isinstance(node, (ast.NameRef, ast.StateOf)) else None
        return name in self.state and self.state[name].holds == FACTION and (
            isinstance(node, ast.StateOf) or name not in _BUILTIN_READERS)

    def expr(self, n: ast.Node) -> Fn:
        """A closure `f(ctx) -> value` computing the expression."""
        return self.handler("expr", n)(n)

    def expr_IntLit(self, n):
        v = n.value
        return lambda ctx: v

    def expr_FactionLit(self, n):
        v = n.name
        return lambda ctx: v

    def expr_NameRef(self, n):
        name = n.name
        builtin = _BUILTIN_READERS.get(name)
        if builtin is not None and not self._is_variable(n):
            if name == "encounter" and self.in_rule:
                return _rule_encounter
            if name == "turned_up" and self.turned_up_at is None:
                self.turned_up_at = n.span
            return builtin
        if name in self.state:  # (never a local: see statement_SetVar)
            return self._state_reader(name, None)
        return lambda ctx: ctx.env[name]

    def expr_StateOf(self, n):
        if n.name in _TEAM_READERS:  # `partner of C`, `team of C` (the checker keeps these names for the hand)
            table, of = n.name, self.expr(n.owner)
            return lambda ctx: getattr(ctx.g.tables, _TEAM_READERS[table])[of(ctx)]
        return self._state_reader(n.name, self.expr(n.owner))

    def _is_variable(self, n: ast.NameRef) -> bool:
        # Built-in names cannot be rebound (the checker forbids it), except 'it'.
        return n.name == "it"

    def expr_BareAttr(self, n):
        attr = n.attr
        return lambda ctx: ctx.g.tables.read[attr][ctx.env["it"]]

    def expr_AttrOf(self, n):
        target = self.expr(n.target)
        attr = n.attr
        return lambda ctx: ctx.g.tables.read[attr][target(ctx)]

    def expr_ZoneRef(self, n):
        if self.of_group(n):  # `hand of others`: the zones of each Community of the group, in its order
            owners, zone = self.group(n.owner), n.zone
            if zone == "held":
                return lambda ctx: tuple(c for seat in owners(ctx) for c in ctx.g.held(seat))
            return lambda ctx: tuple(c for seat in owners(ctx) for c in ctx.g.zones[ctx.g.tables.zone_keys[zone][seat]])
        if n.zone == "held":
            owner = self.expr(n.owner) if n.owner else _me
            return lambda ctx: ctx.g.held(owner(ctx))
        return self._zone_reader(n, tuple)

    def _zone_reader(self, n: ast.ZoneRef, read: Callable[[list], Any]) -> Fn:
        """`read` of the list of one Community's hand, Transfer or Expedition zone."""
        owner = self.expr(n.owner) if n.owner else _me
        zone = n.zone

        def run(ctx):
            g = ctx.g
            return read(g.zones[g.tables.zone_keys[zone][owner(ctx)]])

        return run

    def of_group(self, n: ast.ZoneRef) -> bool:
        """The zone of a group of Communities (`expedition of [self, left of left]`), not of one."""
        return n.owner is not None and self.type_of(n.owner) == COMMUNITIES

    def expr_Neighbour(self, n):
        of = self.expr(n.of) if n.of else _me
        step = 1 if n.side == "left" else -1
        return lambda ctx: (of(ctx) + step) % ctx.g.n

    def expr_ListLit(self, n):
        items = [self.group(i) if self.reads_unset(i) else self.expr(i) for i in n.items]  # (tuples are flattened)
        return lambda ctx: _unique(f(ctx) for f in items)

    def expr_Arith(self, n):
        if as_set(self.type_of(n)) == self.type_of(n) and self.type_of(n) in (CARDS, COMMUNITIES, FACTIONS):
            # a union; each side compiled once (compiling it as a number too made `a + b + c ...` exponential)
            lg, rg = self.group(n.left), self.group(n.right)
            return lambda ctx: _unique(list(lg(ctx)) + list(rg(ctx)))
        left, right = self.expr(n.left), self.expr(n.right)
        op = n.op
        if op == "+":
            return lambda ctx: _bounded(left(ctx) + right(ctx))
        if op == "-":
            return lambda ctx: _bounded(left(ctx) - right(ctx))
        if op == "*":
            return lambda ctx: _bounded(left(ctx) * right(ctx))
        return lambda ctx: _divide(left(ctx), right(ctx))

    def expr_Neg(self, n):
        f = self.expr(n.operand)
        return lambda ctx: _bounded(-f(ctx))

    def expr_Logic(self, n):
        left, right = self.expr(n.left), self.expr(n.right)
        if n.op == "and":
            return lambda ctx: bool(left(ctx)) and bool(right(ctx))
        return lambda ctx: bool(left(ctx)) or bool(right(ctx))

    def expr_Not(self, n):
        f = self.expr(n.operand)
        return lambda ctx: not f(ctx)

    def expr_Compare(self, n):
        left, right = self.expr(n.left), self.expr(n.right)
        op = n.op
        if op in ("in", "not in"):
            right = self.group(n.right)
            if op == "in":
                return lambda ctx: left(ctx) in right(ctx)
            return lambda ctx: left(ctx) not in right(ctx)
        fn = _COMPARISONS[op]
        if isinstance(n.right, (ast.IntLit, ast.FactionLit)):  # `faction is X`, `count(...) > 0`: one call less
            constant = n.right.value if isinstance(n.right, ast.IntLit) else n.right.name
            return lambda ctx: fn(left(ctx), constant)
        return lambda ctx: fn(left(ctx), right(ctx))

    def _with_it(self, n: ast.Node, source: Fn, body: Fn, keep: Callable[[Any, list], Any]):
        where = (self.power_name, n.span)

        def run(ctx):
            env = ctx.env
            saved = env.get("it", _MISSING)
            try:
                return keep(ctx, spend(ctx, source(ctx), where), body)
            finally:
                if saved is _MISSING:
                    env.pop("it", None)
                else:
                    env["it"] = saved

        return run

    def expr_Where(self, n):
        source = self.group(n.source)
        test = self._attribute_test(n.condition)
        if test is not None:
            attr, compare, wanted = test
            if attr == "faction" and compare in (operator.eq, operator.ne):
                # `faction is X`: the cards of X are a set the tables hold; filter keeps the order
                sift = filter if compare is operator.eq else filterfalse

                def of_faction(ctx):
                    members = ctx.g.tables.cards_of.get(wanted(ctx), ())
                    return tuple(sift(members.__contains__, source(ctx)))

                return of_faction

            def filtered(ctx):
                column, value = ctx.g.tables.read[attr], wanted(ctx)
                return tuple([x for x in source(ctx) if compare(column[x], value)])

            return filtered
        cond = self.expr(n.condition)

        def keep(ctx, items, body):
            out = []
            for x in items:
                ctx.env["it"] = x
                if body(ctx):
                    out.append(x)
            return tuple(out)

        return self._with_it(n, source, cond, keep)

    def _attribute_test(self, cond: ast.Node):
        """(attribute, comparison, value) for `faction is led`, `value > 5` and the like (attribute_test), else None."""
        test = attribute_test(cond)
        if test is None:
            return None
        attr, op, right = test
        return attr, _COMPARISONS[op], self.expr(right)

    def expr_Except(self, n):
        source = self.group(n.source)
        removed = self.group(n.removed)

        def run(ctx):
            gone = set(removed(ctx))
            return tuple(x for x in source(ctx) if x not in gone)

        return run

    def expr_Otherwise(self, n):
        first, fallback = self.group(n.first), self.group(n.fallback)
        return lambda ctx: first(ctx) or fallback(ctx)

    def expr_WithExtreme(self, n):
        source = self.group(n.source)
        key = self.expr(n.key)
        extreme = n.extreme
        best_is_high = extreme.endswith("most")
        strict = extreme.startswith("strictly")

        def keep(ctx, items, body):
            scored = []
            for x in items:
                ctx.env["it"] = x
                scored.append((body(ctx), x))
            if not scored:
                return ()
            target = max(s for s, _ in scored) if best_is_high else min(s for s, _ in scored)
            winners = tuple(x for s, x in scored if s == target)
            if strict and len(winners) > 1:
                return ()
            return winners

        return self._with_it(n, source, key, keep)

    def expr_Comprehension(self, n):
        source = self.group(n.source)
        body = self.expr(n.body)
        var = n.var
        fn = {"sum": sum, "min": min, "max": max}[n.function]
        where = (self.power_name, n.span)

        def run(ctx):
            values = []
            env = ctx.env
            for x in spend(ctx, source(ctx), where):
                env[var] = x
                values.append(body(ctx))
            env.pop(var, None)
            return _bounded(fn(values)) if values else 0

        return run

    def expr_Call(self, n):
        name = n.function
        args = [self.group(a) if i == 0 and name in _GROUP_FUNCTIONS else self.expr(a) for i, a in enumerate(n.args)]
        if name == "count":
            if isinstance(n.args[0], ast.ZoneRef) and n.args[0].zone != "held" and not self.of_group(n.args[0]):
                return self._zone_reader(n.args[0], len)  # the zone's size, without copying it
            f = args[0]
            return lambda ctx: len(f(ctx))
        if name in ("min", "max", "sum"):
            fn = {"sum": sum, "min": min, "max": max}[name]
            return lambda ctx: _bounded(fn([a(ctx) for a in args]))
        if name == "population":
            f = args[0]
            return lambda ctx: ctx.g.population[f(ctx)]
        if name == "tricks":
            f = args[0]
            if self.types.get(id(n.args[0])) == "Communities":  # tricks(team of C): the sum
                return lambda ctx: sum(map(ctx.g.tricks_won.__getitem__, f(ctx)))
            return lambda ctx: ctx.g.tricks_won[f(ctx)]
        if name == "bid_of":
            f, key = args[0], AUCTION_STATE["bid"]
            return lambda ctx: ctx.g.state.get((key, f(ctx)), 0)
        if name == "player":
            f = args[0]
            return lambda ctx: _player(ctx, f(ctx))
        if name == "position":
            f = args[0]
            return lambda ctx: _position(ctx, f(ctx))
        if name == "numbers":
            low, high = args
            return lambda ctx: tuple(range(low(ctx), min(high(ctx), low(ctx) + MAX_NUMBERS - 1) + 1))
        source = args[0]
        how_many = args[1] if len(args) > 1 else (lambda ctx: 1)
        if name == "first":
            return lambda ctx: tuple(source(ctx)[: max(how_many(ctx), 0)])
        if name == "last":
            return lambda ctx: tuple(source(ctx)[-how_many(ctx):]) if how_many(ctx) > 0 else ()
        if name in ("highest", "lowest"):
            high = name == "highest"

            def pick(ctx):
                ordered = sorted(source(ctx), key=ctx.g.tables.read["value"].__getitem__, reverse=high)
                return tuple(ordered[: max(how_many(ctx), 0)])

            return pick
        if name == "random":
            def draw(ctx):
                pool = list(source(ctx))
                k = min(max(how_many(ctx), 0), len(pool))
                return Blind(ctx.g.rng.sample(pool, k)) if k else ()

            return draw
        raise TypeError(f"unknown function {name}")  # pragma: no cover


class Blind(tuple):
    """Cards a power picked at random: nobody sees which (the kernel's public memory needs to know)."""

    __slots__ = ()


_GROUP_FUNCTIONS = {"count", "highest", "lowest", "first", "last", "random"}
_MISSING = object()
MAX_NUMBER = 10**6


def _bounded(x: int) -> int:
    return max(-MAX_NUMBER, min(MAX_NUMBER, x))


def _divide(a: int, b: int) -> int:
    return a // b if b else 0


def _unique(items) -> tuple:
    seen: dict = {}
    for x in items:
        if isinstance(x, tuple):
            for y in x:
                seen.setdefault(y, None)
        else:
            seen.setdefault(x, None)
    return tuple(seen)


def _me(ctx):
    return ctx.me


def _ALWAYS(ctx) -> bool:
    return True


def _rule_encounter(ctx) -> tuple:
    """`encounter` in a rule's condition: the Encounter card turned up for the trick being played (none: ())."""
    return tuple(ctx.g.zones.get("encounter", ()))


def _plays(ctx) -> list:
    trick = ctx.g.trick
    return trick.plays if trick is not None else []


def _player(ctx, card: int) -> int:
    for seat, played, _ in _plays(ctx):
        if played == card:
            return seat
    return ctx.leader if ctx.leader is not None else ctx.me


_SPLIT_BY_CARD = ("must_be_played", "leads_only_when")  # the rules Game._restrict reads card by card
_CARD_READERS = frozenset({"played", "entered", "before"})  # the names that read ctx.card


def _conjuncts(node: ast.Node) -> list[ast.Node]:
    """The parts of `node` joined by `and` at its top, in order (just `node` if it is no `and`)."""
    if isinstance(node, ast.Logic) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _position(ctx, card: int) -> int:
    for i, (_, played, _) in enumerate(_plays(ctx)):
        if played == card:
            return i + 1
    return 0


def _before(ctx) -> tuple:
    out = []
    for _, played, _ in _plays(ctx):
        if played == ctx.card:
            break
        out.append(played)
    return tuple(out)


def attribute_test(cond: ast.Node) -> tuple[str, str, ast.Node] | None:
    """(attribute, operator, the value's node) of a `where` condition such as `faction is led` or `value > 5`, else None.

    Most filters compare one attribute of each element with a value that does not
    depend on the element (a literal or a name other than `it`): that value is read
    once instead of binding `it` for every element (the compiler and language.codegen).
    """
    if not (isinstance(cond, ast.Compare) and cond.op in _COMPARISONS and isinstance(cond.left, ast.BareAttr)):
        return None
    right = cond.right
    if isinstance(right, (ast.IntLit, ast.FactionLit)) or (isinstance(right, ast.NameRef) and right.name != "it"):
        return cond.left.attr, cond.op, right
    return None


def _element(t: str) -> str:
    return ELEMENT_OF[as_set(t)]


# A move's shared destinations: (zone, position); every other destination is a Community's zone, at its end.
SHARED_DESTINATIONS = {"reserve_top": ("reserve", "top"), "reserve_bottom": ("reserve", "end"),
                       "discard": ("discard", "end")}
_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                ">=": operator.ge}

#: Where the kernel keeps the hand's auction in the game's state (kernel.game, docs/boxes.md): the bids and
#: passes made, the winner, its number or level and its Faction (for the round), and each Community's bid.
AUCTION_STATE = {"made": "Auction:made", "winner": "Auction:winner", "contract": "Auction:contract",
                 "trump": "Auction:trump", "bid": "Auction:bid", "stage": "Auction:stage"}
#: Where the kernel keeps the card the hand turned up (`turn_up`: its id) and the rounds dealt again
#: (`all_pass: redeal`: in all, which moves the deal on, and this round's in a row) in the game's state.
TURNED_STATE = "Hand:turned"
REDEAL_STATE = {"redeals": "Hand:redeals", "redealt": "Hand:redealt"}
#: Where the kernel keeps the shared counters and marks (`shared mark trump: Faction`): one of the game by name.
SHARED_STATE = "Shared:"
#: A mark holding a Faction, a Card, a Community or a Side before it is set: no Faction, no card (it reads as
#: no Cards), Community 0 (as `dealer` and `auction_winner` before any), the + side.
HOLDS_DEFAULT = {FACTION: None, CARD: None, COMMUNITY: 0, SIDE: "+"}


def held_card(card: int | str | None) -> tuple:
    """A mark holding a card (or a Faction, read as a group), read: the card as a group, or none before it is set."""
    return () if card is None else (card,)


#: Where the kernel keeps the round's dealer in the game's state (a hand with a dealer: docs/boxes.md).
DEALER_STATE = "Hand:dealer"

_BUILTIN_READERS: dict[str, Fn] = {
    "self": lambda ctx: ctx.me,
    "others": lambda ctx: ctx.g.tables.clockwise[ctx.me][1:],
    "everyone": lambda ctx: ctx.g.tables.clockwise[ctx.me],
    "factions": lambda ctx: tuple(dict.fromkeys(ctx.g.factions_in_play())),
    "reserve": lambda ctx: tuple(ctx.g.reserve),
    "round": lambda ctx: ctx.g.round_no,
    "players": lambda ctx: ctx.g.n,
    "trick": lambda ctx: ctx.trick,
    "encounter": lambda ctx: ctx.encounter,
    "led": lambda ctx: ctx.led,
    "leader": lambda ctx: ctx.leader,
    "this": lambda ctx: ctx.this,
    "played": lambda ctx: ctx.card,
    "before": _before,
    "winner": lambda ctx: ctx.winner,
    "winning": lambda ctx: ctx.winning,
    "entered": lambda ctx: ctx.card,
    "mover": lambda ctx: ctx.env.get("@movers", ()),
    **{f"from_{origin}": (lambda origin: lambda ctx: ctx.env.get("@from") == origin)(origin) for origin in ORIGINS},
    "sides": lambda ctx: ("+", "-"),
    "void": lambda ctx: ctx.void,
    "side": lambda ctx: ctx.side,
    "plus": lambda ctx: "+",
    "minus": lambda ctx: "-",
    "true": lambda ctx: True,
    "false": lambda ctx: False,
    "offered": lambda ctx: ctx.offer[0],
    "offered_faction": lambda ctx: ctx.offer[1],
    "passing": lambda ctx: ctx.offer[2],
    "bids_so_far": lambda ctx: ctx.g.state.get((AUCTION_STATE["made"], None), 0),
    "auction_winner": lambda ctx: ctx.g.state.get((AUCTION_STATE["winner"], None), 0),
    "winning_bid": lambda ctx: ctx.g.state.get((AUCTION_STATE["contract"], None), 0),
    "winning_faction": lambda ctx: ctx.g.state.get((AUCTION_STATE["trump"], None)),
    "auction_stage": lambda ctx: ctx.g.state.get((AUCTION_STATE["stage"], None), 1),
    "turned_up": lambda ctx: ctx.g.state[(TURNED_STATE, None)],
    "dealer": lambda ctx: ctx.g.state.get((DEALER_STATE, None), 0),
    "dummy": lambda ctx: ctx.g.dummy or 0,  # the round's dummy once laid (hand.dummy), else Community 0
    "partner": lambda ctx: ctx.g.tables.partner_of[ctx.me],
    "team": lambda ctx: ctx.g.tables.team_of[ctx.me],
}
# `partner of C`, `team of C`: the card facts' table each reads (language.host: the hand's teams)
_TEAM_READERS = {"partner": "partner_of", "team": "team_of"}


# Where each opcode keeps its (relative, then absolute) jump target.
_TARGET_FIELD = {JUMP: 1, JUMP_UNLESS: 2, EACH_NEXT: 3, CHOOSE: 2, ASK: 3, MODE: 3}


def link(instructions: list[tuple]) -> list[tuple]:
    """Turn relative jump offsets into absolute instruction indexes.

    Every instruction ends with the statement it came from (or None), which
    the VM ignores and the IR export (ir.py) reads.
    """
    out = []
    for i, ins in enumerate(instructions):
        field = _TARGET_FIELD.get(ins[0])
        if field is not None:
            target = ins[field]
            target = tuple(i + t for t in target) if type(target) is tuple else i + target  # MODE: one per course
            ins = ins[:field] + (target,) + ins[field + 1:]
        out.append(ins)
    return out


def compile_power(checked: CheckedPower, path: Path) -> CompiledPower:
    try:
        with ast.room_to_recurse():
            compiled = Compiler(checked).compile_power(checked.power, path)
    except RecursionError:
        raise SyntaxProblem(ast.too_deep(str(path))) from None
    compiled.types = checked.types
    for kind, variant in compiled.variants.items():
        for hook, program in variant.hooks.items():
            program.instructions = link(program.instructions)
            program.power, program.variant, program.hook = compiled.name, kind, hook
    return compiled
