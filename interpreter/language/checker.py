"""Static checks of a power file: names, types, variants, hooks.

The checker walks the syntax tree once, collects every problem it finds (up to
a cap), and records the type of each expression for the compiler.
"""

from __future__ import annotations

import difflib
import operator
from dataclasses import dataclass, field

from happydayz.language import ast, budget
from happydayz.base.errors import CheckProblem, DiagnosticSink, Span, suggest
from happydayz.language.visitor import Visitor

# Types are plain strings. A set type is the element type's plural.
INT, BOOL, FACTION, CARD, COMMUNITY, SIDE = "Number", "Yes/No", "Faction", "Card", "Community", "Side"
CARDS, COMMUNITIES, FACTIONS = "Cards", "Communities", "Factions"
SET_OF = {CARD: CARDS, COMMUNITY: COMMUNITIES, FACTION: FACTIONS}
ELEMENT_OF = {v: k for k, v in SET_OF.items()}

NUMBERS, SIDES = "Numbers", "Sides"  # what `numbers(a, b)` and `sides` offer to choose from (not lists)
ELEMENT_OF.update({NUMBERS: INT, SIDES: SIDE})

# Where each built-in name may be used: the hook and rule contexts. A context is what the
# running hook can see (see docs/language.md, "Hooks").
WIN, END, RULE = "on win", "at end of round", "rule"
PLAY, TRICK, AFTER, START, GAME_END = "on play", "on trick", "after trick", "at start of round", "at end of game"
BIDDING = "after transfer"  # the bidding moment: after the Transfer, before the round's first trick
AUCTION = "bid rule"
ENTER_EXPEDITION, ENTER_HAND = "on enter expedition", "on enter hand"  # a card entered a zone of yours
ENTERED = (ENTER_EXPEDITION, ENTER_HAND)
#: Where a card that entered a zone came from (the kernel's `@from`): read as `from_trick`, `from_hand` ...
ORIGINS = ("trick", "hand", "transfer", "expedition", "reserve", "discard")  # a `rule bids only when` condition: a bid of the hand's auction is being considered
CONTEXT_OF_HOOK = {"win": WIN, "end_of_round": END, "play": PLAY, "lead": PLAY, "trick": TRICK, "after_trick": AFTER,
                   "start_of_round": START, "after_transfer": BIDDING, "end_of_game": GAME_END,
                   "enter_expedition": ENTER_EXPEDITION, "enter_hand": ENTER_HAND}
ANY = (WIN, END, RULE, PLAY, TRICK, AFTER, START, BIDDING, GAME_END, AUCTION, ENTER_EXPEDITION, ENTER_HAND)
IN_A_TRICK = (WIN, RULE, PLAY, TRICK, AFTER)  # a trick is on the table (or just won)
TRICK_WON = (WIN, TRICK, AFTER)
BUILTINS: dict[str, tuple[str, tuple[str, ...]]] = {
    "self": (COMMUNITY, ANY),
    "others": (COMMUNITIES, ANY),
    "everyone": (COMMUNITIES, ANY),
    "factions": (FACTIONS, ANY),
    "reserve": (CARDS, ANY),
    "round": (INT, ANY),
    "players": (INT, ANY),
    "trick": (CARDS, IN_A_TRICK),
    "encounter": (CARDS, TRICK_WON + (RULE,)),  # in a rule: the card turned up for the trick being played
    "led": (FACTION, IN_A_TRICK),
    "leader": (COMMUNITY, IN_A_TRICK),
    "winner": (COMMUNITY, TRICK_WON),
    "winning": (CARD, TRICK_WON),
    "this": (CARD, (END,)),
    "played": (CARD, (RULE, PLAY, TRICK)),
    "before": (CARDS, (RULE, PLAY)),
    "void": (BOOL, (RULE,)),
    "side": (SIDE, IN_A_TRICK),
    "sides": (SIDES, ANY),
    "plus": (SIDE, ANY),
    "minus": (SIDE, ANY),
    "true": (BOOL, ANY),
    "false": (BOOL, ANY),
    # the hand's auction (docs/boxes.md): the bid considered by a `rule bids only when`, and its record
    "offered": (INT, (AUCTION,)),
    "offered_faction": (FACTION, (AUCTION,)),
    "passing": (BOOL, (AUCTION,)),
    "bids_so_far": (INT, ANY),
    "auction_winner": (COMMUNITY, ANY),
    "winning_bid": (INT, ANY),
    "winning_faction": (FACTION, ANY),
    "auction_stage": (INT, ANY),
    "turned_up": (CARD, ANY),  # the card the hand turned up (turn_up: true), in every hook and rule
    "dealer": (COMMUNITY, ANY),  # the round's dealer (Community 0 in a hand without one)
    "dummy": (COMMUNITY, ANY),  # the round's dummy once laid (hand.dummy; Community 0 before, or without one)
    # the hand's teams (docs/boxes.md): your partner and your team (you included); `partner of C`, `team of C`
    "partner": (COMMUNITY, ANY),
    "team": (COMMUNITIES, ANY),
    # a hook when a card enters a zone (`on enter expedition`, `on enter hand`): the card, and the Faction whose
    # power moved it, read as Factions: none for a won trick's cards, else that one (`F in mover`)
    "entered": (CARD, ENTERED),
    "mover": (FACTIONS, ENTERED),
    # ... and where the card came from: one yes/no per kind of zone (`from_trick`: a won trick's card)
    **{name: (BOOL, ENTERED) for name in ("from_" + origin for origin in ORIGINS)},
}
#: The built-in names that also read `NAME of C` (a Community's): their type.
TEAM_WORDS = {"partner": COMMUNITY, "team": COMMUNITIES}
ATTR_TYPES = {"value": INT, "survivors": INT, "faction": FACTION}
FUNCTIONS = ("count", "min", "max", "sum", "highest", "lowest", "first", "last", "random", "population", "player",
             "position", "tricks", "numbers", "bid_of")
