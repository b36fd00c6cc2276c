"""Card text: a power, in the English a player reads on the printed Power card.

The text is generated from the parsed and checked syntax tree of a power file,
never from its comments: every sentence comes from a statement, a rule or an
expression, by generic rules. No Faction, power or box is known here; the
names in the text are the ones the file writes.

    card_text(power, variant=None) -> str   # one power (all variants, or one)
    gallery_markdown() -> str               # docs/powers.md: every bundled power

    python -m happydayz.language.cardtext > docs/powers.md
    python -m happydayz.language.cardtext --write-golden tests/golden/cardtext
    python -m happydayz.language.cardtext FILE.power [--variant basic|positive|negative]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from happydayz.language import ast
from happydayz.language.checker import BOOL, CARD, COMMUNITIES, COMMUNITY, ELEMENT_OF, FACTION, INT, SIDE, CheckedPower, as_set, check
from happydayz.language.english import (ATTRIBUTE_COMPARISON_WORDS, ATTRIBUTE_NOUNS, COMPARISON_WORDS,
                                        HOLDS_LIFETIME_WORDS, HOLDS_NOUNS, HOOK_TIMING_WORDS, LIFETIME_WORDS, NAMES,
                                        SIDE_WORDS, ZONE_FROM_WORDS,
                                        ZONE_WORDS, article, cap, join_words, plural, singular, survivors)
from happydayz.language.parser import parse_file
from happydayz.language.visitor import Visitor
from happydayz.base.resources import data_dir
from happydayz.base.files import write_atomic

GENERATE_COMMAND = "python -m happydayz.language.cardtext > docs/powers.md"
#: The built-in names of the hand's auction, read as their nouns (english.NAMES).
_AUCTION_NAMES = ("offered", "offered_faction", "passing", "bids_so_far", "auction_winner", "winning_bid",
                  "winning_faction", "dealer", "dummy", "auction_stage", "turned_up")
GOLDEN_COMMAND = "python -m happydayz.language.cardtext --write-golden tests/golden/cardtext"

BINDING_WORDS = {
    "faction": "Faction power",
    "card": "Card power (for the card that carries it)",
    "added": "Added power",
}
# Operators seen from the other side (`3 < x` is `x > 3`), and negated (`not x < 3` is `x >= 3`).
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_VOID_WORDS = "the Community that played it has no card of the Faction led"
# How a `let` that is said where it is made ("take note of ...") is named afterwards: by what it holds,
# never by the variable's name. Groups of Cards, Communities and Factions are "those Factions" (thing_ref).
# With several notes of one kind in a hook, they are told apart by their order: "the second number noted".
_NOTED = {(INT, False): "that number", (INT, True): "those numbers", (SIDE, False): "that side",
          (BOOL, False): "that was so"}
_NOTED_NOUNS = {(INT, False): "number", (INT, True): "numbers", (SIDE, False): "side", (BOOL, False): "answer"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_HOLDER_VOID_WORDS = "its holder has no card of the Faction led"
_NEGATE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">", "in": "not in", "not in": "in"}

# ------------------------------------------------------------- references


@dataclass(frozen=True)
class Who:
    """How to name a Community: as a subject, an object, an owner; and its verb form."""

    subj: str
    obj: str
    poss: str
    third: bool = True  # takes "has", "gains" (False: "you have", "they have")
    is_self: bool = False
    is_actor: bool = False
    relative: bool = False  # the "that" of a relative clause

    def owning(self, noun: str) -> str:
        """`noun` of this Community: "your hand", "its left neighbour", and after a clause "the Expedition zone
        of the Community that played it" (never "the Community that played it's Expedition zone")."""
        if " that " in self.poss or " who " in self.poss:
            return f"the {noun} of {self.obj}"
        return f"{self.poss} {noun}"


SELF = Who("you", "you", "your", third=False, is_self=True)
REL_ONE = Who("that", "it", "its", relative=True)
REL_MANY = Who("that", "them", "their", third=False, relative=True)


def conj(who: Who, base: str, third: str | None = None) -> str:
    if not who.third:
        return base
    return third if third is not None else base + "s"


@dataclass
class Var:
    name: str
    kind: str  # the element type: Card, Community, Faction; or Number, Yes/No
    many: bool = False  # a group of several (chosen several, or a group let)
    inline: ast.Node | None = None  # a let rendered where it is used
    label: str | None = None  # a let that is named in the text
    ordered: bool = False  # chosen one at a time: the order is the order chosen
    noted: tuple | None = None  # a let said where it is made ("take note of ..."): its (kind, many)


@dataclass
class Ctx:
    types: dict[int, str]
    vars: dict[str, Var] = field(default_factory=dict)
    recent: str | None = None  # the variable bound last: the one "it" may name
    actor: str | None = None  # a Community variable that is the subject of the sentences
    it: object = None  # inside a condition: a Who (Communities) or a (subject, object) pair
    pre: list[str] = field(default_factory=list)  # sentences to say before the current one

    def bind(self, var: Var, recent: bool = True, **changes) -> "Ctx":
        names = dict(self.vars)
        names[var.name] = var
        return replace(self, vars=names, recent=var.name if recent else self.recent, **changes)


# ------------------------------------------------------------ noun phrases


@dataclass
class NP:
    """A group (or one element) of Cards, Communities or Factions, ready to be named."""

    elem: str = CARD
    sg: str = "card"
    pl: str = "cards"
    a_head: str | None = None  # the singular with its determiner: "another Community"
    loc_in: str = ""  # " in your Expedition zone"
    loc_from: str = ""  # " from your hand or Transfer zone"
    posts: tuple[tuple[str, str], ...] = ()  # post-modifiers (singular, plural)
    tail: str = ""  # ", yourself included"
    the_all: str | None = None  # the whole group when unfiltered: "the other Communities"
    whole: str | None = None  # a fixed group named as a whole: "the Encounter card"
    ref: tuple[str, str] | None = None  # a variable: (as subject, as object)
    indef: str | None = None  # a card picked at random: "a card at random from …"
    one: bool = False  # a single element
    owner: Who | None = None  # whose zone the group lies in
    order: str = ""  # the order of 'each': ", starting with you"
    size: int | None = None  # a group of a known number of elements: "the top 2 cards of …"

    def post(self, many: bool) -> str:
        return "".join(" " + (p[1] if many else p[0]) for p in self.posts)

    def opened(self) -> "NP":
        """The group as a place to filter from: a whole becomes a location."""
        if self.whole is None and self.ref is None and self.indef is None:
            return self
        where = self.definite()
        sg, pl = ("card", "cards") if self.elem == CARD else (self.sg, self.pl)
        return NP(self.elem, sg, pl, loc_in=f" among {where}", loc_from=f" from {where}")

    def definite(self) -> str:
        if self.ref:
            return self.ref[1]
        if self.indef:
            return self.indef
        if self.whole:
            return self.whole
        if self.the_all and not self.posts:
            return self.the_all
        return f"the {self.pl}{self.loc_in}{self.post(True)}{self.tail}"

    def subject(self) -> str:
        if self.ref:
            return self.ref[0]
        return self.definite()

    def is_many(self) -> bool:
        return not self.one

    def a_one(self) -> str:
        if self.ref:
            return self.ref[1] if self.one else f"one of {self.ref[1]}"
        if self.indef:
            return self.indef
        if self.whole:
            return f"{article(self.sg)} {self.sg} from {self.whole}"
        head = self.a_head or f"{article(self.sg)} {self.sg}"
        return f"{head}{self.loc_from}{self.post(False)}{self.tail}"

    def some(self, n: int, up_to: bool) -> str:
        if n == 1 and not up_to:
            return self.a_one()
        if self.ref:
            return self.ref[1] if self.one else f"{'up to ' if up_to else ''}{n} of {self.ref[1]}"
        lead = "up to " if up_to else ""
        noun = self.sg if n == 1 else self.pl
        if self.whole:
            return f"{lead}{n} {noun} from {self.whole}"
        return f"{lead}{n} {noun}{self.loc_from}{self.post(n != 1)}{self.tail}"

    def phrase(self) -> str:
        """The plural without an article: "cards in your hand"."""
        if self.whole or self.ref or self.indef:
            return f"cards among {self.definite()}" if self.elem == CARD else self.definite()
        return f"{self.pl}{self.loc_in}{self.post(True)}"

    def per(self) -> str:
        """The singular after "each": "card in your hand"."""
        if self.whole or self.ref or self.indef:
            return f"card among {self.definite()}" if self.elem == CARD else f"one of {self.definite()}"
        return f"{self.sg}{self.loc_in}{self.post(False)}"

    def count(self) -> str:
        return f"the number of {self.phrase()}"


@dataclass
class EitherNP(NP):
    """`A otherwise B`: A, or B when A is empty."""

    first: NP | None = None
    fallback: NP | None = None

    def definite(self) -> str:
        return f"{self.first.definite()} (or, if there are none, {self.fallback.definite()})"

    def a_one(self) -> str:
        if self.fallback.loc_from and self.fallback.loc_from == self.first.loc_from and not self.fallback.posts:
            return f"{self.first.a_one()} (or, if there is none, any {self.fallback.sg})"
        return f"{self.first.a_one()} (or, if there is none, {self.fallback.a_one()})"

    def some(self, n: int, up_to: bool) -> str:
        return f"{self.first.some(n, up_to)} (or, if there are none, {self.fallback.some(n, up_to)})"

    def phrase(self) -> str:
        return f"{self.first.phrase()} (or, if there are none, {self.fallback.phrase()})"

    def per(self) -> str:
        return self.first.per()


# ----------------------------------------------------------------- renderer


Line = tuple[int, str]  # (depth, text): text is a clause, made a sentence at the end


def indent(lines: list[Line]) -> list[Line]:
    return [(d + 1, t) for d, t in lines]


