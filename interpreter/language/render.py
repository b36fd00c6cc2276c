"""The prompts of decisions: what a power asks, in plain English, naming the power.

"Goblins (SHARING): choose the Community that takes the cards of this
trick". `Prompts` words every choice of a checked power once, when it is
compiled: it walks each hook as the card text does (cardtext.py, whose
words it borrows), and says each choice to the Community that makes it,
with what the choice is for. `expr` and `describe_choice` are the short
literal words of an expression and of a choice met out of any context.
Both take their words from english.py.
"""

from __future__ import annotations

from dataclasses import fields, replace

from happydayz.language import ast
from happydayz.language.cardtext import SELF, Ctx, Renderer, Var, Who
from happydayz.language.checker import CARD, COMMUNITY, FACTION, CheckedPower
from happydayz.language.english import COMPARISON_WORDS, NAMES, ZONE_WORDS, article, join_words, variant_label
from happydayz.language.visitor import Visitor

# A call of one argument: "the highest of your hand"; with a count ("highest(hand, 2)"): "the 2 highest cards of
# your hand".
_CALL_WORDS = {"count": "the number of", "random": "at random from", "first": "the first of", "last": "the last of",
               "highest": "the highest of", "lowest": "the lowest of", "population": "the Survivors of"}
_CALLS_WITH_A_COUNT = {"highest": "the {n} highest cards of", "lowest": "the {n} lowest cards of",
                       "first": "the first {n} cards of", "last": "the last {n} cards of",
                       "random": "{n} cards at random from"}


class _Words(Visitor):
    """An expression in words; UnknownNode for anything else (a statement is never a prompt)."""

    def owner(self, node: ast.Node | None) -> str:
        words = "you" if node is None else self.visit(node)
        return _POSSESSIVES.get(words, f"{words}'s")

    def visit_IntLit(self, n: ast.IntLit) -> str:
        return str(n.value)

    def visit_FactionLit(self, n: ast.FactionLit) -> str:
        return n.name

    def visit_NameRef(self, n: ast.NameRef) -> str:
        return NAMES.get(n.name, n.name)

    def visit_BareAttr(self, n: ast.BareAttr) -> str:
        return f"its {n.attr}"

    def visit_AttrOf(self, n: ast.AttrOf) -> str:
        return f"the {n.attr} of {self.visit(n.target)}"

    def visit_ZoneRef(self, n: ast.ZoneRef) -> str:
        return f"{self.owner(n.owner)} {ZONE_WORDS[n.zone]}"

    def visit_Neighbour(self, n: ast.Neighbour) -> str:
        return f"{self.owner(n.of)} {n.side} neighbour"

    def visit_Call(self, n: ast.Call) -> str:
        args = ", ".join(self.visit(a) for a in n.args)
        if n.function == "numbers" and len(n.args) == 2:
            return f"a number from {self.visit(n.args[0])} to {self.visit(n.args[1])}"
        if n.function == "count" and len(n.args) == 1 and isinstance(n.args[0], ast.ZoneRef):
            return f"the number of cards in {args}"
        if n.function in _CALL_WORDS and len(n.args) == 1:
            return f"{_CALL_WORDS[n.function]} {args}"
        if n.function in _CALLS_WITH_A_COUNT and len(n.args) == 2:
            return f"{_CALLS_WITH_A_COUNT[n.function].format(n=self.visit(n.args[1]))} {self.visit(n.args[0])}"
        return f"the {n.function} of {args}"

    def visit_Comprehension(self, n: ast.Comprehension) -> str:
        return f"the {n.function} of {self.visit(n.body)} for each {n.var} in {self.visit(n.source)}"

    def visit_ListLit(self, n: ast.ListLit) -> str:
        return " and ".join(self.visit(i) for i in n.items)

    def visit_Arith(self, n: ast.Arith | ast.Logic) -> str:
        return f"{self.visit(n.left)} {n.op} {self.visit(n.right)}"

    visit_Logic = visit_Arith

    def visit_Neg(self, n: ast.Neg) -> str:
        return f"minus {self.visit(n.operand)}"

    def visit_Not(self, n: ast.Not) -> str:
        return f"not ({self.visit(n.operand)})"

    def visit_Compare(self, n: ast.Compare) -> str:
        return f"{self.visit(n.left)} {COMPARISON_WORDS[n.op]} {self.visit(n.right)}"

    def visit_Where(self, n: ast.Where) -> str:
        c = n.condition
        if isinstance(c.left, ast.BareAttr) and c.left.attr == "faction" and c.op == "==":
            cards = c.right.name if isinstance(c.right, ast.FactionLit) else f"cards of {self.visit(c.right)}"
            return f"the {cards} in {self.visit(n.source)}"
        return f"{self.visit(n.source)} where {self.visit(c)}"

    def visit_Except(self, n: ast.Except) -> str:
        return f"{self.visit(n.source)} except {self.visit(n.removed)}"

    def visit_Otherwise(self, n: ast.Otherwise) -> str:
        return f"{self.visit(n.first)}, or if none, {self.visit(n.fallback)}"

    def visit_WithExtreme(self, n: ast.WithExtreme) -> str:
        return f"those of {self.visit(n.source)} with the {n.extreme} {self.visit(n.key)}"

    # ---- issue 14: a Community's counter or mark
    def visit_StateOf(self, n: ast.StateOf) -> str:
        if n.name in ("partner", "team"):  # the hand's teams: "your partner", "the team of Community 2"
            return f"{self.owner(n.owner)} {n.name}"
        return f"the {n.name.replace('_', ' ')} of {self.visit(n.owner)}"