MAX_NUMBERS = 50  # the most Numbers `numbers(a, b)` offers (a choice is a decision: a short list)
# The hooks that belong to a Faction's cards; the others may belong to any power.
CARD_HOOKS = ("win", "play", "lead", "trick")
RULE_CONDITIONS = ("trumps", "wins", "never_wins", "leads_only_when", "must_be_played", "bids_only_when")
GAME_RULES = ("bids_only_when",)  # rules of any power (the others act on a Faction's cards)
ADDED_RULES = ("trumps", "counts_as")  # rules an added power carries over every card of the game (game-wide rules)


#: What a mark may hold besides a Yes/No (`mark trump: Faction`); a counter holds a Number.
MARK_HOLDS = (FACTION, CARD, COMMUNITY, SIDE)


def written_type(decl: ast.StateDecl) -> str:
    """The type a counter or a mark is set to: a Number, a Yes/No, or what the mark holds."""
    return INT if decl.kind == "counter" else decl.holds if decl.holds in MARK_HOLDS else BOOL


def read_type(decl: ast.StateDecl) -> str:
    """The type a counter or a mark reads as; a mark holding a Card reads as Cards (none until it is set)."""
    t = written_type(decl)
    return CARDS if t == CARD else t


def is_set(t: str | None) -> bool:
    return t in ELEMENT_OF


def as_set(t: str | None) -> str | None:
    """The set type a value of type t can stand for (a Card stands for Cards)."""
    if t in SET_OF:
        return SET_OF[t]
    return t if is_set(t) else None


@dataclass
class CheckedPower:
    power: ast.PowerFile
    types: dict[int, str]  # id(expression node) -> type
    warnings: list = field(default_factory=list)


@dataclass
class _Declaration:
    name: str
    span: Span
    kind: str  # let, choose
    used: bool = False


@dataclass
class _Scope:
    names: dict[str, str]
    lets: set[str]
    declarations: dict[str, _Declaration] = field(default_factory=dict)
    loops: int = 0  # how many `each` and `repeat` loops hold this scope
    let_loops: dict[str, int] = field(default_factory=dict)  # a let's name -> the loops around it

    def child(self, loop: bool = False) -> "_Scope":
        return _Scope(dict(self.names), set(self.lets), dict(self.declarations), self.loops + loop,
                      dict(self.let_loops))