class Renderer(Visitor):
    """The card text of one checked power.

    Four walks: `group` names Cards, Communities or Factions (an NP), `num` says
    a number, `cond` a condition, `statement` what a statement does. Where a
    walk has no words of its own for an expression it borrows another's: a
    number becomes a group of one, a group where a number goes is named in
    full. `who` and `faction` are not walks: a few shapes have words of their
    own there, and anything else is named as a group.
    """

    def __init__(self, checked: CheckedPower):
        self.power = checked.power
        self.types = checked.types
        self.state = {d.name: d for d in self.power.state}  # the power's counters and marks, by name
        self.timing: str | None = None  # the hook being rendered (None: a rule)
        self.void_words = _VOID_WORDS  # what `void` says: of who played the card, or (of a card not played) who holds it

    # ------------------------------------------------------------- helpers
    def type_of(self, node: ast.Node) -> str | None:
        return self.types.get(id(node))

    def element_of(self, node: ast.Node) -> str:
        t = as_set(self.type_of(node))
        return ELEMENT_OF.get(t, CARD) if t else CARD

    def var(self, node: ast.Node, ctx: Ctx) -> Var | None:
        if isinstance(node, ast.NameRef):
            return ctx.vars.get(node.name)
        return None

    # ------------------------------------------------------- Communities
    def who(self, node: ast.Node | None, ctx: Ctx) -> Who:
        if node is None:
            return SELF
        if isinstance(node, ast.NameRef):
            if node.name == "self":
                return SELF
            if node.name == "it" and isinstance(ctx.it, Who):
                return ctx.it
            if node.name == "leader":
                return Who("the Community that led the trick", "the Community that led the trick", "the leading Community's")
            if node.name == "partner" and node.name not in ctx.vars:
                return Who("your partner", "your partner", "your partner's")
            if node.name == "team" and node.name not in ctx.vars:
                return Who("your team", "your team", "your team's")
            if node.name == "winner" and node.name not in ctx.vars:
                if self.timing == "win":  # "when you win a trick ...": the winner is you
                    return SELF
                return Who(NAMES["winner"], NAMES["winner"], "the winning Community's")
            v = ctx.vars.get(node.name)
            if v is not None:
                if v.inline is not None:
                    return self.who(v.inline, ctx)
                if v.label is not None:
                    return Who(v.label, v.label, f"{v.label}'s")
                if node.name == ctx.actor:
                    return Who("it", "it", "its", is_actor=True)
                if node.name == ctx.recent and ctx.actor is None:
                    return Who("that Community", "it", "its")
                return Who("that Community", "that Community", "that Community's")
        if isinstance(node, ast.StateOf) and node.name in ("partner", "team"):  # the hand's teams
            text = self.who(node.owner, ctx).owning(node.name)
            return Who(text, text, f"{text}'s")
        if isinstance(node, ast.Neighbour):
            base = self.who(node.of, ctx)
            text = base.owning(f"{node.side} neighbour")
            return Who(text, text, f"{text}'s")
        if isinstance(node, ast.Call) and node.function == "player" and len(node.args) == 1:
            card = node.args[0]
            if self.timing in ("play", "lead", "trick") and isinstance(card, ast.NameRef) and card.name == "played" \
                    and "played" not in ctx.vars:
                return SELF  # these hooks act for the Community that played the card
            text = f"the Community that played {self.group(card, ctx).definite()}"
            return Who(text, text, f"{text}'s")
        text = self.group(node, ctx).definite()
        return Who(text, text, f"{text}'s")

    def faction(self, node: ast.Node, ctx: Ctx) -> str:
        if isinstance(node, ast.FactionLit):
            return node.name
        if isinstance(node, ast.NameRef):
            if node.name == "led":
                return NAMES["led"]
            v = ctx.vars.get(node.name)
            if v is not None:
                if v.inline is not None:
                    return self.faction(v.inline, ctx)
                return v.label or "that Faction"
        if isinstance(node, ast.AttrOf) and node.attr == "faction":
            return f"the Faction of {self.group(node.target, ctx).definite()}"
        return self.group(node, ctx).definite()

    # -------------------------------------------------------------- groups
    def group(self, n: ast.Node, ctx: Ctx) -> NP:
        return self.handler("group", n)(n, ctx)

    def group_ZoneRef(self, n: ast.ZoneRef, ctx: Ctx) -> NP:
        if n.owner is not None and self.type_of(n.owner) == COMMUNITIES:  # the zones of a group of Communities
            whose = self.group(n.owner, ctx).definite()
            zones = {"hand": "hands", "transfer": "Transfer zones", "held": "hands and Transfer zones",
                     "expedition": "Expedition zones"}[n.zone]
            return NP(CARD, loc_in=f" in the {zones} of {whose}", loc_from=f" from the {zones} of {whose}")
        owner = self.who(n.owner, ctx)
        return NP(CARD, loc_in=f" in {owner.owning(ZONE_WORDS[n.zone])}",
                  loc_from=f" from {owner.owning(ZONE_FROM_WORDS[n.zone])}", owner=owner)

    def group_Where(self, n: ast.Where, ctx: Ctx) -> NP:
        return self.filtered(self.group(n.source, ctx).opened(), n.condition, ctx, self.element_of(n.source))

    def group_Except(self, n: ast.Except, ctx: Ctx) -> NP:
        base = self.group(n.source, ctx).opened()
        if self.element_of(n.source) == FACTION or isinstance(n.removed, (ast.FactionLit, ast.ListLit)):
            removed = self.faction_list(n.removed, ctx)
        else:
            removed = self.group(n.removed, ctx).definite()
        return replace(base, posts=base.posts + ((f"other than {removed}",) * 2,), the_all=None)

    def group_Otherwise(self, n: ast.Otherwise, ctx: Ctx) -> NP:
        first, fallback = self.group(n.first, ctx), self.group(n.fallback, ctx)
        return EitherNP(first.elem, first.sg, first.pl, first=first, fallback=fallback)

    def group_Arith(self, n: ast.Arith, ctx: Ctx) -> NP:
        if n.op != "+":
            return self.group_of_one(n, ctx)
        left, right = self.group(n.left, ctx), self.group(n.right, ctx)
        return NP(left.elem, left.sg, left.pl, whole=f"{left.definite()} and {right.definite()}")

    def group_ListLit(self, n: ast.ListLit, ctx: Ctx) -> NP:
        elem = self.element_of(n)
        if elem == FACTION:
            return NP(FACTION, "Faction", "Factions", whole=self.faction_list(n, ctx), one=len(n.items) == 1)
        parts = [self.group(i, ctx).definite() for i in n.items]
        return NP(elem, whole=join_words(parts) or "nothing", one=len(n.items) == 1)

    def group_Neighbour(self, n: ast.Neighbour, ctx: Ctx) -> NP:
        w = self.who(n, ctx)
        return NP(COMMUNITY, "Community", "Communities", ref=(w.subj, w.obj), one=True)

    def group_FactionLit(self, n: ast.FactionLit, ctx: Ctx) -> NP:
        return NP(FACTION, "Faction", "Factions", ref=(n.name, n.name), one=True)

    def group_AttrOf(self, n: ast.AttrOf, ctx: Ctx) -> NP:
        if n.attr != "faction":
            return self.group_of_one(n, ctx)
        f = self.faction(n, ctx)
        return NP(FACTION, "Faction", "Factions", ref=(f, f), one=True)

    def group_of_one(self, n: ast.Node, ctx: Ctx) -> NP:
        """One thing named by its number words: a number, a card's value."""
        text = self.num(n, ctx)
        return NP(self.element_of(n), ref=(text, text), one=True)

    group_IntLit = group_BareAttr = group_Comprehension = group_Neg = group_of_one

    def group_StateOf(self, n: ast.StateOf, ctx: Ctx) -> NP:
        if n.name == "team":  # `team of C`: the Communities of C's team, C included
            owner = self.who(n.owner, ctx)
            text = owner.owning("team")
            return NP(COMMUNITY, f"Community of {text}", f"Communities of {text}", the_all=f"the Communities of {text}")
        if n.name == "partner":
            w = self.who(n, ctx)
            return NP(COMMUNITY, "Community", "Communities", ref=(w.subj, w.obj), one=True)
        return self.group_of_one(n, ctx)

    def faction_list(self, n: ast.Node, ctx: Ctx) -> str:
        if isinstance(n, ast.ListLit):
            return join_words([self.faction(i, ctx) for i in n.items]) or "no Faction"
        return self.faction(n, ctx)

    def group_NameRef(self, n: ast.NameRef, ctx: Ctx) -> NP:
        name = n.name
        v = ctx.vars.get(name)
        if v is not None:
            if v.inline is not None:
                return self.group(v.inline, ctx)
            if v.kind == COMMUNITY and not v.many:
                w = self.who(n, ctx)
                return NP(COMMUNITY, "Community", "Communities", ref=(w.subj, w.obj), one=True)
            if v.kind == FACTION and not v.many:
                f = self.faction(n, ctx)
                return NP(FACTION, "Faction", "Factions", ref=(f, f), one=True)
            return NP(v.kind, ref=self.thing_ref(v, ctx), one=not v.many)
        if name == "it":
            if isinstance(ctx.it, Who):
                return NP(COMMUNITY, "Community", "Communities", ref=(ctx.it.subj, ctx.it.obj), one=True)
            ref = ctx.it if isinstance(ctx.it, tuple) else ("it", "it")
            return NP(CARD, ref=ref, one=True)
        if name == "others":
            return NP(COMMUNITY, "other Community", "other Communities", a_head="another Community",
                      the_all=NAMES["others"], order=", starting with your left neighbour")
        if name == "everyone":
            return NP(COMMUNITY, "Community", "Communities", a_head="any Community", tail=", yourself included",
                      the_all=NAMES["everyone"], order=", starting with you")
        if name == "factions":
            return NP(FACTION, "Faction in play", "Factions in play", the_all=NAMES["factions"])
        if name == "team":
            return NP(COMMUNITY, "Community of your team", "Communities of your team", tail=", yourself included",
                      the_all=NAMES["team"], order=", starting with you")
        if name == "partner":
            return NP(COMMUNITY, "Community", "Communities", ref=(NAMES["partner"], NAMES["partner"]), one=True)
        if name == "reserve":
            return NP(CARD, loc_in=" in the Reserve", loc_from=" from the Reserve", the_all=NAMES["reserve"])
        if name == "trick":
            return NP(CARD, loc_in=" of this trick", loc_from=" from this trick")
        if name == "encounter":
            return NP(CARD, "Encounter card", "Encounter cards", whole=NAMES["encounter"], one=True)
        if name == "this":
            return NP(CARD, whole=NAMES["this"], one=True)
        if name == "played":
            return NP(CARD, whole=NAMES["played"], one=True)
        if name in ("self", "leader", "winner"):
            w = self.who(n, ctx)
            return NP(COMMUNITY, "Community", "Communities", ref=(w.subj, w.obj), one=True)
        if name == "winning":
            return NP(CARD, whole=NAMES["winning"], one=True)
        if name == "before":
            return NP(CARD, loc_in=" played earlier in this trick", loc_from=" played earlier in this trick",
                      the_all=NAMES["before"])
        if name == "sides":
            return NP(SIDE, "side", "sides", a_head="a side", loc_from=" (+ or −)", the_all="both sides")
        if name == "led":
            return NP(FACTION, "Faction", "Factions", ref=(NAMES["led"], NAMES["led"]), one=True)
        if name == "entered":
            return NP(CARD, whole=NAMES["entered"], one=True)
        if name == "mover":
            return NP(FACTION, "Faction", "Factions", ref=(NAMES["mover"], NAMES["mover"]), the_all=NAMES["mover"])
        return self.group_of_one(n, ctx)

    def thing_ref(self, v: Var, ctx: Ctx) -> tuple[str, str]:
        """A chosen card, a chosen group of cards or Communities, a picked card."""
        if v.label is not None:
            return (v.label, v.label)
        noun = {CARD: "card", COMMUNITY: "Community", FACTION: "Faction"}.get(v.kind, "thing")
        nouns = {CARD: "cards", COMMUNITY: "Communities", FACTION: "Factions"}.get(v.kind, "things")
        if v.name == ctx.recent and ctx.actor is None and v.kind == CARD:
            return ("they", "them") if v.many else ("it", "it")
        return (f"those {nouns}", f"those {nouns}") if v.many else (f"that {noun}", f"that {noun}")

    def filtered(self, base: NP, cond: ast.Compare, ctx: Ctx, elem: str) -> NP:
        base = replace(base, the_all=None)
        left, right, op = cond.left, cond.right, cond.op
        if isinstance(right, ast.BareAttr) and not isinstance(left, ast.BareAttr):
            left, right, op = right, left, _FLIP.get(op, op)
        if elem == CARD and isinstance(left, ast.BareAttr):
            if left.attr == "faction" and op in ("==", "!="):
                if isinstance(right, ast.FactionLit):
                    name = right.name
                    if op == "==" and base.sg == "card":
                        return replace(base, sg=singular(name), pl=plural(name))
                    if op == "==":
                        return replace(base, posts=base.posts + ((f"that is {article(name)} {singular(name)}", f"that are {plural(name)}"),))
                    return replace(base, posts=base.posts + ((f"that is not {article(name)} {singular(name)}", f"that are not {plural(name)}"),))
                f = self.faction(right, ctx)
                if op == "==":
                    return replace(base, sg=f"{base.sg} of {f}", pl=f"{base.pl} of {f}")
                return replace(base, sg=f"{base.sg} not of {f}", pl=f"{base.pl} not of {f}")
            if left.attr in ("value", "survivors"):
                words = f"with {'a value' if left.attr == 'value' else 'a Survivors number'} {ATTRIBUTE_COMPARISON_WORDS[op]} {self.num(right, ctx)}"
                return replace(base, posts=base.posts + ((words, words),))
        if elem == COMMUNITY:
            one = self.cond(cond, replace(ctx, it=REL_ONE))
            many = self.cond(cond, replace(ctx, it=REL_MANY))
            if not one.startswith("that "):
                one = many = f"for which {self.cond(cond, replace(ctx, it=Who('it', 'it', 'its')))}"
            return replace(base, posts=base.posts + ((one, many),))
        words = f"for which {self.cond(cond, replace(ctx, it=('it', 'it')))}"
        if base.posts and base.posts[-1][0].startswith("for which "):  # `where A where B`: "for which A and B"
            words = "and " + words[len("for which "):]
        return replace(base, posts=base.posts + ((words, words),))

    def group_WithExtreme(self, n: ast.WithExtreme, ctx: Ctx) -> NP:
        base = replace(self.group(n.source, ctx).opened(), the_all=None)
        strictly = n.extreme.startswith("strictly")
        most = n.extreme.endswith("most")
        if self.element_of(n.source) == COMMUNITY:
            key_one = self.key_phrase(n.key, replace(ctx, it=REL_ONE))
            key_many = self.key_phrase(n.key, replace(ctx, it=REL_MANY))
            word = "most" if most else "fewest"
            one = f"with the {word} {key_one}"
            many = f"with the {word} {key_many}"
            if strictly:
                return replace(base, posts=base.posts + ((one + " (nobody if several are tied)",) * 2,), one=True)
            return replace(base, posts=base.posts + ((one, many + " (all of them if tied)"),))
        if isinstance(n.key, ast.BareAttr):
            key = ATTRIBUTE_NOUNS[n.key.attr]
            word = "highest" if most else "lowest"
        else:
            key = self.num(n.key, replace(ctx, it=("it", "it")))
            word = "greatest" if most else "smallest"
        words = f"of {word} {key}" + (" (none if several are tied)" if strictly else "")
        return replace(base, posts=base.posts + ((words, words),), one=strictly)

    def key_phrase(self, key: ast.Node, ctx: Ctx) -> str:
        if isinstance(key, ast.Call) and key.function == "count" and len(key.args) == 1:
            return self.group(key.args[0], ctx).phrase()
        if isinstance(key, ast.StateOf) and isinstance(key.owner, ast.NameRef) and key.owner.name == "it" \
                and key.name in self.state:
            return key.name.replace("_", " ")  # "with the most points"
        return self.num(key, ctx)

    def group_Call(self, n: ast.Call, ctx: Ctx) -> NP:
        fn = n.function
        if fn == "player" and len(n.args) == 1:
            w = self.who(n, ctx)
            return NP(COMMUNITY, "Community", "Communities", ref=(w.subj, w.obj), one=True)
        if fn == "numbers" and len(n.args) == 2:
            span = f" from {self.num(n.args[0], ctx)} to {self.num(n.args[1], ctx)}"
            return NP(INT, "number", "numbers", a_head="a number", loc_in=span, loc_from=span)
        if not n.args:
            return self.group_of_one(n, ctx)
        src = self.group(n.args[0], ctx)
        literal = n.args[1].value if len(n.args) > 1 and isinstance(n.args[1], ast.IntLit) else (1 if len(n.args) == 1 else None)
        count = str(literal) if literal is not None else self.num(n.args[1], ctx)
        single = literal == 1
        if fn == "random":
            what = src.opened()
            noun = what.sg if single else what.pl
            pick = f"{article(noun)} {noun}" if single else f"{count} {noun}"
            return NP(src.elem, src.sg, src.pl, indef=f"{pick} at random{what.loc_from}{what.post(not single)}", one=single)
        if fn in ("highest", "lowest"):
            what = src.opened()
            noun = what.sg if single else f"{count} {what.pl}"
            return NP(src.elem, src.sg, src.pl, whole=f"the {noun} of {fn} value{what.loc_in}{what.post(not single)}", one=single)
        if fn in ("first", "last"):
            if isinstance(n.args[0], ast.NameRef) and n.args[0].name == "reserve":
                end = "top" if fn == "first" else "bottom"
                return NP(CARD, whole=f"the {end} card of the Reserve" if single else f"the {end} {count} cards of the Reserve",
                          one=single, size=literal)
            what = src.opened()
            noun = what.sg if single else f"{count} {what.pl}"
            return NP(src.elem, src.sg, src.pl, whole=f"the {fn} {noun}{what.loc_in}{what.post(not single)}", one=single)
        text = self.num(n, ctx)
        return NP(src.elem, ref=(text, text))

    # ------------------------------------------------------------- numbers
    def num(self, n: ast.Node, ctx: Ctx) -> str:
        return self.handler("num", n)(n, ctx)

    def num_IntLit(self, n: ast.IntLit, ctx: Ctx) -> str:
        return str(n.value)

    def num_NameRef(self, n: ast.NameRef, ctx: Ctx) -> str:
        v = ctx.vars.get(n.name)
        if v is not None:
            if v.inline is not None:
                return self.num(v.inline, ctx)
            return v.label or n.name
        if n.name in self.state:
            return self.state_value(self.state[n.name], None, ctx)
        return NAMES[n.name] if n.name in ("round", "players", *_AUCTION_NAMES) else n.name

    def num_BareAttr(self, n: ast.BareAttr, ctx: Ctx) -> str:
        subject = ctx.it[1] if isinstance(ctx.it, tuple) else "it"
        return f"its {ATTRIBUTE_NOUNS[n.attr]}" if subject == "it" else f"the {ATTRIBUTE_NOUNS[n.attr]} of {subject}"

    def num_AttrOf(self, n: ast.AttrOf, ctx: Ctx) -> str:
        target = self.group(n.target, ctx).definite()
        if target == "it" and n.attr != "survivors":
            return f"its {ATTRIBUTE_NOUNS[n.attr]}"
        if n.attr == "survivors":
            return f"the Survivors printed on {target}"
        return f"the {ATTRIBUTE_NOUNS[n.attr]} of {target}"

    def num_Call(self, n: ast.Call, ctx: Ctx) -> str:
        if n.function == "bid_of" and len(n.args) == 1:
            w = self.who(n.args[0], ctx)
            return f"the number {w.subj} bid in the auction"
        if n.function == "tricks" and len(n.args) == 1:
            w = self.who(n.args[0], ctx)
            if self.type_of(n.args[0]) == "Communities":  # tricks(team of C): its Communities' together
                return f"the number of tricks {w.obj} {'have' if w.obj == 'they' else 'has'} won this round together"
            return f"the number of tricks {w.subj} {conj(w, 'have', 'has')} won this round"
        if n.function == "position" and len(n.args) == 1:
            return f"the position of {self.group(n.args[0], ctx).definite()} in the trick (1 for the lead)"
        if n.function == "numbers" and len(n.args) == 2:
            return f"a number from {self.num(n.args[0], ctx)} to {self.num(n.args[1], ctx)}"
        if n.function == "player" and len(n.args) == 1:
            return self.who(n, ctx).obj
        if n.function == "count":
            return self.group(n.args[0], ctx).count()
        if n.function == "population":
            return self.who(n.args[0], ctx).owning("Survivors")
        if n.function in ("min", "max", "sum"):
            parts = [self.num(a, ctx) for a in n.args]
            if len(parts) == 1:
                return parts[0]
            if n.function == "sum":
                return f"the sum of {join_words(parts)}"
            word = {"min": "smaller", "max": "larger"}[n.function] if len(parts) == 2 else {"min": "smallest", "max": "largest"}[n.function]
            return f"the {word} of {join_words(parts)}"
        return self.group(n, ctx).definite()

    def num_Arith(self, n: ast.Arith, ctx: Ctx) -> str:
        a, b = self.num(n.left, ctx), self.num(n.right, ctx)
        if n.op == "*":
            if isinstance(n.right, ast.IntLit) and not isinstance(n.left, ast.IntLit):
                a, b = b, a
            if a == "2":
                return f"twice {b}"
            return f"{a} times {b}"
        if n.op == "/":
            return f"{a} divided by {b} (rounded down)"
        return f"{a} {'plus' if n.op == '+' else 'minus'} {b}"

    def num_Neg(self, n: ast.Neg, ctx: Ctx) -> str:
        return f"minus {self.num(n.operand, ctx)}"

    def num_StateOf(self, n: ast.StateOf, ctx: Ctx) -> str:
        decl = self.state.get(n.name)
        if decl is None:  # not declared (the checker says so): its name, as written
            return f"the {n.name.replace('_', ' ')} of {self.who(n.owner, ctx).obj}"
        return self.state_value(decl, n.owner, ctx)

    def number_of_group(self, n: ast.Node, ctx: Ctx) -> str:
        """A group (or one element of it) where a number's words go: named in full."""
        return self.group(n, ctx).definite()

    num_FactionLit = num_ZoneRef = num_Neighbour = num_ListLit = number_of_group
    num_Where = num_Except = num_Otherwise = num_WithExtreme = number_of_group

    def num_Comprehension(self, n: ast.Comprehension, ctx: Ctx) -> str:
        src = self.group(n.source, ctx)
        body = n.body
        if isinstance(body, ast.AttrOf) and isinstance(body.target, ast.NameRef) and body.target.name == n.var \
                and body.attr in ("value", "survivors"):
            noun = ATTRIBUTE_NOUNS[body.attr]
            if n.function == "sum":
                if body.attr == "survivors":
                    return f"the total Survivors printed on {src.definite()}"
                return f"the total {noun} of {src.definite()}"
            word = "highest" if n.function == "max" else "lowest"
            return f"the {word} {noun} among {src.definite()}"
        elem = self.element_of(n.source)
        inner = ctx.bind(Var(n.var, elem), recent=True)
        if isinstance(body, ast.Call) and body.function == "count" and len(body.args) == 1:
            step = f"count {self.group(body.args[0], inner).definite()}"
        else:
            step = f"work out {self.num(body, inner)}"
        sentence = f"for each {src.per()}, {step}"
        if sentence not in ctx.pre:  # a `let` read in two places is worked out once
            ctx.pre.append(sentence)
        return {"sum": "the total of these numbers", "min": "the lowest of these numbers", "max": "the highest of these numbers"}[n.function]

    def amount(self, n: ast.Node, ctx: Ctx) -> str:
        """A number of Survivors to gain or lose."""
        if isinstance(n, ast.IntLit):
            return survivors(n.value)
        if isinstance(n, ast.NameRef):
            v = ctx.vars.get(n.name)
            if v is not None and v.inline is not None:
                return self.amount(v.inline, ctx)
        per = self.per_each(n, ctx)
        if per is not None:
            k, what = per
            return f"{survivors(k)} for each {what}"
        if isinstance(n, ast.Arith) and n.op in "+-" and isinstance(n.left, ast.IntLit):
            per = self.per_each(n.right, ctx)
            if per is not None:
                k, what = per
                word = "plus" if n.op == "+" else "minus"
                return f"{survivors(n.left.value)} {word} {k} for each {what}"
        if isinstance(n, ast.Call) and n.function == "max" and len(n.args) == 2:
            zeros = [a for a in n.args if isinstance(a, ast.IntLit) and a.value == 0]
            others = [a for a in n.args if not (isinstance(a, ast.IntLit) and a.value == 0)]
            if zeros and len(others) == 1:
                return f"{self.amount(others[0], ctx)} (never fewer than 0)"
        return f"Survivors equal to {self.num(n, ctx)}"

    def per_each(self, n: ast.Node, ctx: Ctx) -> tuple[int, str] | None:
        """`count(G)` → (1, "card of G"); `k * count(G)` → (k, ...)."""
        if isinstance(n, ast.NameRef):
            v = ctx.vars.get(n.name)
            if v is not None and v.inline is not None:
                return self.per_each(v.inline, ctx)
            return None
        if isinstance(n, ast.Call) and n.function == "count" and len(n.args) == 1:
            return 1, self.group(n.args[0], ctx).per()
        if isinstance(n, ast.Arith) and n.op == "*":
            for k, other in ((n.left, n.right), (n.right, n.left)):
                if isinstance(k, ast.IntLit):
                    inner = self.per_each(other, ctx)
                    if inner is not None:
                        return k.value * inner[0], inner[1]
        return None

    # ---------------------------------------------------------- conditions
    def cond(self, n: ast.Node, ctx: Ctx) -> str:
        return self.handler("cond", n)(n, ctx)

    def cond_Logic(self, n: ast.Logic, ctx: Ctx) -> str:
        parts = []
        for side in (n.left, n.right):
            text = self.cond(side, ctx)
            if isinstance(side, ast.Logic) and side.op != n.op:
                text = f"either {text}" if side.op == "or" else f"both {text}"
            parts.append(text)
        left, right = parts
        subject = "you have "
        if n.op == "and" and left.startswith(subject) and right.startswith(subject):
            # "you have 7 or more Xs in your zone and more of them than every other Community"
            right = right[len(subject):]
            topic = self.count_topic(self.resolve_compare(n.left, ctx), ctx)
            for word in ("the most ", "the fewest ", "more ", "fewer "):
                if topic and right.startswith(word + topic):
                    right = word + "of them" + right[len(word + topic):]
        return f"{left} {n.op} {right}"

    def cond_Not(self, n: ast.Not, ctx: Ctx) -> str:
        inner = n.operand
        if isinstance(inner, ast.Compare) and inner.op in _NEGATE:
            return self.cond(replace(inner, op=_NEGATE[inner.op]), ctx)
        mark = self.mark_read(inner, ctx)
        if mark is not None:
            return f"{self.state_value(*mark, ctx)} is not set"
        return f"it is not the case that {self.cond(inner, ctx)}"

    def cond_NameRef(self, n: ast.NameRef, ctx: Ctx) -> str:
        v = ctx.vars.get(n.name)
        if v is not None and v.inline is not None:
            return self.cond(v.inline, ctx)
        if n.name == "void":
            return self.void_words
        if n.name in ("true", "false"):
            return "always" if n.name == "true" else "never"
        if v is None and (n.name == "passing" or n.name.startswith("from_") and n.name in NAMES):
            return NAMES[n.name]
        if v is None and n.name in self.state:
            return self.state_test(self.state[n.name], None, ctx)
        if v is not None and v.kind == BOOL and v.label:
            return v.label
        return f"{(v.label if v and v.label else n.name)} holds"

    def condition_of_number(self, n: ast.Node, ctx: Ctx) -> str:
        """Any other expression where a condition goes (the checker lets none through): its number words."""
        return self.num(n, ctx)

    def cond_StateOf(self, n: ast.StateOf, ctx: Ctx) -> str:
        decl = self.state.get(n.name)
        if decl is None or decl.kind != "mark":
            return self.num(n, ctx)
        return self.state_test(decl, n.owner, ctx)

    cond_IntLit = cond_FactionLit = cond_BareAttr = cond_AttrOf = cond_ZoneRef = condition_of_number
    cond_Neighbour = cond_Call = cond_Comprehension = cond_ListLit = cond_Arith = cond_Neg = condition_of_number
    cond_Where = cond_Except = cond_Otherwise = cond_WithExtreme = condition_of_number

    def resolve(self, n: ast.Node, ctx: Ctx) -> ast.Node:
        """A let that is rendered where it is used: its value."""
        while isinstance(n, ast.NameRef) and n.name in ctx.vars and ctx.vars[n.name].inline is not None:
            n = ctx.vars[n.name].inline
        return n

    def resolve_compare(self, n: ast.Node, ctx: Ctx) -> ast.Node:
        n = self.resolve(n, ctx)
        if isinstance(n, ast.Compare):
            return replace(n, left=self.resolve(n.left, ctx), right=self.resolve(n.right, ctx))
        return n

    def count_topic(self, n: ast.Node, ctx: Ctx) -> str | None:
        """What a comparison counts, as a plural phrase: "Xs in your Expedition zone"."""
        if isinstance(n, ast.Compare):
            for side in (n.left, n.right):
                if self.is_count(side):
                    return self.group(side.args[0], ctx).phrase()
        return None

    def cond_Compare(self, n: ast.Compare, ctx: Ctx) -> str:
        op, left, right = n.op, self.resolve(n.left, ctx), self.resolve(n.right, ctx)
        if op in ("in", "not in"):
            return self.membership(op, left, right, ctx)
        yes_no = self.against_yes_or_no(op, left, right, ctx)
        if yes_no is not None:
            return yes_no
        positions = [x.args[0] for x in (left, right)
                     if isinstance(x, ast.Call) and x.function == "position" and len(x.args) == 1]
        if len(positions) == 2 and op in ("<", ">"):
            a, b = (self.group(c, ctx) for c in positions)
            return f"{a.subject()} was played {'before' if op == '<' else 'after'} {b.definite()}"
        if self.is_count(right) and not self.is_count(left):
            op, left, right = _FLIP[op], right, left
        if self.is_count(left):
            return self.count_cond(op, left, right, ctx)
        if isinstance(left, ast.Call) and left.function == "position" and len(left.args) == 1 \
                and isinstance(right, ast.IntLit) and right.value == 1 and op in ("==", "!="):
            return f"{self.group(left.args[0], ctx).subject()} {'led' if op == '==' else 'did not lead'} the trick"
        lt, rt = self.type_of(left), self.type_of(right)
        if FACTION in (lt, rt):
            if isinstance(left, ast.AttrOf) and left.attr == "faction" and isinstance(right, ast.FactionLit) and op in ("==", "!="):
                thing = self.group(left.target, ctx).subject()
                name = right.name
                return f"{thing} {'is' if op == '==' else 'is not'} {article(name)} {singular(name)}"
            return f"{self.faction(left, ctx)} {COMPARISON_WORDS[op]} {self.faction(right, ctx)}"
        if COMMUNITY in (lt, rt):
            a, b = self.who(left, ctx), self.who(right, ctx)
            verb = conj(a, "are", "is")
            return f"{a.subj} {verb}{' not' if op == '!=' else ''} {b.obj}"
        if lt == SIDE or rt == SIDE:
            return f"{self.side(left, ctx)} {COMPARISON_WORDS.get(op, op)} {self.side(right, ctx)}"
        if lt == CARD or rt == CARD:
            a, b = self.group(left, ctx).subject(), self.group(right, ctx).definite()
            return f"{a} {'is' if op == '==' else 'is not'} {b}"
        return f"{self.num(left, ctx)} {COMPARISON_WORDS.get(op, op)} {self.num(right, ctx)}"

    def against_yes_or_no(self, op: str, left: ast.Node, right: ast.Node, ctx: Ctx) -> str | None:
        """`flag is true`, `x == false`: the condition itself, or its negation; None for another comparison."""
        for lit, other in ((right, left), (left, right)):
            if op in ("==", "!=") and isinstance(lit, ast.NameRef) and lit.name in ("true", "false") \
                    and lit.name not in ctx.vars:
                holds = (op == "==") == (lit.name == "true")
                mark = self.mark_read(other, ctx)
                if mark is not None:
                    return f"{self.state_value(*mark, ctx)} is {'set' if holds else 'not set'}"
                return self.cond(other, ctx) if holds else f"it is not the case that {self.cond(other, ctx)}"
        return None

    def is_count(self, n: ast.Node) -> bool:
        return isinstance(n, ast.Call) and n.function == "count" and len(n.args) == 1

    def membership(self, op: str, left: ast.Node, right: ast.Node, ctx: Ctx) -> str:
        negated = op == "not in"
        if isinstance(right, ast.WithExtreme) and self.element_of(right.source) == COMMUNITY:
            text = self.extreme_clause(self.who(left, ctx), right, ctx)
            return f"it is not the case that {text}" if negated else text
        elem = self.element_of(right)
        if elem == COMMUNITY:
            w = self.who(left, ctx)
            group = self.group(right, ctx)
            return f"{w.subj} {conj(w, 'are', 'is')}{' not' if negated else ''} one of {group.definite()}"
        if elem == FACTION:
            return f"{self.faction(left, ctx)} is{' not' if negated else ''} one of {self.faction_list(right, ctx)}"
        thing = self.group(left, ctx).subject()
        where = self.group(right, ctx).definite()
        return f"{thing} is{' not' if negated else ''} among {where}"

    def extreme_clause(self, who: Who, n: ast.WithExtreme, ctx: Ctx) -> str:
        key_ctx = replace(ctx, it=who)
        everyone = isinstance(n.source, ast.NameRef) and n.source.name == "everyone"
        strictly = n.extreme.startswith("strictly")
        most = n.extreme.endswith("most")
        if self.is_count(n.key):
            what = self.group(n.key.args[0], key_ctx).phrase()
            have = conj(who, "have", "has")
            if everyone:
                if strictly:
                    return f"{who.subj} {have} {'more' if most else 'fewer'} {what} than every other Community"
                return f"{who.subj} {have} the {'most' if most else 'fewest'} {what} (ties included)"
            group = self.group(n.source, ctx).definite()
            return (f"{who.subj} {conj(who, 'are', 'is')} {'the one' if strictly else 'one'} of {group} "
                    f"with the {'most' if most else 'fewest'} {what}" + (" (nobody if tied)" if strictly else ""))
        value = self.num(n.key, key_ctx)
        word = "highest" if most else "lowest"
        if everyone:
            if strictly:
                return f"{value} is {'higher' if most else 'lower'} than every other Community's"
            return f"{value} is the {word} of all Communities (ties included)"
        return f"{who.subj} {conj(who, 'are', 'is')} one of {self.group(n.source, ctx).definite()} with the {word} {value}"

    def count_cond(self, op: str, left: ast.Call, right: ast.Node, ctx: Ctx) -> str:
        g = self.group(left.args[0], ctx)
        owner = g.owner
        have_form = owner is not None and (owner.is_self or owner.relative or owner.is_actor) and not g.whole and not g.ref
        if isinstance(right, ast.NameRef):
            v = ctx.vars.get(right.name)
            if v is not None and v.inline is not None:
                right = v.inline
        if isinstance(right, ast.IntLit) and g.whole and g.one:
            if (op, right.value) in ((">", 0), (">=", 1), ("!=", 0), ("==", 1)):
                return f"there is {article(g.sg)} {g.sg}"
            if (op, right.value) in (("==", 0), ("<", 1), ("<=", 0)):
                return f"there is no {g.sg}"
        if isinstance(right, ast.IntLit):
            qty, one = self.quantity(op, right.value, g)
            where = f"{g.loc_in}{g.post(not one)}"
            if g.whole or g.ref or g.indef:
                where = f" among {g.definite()}"
            if have_form:
                return f"{owner.subj} {conj(owner, 'have', 'has')} {qty}{where}"
            return f"there {'is' if one else 'are'} {qty}{where}"
        if self.is_count(right):
            h = self.group(right.args[0], ctx)
            if g.pl == h.pl and g.posts == h.posts and owner is not None and h.owner is not None \
                    and g.loc_in.split(" ")[-1] == h.loc_in.split(" ")[-1]:
                more, than = {"<": ("fewer", "than"), ">": ("more", "than"), "<=": ("at most as many", "as"),
                              ">=": ("at least as many", "as"), "==": ("as many", "as"), "!=": ("not as many", "as")}[op]
                if have_form:
                    return f"{owner.subj} {conj(owner, 'have', 'has')} {more} {g.phrase()} {than} {h.owner.subj}"
                return f"there are {more} {g.phrase()} {than} {h.phrase()}"
        return f"{g.count()} {COMPARISON_WORDS[op]} {self.num(right, ctx)}"

    @staticmethod
    def quantity(op: str, k: int, g: NP) -> tuple[str, bool]:
        """How many, in words, and whether the verb is singular."""
        if (op, k) in ((">", 0), (">=", 1), ("!=", 0)):
            return f"at least one {g.sg}", True
        if (op, k) in (("==", 0), ("<", 1), ("<=", 0)):
            return f"no {g.pl}", False
        if op == ">=":
            return f"{k} or more {g.pl}", False
        if op == ">":
            return (f"more than one {g.sg}", True) if k == 1 else (f"more than {k} {g.pl}", False)
        if op == "<=":
            return (f"at most one {g.sg}", True) if k == 1 else (f"{k} or fewer {g.pl}", False)
        if op == "<":
            return f"fewer than {k} {g.pl}", False
        if op == "==":
            return (f"exactly one {g.sg}", True) if k == 1 else (f"exactly {k} {g.pl}", False)
        return f"a number of {g.pl} other than {k}", False

    # ---------------------------------------------------------- statements
    def block(self, statements: tuple[ast.Node, ...], ctx: Ctx) -> list[Line]:
        lines: list[Line] = []
        for i, s in enumerate(statements):
            sctx = replace(ctx, pre=[])
            last = i == len(statements) - 1
            if isinstance(s, ast.Let):
                out, ctx = self.let(s, statements[i + 1:], sctx)
                ctx = replace(ctx, pre=[])
            else:
                out = self.statement(s, sctx, last)
            lines.extend((0, p) for p in sctx.pre)
            lines.extend(out)
        return lines

    def clause(self, who: Who, base: str, third: str, rest: str, ctx: Ctx) -> str:
        if who.is_self and ctx.actor is None:
            return f"{base} {rest}".rstrip()
        return f"{who.subj} {conj(who, base, third)} {rest}".rstrip()

    def statement(self, s: ast.Node, ctx: Ctx, last: bool) -> list[Line]:
        """The lines of a statement; `last`: nothing follows it in its block. (A `let` is the block's: see `let`.)"""
        return self.handler("statement", s)(s, ctx, last)

    def statement_Move(self, s: ast.Move, ctx: Ctx, last: bool) -> list[Line]:
        return [(0, self.move(s, ctx))]

    def statement_Draw(self, s: ast.Draw, ctx: Ctx, last: bool) -> list[Line]:
        return [(0, self.draw(s, ctx))]

    def statement_Score(self, s: ast.Score, ctx: Ctx, last: bool) -> list[Line]:
        who = self.who(s.whom, ctx)
        sign, amount = self.signed(s.amount, ctx)  # "lose -3" gains 3; "gain 0 - x" loses x
        verb = ("gain", "gains") if sign * s.sign > 0 else ("lose", "loses")
        return [(0, self.clause(who, *verb, self.amount(amount, ctx), ctx))]

    def signed(self, n: ast.Node, ctx: Ctx) -> tuple[int, ast.Node]:
        """An amount as a sign and an expression that does not start with a minus, to be read with a verb of
        that sign: `-3` is (-1, 3), `0 - x` is (-1, x), `-2 * x` is (-1, 2 * x), `-x + 3` is (1, 3 - x).
        An amount with no minus to turn round comes back as written (the same node)."""
        sign, m = 1, n
        while True:
            m = self.resolve(m, ctx)
            if isinstance(m, ast.Neg):
                sign, m = -sign, m.operand
            elif isinstance(m, ast.Arith) and m.op == "-" and isinstance(m.left, ast.IntLit) and m.left.value == 0:
                sign, m = -sign, m.right
            else:
                break
        inner, turned = self.signed_arith(m, ctx)
        if sign > 0 and inner > 0 and turned is m:
            return 1, n
        return sign * inner, turned

    def signed_arith(self, n: ast.Node, ctx: Ctx) -> tuple[int, ast.Node]:
        if not isinstance(n, ast.Arith) or n.op == "/":  # `/` rounds down: -(a / b) is not (-a) / b
            return 1, n
        (ls, left), (rs, right) = self.signed(n.left, ctx), self.signed(n.right, ctx)
        if ls > 0 and rs > 0 and left is n.left and right is n.right:
            return 1, n
        if n.op == "*":
            for one, other in ((left, right), (right, left)):
                if isinstance(one, ast.IntLit) and one.value == 1:
                    return ls * rs, other
            return ls * rs, replace(n, left=left, right=right)
        if n.op == "-":
            rs = -rs
        if ls > 0 and rs > 0:
            return 1, replace(n, op="+", left=left, right=right)
        if ls > 0:
            return 1, replace(n, op="-", left=left, right=right)
        if rs > 0:
            return 1, replace(n, op="-", left=right, right=left)
        return -1, replace(n, op="+", left=left, right=right)

    def statement_Deal(self, s: ast.Deal, ctx: Ctx, last: bool) -> list[Line]:
        return [(0, self.deal(s, ctx))]

    def statement_NextLeader(self, s: ast.NextLeader, ctx: Ctx, last: bool) -> list[Line]:
        who = self.who(s.who, ctx)
        return [(0, f"{who.subj} {conj(who, 'lead', 'leads')} the next trick")]

    def statement_NobodyTakes(self, s: ast.NobodyTakes, ctx: Ctx, last: bool) -> list[Line]:
        where = {None: "the discard pile", "discard": "the discard pile", "reserve_top": "the top of the Reserve",
                 "reserve_bottom": "the bottom of the Reserve"}[s.dest.kind if s.dest is not None else None]
        return [(0, f"nobody takes this trick: when it ends, its cards and its Encounter card go to {where}, it "
                    "counts as won by nobody, and its leader leads the next trick unless a power names another")]

    def statement_NextSide(self, s: ast.NextSide, ctx: Ctx, last: bool) -> list[Line]:
        return [(0, f"the next trick is played on {self.side(s.side, ctx)} (its leader chooses only the card)")]

    def statement_NextLead(self, s: ast.NextLead, ctx: Ctx, last: bool) -> list[Line]:
        return [(0, f"the Faction led of the next trick is {self.faction(s.faction, ctx)}, whatever card its leader plays")]

    def statement_SetVar(self, s: ast.SetVar, ctx: Ctx, last: bool) -> list[Line]:
        v = ctx.vars.get(s.name)
        if v is None and s.name in self.state:  # `set points = 3`: a counter or mark, not a variable
            return [(0, self.set_state(self.state[s.name], None, s.value, ctx))]
        label = v.label if v and v.label else s.name
        return [(0, f"{label} now becomes {self.value(s.value, ctx)}")]

    def statement_Ask(self, s: ast.Ask, ctx: Ctx, last: bool) -> list[Line]:
        who = self.who(s.chooser, ctx)
        head = f"if {who.subj} {conj(who, 'answer', 'answers')} yes to “{s.prompt}”"
        return self.conditional(head, s.yes, s.no, ctx)

    def statement_Repeat(self, s: ast.Repeat, ctx: Ctx, last: bool) -> list[Line]:
        body = self.block(s.body.statements, ctx)
        times = "once" if s.count == 1 else "twice" if s.count == 2 else f"{s.count} times"
        return self.headed(f"do this {times}", body)

    def value(self, n: ast.Node, ctx: Ctx) -> str:
        t = self.type_of(n)
        if t == "Number":
            return self.num(n, ctx)
        if t == "Yes/No":
            return f"whether {self.cond(n, ctx)}"
        if t == FACTION:
            return self.faction(n, ctx)
        if t == COMMUNITY:
            return self.who(n, ctx).obj
        if t == SIDE:
            return self.side(n, ctx)
        return self.group(n, ctx).definite()

    # ---- lasting state: counters and marks
    def state_value(self, decl: ast.StateDecl, owner: ast.Node | None, ctx: Ctx) -> str:
        """A counter or a mark as a noun: "your points", "the points of the Community that won the trick",
        "the game's bells" (one for the game), "your mark “warned”", "the mark “alarm”"."""
        label = decl.name.replace("_", " ")
        if decl.option is not None:
            return f"the option “{label}”"
        if decl.holds is not None:  # `mark trump: Faction`: "the Faction “trump”"
            label = f"{HOLDS_NOUNS.get(decl.holds, decl.holds)} “{label}”"
        elif decl.kind == "mark":
            label = f"mark “{label}”"
        if not decl.per_community:
            return f"the {label}" if decl.kind == "mark" else f"the game's {label}"
        who = self.who(owner, ctx)
        if who.is_self or who.is_actor or who.obj in ("it", "them"):
            return who.owning(label)
        return f"the {label} of {who.obj}"

    def mark_read(self, n: ast.Node, ctx: Ctx) -> tuple[ast.StateDecl, ast.Node | None] | None:
        """(its declaration, its owner) when `n` reads a mark, else None."""
        n = self.resolve(n, ctx)
        if isinstance(n, ast.StateOf):
            decl = self.state.get(n.name)
            return (decl, n.owner) if decl is not None and decl.kind == "mark" and decl.holds is None else None
        if isinstance(n, ast.NameRef) and n.name not in ctx.vars:
            decl = self.state.get(n.name)
            return (decl, None) if decl is not None and decl.kind == "mark" and decl.holds is None else None
        return None

    def state_test(self, decl: ast.StateDecl, owner: ast.Node | None, ctx: Ctx) -> str:
        """A mark as a condition: "your mark “warned” is set" ("the option “x” is on")."""
        return f"{self.state_value(decl, owner, ctx)} is {'on' if decl.option is not None else 'set'}"

    def set_state(self, decl: ast.StateDecl, owner: ast.Node | None, value: ast.Node, ctx: Ctx) -> str:
        target = self.state_value(decl, owner, ctx)
        if decl.holds is not None:
            return f"set {target} to {self.value(value, ctx)}"
        if decl.kind == "mark":
            v = self.resolve(value, ctx)
            if isinstance(v, ast.NameRef) and v.name in ("true", "false") and v.name not in ctx.vars:
                return f"{'set' if v.name == 'true' else 'clear'} {target}"
            if isinstance(v, ast.Not) and self.mark_read(v.operand, ctx) is not None \
                    and self.state_value(*self.mark_read(v.operand, ctx), ctx) == target:
                return f"switch {target}: set it if it is clear, clear it if it is set"
            return f"set {target} if {self.cond(value, ctx)}, or clear it otherwise"
        v = self.resolve(value, ctx)
        if isinstance(v, ast.Arith) and v.op in "+-" and self.reads_state(v.left, decl.name, owner):
            sign, amount = self.signed(v.right, ctx)
            sign = sign if v.op == "+" else -sign
            return self.add_words(sign, self.num(amount, ctx), target)
        return f"set {target} to {self.num(value, ctx)}"

    def reads_state(self, n: ast.Node, name: str, owner: ast.Node | None) -> bool:
        """`n` reads the state `name` of `owner` (`points` and `points of self` are the same)."""
        def whose(o):
            return None if o is None or (isinstance(o, ast.NameRef) and o.name == "self") else ast.strip_spans(o)
        if isinstance(n, ast.NameRef):
            return n.name == name and whose(owner) is None
        return isinstance(n, ast.StateOf) and n.name == name and whose(n.owner) == whose(owner)

    @staticmethod
    def add_words(sign: int, amount: str, target: str) -> str:
        return f"add {amount} to {target}" if sign > 0 else f"subtract {amount} from {target}"

    def statement_SetState(self, s: ast.SetState, ctx: Ctx, last: bool) -> list[Line]:
        decl = self.state.get(s.name) or ast.StateDecl(s.span, "counter", s.name, True, "game", "public")
        return [(0, self.set_state(decl, s.owner, s.value, ctx))]

    def statement_AddState(self, s: ast.AddState, ctx: Ctx, last: bool) -> list[Line]:
        decl = self.state.get(s.name) or ast.StateDecl(s.span, "counter", s.name, s.owner is not None, "game", "public")
        sign, amount = self.signed(s.amount, ctx)  # "add -1 to points" takes 1 away
        return [(0, self.add_words(sign, self.num(amount, ctx), self.state_value(decl, s.owner, ctx)))]

    # ---- a choice of courses
    def statement_ChooseMode(self, s: ast.ChooseMode, ctx: Ctx, last: bool) -> list[Line]:
        chooser = self.who(s.chooser, ctx)
        intro = self.clause(chooser, "choose", "chooses", "one", ctx)
        options = [(f"“{o.text}”", self.block(o.body.statements, ctx)) for o in s.options]
        if all(len(body) <= 1 and all(d == 0 and ":" not in text and ". " not in text for d, text in body)
               for _, body in options):
            parts = [f"{label}: {body[0][1] if body else 'nothing happens'}" for label, body in options]
            return [(0, f"{intro}: " + "; or ".join(parts))]
        lines: list[Line] = [(0, f"{intro}:")]
        for i, (label, body) in enumerate(options):
            lines += indent(self.headed(label if i == 0 else f"or {label}", body))
        return lines

    # ---- the trick
    def statement_Declare(self, s: ast.Declare, ctx: Ctx, last: bool) -> list[Line]:
        card = self.group(s.card, ctx).subject()
        f = s.faction
        if isinstance(f, ast.FactionLit):
            what = f"{article(singular(f.name))} {singular(f.name)}"
        else:
            what = f"a card of {self.faction(f, ctx)}"
        return [(0, f"{card} counts as {what} for the rest of the trick")]

    def statement_SetSide(self, s: ast.SetSide, ctx: Ctx, last: bool) -> list[Line]:
        if s.value is None:
            return [(0, "the trick changes side (+ becomes −, − becomes +)")]
        return [(0, f"the trick is now played on {self.side(s.value, ctx)}")]

    def side(self, n: ast.Node, ctx: Ctx) -> str:
        """A Side as a noun: "the + side", "the side of the trick", "the side chosen"."""
        if isinstance(n, ast.NameRef):
            v = ctx.vars.get(n.name)
            if v is not None:
                return self.side(v.inline, ctx) if v.inline is not None else v.label or "that side"
            return SIDE_WORDS.get(n.name, "the side of the trick")
        return "the side of the trick"

    def statement_End(self, s: ast.End, ctx: Ctx, last: bool) -> list[Line]:
        if s.what == "trick":
            return [(0, "the trick ends now, and the Communities that have not played to it yet do not play to it")]
        if s.what == "game":
            return [(0, "the game ends after this round's count")]
        return [(0, "the round ends after this trick, and the count follows")]

    @staticmethod
    def headed(head: str, body: list[Line]) -> list[Line]:
        if not body:
            return [(0, f"{head}: nothing happens")]
        if len(body) == 1 and body[0][0] == 0:
            return [(0, f"{head}: {body[0][1]}")]
        return [(0, f"{head}:")] + indent(body)

    # ---- let
    def let_var(self, s: ast.Let, **words) -> Var:
        """The variable a `let` makes: what it holds (an element type, one or many)."""
        t = self.type_of(s.value)
        kind = ELEMENT_OF.get(as_set(t), t) if t else CARD
        return Var(s.name, kind, as_set(t) is not None and t == as_set(t), **words)

    def let(self, s: ast.Let, rest: tuple[ast.Node, ...], ctx: Ctx) -> tuple[list[Line], Ctx]:
        made = self.let_var(s)
        kind, many = made.kind, made.many
        if self.inlinable(s, rest, ctx):
            return [], ctx.bind(self.let_var(s, inline=s.value), recent=False)
        if kind == CARD:
            g = self.group(s.value, ctx)
            one = g.one
            var = Var(s.name, CARD, many=not one)
            text = f"pick {g.definite()}" if g.indef else f"take note of {g.definite()}"
            return [(0, text)], ctx.bind(var, recent=True)
        noted = f"whether {self.cond(s.value, ctx)}" if kind == BOOL else self.value(s.value, ctx)
        label, which = _NOTED.get((kind, many)), ""
        earlier = sum(1 for v in ctx.vars.values() if v.noted == (kind, many))
        if label is not None and (earlier or self.noted_later(rest, (kind, many), ctx)) and earlier < len(_ORDINALS):
            label = f"the {_ORDINALS[earlier]} {_NOTED_NOUNS[(kind, many)]} noted"
            which = f" ({label})"
        var = Var(s.name, kind, many, label=label, noted=(kind, many))
        return [(0, f"take note of {noted}{which}")], ctx.bind(var, recent=False)

    def noted_later(self, rest: tuple[ast.Node, ...], noted: tuple, ctx: Ctx) -> bool:
        """Whether a later `let` of the same block will be noted as a value of the same kind too."""
        for i, later in enumerate(rest):
            if isinstance(later, ast.Let):
                var = self.let_var(later)
                if (var.kind, var.many) == noted and not self.inlinable(later, rest[i + 1:], ctx):
                    return True
        return False

    def inlinable(self, s: ast.Let, rest: tuple[ast.Node, ...], ctx: Ctx) -> bool:
        if any(_sets(r, s.name) for r in rest):
            return False
        for node in ast.walk(s.value):
            if isinstance(node, ast.Call) and node.function == "random":
                return False
            if isinstance(node, ast.NameRef) and node.name in ctx.vars:
                v = ctx.vars[node.name]
                if v.inline is None and node.name != ctx.actor:
                    return False
        t = self.type_of(s.value)
        if t in (COMMUNITY, FACTION):
            return True
        return not any(_moves(r, self.state) for r in rest)

    # ---- choose
    def statement_Choose(self, s: ast.Choose, ctx: Ctx, last: bool) -> list[Line]:
        g = self.group(s.source, ctx)
        elem = self.element_of(s.source)
        if s.mode == "exactly" and g.size == s.count:
            what = f"{g.definite()}, one at a time"  # every card of the group: only their order is chosen
        else:
            what = g.a_one() if s.mode == "one" else g.some(s.count, s.mode == "up_to")
        if s.otherwise is None and isinstance(s.source, (ast.Where, ast.WithExtreme)):
            what += ", if any"  # a filtered group may be empty: then nothing happens
        chooser = self.who(s.chooser, ctx)
        intro = self.clause(chooser, "choose", "chooses", what, ctx)
        label = {INT: "the number chosen", SIDE: "the side chosen"}.get(g.elem if g.elem in (INT, SIDE) else elem)
        var = Var(s.name, elem, many=s.mode != "one", label=label, ordered=s.mode != "one")
        body = self.block(s.body.statements, ctx.bind(var))
        lines: list[Line]
        if not body:
            lines = [(0, intro)]
        elif body[0][0] == 0 and (len(body) == 1 or (last and s.otherwise is None)):
            lines = [(0, f"{intro}. {cap(body[0][1])}")] + body[1:]
        else:
            lines = [(0, f"{intro}, then:")] + indent(body)
        if s.otherwise is not None:
            lines += self.headed("if there is nothing to choose", self.block(s.otherwise.statements, ctx))
        return lines

    # ---- if
    def statement_If(self, s: ast.If, ctx: Ctx, last: bool = False) -> list[Line]:
        return self.conditional(f"if {self.cond(s.condition, ctx)}", s.then, s.otherwise, ctx)

    def conditional(self, head: str, then: ast.Block, otherwise: ast.Block | None, ctx: Ctx) -> list[Line]:
        body = self.block(then.statements, ctx)
        if otherwise is None and len(body) == 1 and body[0][0] == 0 and ":" not in body[0][1] and ". " not in body[0][1]:
            return [(0, f"{head}, {body[0][1]}")]
        lines = self.headed(head, body)
        if otherwise is not None:
            if len(otherwise.statements) == 1 and isinstance(otherwise.statements[0], ast.If):
                chained = self.statement_If(otherwise.statements[0], ctx)
                lines += [(chained[0][0], f"otherwise, {chained[0][1]}")] + chained[1:]
            else:
                lines += self.headed("otherwise", self.block(otherwise.statements, ctx))
        return lines

    # ---- each
    def statement_Each(self, s: ast.Each, ctx: Ctx, last: bool) -> list[Line]:
        g = self.group(s.source, ctx)
        elem = self.element_of(s.source)
        if elem == COMMUNITY:
            lead = f"each {g.per()}"
            lead += ", all at the same time," if s.simultaneous else f" in turn{g.order},"
            inner = ctx.bind(Var(s.name, COMMUNITY), recent=False, actor=s.name)
            body = self.block(s.body.statements, inner)
            if len(body) == 1 and body[0][0] == 0 and body[0][1].startswith("it "):
                return [(0, f"{lead} {body[0][1][3:]}")]
            return self.headed(lead.rstrip(","), body)
        source_var = self.var(s.source, ctx)
        if source_var is not None and source_var.inline is None:
            lead = f"for each of {g.definite()}"
        else:
            lead = f"for each {g.per()}"
        if s.simultaneous:
            lead += ", all at the same time"
        body = self.block(s.body.statements, ctx.bind(Var(s.name, elem)))
        return self.headed(lead, body)

    # ---- moves
    def move(self, s: ast.Move, ctx: Ctx) -> str:
        cards = self.group(s.cards, ctx)
        d = s.dest
        what = cards.definite()
        many = cards.is_many()
        note = ""
        v = self.var(s.cards, ctx)
        if d.kind == "reserve_top" and v is not None and v.ordered and v.many:
            note = ", the first one chosen on top"
        if d.kind in ("hand", "transfer", "expedition"):
            owner = self.who(d.owner, ctx)
            into = f"into {owner.owning(ZONE_WORDS[d.kind])}"
        else:
            into = {"reserve_top": "on top of the Reserve", "reserve_bottom": "at the bottom of the Reserve",
                    "discard": "into the discard"}[d.kind]
            owner = None
        if ctx.actor is None:
            if d.kind == "discard":
                return f"discard {what}"
            if d.kind == "hand" and owner is not None and owner.is_self:
                return f"take {what} into your hand"
            verb = "put" if d.kind.startswith("reserve") else "move"
            return f"{verb} {what} {into}{note}"
        if d.kind == "hand" and owner is not None and owner.is_actor:
            return f"it takes {what} into its hand"
        subject = cards.subject()
        if d.kind == "discard":
            return f"{subject} {'are' if many else 'is'} discarded"
        return f"{subject} {'go' if many else 'goes'} {into}{note}"

    def draw(self, s: ast.Draw, ctx: Ctx) -> str:
        who = self.who(s.whom, ctx)
        if isinstance(s.count, ast.IntLit):
            k = s.count.value
            what = "the top card of the Reserve" if k == 1 else f"the top {k} cards of the Reserve"
        else:
            what = f"{self.num(s.count, ctx)} cards from the top of the Reserve"
        return self.clause(who, "draw", "draws", what, ctx)

    def deal(self, s: ast.Deal, ctx: Ctx) -> str:
        cards = self.group(s.cards, ctx).definite()
        to = self.group(s.to, ctx)
        start = to.order.lstrip(", ") or "starting with the first of them"
        text = f"deal {cards} one at a time into the Expedition zones of {to.definite()}, in turn {start}"
        if s.order:
            first, *rest = s.order
            text += f", the card with the {first.direction} {ATTRIBUTE_NOUNS[first.attr]} first"
            for k in rest:
                text += f" (on a tie, the {k.direction} {ATTRIBUTE_NOUNS[k.attr]} first)"
        return text

    # -------------------------------------------------------------- rules
    def rules(self, rules: tuple[ast.Rule, ...], faction: str | None, ctx: Ctx) -> list[Line]:
        name = faction or self.power.name
        one = singular(name)
        a_one = f"{article(one)} {one}"
        if self.power.binding.kind == "added":  # a game-wide rule: it acts on every card of the game
            one, a_one = "card", "any card, whatever its Faction,"
        trumps = any(r.kind == "trumps" for r in rules)
        lines: list[Line] = []
        for r in rules:
            if r.kind == "always_playable":
                when = f", but only while {self.holder_cond(r.condition, ctx)}" if r.condition is not None else ""
                lines.append((0, f"{a_one} may be played in place of any card, even by a Community that could follow the Faction led{when}"))
            elif r.kind == "never_leads" and r.condition is not None:
                lines.append((0, f"{a_one} played when {self.holder_cond(r.condition, ctx)} does not set the Faction led: "
                                 "the next card played that can set it does so instead"))
            elif r.kind == "never_leads":
                lines.append((0, f"{a_one} never sets the Faction led: the next card played that can set it does so instead"))
            elif r.kind == "face_up":
                lines.append((0, f"{a_one} in an Expedition zone lies face up, for everyone to see"))
            elif r.kind == "carried_over":
                lines.append((0, f"in a campaign, a Community with {a_one} in its Expedition zone at the end of a round keeps it "
                                 f"for the next round: the {one} goes into its hand, and it is dealt one card fewer"))
            elif r.kind == "blocks_led_power":
                how = "this way" if trumps else "by trumping it"
                lines.append((0, f"when {a_one} wins a trick {how}, the power of the Faction led is not triggered"))
            elif r.kind == "trumps":
                lines.append((0, self.trumps(a_one, r.condition, replace(ctx, it=(NAMES["played"], NAMES["played"])))))
            else:
                lines.append((0, self.trick_rule(r, a_one, one, ctx)))
        return lines

    def holder_cond(self, condition: ast.Node, ctx: Ctx) -> str:
        """A rule's condition about a card about to be played: `void` is its holder's."""
        card = ctx.bind(Var("played", CARD, label="it"), recent=False, it=("it", "it"))
        self.void_words = _HOLDER_VOID_WORDS
        try:
            return self.cond(condition, card)
        finally:
            self.void_words = _VOID_WORDS

    def trick_rule(self, r: ast.Rule, a_one: str, one: str, ctx: Ctx) -> str:
        """The rules that read the whole trick (issue 14): in them `played` is the card the rule is about."""
        card = ctx.bind(Var("played", CARD, label="it"), recent=False, it=("it", "it"))
        if r.kind == "wins":
            when = f" if, when the trick ends, {self.cond(r.condition, card)}" if r.condition is not None else ""
            return (f"{a_one} played to a trick wins it{when}. If several do, the first one played wins, "
                    "even over a card that trumps")
        if r.kind == "never_wins":
            whole = ctx.bind(Var("played", CARD, label="the card"), recent=False, it=("it", "the card"))
            when = f" when {self.cond(r.condition, whole)}" if r.condition is not None else ""
            return (f"this Faction's cards cannot win a trick{when}. If no card can win it, the Community that "
                    "led takes the trick, and no power is triggered")
        if r.kind == "wild":
            return (f"{a_one} may always be played, and counts as the Faction led (when it leads, as its own "
                    "Faction), unless it is declared as another")
        if r.kind == "beats":
            names = r.condition.items if isinstance(r.condition, ast.ListLit) else (r.condition,)
            if all(isinstance(x, ast.FactionLit) for x in names):
                beaten = join_words([f"{article(singular(x.name))} {singular(x.name)}" for x in names], "or")
            else:
                beaten = f"a card of {self.faction_list(r.condition, ctx)}"
            return f"if the card that would win a trick is {beaten}, {a_one} played to it wins it instead"
        if r.kind in ("leads_only_when", "must_be_played"):  # about a card not played yet: `void` is its holder's
            self.void_words = _HOLDER_VOID_WORDS
            try:
                condition = self.cond(r.condition, card)
            finally:
                self.void_words = _VOID_WORDS
        if r.kind == "leads_only_when":
            return f"{a_one} may lead a trick only if {condition} (unless its holder has no other card to lead)"
        if r.kind == "only_leads" and r.condition is not None:
            return (f"{a_one} may not be played to follow when {self.holder_cond(r.condition, ctx)} (unless its "
                    "holder has no other card it may play)")
        if r.kind == "only_leads":
            return (f"{a_one} may only lead a trick, never follow (unless its holder has no other card it may "
                    "play)")
        if r.kind == "must_beat":
            return (f"{a_one} played to a trick must take it from the card winning it so far (for the side: higher "
                    f"on the + side, lower on the − side, or by trumping), if its player holds {a_one} that does; "
                    "otherwise any may be played")
        if r.kind == "must_trump":
            return (f"a Community that holds {a_one} that would trump the trick must play one that would (unless "
                    "it has no other card it may play)")
        if r.kind == "must_be_played":
            return f"{a_one} must be played when {condition}: a Community holding such a card plays one of them"
        if r.kind == "counts_as":
            return (f"{a_one} for which {self.cond(r.condition, card)} counts as a card of "
                    f"{self.faction(r.counts_as, card)} with the value {self.num(r.ranked, card)}, for following, "
                    "leading and winning a trick (its own Faction's power still acts on it, and it scores as its "
                    "own Faction); if several such rules hold, the first one written decides")
        if r.kind == "bids_only_when":
            return (f"in the auction, a Community may bid only if {self.cond(r.condition, ctx)} (if no bid it could "
                    "make fits, this does not apply)")
        raise ValueError(f"unknown rule '{r.kind}'")  # pragma: no cover - the parser makes no other

    def trumps(self, a_one: str, condition: ast.Node | None, ctx: Ctx) -> str:
        parts = list(_conjuncts(condition)) if condition is not None else []
        by = " to a trick of another Faction"
        whens: list[str] = []
        unless: list[str] = []
        for part in parts:
            if isinstance(part, ast.NameRef) and part.name == "void":
                by = " by a Community that has no card of the Faction led"
            elif isinstance(part, ast.Compare) and part.op == "!=" and any(
                    isinstance(x, ast.NameRef) and x.name == "led" for x in (part.left, part.right)):
                unless.append(self.cond(replace(part, op="=="), ctx))
            elif isinstance(part, ast.Not):
                unless.append(self.cond(part.operand, ctx))
            else:
                whens.append(self.cond(part, ctx))
        text = f"{a_one} played{by} wins the trick"
        if whens:
            text += f" if {join_words(whens)}"
        if unless:
            text += f", unless {join_words(unless, 'or')}"
        return text + ". If several do, the best of them for the trick's side (+ or −) wins"

    # -------------------------------------------------------------- hooks
    def hook(self, h: ast.Hook, ctx: Ctx) -> list[Line]:
        if h.timing == "win":
            faction = self.power.binding.faction
            timing = f"when you win a trick whose Faction led is {faction}" if faction else "when you win a trick"
        elif h.timing in HOOK_TIMING_WORDS:
            timing = HOOK_TIMING_WORDS[h.timing]
        else:
            timing = "at the end of the round"
            if self.power.binding.kind == "card":
                timing += ", if this card is in your Expedition zone"
            if any(isinstance(n, ast.Score) for n in ast.walk(h.body)):
                timing += ", on top of what your cards are worth"
        self.timing = h.timing
        try:
            body = self.block(h.body.statements, ctx)
        finally:
            self.timing = None
        if len(body) == 1 and body[0][0] == 0 and ":" not in body[0][1]:
            return [(0, f"{timing}: {body[0][1]}")]
        return [(0, f"{timing}:")] + [(d, t) for d, t in body]

    def state_lines(self) -> list[Line]:
        """What the power keeps from trick to trick: its counters and marks."""
        lines: list[Line] = []
        for d in self.power.state:
            label = d.name.replace("_", " ")
            if d.option is not None:
                default = ("on" if d.option else "off") if type(d.option) is bool else str(d.option)
                kind = "yes or no" if d.kind == "mark" else "a number"
                lines.append((0, f"the scenario's option “{label}” ({kind}): {default} unless the scenario sets it"))
                continue
            thing = f"count of {label}" if d.kind == "counter" else f"mark “{label}”"
            lifetime = LIFETIME_WORDS[(d.kind, d.lifetime)]
            if d.holds is not None:
                thing = f"{HOLDS_NOUNS.get(d.holds, d.holds)} “{label}”"
                lifetime = HOLDS_LIFETIME_WORDS[(d.holds, d.lifetime)]
            if d.shared == "uses":
                whose = "each Community's" if d.per_community else "the game's"
                lines.append((0, f"this power uses {whose} shared {thing}, which the game keeps (an added power or the scenario declares it)"))
                continue
            secret = "secret " if d.visibility == "secret" else ""
            keeper = "each Community keeps" if d.per_community else "the game keeps"
            shared = ", shared with every power that uses it" if d.shared else ""
            lines.append((0, f"{keeper} {article(secret or thing)} {secret}{thing}{lifetime}{shared}"))
        return lines

    def section(self, hooks: tuple[ast.Hook, ...], rules: tuple[ast.Rule, ...]) -> list[list[Line]]:
        """Paragraphs: the rules, then each hook."""
        ctx = Ctx(self.types)
        paragraphs = []
        if rules:
            paragraphs.append(self.rules(rules, self.power.binding.faction, ctx))
        for h in hooks:
            paragraphs.append(self.hook(h, ctx))
        return paragraphs or [[(0, "no effect")]]


