"""English words for expressions and statements of the power language.

Used for the prompts of decisions; the card text of a whole power builds on it.
"""

from __future__ import annotations

from happydayz.language import ast

_ZONE_WORDS = {"hand": "hand", "transfer": "Transfer zone", "held": "hand and Transfer zone", "expedition": "Expedition zone"}
_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least",
        "in": "is among", "not in": "is not among"}
_NAMES = {
    "self": "you", "others": "the other Communities", "everyone": "every Community", "factions": "the Factions in play",
    "reserve": "the Reserve", "trick": "the cards of this trick", "encounter": "the Encounter card",
    "led": "the Faction led", "leader": "the Community that led", "this": "this card", "played": "the card played",
    "void": "its player has no card of the Faction led", "round": "the round number", "players": "the number of Communities",
    "it": "it", "true": "yes", "false": "no", "side": "the side of the board",
}


def owner_words(node: ast.Node | None) -> str:
    if node is None:
        return "your"
    return f"{expr(node)}'s"


def expr(n: ast.Node) -> str:
    if isinstance(n, ast.IntLit):
        return str(n.value)
    if isinstance(n, ast.FactionLit):
        return n.name
    if isinstance(n, ast.NameRef):
        return _NAMES.get(n.name, n.name)
    if isinstance(n, ast.BareAttr):
        return f"its {n.attr}"
    if isinstance(n, ast.AttrOf):
        return f"the {n.attr} of {expr(n.target)}"
    if isinstance(n, ast.ZoneRef):
        return f"{owner_words(n.owner)} {_ZONE_WORDS[n.zone]}"
    if isinstance(n, ast.Neighbour):
        who = "your" if n.of is None else f"{expr(n.of)}'s"
        return f"{who} {n.side} neighbour"
    if isinstance(n, ast.Call):
        args = ", ".join(expr(a) for a in n.args)
        words = {"count": "the number of", "random": "at random from", "first": "the first of", "last": "the last of",
                 "highest": "the highest of", "lowest": "the lowest of", "population": "the Survivors of"}
        if n.function in words and len(n.args) == 1:
            return f"{words[n.function]} {args}"
        if n.function in ("highest", "lowest", "first", "last", "random") and len(n.args) == 2:
            return f"{expr(n.args[1])} cards {words[n.function].replace('the ', '').replace(' of', '')} of {expr(n.args[0])}"
        return f"the {n.function} of {args}"
    if isinstance(n, ast.Comprehension):
        return f"the {n.function} of {expr(n.body)} for each {n.var} in {expr(n.source)}"
    if isinstance(n, ast.ListLit):
        return " and ".join(expr(i) for i in n.items)
    if isinstance(n, ast.Arith):
        return f"{expr(n.left)} {n.op} {expr(n.right)}"
    if isinstance(n, ast.Neg):
        return f"minus {expr(n.operand)}"
    if isinstance(n, ast.Logic):
        return f"{expr(n.left)} {n.op} {expr(n.right)}"
    if isinstance(n, ast.Not):
        return f"not ({expr(n.operand)})"
    if isinstance(n, ast.Compare):
        return f"{expr(n.left)} {_OPS[n.op]} {expr(n.right)}"
    if isinstance(n, ast.Where):
        c = n.condition
        if isinstance(c.left, ast.BareAttr) and c.left.attr == "faction" and c.op == "==":
            return f"the {expr(c.right)} in {expr(n.source)}"
        return f"{expr(n.source)} where {expr(c)}"
    if isinstance(n, ast.Except):
        return f"{expr(n.source)} except {expr(n.removed)}"
    if isinstance(n, ast.Otherwise):
        return f"{expr(n.first)}, or if none, {expr(n.fallback)}"
    if isinstance(n, ast.WithExtreme):
        return f"those of {expr(n.source)} with the {n.extreme} {expr(n.key)}"
    return type(n).__name__


def describe_choice(s: ast.Choose) -> str:
    what = {"one": "one", "exactly": str(s.count), "up_to": f"up to {s.count}"}[s.mode]
    return f"Choose {what} ({s.name}) from {expr(s.source)}"