_WORDS = _Words()
_POSSESSIVES = {"you": "your", "it": "its"}


def expr(n: ast.Node) -> str:
    """An expression in words: "your hand where its value is more than 3"."""
    return _WORDS.visit(n)


def describe_choice(s: ast.Choose) -> str:
    """A choice in short words, out of any context: "choose one from the other Communities"."""
    what = {"one": "one", "exactly": str(s.count), "up_to": f"up to {s.count}"}[s.mode]
    return f"choose {what} from {expr(s.source)}"


def describe_mode(s: ast.ChooseMode) -> str:
    """A choice between courses, in the words of its courses: 'choose “Take 3” or “Pass”'."""
    return "choose " + join_words([f"“{option.text}”" for option in s.options], "or")


# ---- issue 14: the functions that read the trick, in the words of a prompt ("the Community that played x").
_CALL_WORDS.update({"player": "the Community that played", "position": "the position in the trick of",
                    "tricks": "the number of tricks won this round by", "bid_of": "the bid in the auction of"})


# ------------------------------------------------------------------ the prompts of a power

_SELF_REF = ast.NameRef(None, "self")  # whom a zone without an owner belongs to
_NOUNS = {CARD: ("card", "cards"), COMMUNITY: ("Community", "Communities"), FACTION: ("Faction", "Factions")}


class Prompts:
    """The prompt of every choice (`choose`, `ask`, a choice of courses) of a checked power, worded on first use
    and looked up by node.

    A prompt names the power and its variant as a player names them ("Goblins (GREED)", "Goblins (+)",
    "Goblins") and says the choice in the card text's words. A choice that cannot be worded in context
    (a node of no hook of this power) gets `describe_choice`'s short words.
    """

    def __init__(self, checked: CheckedPower):
        self.checked = checked
        self._found: dict[int, str] | None = None
        self._labels: dict[int, str] = {}

    def choice(self, s: ast.Choose) -> str:
        return self._all().get(id(s)) or f"{self._label(s)}: {describe_choice(s)}"

    def ask(self, s: ast.Ask) -> str:
        return f"{self._label(s)}: {s.prompt}"

    def mode(self, s: ast.ChooseMode) -> str:
        return f"{self._label(s)}: {describe_mode(s)}"

    def _label(self, s: ast.Node) -> str:
        self._all()
        return self._labels.get(id(s), self.checked.power.name)

    def _all(self) -> dict[int, str]:
        if self._found is None:
            power = self.checked.power
            words = _PromptWords(self.checked)
            sections = [(v.kind, v.title, v.hooks) for v in power.variants] or [("fixed", None, power.hooks)]
            for kind, title, hooks in sections:
                for hook in hooks:
                    words.start(variant_label(power.name, kind, title), hook.timing)
                    for node in ast.walk(hook.body):
                        if isinstance(node, (ast.Choose, ast.Ask, ast.ChooseMode)):
                            self._labels[id(node)] = words.label
                    words.walk(hook.body.statements, Ctx(words.types))
            self._found = words.found
        return self._found