def _sets(node: ast.Node, name: str) -> bool:
    return any(isinstance(n, ast.SetVar) and n.name == name for n in ast.walk(node))


def _moves(node: ast.Node, state: dict | tuple = ()) -> bool:
    """The statement changes what a value read before it may read: cards, the trick, counters and marks."""
    return any(isinstance(n, (ast.Move, ast.Draw, ast.Deal, ast.AddState, ast.SetState, ast.Declare, ast.SetSide))
               or (isinstance(n, ast.SetVar) and n.name in state) for n in ast.walk(node))


def _conjuncts(node: ast.Node):
    if isinstance(node, ast.Logic) and node.op == "and":
        yield from _conjuncts(node.left)
        yield from _conjuncts(node.right)
    else:
        yield node


# ----------------------------------------------------------------- output


@dataclass
class CardText:
    """The structure of a rendering: a header, and sections of paragraphs of lines."""

    name: str
    bound: str
    sections: list[tuple[str | None, list[list[Line]]]]

    def text(self) -> str:
        out = [f"{self.name} — {self.bound}"]
        for heading, paragraphs in self.sections:
            out.append("")
            if heading:
                out.append(heading)
            for i, paragraph in enumerate(paragraphs):
                if i:
                    out.append("")
                out.extend(_line_text(d, t) for d, t in paragraph)
        return "\n".join(out)

    def markdown(self, level: int = 3) -> str:
        out = [f"**{self.name}** — {self.bound}"]
        for heading, paragraphs in self.sections:
            if heading:
                out += ["", f"{'#' * level} {heading}"]
            for paragraph in paragraphs:
                out.append("")
                for d, t in paragraph:
                    if d == 0 and out[-1] != "":
                        out.append("")  # each top-level sentence is a paragraph; deeper ones a list
                    out.append(_line_text(d, t))
        return "\n".join(out)