class Checker(Visitor):
    def __init__(self, known_factions: set[str] | None, sink: DiagnosticSink):
        self.known = known_factions
        self.sink = sink
        self.types: dict[int, str] = {}
        self.context = WIN
        self.binding = "faction"
        self.declared: list[_Declaration] = []
        self.state: dict[str, ast.StateDecl] = {}
        self.counted_zero = 0  # inside (the condition or block of) ifs that test a count against 0: see WithExtreme

    # ------------------------------------------------------------------ powers
    def check_power(self, power: ast.PowerFile) -> None:
        self.binding = power.binding.kind
        self.declare_state(power.state)
        if power.binding.kind == "faction" and power.binding.faction and self.known is not None:
            own = power.binding.faction
            near = suggest(own, self.known - {own})
            close = near is not None and difflib.SequenceMatcher(None, own.lower(), near.lower()).ratio() >= 0.85
            if own not in self.known and close and near.lower() != own.lower():
                self.sink.warning(power.binding.span, f"'{own}' is a new Faction; did you mean the Faction '{near}'?", "W003")
            self.known = set(self.known) | {own}
        if power.variants:
            if power.hooks or power.rules:
                first = (power.hooks + power.rules)[0]
                self.sink.error(first.span, "a power with variants keeps its hooks and rules inside the variants", "C020",
                                hint="move this into each of 'variant basic', 'variant positive' and 'variant negative'")
            seen: dict[str, ast.Variant] = {}
            for variant in power.variants:
                if variant.kind in seen:
                    self.sink.error(variant.span, f"the variant '{variant.kind}' is written twice", "C021")
                seen[variant.kind] = variant
                self.check_items(variant.hooks, variant.rules)
            basic = seen.get("basic")
            for kind in ("positive", "negative"):
                other = seen.get(kind)
                if basic is None or other is None:
                    continue
                if ast.strip_spans(other.hooks + other.rules) == ast.strip_spans(basic.hooks + basic.rules):
                    self.sink.warning(other.span, f"the {kind} variant is identical to the basic one", "W004")
            missing = [v for v in ast.VARIANTS if v not in seen]
            if missing:
                self.sink.error(power.span, f"the power '{power.name}' lacks the variant{'s' if len(missing) > 1 else ''} "
                                + ", ".join(repr(m) for m in missing), "C022",
                                hint="a power with variants needs all three: basic, positive and negative")
            if power.binding.kind != "faction":
                self.sink.error(power.binding.span, "only a Faction's power has variants; a card's power or an added power is written once", "C023")
        else:
            if not power.hooks and not power.rules:
                self.sink.warning(power.span, f"the power '{power.name}' does nothing: it has no hook and no rule", "W001")
            self.check_items(power.hooks, power.rules)
        for d in self.declared:
            if not d.used:
                what = "the choice" if d.kind == "choose" else "the variable"
                self.sink.warning(d.span, f"{what} '{d.name}' is never used", "W005",
                                  hint="use it, or remove it" if d.kind == "let" else "use the chosen value in the block below")

    def declare_state(self, declarations: tuple[ast.StateDecl, ...]) -> None:
        for d in declarations:
            if d.name in BUILTINS or d.name in FUNCTIONS or d.name == "it":
                self.sink.error(d.span, f"'{d.name}' is a built-in name; choose another name for this {d.kind}", "C030")
            elif d.name in self.state:
                self.sink.error(d.span, f"the {self.state[d.name].kind} '{d.name}' is declared twice", "C060")
            if d.visibility == "secret" and not d.per_community:
                self.sink.error(d.span, f"a secret {d.kind} belongs to one Community: write 'per community'", "C061",
                                hint=f"{d.kind} {d.name} per community for {d.lifetime} secret")
            if d.holds is not None and (d.kind == "counter" or d.holds not in MARK_HOLDS):
                self.sink.error(d.span, f"a mark holds a Yes/No, or what ': TYPE' names: a Faction, a Card, a "
                                f"Community or a Side, not '{d.holds}'" if d.kind == "mark" else
                                f"a counter holds a Number: ': {d.holds}' belongs to a mark", "C071",
                                hint=f"mark {d.name}: Faction" if d.kind == "mark" else f"mark {d.name}: {d.holds}")
            if d.shared == "declares" and self.binding != "added":
                self.sink.error(d.span, f"a shared {d.kind} is declared once for the game, by an added power; this "
                                "power reads it with a 'uses' line", "C070",
                                hint=f"uses {d.kind} {d.name}" + (f": {d.holds}" if d.holds else "")
                                + (" per community" if d.per_community else ""))
            if type(d.option) is str:
                self.sink.error(d.span, f"an option's default is a whole number, true or false, not '{d.option}'",
                                "C068", hint=f"option {d.name} = false")
            self.state.setdefault(d.name, d)

    def check_budget(self, power: ast.PowerFile) -> None:
        """W012 for a hook or a rule whose work may exceed the step budget (language.budget)."""
        items = [*power.hooks, *power.rules, *(x for v in power.variants for x in (*v.hooks, *v.rules))]
        for item in items:
            body = item.body if isinstance(item, ast.Hook) else item.condition
            steps = budget.estimate(body, self.most_elements) if body is not None else 0
            if steps > budget.MAX_STEPS:
                what = "hook" if isinstance(item, ast.Hook) else "rule"
                self.sink.warning(item.span, f"this {what} may take {steps:,} steps, more than the {budget.MAX_STEPS:,} "
                                  f"a {what} may run", "W012",
                                  hint="a game stops it when its budget runs out (R001): walk fewer elements, or nest "
                                       "fewer loops")

    def most_elements(self, group: ast.Node) -> int:
        """The most elements `group` holds, as budget.estimate assumes."""
        if isinstance(group, ast.Call) and group.function == "numbers":
            low, high = group.args
            if isinstance(low, ast.IntLit) and isinstance(high, ast.IntLit):
                return max(0, min(MAX_NUMBERS, high.value - low.value + 1))
            return MAX_NUMBERS
        return _ESTIMATED_SIZE.get(self.types.get(id(group)), 1)

    def check_items(self, hooks: tuple[ast.Hook, ...], rules: tuple[ast.Rule, ...]) -> None:
        timings: set[str] = set()
        for hook in hooks:
            if hook.timing in timings:
                self.sink.error(hook.span, f"the hook '{hook_words(hook.timing)}' is written twice here", "C024")
            timings.add(hook.timing)
            if hook.timing in CARD_HOOKS and self.binding != "faction":
                self.sink.error(hook.span, f"'{hook_words(hook.timing)}' belongs to a Faction's power (its cards): a card's "
                                "power or an added power acts at the start or end of a round, after a trick or at the "
                                "end of the game", "C025")
            self.context = CONTEXT_OF_HOOK[hook.timing]
            self.block(hook.body, self.root_scope())
        kinds: set[str] = set()
        for rule in rules:
            if rule.kind in kinds and rule.kind != "counts_as":  # (counts as: each rule a case, the first holds)
                self.sink.error(rule.span, "this rule is written twice here", "C026")
            kinds.add(rule.kind)
            if self.binding != "faction" and rule.kind not in GAME_RULES and not (
                    self.binding == "added" and rule.kind in ADDED_RULES):
                self.sink.error(rule.span, "rules belong to a Faction's power: they act on that Faction's cards"
                                + (" (an added power carries 'rule trumps when' over every card)"
                                   if self.binding == "added" else ""), "C027")
            if rule.kind == "counts_as" and self.binding != "added":
                self.sink.error(rule.span, "'rule counts as' is a game-wide rule: it belongs to an added power (it "
                                "acts on every card of the game)", "C072")
            if rule.kind == "must_trump" and not any(r.kind == "trumps" for r in rules):
                self.sink.error(rule.span, "'rule must trump' forces a card that would trump: write when it trumps "
                                "('rule trumps when ...') in the same place", "C080", hint="rule trumps when void")
            if rule.condition is not None:
                self.context = AUCTION if rule.kind in GAME_RULES else RULE
                if rule.counts_as is not None:
                    self.expect(rule.counts_as, self.root_scope(), FACTION, "the Faction a card counts as")
                    self.expect(rule.ranked, self.root_scope(), INT, "the value it is ranked")
                if rule.kind == "beats":
                    t = self.expr(rule.condition, self.root_scope())
                    if t is not None and as_set(t) != FACTIONS:
                        self.sink.error(rule.condition.span, f"'rule beats' names a Faction or Factions, not {_a(t)}", "C062")
                else:
                    self.expect(rule.condition, self.root_scope(), BOOL, "the rule's condition")

    def root_scope(self) -> _Scope:
        return _Scope({}, set())

    # -------------------------------------------------------------- statements
    def block(self, block: ast.Block, scope: _Scope) -> None:
        inner = scope.child()
        for statement in block.statements:
            self.handler("statement", statement)(statement, inner)

    def bind(self, scope: _Scope, name: str, type_: str, span: Span, is_let: bool = False, kind: str | None = None) -> None:
        if name in BUILTINS or name in FUNCTIONS or name == "it":
            self.sink.error(span, f"'{name}' is a built-in name; choose another name for this variable", "C030")
        if name in self.state:
            self.sink.error(span, f"'{name}' is the name of a {self.state[name].kind}; choose another name for this "
                            "variable", "C031")
            return
        if name in scope.names:
            self.sink.error(span, f"the name '{name}' is already in use here", "C031",
                            hint="use 'set' to change a variable made with 'let'" if name in scope.lets else None)
            return
        scope.names[name] = type_
        if is_let:
            scope.lets.add(name)
        if kind is not None:
            declaration = _Declaration(name, span, kind)
            scope.declarations[name] = declaration
            self.declared.append(declaration)

    def statement_Let(self, s: ast.Let, scope: _Scope) -> None:
        t = self.expr(s.value, scope)
        if t is not None:
            self.bind(scope, s.name, t, s.span, is_let=True, kind="let")
            scope.let_loops[s.name] = scope.loops

    def statement_SetVar(self, s: ast.SetVar, scope: _Scope) -> None:
        if s.name in self.state and s.name not in scope.names:
            self.set_state(s, s.name, None, s.value, scope)
            return
        if s.name not in scope.lets:
            self.sink.error(s.span, f"'set' changes a variable made with 'let', and '{s.name}' is not one", "C032",
                            hint=_did_you_mean(s.name, scope.lets))
            self.expr(s.value, scope)
        else:
            scope.declarations[s.name].used = True
            self.expect(s.value, scope, scope.names[s.name], f"the new value of '{s.name}'")
            if scope.let_loops.get(s.name) == scope.loops and _counts_up(s):
                self.sink.warning(s.span, f"'{s.name}' is made anew each time this hook runs, so it counts only within "
                                  "one run", "W010", hint=f"for a count that lasts across tricks and rounds, declare "
                                  f"'counter {s.name}' at the top of the file and write 'add 1 to {s.name}'")

    def set_state(self, s: ast.Node, name: str, owner: ast.Node | None, value: ast.Node, scope: _Scope) -> None:
        decl = self.state_declaration(s, name, owner, scope)
        self.not_an_option(s, decl)
        if decl is not None:
            self.expect(value, scope, written_type(decl), f"the new value of '{name}'")
        else:
            self.expr(value, scope)

    def state_declaration(self, s: ast.Node, name: str, owner: ast.Node | None, scope: _Scope) -> ast.StateDecl | None:
        """The declaration of the state `name` (of `owner`), after checking the use; None if there is none."""
        decl = self.state.get(name)
        if decl is None:
            self.sink.error(s.span, f"'{name}' is not a declared counter or mark", "C063",
                            hint=_did_you_mean(name, self.state) or f"declare it at the top of the file: 'counter {name}'")
        elif owner is not None and not decl.per_community:
            self.sink.error(s.span, f"the {decl.kind} '{name}' is one for the game, not one per Community", "C064",
                            hint=f"write '{name}' alone, or declare it 'per community'")
        if owner is not None:
            self.expect(owner, scope, COMMUNITY, f"whose {name}")
        return decl

    def statement_SetState(self, s: ast.SetState, scope: _Scope) -> None:
        self.set_state(s, s.name, s.owner, s.value, scope)

    def not_an_option(self, s: ast.Node, decl: ast.StateDecl | None) -> None:
        if decl is not None and decl.option is not None:
            self.sink.error(s.span, f"'{decl.name}' is an option: the scenario sets it, and it never changes during "
                                    "a game", "C069", hint=f"declare a counter or a mark to keep a value that changes")

    def statement_AddState(self, s: ast.AddState, scope: _Scope) -> None:
        decl = self.state_declaration(s, s.name, s.owner, scope)
        self.not_an_option(s, decl)
        if decl is not None and decl.kind != "counter":
            self.sink.error(s.span, f"'add' counts up a counter, and '{s.name}' is a mark", "C065",
                            hint=f"write 'set {s.name} = true'")
        self.expect(s.amount, scope, INT, "how much to add")

    def statement_ChooseMode(self, s: ast.ChooseMode, scope: _Scope) -> None:
        if s.chooser is not None:
            self.expect(s.chooser, scope, COMMUNITY, "the Community that chooses")
        seen: set[str] = set()
        for option in s.options:
            if not option.text.strip():
                self.sink.error(option.span, "each course of a choice needs words the player reads", "C066")
            elif option.text in seen:
                self.sink.error(option.span, f"the course \"{option.text}\" is offered twice", "C066")
            seen.add(option.text)
            self.block(option.body, scope)

    def statement_Declare(self, s: ast.Declare, scope: _Scope) -> None:
        self.only_in(s, "declare", (PLAY,))
        self.expect(s.card, scope, CARD, "the card declared")
        self.expect(s.faction, scope, FACTION, "what the card counts as")

    def statement_SetSide(self, s: ast.SetSide, scope: _Scope) -> None:
        self.only_in(s, "set side" if s.value is not None else "flip side", (PLAY,))
        if s.value is not None:
            self.expect(s.value, scope, SIDE, "the side")

    def statement_End(self, s: ast.End, scope: _Scope) -> None:
        contexts = {"trick": (PLAY,), "game": (END,)}.get(s.what, (PLAY, WIN, TRICK, AFTER))
        self.only_in(s, f"end {s.what}", contexts)

    def statement_Choose(self, s: ast.Choose, scope: _Scope) -> None:
        t = self.expr(s.source, scope)
        element = None
        if t is not None:
            if not is_set(as_set(t)):
                self.sink.error(s.source.span, f"'choose' picks from Cards, Communities, Factions, numbers(a, b) or sides, "
                                f"not from {_a(t)}", "C040")
            else:
                element = ELEMENT_OF[as_set(t)]
        if s.count < 1:
            self.sink.error(s.span, "a choice of nothing: the count must be at least 1", "C041")
        if s.chooser is not None:
            self.expect(s.chooser, scope, COMMUNITY, "the Community that chooses")
        if isinstance(s.source, ast.ListLit) and not s.source.items:
            self.sink.error(s.source.span, "this choice has no options", "C042")
        body = scope.child()
        if element is not None and s.mode != "one" and element not in SET_OF:
            self.sink.error(s.span, f"only one {element} can be chosen at a time", "C041")
            element = None
        if element is not None:
            self.bind(body, s.name, element if s.mode == "one" else SET_OF[element], s.span, kind="choose")
        self.block(s.body, body)
        if s.otherwise is not None:
            self.block(s.otherwise, scope)

    def statement_Ask(self, s: ast.Ask, scope: _Scope) -> None:
        if s.chooser is not None:
            self.expect(s.chooser, scope, COMMUNITY, "the Community that answers")
        self.block(s.yes, scope)
        if s.no is not None:
            self.block(s.no, scope)

    def statement_If(self, s: ast.If, scope: _Scope) -> None:
        guarded = _tests_against_zero(s.condition)  # then an all-zero count is ruled out, in it and below it
        self.counted_zero += guarded
        self.expect(s.condition, scope, BOOL, "the condition of 'if'")
        verdict = _constant_truth(s.condition)
        if verdict is not None:
            self.sink.warning(s.condition.span, "this condition can never hold" if not verdict else "this condition always holds",
                              "W006", hint="a count is never below 0" if isinstance(s.condition, ast.Compare) else None)
        self.block(s.then, scope)
        self.counted_zero -= guarded
        if s.otherwise is not None:
            self.block(s.otherwise, scope)

    def statement_Each(self, s: ast.Each, scope: _Scope) -> None:
        t = self.expr(s.source, scope)
        body = scope.child(loop=True)
        if t is not None:
            if not is_set(as_set(t)):
                self.sink.error(s.source.span, f"'each' walks Cards, Communities or Factions, not {_a(t)}", "C043")
            else:
                self.bind(body, s.name, ELEMENT_OF[as_set(t)], s.span)
        self.block(s.body, body)

    def statement_Repeat(self, s: ast.Repeat, scope: _Scope) -> None:
        if s.count < 1:
            self.sink.warning(s.span, "'repeat 0' does nothing", "W002")
        self.block(s.body, scope.child(loop=True))

    def statement_Move(self, s: ast.Move, scope: _Scope) -> None:
        self.expect_cards(s.cards, scope, "what 'move' moves")
        self.dest(s.dest, scope)

    def statement_Draw(self, s: ast.Draw, scope: _Scope) -> None:
        self.expect(s.count, scope, INT, "how many cards to draw")
        if s.whom is not None:
            self.one_community(s.whom, scope, "who draws", "draw", "draw N for c")

    def statement_Deal(self, s: ast.Deal, scope: _Scope) -> None:
        self.expect_cards(s.cards, scope, "what 'deal' hands out")
        t = self.expr(s.to, scope)
        if t is not None and as_set(t) != COMMUNITIES:
            self.sink.error(s.to.span, f"'deal' hands cards to Communities, not to {_a(t)}", "C044")
        for key in s.order:
            if key.attr == "faction":
                self.sink.error(key.span, "cards are ordered by value or survivors, not by Faction", "C045")

    def statement_Score(self, s: ast.Score, scope: _Scope) -> None:
        self.expect(s.amount, scope, INT, "the number of Survivors")
        if s.whom is not None:
            verb = "gain" if s.sign > 0 else "lose"
            self.one_community(s.whom, scope, "who gains or loses", verb, verb + " N for c")

    def statement_NextLeader(self, s: ast.NextLeader, scope: _Scope) -> None:
        self.only_in(s, "next leader", (WIN, PLAY, TRICK, AFTER, START, BIDDING))
        self.expect(s.who, scope, COMMUNITY, "the next leader")

    def statement_NextLead(self, s: ast.NextLead, scope: _Scope) -> None:
        self.only_in(s, "next lead", (WIN, PLAY, TRICK, AFTER))
        self.expect(s.faction, scope, FACTION, "the Faction to lead")

    def statement_NextSide(self, s: ast.NextSide, scope: _Scope) -> None:
        self.only_in(s, "next side", (WIN, PLAY, TRICK, AFTER, START, BIDDING))
        self.expect(s.side, scope, SIDE, "the side of the next trick")

    def statement_NobodyTakes(self, s: ast.NobodyTakes, scope: _Scope) -> None:
        self.only_in(s, "nobody takes trick", (PLAY,))
        if s.dest is not None and s.dest.kind not in ("discard", "reserve_top", "reserve_bottom"):
            self.sink.error(s.dest.span, "a trick nobody takes goes to the discard pile or the Reserve, not to a "
                            "Community's zone (a trick that goes to a Community is taken by it)", "C081",
                            hint="nobody takes trick to discard")

    def only_in(self, s: ast.Node, words: str, contexts: tuple[str, ...]) -> None:
        if self.context not in contexts:
            self.sink.error(s.span, f"'{words}' only makes sense in {_contexts_words(contexts)}", "C046")

    def dest(self, d: ast.Dest, scope: _Scope) -> None:
        if d.kind == "held":
            self.sink.error(d.span, "cards move to a 'hand' or a 'transfer' zone, not to 'held' (which is both)", "C047")
        if d.owner is not None:
            self.one_community(d.owner, scope, "whose zone", "move", None)

    def one_community(self, node: ast.Node, scope: _Scope, what: str, verb: str, each: str | None) -> None:
        """`expect(node, COMMUNITY)`, with C082 where a group of Communities stands where one Community's zone or
        turn is meant (a card lies in one zone; who draws or scores in which order is written with `each`)."""
        t = self.expr(node, scope)
        if t is None or t == COMMUNITY:
            return
        if t != COMMUNITIES:
            self.sink.error(node.span, f"{what} must be {_a(COMMUNITY)}, but this is {_a(t)}", "C010")
        elif each is None:
            self.sink.error(node.span, "cards move into one Community's zone, not a group's: a card lies in one "
                            "zone at a time", "C082",
                            hint="each c in others { move ... to hand of c } moves cards to each of them; "
                                 "deal CARDS to others hands them out one at a time")
        else:
            self.sink.error(node.span, f"'{verb} ... for' names one Community, not a group: say in which order "
                            "each of them does it", "C082", hint=f"each c in others {{ {each} }}")

    # ------------------------------------------------------------- expressions
    def expect(self, node: ast.Node, scope: _Scope, wanted: str, what: str) -> str | None:
        t = self.expr(node, scope)
        if t is not None and t != wanted:
            self.sink.error(node.span, f"{what} must be {_a(wanted)}, but this is {_a(t)}", "C010")
            return None
        return t

    def expect_cards(self, node: ast.Node, scope: _Scope, what: str) -> None:
        t = self.expr(node, scope)
        if t is not None and as_set(t) != CARDS:
            self.sink.error(node.span, f"{what} must be Cards, but this is {_a(t)}", "C010")

    def expr(self, node: ast.Node, scope: _Scope) -> str | None:
        """The type of an expression (None after an error), recorded for the compiler."""
        t = self.handler("expr", node)(node, scope)
        if t is not None:
            self.types[id(node)] = t
        return t

    def expr_IntLit(self, n: ast.IntLit, scope: _Scope) -> str:
        return INT

    def expr_FactionLit(self, n: ast.FactionLit, scope: _Scope) -> str:
        if self.known is not None and n.name not in self.known:
            self.sink.error(n.span, f"unknown Faction '{n.name}'", "C001", hint=_did_you_mean(n.name, self.known))
        return FACTION

    def expr_NameRef(self, n: ast.NameRef, scope: _Scope) -> str | None:
        if n.name in scope.names:
            if n.name in scope.declarations:
                scope.declarations[n.name].used = True
            return scope.names[n.name]
        if n.name in self.state:
            return read_type(self.state[n.name])
        if n.name in BUILTINS:
            t, contexts = BUILTINS[n.name]
            if self.context not in contexts:
                self.sink.error(n.span, f"'{n.name}' is not known in {_context_words(self.context)}; it is known in "
                                + _contexts_words(contexts), "C003")
                return t
            if n.name == "this" and self.binding != "card":
                self.sink.error(n.span, "'this' is the card of a card's power ('for card')", "C003")
            return t
        if n.name == "it":
            self.sink.error(n.span, "'it' is only known inside a 'where' condition, a 'with most' count or a 'for' in min/max/sum", "C004")
            return None
        self.sink.error(n.span, f"unknown name '{n.name}'", "C002",
                        hint=_name_hint(n.name, list(scope.names) + list(BUILTINS) + list(self.state), self.known))
        return None

    def expr_StateOf(self, n: ast.StateOf, scope: _Scope) -> str | None:
        if n.name in TEAM_WORDS:  # `partner of C`, `team of C` (a built-in name: never a counter's)
            self.expect(n.owner, scope, COMMUNITY, f"whose {n.name}")
            return TEAM_WORDS[n.name]
        decl = self.state_declaration(n, n.name, n.owner, scope)
        if decl is None:
            return None
        return read_type(decl)

    def expr_BareAttr(self, n: ast.BareAttr, scope: _Scope) -> str:
        if scope.names.get("it") != CARD:
            self.sink.error(n.span, f"'{n.attr}' alone means the {n.attr} of the card a 'where' condition is about; here there is none",
                            "C005", hint=f"write '{n.attr} of <card>'")
        return ATTR_TYPES[n.attr]

    def expr_AttrOf(self, n: ast.AttrOf, scope: _Scope) -> str:
        self.expect(n.target, scope, CARD, f"what '{n.attr} of' reads")
        return ATTR_TYPES[n.attr]

    def expr_ZoneRef(self, n: ast.ZoneRef, scope: _Scope) -> str:
        if n.owner is not None:  # one Community's zone, or a group's: the zones of each, one after the other
            t = self.expr(n.owner, scope)
            if t is not None and as_set(t) != COMMUNITIES:
                self.sink.error(n.owner.span, f"whose {n.zone} must be a Community or a group of Communities, but "
                                f"this is {_a(t)}", "C010")
        return CARDS

    def expr_Neighbour(self, n: ast.Neighbour, scope: _Scope) -> str:
        if n.of is not None:
            self.expect(n.of, scope, COMMUNITY, f"whose {n.side} neighbour")
        return COMMUNITY

    def expr_Comprehension(self, n: ast.Comprehension, scope: _Scope) -> str:
        t = self.expr(n.source, scope)
        inner = scope.child()
        if n.var in BUILTINS or n.var in FUNCTIONS or n.var == "it" or n.var in scope.names or n.var in self.state:
            self.sink.error(n.span, f"the name '{n.var}' is already in use here; choose another name for "
                            "the variable of this 'for'", "C031")
            return INT
        if t is not None:
            if not is_set(as_set(t)):
                self.sink.error(n.source.span, f"'{n.function}(... for ...)' walks Cards, Communities or Factions, not {_a(t)}", "C043")
            else:
                inner.names[n.var] = ELEMENT_OF[as_set(t)]
        self.expect(n.body, inner, INT, f"what '{n.function}' adds up or compares")
        return INT

    def expr_ListLit(self, n: ast.ListLit, scope: _Scope) -> str | None:
        types = [self.expr(i, scope) for i in n.items]
        known = {t for t in types if t is not None}
        if len(known) > 1:
            self.sink.error(n.span, "a list holds one kind of thing: " + ", ".join(sorted(known)), "C011")
            return None
        t = known.pop() if known else FACTION
        if t not in SET_OF:
            self.sink.error(n.span, f"a list holds Cards, Communities or Factions, not {_a(t)}", "C011")
            return None
        return SET_OF[t]

    def expr_Arith(self, n: ast.Arith, scope: _Scope) -> str | None:
        left, right = self.expr(n.left, scope), self.expr(n.right, scope)
        if left is None or right is None:
            return None
        if n.op == "+" and as_set(left) == as_set(right) and as_set(left) is not None:
            return as_set(left)
        if left != INT or right != INT:
            self.sink.error(n.span, f"'{n.op}' needs two Numbers (or, for '+', two groups of the same kind), but got {_a(left)} and {_a(right)}", "C012")
            return None
        return INT

    def expr_Neg(self, n: ast.Neg, scope: _Scope) -> str:
        self.expect(n.operand, scope, INT, "what '-' negates")
        return INT

    def expr_Logic(self, n: ast.Logic, scope: _Scope) -> str:
        self.expect(n.left, scope, BOOL, f"each side of '{n.op}'")
        self.expect(n.right, scope, BOOL, f"each side of '{n.op}'")
        return BOOL

    def expr_Not(self, n: ast.Not, scope: _Scope) -> str:
        self.expect(n.operand, scope, BOOL, "what 'not' negates")
        return BOOL

    def expr_Where(self, n: ast.Where, scope: _Scope) -> str | None:
        t = self.expr(n.source, scope)
        inner = scope.child()
        result = None
        if t is not None:
            if not is_set(as_set(t)):
                self.sink.error(n.source.span, f"'where' filters Cards, Communities or Factions, not {_a(t)}", "C013")
            else:
                result = as_set(t)
                inner.names["it"] = ELEMENT_OF[result]
        self.expect(n.condition, inner, BOOL, "the condition of 'where'")
        return result

    def expr_Except(self, n: ast.Except, scope: _Scope) -> str | None:
        t = self.expr(n.source, scope)
        r = self.expr(n.removed, scope)
        if t is None or r is None:
            return as_set(t) if t else None
        if as_set(t) is None or as_set(t) != as_set(r):
            self.sink.error(n.span, f"'except' takes {_a(r)} out of {_a(t)}: they must be of one kind", "C014")
            return None
        return as_set(t)

    def expr_Otherwise(self, n: ast.Otherwise, scope: _Scope) -> str | None:
        a, b = self.expr(n.first, scope), self.expr(n.fallback, scope)
        if a is None or b is None:
            return as_set(a or b) if (a or b) else None
        if as_set(a) is None or as_set(a) != as_set(b):
            self.sink.error(n.span, f"'otherwise' needs two groups of one kind, but got {_a(a)} and {_a(b)}", "C014")
            return None
        return as_set(a)

    def expr_WithExtreme(self, n: ast.WithExtreme, scope: _Scope) -> str | None:
        t = self.expr(n.source, scope)
        inner = scope.child()
        result = None
        if t is not None:
            if not is_set(as_set(t)):
                self.sink.error(n.source.span, f"'with {n.extreme}' picks from Cards, Communities or Factions, not {_a(t)}", "C013")
            else:
                result = as_set(t)
                inner.names["it"] = ELEMENT_OF[result]
        self.expect(n.key, inner, INT, f"what 'with {n.extreme}' counts")
        # `with fewest` keeps everyone at 0, which is what "fewest" means; `with most` of nothing is the trap.
        if n.extreme == "most" and not self.counted_zero and _count_like(n.key, self.state):
            self.sink.warning(n.span, "when every count is 0, 'with most' keeps them all", "W011",
                              hint="test the count first ('if ... > 0 and ...'), filter with 'where', or write "
                                   "'with strictly most'")
        return result

    # Calls and comparisons have checks long enough for methods of their own. (Going through them
    # also keeps the frames per level of nesting, and so where deep code meets the recursion limit
    # (S013), as they were.)
    def expr_Call(self, n: ast.Call, scope: _Scope) -> str | None:
        return self.call(n, scope)

    def expr_Compare(self, n: ast.Compare, scope: _Scope) -> str:
        return self.compare(n, scope)

    def compare(self, n: ast.Compare, scope: _Scope) -> str:
        left, right = self.expr(n.left, scope), self.expr(n.right, scope)
        if left is None or right is None:
            return BOOL
        if n.op in ("in", "not in"):
            if as_set(right) is None or ELEMENT_OF.get(as_set(right)) != left:
                self.sink.error(n.span, f"'{n.op}' asks whether a thing is in a group of its kind, but got {_a(left)} and {_a(right)}", "C015")
        elif n.op in ("==", "!="):
            if left != right:
                self.sink.error(n.span, f"cannot compare {_a(left)} with {_a(right)}", "C015")
        elif left != INT or right != INT:
            self.sink.error(n.span, f"'{n.op}' compares Numbers, but got {_a(left)} and {_a(right)}", "C015")
        return BOOL

    def call(self, n: ast.Call, scope: _Scope) -> str | None:
        name, args = n.function, n.args
        if name not in FUNCTIONS:
            self.sink.error(n.span, f"unknown function '{name}'", "C006", hint=_did_you_mean(name, FUNCTIONS))
            for a in args:
                self.expr(a, scope)
            return None

        def arity(low: int, high: int) -> bool:
            if not low <= len(args) <= high:
                want = str(low) if low == high else f"{low} to {high}"
                self.sink.error(n.span, f"'{name}' takes {want} argument{'s' if high > 1 else ''}, not {len(args)}", "C007")
                for a in args:
                    self.expr(a, scope)
                return False
            return True

        if name == "count":
            if arity(1, 1):
                t = self.expr(args[0], scope)
                if t is not None and as_set(t) is None:
                    self.sink.error(args[0].span, f"'count' counts Cards, Communities or Factions, not {_a(t)}", "C010")
            return INT
        if name in ("min", "max", "sum"):
            if arity(1, 20):
                for a in args:
                    self.expect(a, scope, INT, f"each argument of '{name}'")
            return INT
        if name == "population":
            if arity(1, 1):
                self.expect(args[0], scope, COMMUNITY, "whose population")
            return INT
        if name == "tricks":
            if arity(1, 1):
                t = self.expr(args[0], scope)
                if t is not None and t not in (COMMUNITY, COMMUNITIES):
                    self.sink.error(args[0].span, f"whose tricks must be a Community or Communities (such as "
                                    f"'team of self'), but this is {_a(t)}", "C010")
            return INT
        if name == "bid_of":
            if arity(1, 1):
                self.expect(args[0], scope, COMMUNITY, "whose bid")
            return INT
        if name in ("player", "position"):
            if self.context not in IN_A_TRICK:
                self.sink.error(n.span, f"'{name}' reads the trick, and {_context_words(self.context)} has none; it "
                                f"is known in {_contexts_words(IN_A_TRICK)}", "C003")
            if arity(1, 1):
                self.expect(args[0], scope, CARD, f"the card whose {name} is asked")
            return COMMUNITY if name == "player" else INT
        if name == "numbers":
            if arity(2, 2):
                for a in args:
                    self.expect(a, scope, INT, "each end of 'numbers'")
                if all(isinstance(a, ast.IntLit) for a in args) and not 0 < args[1].value - args[0].value + 1 <= MAX_NUMBERS:
                    self.sink.error(n.span, f"'numbers' offers 1 to {MAX_NUMBERS} numbers, from the first to the "
                                    "second", "C067")
            return NUMBERS
        # highest, lowest, first, last, random: (group[, how many]) -> group
        if not arity(1, 2):
            return None
        t = self.expr(args[0], scope)
        if len(args) == 2:
            self.expect(args[1], scope, INT, f"how many '{name}' takes")
        if t is None:
            return None
        group = as_set(t)
        if name in ("highest", "lowest", "random") and group != CARDS:
            self.sink.error(args[0].span, f"'{name}' picks Cards, not from {_a(t)}", "C010")
            return None
        if group is None:
            self.sink.error(args[0].span, f"'{name}' picks from Cards, Communities or Factions, not from {_a(t)}", "C010")
            return None
        return group