class _PromptWords(Renderer):
    """The card text's words, said to the Community that must choose.

    It walks a hook as the card text does, binding each `let`, `each` and `choose`, and words each
    choice it meets from its chooser's side: the chooser is "you", a card chosen before is "the
    chosen card", and what the choice is for comes from the first statement that uses it.
    """

    def __init__(self, checked: CheckedPower):
        super().__init__(checked)
        self.found: dict[int, str] = {}
        self.label = ""
        self.acting = Who("the winner", "the winner", "the winner's")  # `self`, said to another chooser
        self.viewer: ast.Node | None = None  # the Community choosing, while a prompt is worded
        self.chosen: set[str] = set()  # names bound by a choice (or by `each` over one)
        self.picked: set[str] = set()  # names of cards picked at random by a `let`

    def start(self, label: str, timing: str) -> None:
        """A new hook: its power's label, and who `self` is for it."""
        self.label = label
        words = "the winner" if timing == "win" else "the acting Community"
        self.acting = Who(words, words, f"{words}'s")
        self.chosen, self.picked = set(), set()

    # ---------------------------------------------------------------- the walk
    def walk(self, statements: tuple[ast.Node, ...], ctx: Ctx) -> None:
        """Word every choice of `statements`, binding their names as the card text does."""
        for i, s in enumerate(statements):
            if isinstance(s, ast.Let):
                if any(isinstance(n, ast.Call) and n.function == "random" for n in ast.walk(s.value)):
                    self.picked.add(s.name)
                ctx = _attempt(lambda: self.let(s, statements[i + 1:], ctx)[1]) or ctx
            elif isinstance(s, ast.Choose):
                what = _attempt(lambda: self.choice(s, ctx))
                if what is not None:
                    self.found[id(s)] = f"{self.label}: choose {what}"
                self.chosen.add(s.name)
                var = Var(s.name, self.element_of(s.source), many=s.mode != "one", ordered=s.mode != "one")
                self.walk(s.body.statements, ctx.bind(var))
                if s.otherwise is not None:
                    self.walk(s.otherwise.statements, ctx)
            elif isinstance(s, ast.Each):
                element = self.element_of(s.source)
                if element == COMMUNITY:
                    inner = ctx.bind(Var(s.name, COMMUNITY), recent=False, actor=s.name)
                else:
                    inner = ctx.bind(Var(s.name, element))
                    if _named(s.source, self.chosen):
                        self.chosen.add(s.name)
                self.walk(s.body.statements, inner)
            else:
                for block in _blocks(s):
                    self.walk(block.statements, ctx)

    def let(self, s: ast.Let, rest: tuple[ast.Node, ...], ctx: Ctx):
        """A prompt is read out of context: a `let` is said as its expression where it is used (what is
        chosen, from where), never by the name of the variable; a card picked at random stays "that card"."""
        if s.name in self.picked:
            return super().let(s, rest, ctx)
        return [], ctx.bind(self.let_var(s, inline=s.value), recent=False)

    # ---------------------------------------------------------------- one choice
    def choice(self, s: ast.Choose, ctx: Ctx) -> str:
        """What to choose, and what for: "a card from your hand or Transfer zone to put at the bottom of the
        Reserve"."""
        self.viewer = s.chooser or _SELF_REF
        try:
            ctx = replace(ctx, actor=None, recent=None, it=None, pre=[])
            group = self.group(s.source, ctx)
            if s.mode == "exactly" and group.size == s.count:
                what = f"{group.definite()}, one at a time"  # every card of the group: only their order is chosen
            else:
                what = group.a_one() if s.mode == "one" else group.some(s.count, s.mode == "up_to")
            element = self.element_of(s.source)
            use = _first_use(s.body.statements, {s.name}, {})
            if use is None:
                return what
            statement, nested, names = use
            many = s.mode != "one"  # the purpose names what is chosen "it" / "them", never by its variable
            ctx = ctx.bind(Var(s.name, element, many, label="them" if many else "it"), recent=False)
            if element == COMMUNITY and s.mode == "one":
                verb = self.community_verb(statement, s.name, ctx)
                if verb is None:
                    return what
                if _named(s.source, {"everyone"}):
                    return f"the Community that {verb[1]}"
                return f"{what} to {verb[0]}"
            if element == CARD and isinstance(statement, ast.Move) and _named(statement.cards, names):
                comma = "," if what.endswith("one at a time") else ""
                return f"{what}{comma} {self.card_purpose(statement, s, nested, ctx)}"
            if element == FACTION and isinstance(statement, ast.NextLead):
                return f"{what} as the Faction led of the next trick"
            return what
        finally:
            self.viewer = None

    def card_purpose(self, move: ast.Move, s: ast.Choose, nested: dict[str, ast.Choose], ctx: Ctx) -> str:
        d = move.dest
        if d.kind == "discard":
            return "to discard"
        if d.kind == "reserve_top":
            return "to put on top of the Reserve" + (", the first one chosen on top" if s.mode != "one" else "")
        if d.kind == "reserve_bottom":
            return "to put at the bottom of the Reserve"
        if isinstance(d.owner, ast.NameRef) and d.owner.name in nested:  # a Community chosen after the card
            group = self.group(nested[d.owner.name].source, ctx)
            head = group.a_head or f"{article(group.sg)} {group.sg}"
            owner = Who(head, head, f"{head}'s")
        else:
            owner = self.who(d.owner, ctx)
        if owner.is_self:
            return "to take into your hand" if d.kind == "hand" else f"to put into your {ZONE_WORDS[d.kind]}"
        if d.kind == "hand":
            return f"to give to {owner.obj}"
        return f"to move into {owner.owning(ZONE_WORDS[d.kind])}"

    def community_verb(self, statement: ast.Node, name: str, ctx: Ctx) -> tuple[str, str] | None:
        """What the chosen Community does: ("take the Encounter card", "takes the Encounter card")."""
        if isinstance(statement, ast.Move) and _named(statement.dest.owner, {name}):
            cards = self.group(statement.cards, ctx).definite()
            into = "" if statement.dest.kind == "expedition" else f" into its {ZONE_WORDS[statement.dest.kind]}"
            return f"take {cards}{into}", f"takes {cards}{into}"
        if isinstance(statement, ast.NextLeader):
            return "lead the next trick", "leads the next trick"
        if isinstance(statement, ast.Score) and _named(statement.whom, {name}):
            gain = statement.sign > 0
            amount = self.amount(statement.amount, ctx)
            return f"{'gain' if gain else 'lose'} {amount}", f"{'gains' if gain else 'loses'} {amount}"
        if isinstance(statement, ast.Draw) and _named(statement.whom, {name}):
            k = statement.count.value if isinstance(statement.count, ast.IntLit) else None
            what = "the top card of the Reserve" if k == 1 else \
                f"the top {k} cards of the Reserve" if k is not None else "cards from the top of the Reserve"
            return f"draw {what}", f"draws {what}"
        return None

    # ---------------------------------------------------------------- names, from the chooser's side
    def who(self, node: ast.Node | None, ctx: Ctx) -> Who:
        if self.viewer is not None:
            target = _SELF_REF if node is None else node
            if _same(target, self.viewer):
                return SELF
            if _same(target, _SELF_REF):
                return self.acting
            if isinstance(node, ast.NameRef) and node.name in self.chosen:
                v = ctx.vars.get(node.name)
                if v is not None and v.inline is None and v.label is None:
                    return Who("the chosen Community", "the chosen Community", "the chosen Community's")
        return super().who(node, ctx)

    def faction(self, node: ast.Node, ctx: Ctx) -> str:
        if self.viewer is not None and isinstance(node, ast.NameRef) and node.name in self.chosen:
            v = ctx.vars.get(node.name)
            if v is not None and v.inline is None and v.label is None:
                return "the chosen Faction"
        return super().faction(node, ctx)

    def thing_ref(self, v: Var, ctx: Ctx) -> tuple[str, str]:
        if self.viewer is None or v.label is not None:
            return super().thing_ref(v, ctx)
        noun = _NOUNS.get(v.kind, ("thing", "things"))[1 if v.many else 0]
        if v.name in self.picked:
            text = f"the {noun} picked at random"
        elif v.name in self.chosen:
            text = f"the chosen {noun}"
        else:
            text = f"{'those' if v.many else 'that'} {noun}"
        return text, text