def sentence(text: str) -> str:
    text = cap(text.strip())
    if text.endswith((":", ".")):
        return text
    return text + "."


def _line_text(depth: int, text: str) -> str:
    if depth == 0:
        return sentence(text)
    return "  " * (depth - 1) + "- " + sentence(text)


def _checked(power: ast.PowerFile | CheckedPower) -> CheckedPower:
    if isinstance(power, CheckedPower):
        return power
    return check(power)


def _heading(variant: ast.Variant) -> str:
    word = cap(variant.kind)
    return f"{word} — {variant.title}" if variant.title else word


def structure(power: ast.PowerFile | CheckedPower, variant: str | None = None) -> CardText:
    checked = _checked(power)
    tree = checked.power
    r = Renderer(checked)
    bound = BINDING_WORDS[tree.binding.kind]
    if tree.binding.kind == "faction" and tree.binding.faction and tree.binding.faction != tree.name:
        bound += f" of {tree.binding.faction}"
    sections: list[tuple[str | None, list[list[Line]]]] = []
    if tree.state:  # every variant shares them
        sections.append((None, [r.state_lines()]))
    if tree.variants:
        chosen = list(tree.variants)
        if variant is not None:
            wanted = variant.strip().lower()
            chosen = [v for v in tree.variants if v.kind == wanted or (v.title or "").lower() == wanted]
            if not chosen:
                names = ", ".join(v.kind + (f" ({v.title})" if v.title else "") for v in tree.variants)
                raise ValueError(f"the power '{tree.name}' has no variant '{variant}'; it has {names}")
        for v in chosen:
            sections.append((_heading(v), r.section(v.hooks, v.rules)))
    else:
        if variant is not None and variant.strip().lower() != "basic":
            raise ValueError(f"the power '{tree.name}' has no variants; it is always played as written")
        sections.append((None, r.section(tree.hooks, tree.rules)))
    return CardText(tree.name, bound, sections)