# The most elements `check` assumes of a group of each type (language.budget); a single element is 1.
_ESTIMATED_SIZE = {CARDS: budget.ESTIMATED_CARDS, COMMUNITIES: budget.ESTIMATED_COMMUNITIES,
                   FACTIONS: budget.ESTIMATED_FACTIONS, NUMBERS: MAX_NUMBERS, SIDES: 2}


def _never_negative(n: ast.Node) -> bool:
    return isinstance(n, ast.IntLit) or (isinstance(n, ast.Call) and n.function == "count")


def _constant_truth(n: ast.Node) -> bool | None:
    """True or False when a condition's outcome is known without playing; else None."""
    if isinstance(n, ast.NameRef) and n.name in ("true", "false"):
        return n.name == "true"
    if not isinstance(n, ast.Compare):
        return None
    left, right, op = n.left, n.right, n.op
    if isinstance(left, ast.IntLit) and isinstance(right, ast.IntLit):
        fn = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
        return fn[op](left.value, right.value) if op in fn else None
    if _never_negative(left) and isinstance(right, ast.IntLit) and right.value == 0 and not isinstance(left, ast.IntLit):
        return {"<": False, ">=": True}.get(op)
    return None


def _did_you_mean(name: str, candidates) -> str | None:
    best = suggest(name, candidates)
    return f"did you mean '{best}'?" if best else None