def _attempt(words):
    """The words made by `words()`, or None when they cannot be made: a prompt is then the short words (and a
    prompt's words never stop a power from compiling)."""
    try:
        return words()
    except Exception:  # a shape of the language the card text's words do not know (yet)
        return None


def _named(node: ast.Node | None, names: set[str]) -> bool:
    return isinstance(node, ast.NameRef) and node.name in names


def _same(a: ast.Node, b: ast.Node) -> bool:
    """The same expression, wherever it is written."""
    if type(a) is not type(b):
        return False
    for f in fields(a):
        if f.name == "span":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, ast.Node) and isinstance(y, ast.Node):
            if not _same(x, y):
                return False
        elif isinstance(x, ast.Node) or isinstance(y, ast.Node) or x != y:
            return False
    return True


def _first_use(statements: tuple[ast.Node, ...], names: set[str], nested: dict[str, ast.Choose]):
    """The first effect that uses a chosen value (by one of `names`), the choices made on the way there, and the
    names the value goes by there.

    It looks into the choices made after this one and into `each` over the chosen group, so that
    "choose a card ... choose a Community ... move the card to it" finds the move for both choices.
    """
    for s in statements:
        if isinstance(s, ast.Move) and (_named(s.cards, names) or _named(s.dest.owner, names)):
            return s, nested, names
        if (isinstance(s, ast.NextLeader) and _named(s.who, names)) or \
                (isinstance(s, ast.NextLead) and _named(s.faction, names)):
            return s, nested, names
        if isinstance(s, (ast.Score, ast.Draw)) and _named(s.whom, names):
            return s, nested, names
        found = None
        if isinstance(s, ast.Choose):
            found = _first_use(s.body.statements, names, {**nested, s.name: s})
        elif isinstance(s, ast.Each) and _named(s.source, names):
            found = _first_use(s.body.statements, names | {s.name}, nested)
        if found is not None:
            return found
    return None


def _blocks(node: ast.Node):
    """The blocks of statements directly inside a statement (those of an `if`, a `repeat`...)."""
    for f in fields(node):
        value = getattr(node, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, ast.Block):
                yield item
            elif isinstance(item, ast.Node) and f.name != "span":
                yield from _blocks(item)
