"""The prompts of decisions: expressions of the power language in short, literal English.

"Choose one (target) from the other Communities". The card text of a whole
power (cardtext.py) is written for reading and says more; both take their
words from english.py.
"""

from __future__ import annotations

from happydayz.language import ast
from happydayz.language.english import COMPARISON_WORDS, NAMES, ZONE_WORDS
from happydayz.language.visitor import Visitor

# A call of one argument: "the number of your hand". With a count ("highest(hand, 2)"), the same
# word without "the" and "of": "2 cards highest of your hand".
_CALL_WORDS = {"count": "the number of", "random": "at random from", "first": "the first of", "last": "the last of",
               "highest": "the highest of", "lowest": "the lowest of", "population": "the Survivors of"}
_CALLS_WITH_A_COUNT = ("highest", "lowest", "first", "last", "random")


class _Words(Visitor):
    """An expression in words; UnknownNode for anything else (a statement is never a prompt)."""

    def owner(self, node: ast.Node | None) -> str:
        return "your" if node is None else f"{self.visit(node)}'s"

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
        if n.function in _CALL_WORDS and len(n.args) == 1:
            return f"{_CALL_WORDS[n.function]} {args}"
        if n.function in _CALLS_WITH_A_COUNT and len(n.args) == 2:
            word = _CALL_WORDS[n.function].replace("the ", "").replace(" of", "")
            return f"{self.visit(n.args[1])} cards {word} of {self.visit(n.args[0])}"
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
            return f"the {self.visit(c.right)} in {self.visit(n.source)}"
        return f"{self.visit(n.source)} where {self.visit(c)}"

    def visit_Except(self, n: ast.Except) -> str:
        return f"{self.visit(n.source)} except {self.visit(n.removed)}"

    def visit_Otherwise(self, n: ast.Otherwise) -> str:
        return f"{self.visit(n.first)}, or if none, {self.visit(n.fallback)}"

    def visit_WithExtreme(self, n: ast.WithExtreme) -> str:
        return f"those of {self.visit(n.source)} with the {n.extreme} {self.visit(n.key)}"

    # ---- issue 14: a Community's counter or mark
    def visit_StateOf(self, n: ast.StateOf) -> str:
        return f"the {n.name.replace('_', ' ')} of {self.visit(n.owner)}"


_WORDS = _Words()


def expr(n: ast.Node) -> str:
    """An expression in words: "your hand where its value is more than 3"."""
    return _WORDS.visit(n)


def describe_choice(s: ast.Choose) -> str:
    what = {"one": "one", "exactly": str(s.count), "up_to": f"up to {s.count}"}[s.mode]
    return f"Choose {what} ({s.name}) from {expr(s.source)}"


def describe_mode(s: ast.ChooseMode) -> str:
    """The prompt of a choice between courses: "Choose one: Take 3, or Pass"."""
    return "Choose one: " + ", or ".join(option.text for option in s.options)


# ---- issue 14: the functions that read the trick, in the words of a prompt ("the Community that played x").
_CALL_WORDS.update({"player": "the Community that played", "position": "the position in the trick of",
                    "tricks": "the number of tricks won this round by"})