def _a(t: str) -> str:
    """A type with its article: "a Number", "a Community", "a group of Cards"."""
    return f"a group of {t}" if is_set(t) else f"a {t}"


def _name_hint(name: str, names, factions: set[str] | None) -> str | None:
    """The hint of an unknown lowercase name: a Faction written without its capital, or a near name."""
    by_lower = {f.lower().replace(" ", "_"): f for f in factions or ()}
    faction = by_lower.get(name.lower())
    if faction is None:
        near = _did_you_mean(name, names)
        if near:
            return near
        faction = by_lower.get(suggest(name.lower(), list(by_lower)) or "")
    if faction is None:
        return None
    written = f"'{faction}'" if " " not in faction else f'"{faction}"'
    return f"Faction names start with a capital letter: did you mean the Faction {written}?"


def hook_words(timing: str) -> str:
    """A hook as it is written: "on win", "after trick", "at end of round"."""
    return "on lead" if timing == "lead" else CONTEXT_OF_HOOK[timing]


def _context_words(context: str) -> str:
    return "a rule" if context == RULE else f"an '{context}' hook" if context[0] in "aeiou" else f"a '{context}' hook"


def _contexts_words(contexts: tuple[str, ...]) -> str:
    words = [_context_words(c) for c in contexts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _counts_up(s: ast.SetVar) -> bool:
    """`set x = x + ...` (or `- ...`): a variable used as a running count."""
    v = s.value
    return isinstance(v, ast.Arith) and v.op in "+-" and isinstance(v.left, ast.NameRef) and v.left.name == s.name


def _count_like(key: ast.Node, state: dict) -> bool:
    """A count that is never below 0 and often 0 for everyone: count(...), tricks(...), a counter."""
    if isinstance(key, ast.Call):
        return key.function in ("count", "tricks")
    if isinstance(key, ast.StateOf):
        return key.name in state and state[key.name].kind == "counter"
    return False


def _tests_against_zero(condition: ast.Node) -> bool:
    """The condition compares something with 0 (`n > 0`, `count(x) != 0`), so an all-zero count is ruled out."""
    return any(isinstance(n, ast.Compare) and isinstance(n.right, ast.IntLit) and n.right.value in (0, 1)
               and n.op in (">", ">=", "!=") for n in ast.walk(condition))


def check(power: ast.PowerFile, known_factions: set[str] | None = None, sink: DiagnosticSink | None = None) -> CheckedPower:
    """Check a parsed power; raise CheckProblem with every error unless a sink is given."""
    own_sink = sink is None
    sink = sink if sink is not None else DiagnosticSink()
    checker = Checker(known_factions, sink)
    try:
        with ast.room_to_recurse():
            checker.check_power(power)
            if not sink.errors:
                checker.check_budget(power)
    except RecursionError:
        sink.add(ast.too_deep(power.span.file))
    if own_sink and sink.errors:
        raise CheckProblem(sink.items)
    return CheckedPower(power, checker.types, [d for d in sink.items if d.severity == "warning"])
