"""The syntax tree of a power file: frozen dataclasses, each with its span.

Lark's trees stop at the parser: the checker, the compiler and the renderer
only ever see these classes. Each grammar alias maps to one class here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from dataclasses import dataclass
from typing import Any

from happydayz.base.errors import Diagnostic, Span

VARIANTS = ("basic", "positive", "negative")  # the variant kinds of a Faction's power
# The moments a hook runs at (Hook.timing) and the rules of a Faction's cards (Rule.kind), as the parser makes them.
HOOK_TIMINGS = ("win", "play", "lead", "trick", "after_trick", "start_of_round", "after_transfer", "end_of_round",
                "end_of_game", "enter_expedition", "enter_hand")
RULE_KINDS = ("always_playable", "never_leads", "trumps", "blocks_led_power", "face_up", "carried_over", "wins",
              "never_wins", "wild", "beats", "leads_only_when", "only_leads", "must_be_played", "bids_only_when",
              "must_beat", "must_trump", "counts_as")
# The yes/no rules that may take a condition (`rule always playable when C`): compiled as KIND_when.
CONDITIONAL_FLAGS = ("always_playable", "never_leads")

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Node:
    span: Span


@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class FactionLit(Node):
    name: str


@dataclass(frozen=True)
class NameRef(Node):
    name: str


@dataclass(frozen=True)
class BareAttr(Node):
    """`value`, `survivors` or `faction` of the element a condition is about."""

    attr: str


@dataclass(frozen=True)
class AttrOf(Node):
    attr: str
    target: Node


@dataclass(frozen=True)
class ZoneRef(Node):
    zone: str  # hand, transfer, held, expedition
    owner: Node | None  # None: the acting Community


@dataclass(frozen=True)
class Neighbour(Node):
    side: str  # left, right
    of: Node | None


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Comprehension(Node):
    function: str  # sum, min, max
    body: Node
    var: str
    source: Node


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Arith(Node):
    op: str  # + - * /
    left: Node
    right: Node


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Logic(Node):
    op: str  # and, or
    left: Node
    right: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str  # == != < <= > >= in "not in"  ("is" is "==", "is not" is "!=")
    left: Node
    right: Node


@dataclass(frozen=True)
class Where(Node):
    source: Node
    condition: Compare


@dataclass(frozen=True)
class Except(Node):
    source: Node
    removed: Node


@dataclass(frozen=True)
class Otherwise(Node):
    first: Node
    fallback: Node


@dataclass(frozen=True)
class WithExtreme(Node):
    source: Node
    extreme: str  # most, fewest, strictly most, strictly fewest
    key: Node


@dataclass(frozen=True)
class StateOf(Node):
    """A lasting counter or mark of one Community: `points of winner`."""

    name: str
    owner: Node


# ----------------------------------------------------------------- statements


@dataclass(frozen=True)
class Block(Node):
    statements: tuple[Node, ...]


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class SetVar(Node):
    name: str
    value: Node


@dataclass(frozen=True)
class Choose(Node):
    mode: str  # one, exactly, up_to
    count: int
    name: str
    source: Node
    chooser: Node | None
    body: Block
    otherwise: Block | None  # run when there was nothing to choose


@dataclass(frozen=True)
class Ask(Node):
    prompt: str
    chooser: Node | None
    yes: Block
    no: Block | None


@dataclass(frozen=True)
class If(Node):
    condition: Node
    then: Block
    otherwise: Block | None  # an `else if` is a Block holding one If


@dataclass(frozen=True)
class Each(Node):
    name: str
    source: Node
    simultaneous: bool
    body: Block


@dataclass(frozen=True)
class Repeat(Node):
    count: int
    body: Block


@dataclass(frozen=True)
class Dest(Node):
    kind: str  # hand, transfer, expedition, reserve_top, reserve_bottom, discard
    owner: Node | None


@dataclass(frozen=True)
class Move(Node):
    cards: Node
    dest: Dest


@dataclass(frozen=True)
class Draw(Node):
    count: Node
    whom: Node | None


@dataclass(frozen=True)
class SortKey(Node):
    direction: str  # highest, lowest
    attr: str


@dataclass(frozen=True)
class Deal(Node):
    cards: Node
    to: Node
    order: tuple[SortKey, ...]


@dataclass(frozen=True)
class Score(Node):
    sign: int  # +1 gain, -1 lose
    amount: Node
    whom: Node | None


@dataclass(frozen=True)
class NextLeader(Node):
    who: Node


@dataclass(frozen=True)
class NextLead(Node):
    faction: Node


@dataclass(frozen=True)
class NextSide(Node):
    """`next side minus`: the next trick is played on that side (its leader chooses only the card)."""

    side: Node


@dataclass(frozen=True)
class NobodyTakes(Node):
    """`nobody takes trick to discard`: the trick on the table is won by nobody; its cards go to `dest`."""

    dest: Dest | None  # None: the discard pile


@dataclass(frozen=True)
class SetState(Node):
    """`set points of winner = 3`; `set points = 3` is a SetVar the checker finds to name a state."""

    name: str
    owner: Node
    value: Node


@dataclass(frozen=True)
class AddState(Node):
    """`add 1 to points of winner`: a counter goes up (or down, by a negative amount)."""

    amount: Node
    name: str
    owner: Node | None  # None: the acting Community's (or the game's, for a counter per game)


@dataclass(frozen=True)
class ModeOption(Node):
    text: str  # what the player reads
    body: Block


@dataclass(frozen=True)
class ChooseMode(Node):
    """`choose "Take the trick" { ... } or "Pass" { ... }`: one of several courses, each worded."""

    chooser: Node | None
    options: tuple[ModeOption, ...]


@dataclass(frozen=True)
class Declare(Node):
    """`declare played as f`: for the rest of the trick the card counts as that Faction."""

    card: Node
    faction: Node


@dataclass(frozen=True)
class SetSide(Node):
    value: Node | None  # None: flip the side


@dataclass(frozen=True)
class End(Node):
    what: str  # trick, round, game


# ---------------------------------------------------------- hooks and powers


@dataclass(frozen=True)
class Hook(Node):
    timing: str  # one of HOOK_TIMINGS
    body: Block


@dataclass(frozen=True)
class Rule(Node):
    kind: str  # one of RULE_KINDS
    condition: Node | None = None
    counts_as: Node | None = None  # `rule counts as FACTION ranked VALUE when C`: the Faction
    ranked: Node | None = None  # ... and the value


@dataclass(frozen=True)
class StateDecl(Node):
    kind: str  # counter (a Number) or mark (Yes/No)
    name: str
    per_community: bool
    lifetime: str  # round, game
    visibility: str  # public, secret (seen by its owner only)
    option: int | bool | None = None  # a scenario option (`option NAME = DEFAULT`): its default; never set in play
    holds: str | None = None  # a mark's `: TYPE` (Faction, Card, Community, Side); None: a Number or a Yes/No
    shared: str = ""  # "declares" (`shared ...`, one state of the game) or "uses" (`uses ...`); "": the power's own


@dataclass(frozen=True)
class Variant(Node):
    kind: str  # basic, positive, negative
    title: str | None
    hooks: tuple[Hook, ...]
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Binding(Node):
    kind: str  # faction, card, added
    faction: str | None


@dataclass(frozen=True)
class PowerFile(Node):
    name: str
    binding: Binding
    variants: tuple[Variant, ...]  # empty for a fixed power
    hooks: tuple[Hook, ...]  # a fixed power's own hooks
    rules: tuple[Rule, ...]
    source: str  # the text, for diagnostics
    state: tuple[StateDecl, ...] = ()


# ------------------------------------------------------------ kinds of node
# Which walker must handle which classes (tests/language/test_walkers.py checks each).

EXPRESSIONS: tuple[type[Node], ...] = (IntLit, FactionLit, NameRef, BareAttr, AttrOf, ZoneRef, Neighbour, Call,
                                       Comprehension, ListLit, Arith, Neg, Logic, Not, Compare, Where, Except,
                                       Otherwise, WithExtreme, StateOf)
EFFECTS: tuple[type[Node], ...] = (Move, Draw, Deal, Score, NextLeader, NextLead, SetState, AddState, Declare, SetSide,
                                   End, NextSide, NobodyTakes)  # the statements that change the game
STATEMENTS: tuple[type[Node], ...] = (Let, SetVar, Choose, ChooseMode, Ask, If, Each, Repeat) + EFFECTS
PARTS: tuple[type[Node], ...] = (Block, Dest, SortKey, ModeOption, Hook, Rule, StateDecl, Variant, Binding,
                                 PowerFile)  # the rest of a file
NODE_CLASSES: dict[str, type[Node]] = {cls.__name__: cls for cls in EXPRESSIONS + STATEMENTS + PARTS}

# ---------------------------------------------------------------- walking
# Walks that treat every node alike, by its fields; a walk that depends on the
# node's class is a Visitor (visitor.py).


#: The deepest a syntax tree may nest (the file, its hooks and blocks, its expressions, down to a literal):
#: far beyond any real power. The parser refuses a deeper one (S013); every pass that walks a tree
#: recursively does so within `room_to_recurse`, so none meets Python's recursion limit below it.
MAX_NESTING = 256
_FRAMES_PER_LEVEL = 6  # the most Python frames a pass (checker, compiler, code generator) spends on one level


@contextlib.contextmanager
def room_to_recurse():
    """Python's recursion limit raised, while a pass walks a tree, by what MAX_NESTING levels may take.

    (Python calls Python without the C stack since 3.11: a higher limit costs no C stack.)
    """
    old = sys.getrecursionlimit()
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    sys.setrecursionlimit(max(old, depth + _FRAMES_PER_LEVEL * MAX_NESTING + 200))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def walk(node: Node):
    """`node` and every node below it, depth first."""
    yield node
    for child in children(node):
        yield from walk(child)


def children(node: Node):
    """The nodes right below `node`, in the order of its fields."""
    for name in node.__dataclass_fields__:
        if name != "span":
            yield from _nodes_in(getattr(node, name))


def _nodes_in(value: object):
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def strip_spans(node: Any) -> Any:
    """A syntax tree as plain nested tuples, without spans nor a file's text: equal for the same code."""
    if isinstance(node, Node):
        return (type(node).__name__,) + tuple(
            (f.name, strip_spans(getattr(node, f.name)))
            for f in dataclasses.fields(node)
            if f.name != "span" and not (f.name == "source" and isinstance(node, PowerFile))
        )
    if isinstance(node, (tuple, list)):
        return tuple(strip_spans(n) for n in node)
    return node


def too_deep(filename: str) -> Diagnostic:
    """The error for a file whose syntax tree is too deep to walk (Python's recursion limit)."""
    return Diagnostic(Span(filename, 1, 1), "the code is nested too deeply to read (hundreds of levels); "
                      "split it into simpler statements", "S013")