def card_text(power: ast.PowerFile | CheckedPower, variant: str | None = None) -> str:
    """The English card text of a power: all its variants, or only `variant` (basic, positive, negative or a title)."""
    return structure(power, variant).text()


def load(path: str | Path) -> CheckedPower:
    return check(parse_file(path))


def bundled_power_files() -> list[Path]:
    return sorted(data_dir("powers").glob("*.power"))


def gallery_markdown() -> str:
    parts = [
        "# Every power, in plain English",
        "",
        "<!-- Generated: do not edit. Regenerate with `" + GENERATE_COMMAND + "`. -->",
        "",
        "This page is generated from the power files in `powers/` by `happydayz.language.cardtext`, the engine of",
        "`happydayz explain`: each text is built from the parsed and checked power (its statements, rules",
        "and expressions), not from comments or stored text. A test keeps it in step with the files;",
        f"regenerate it with `{GENERATE_COMMAND}`.",
        "The language is described in [language.md](language.md), the rules in [rules.md](rules.md).",
        "",
        "In the texts, *you* is the Community the power acts for: the winner of the trick for a power",
        "that acts when a trick is won, each Community in turn at the end of the round (for a card's",
        "power, the Community whose Expedition zone holds the card).",
    ]
    for path in bundled_power_files():
        parts += ["", f"## `{path.name}`", "", structure(load(path)).markdown()]
    return "\n".join(parts) + "\n"


def write_golden(directory: str | Path) -> list[Path]:
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for path in bundled_power_files():
        target = directory / f"{path.stem}.txt"
        write_atomic(target, card_text(load(path)) + "\n")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--write-golden"]:
        if len(argv) != 2:
            print("usage: python -m happydayz.language.cardtext --write-golden DIRECTORY", file=sys.stderr)
            return 2
        for target in write_golden(argv[1]):
            print(target)
        return 0
    if argv:
        variant = None
        if "--variant" in argv:
            i = argv.index("--variant")
            if i + 1 >= len(argv):
                print("--variant needs basic, positive or negative", file=sys.stderr)
                return 2
            variant = argv[i + 1]
            del argv[i:i + 2]
        for path in argv:
            print(card_text(load(path), variant))
        return 0
    sys.stdout.write(gallery_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
