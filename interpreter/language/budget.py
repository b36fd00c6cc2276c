"""The one step budget of all the work a power does, at run time and as `check` estimates it.

A hook's run and a rule's evaluation each have MAX_STEPS steps. A step is a turn
of a statement loop (`each`, `repeat`: the VM counts its jumps) or an element that
an expression walks while evaluating a power's expression for it (`sum(... for v
in ...)`, `min`, `max`, `where` with a condition on `it`, `with most`): such a loop
is charged its length before it starts, in the compiler's closures and in the
generated code alike (`spend`). Any other work of an expression is bounded by the
size of the groups it reads, so counting these loops bounds the whole run. A power
that spends its budget stops the game with R001, at the loop that ran out.

`check` estimates the same count from the file alone (language.checker, W012)
with the group sizes below; a file whose estimate exceeds the budget gets a warning.
"""

from __future__ import annotations

from typing import Callable

from happydayz.base.errors import Diagnostic, GameRuleError, Span
from happydayz.language import ast

MAX_STEPS = 100_000  # per hook run and per rule evaluation; far beyond any real power
MAX_ROUND_STEPS = 1_000_000  # all the hooks of one round together: a chain of hooks stops too

# The sizes `check` assumes for a group when it estimates a power's work (documented in docs/language.md).
ESTIMATED_CARDS = 100  # cards of a group (a whole deck is rarely larger)
ESTIMATED_COMMUNITIES = 6  # Communities (the most players a box deals for)
ESTIMATED_FACTIONS = 12  # Factions in play


def out_of_steps(power: str, span: Span, whole_round: bool = False) -> GameRuleError:
    """R001 for a power (its name) that spent its budget, at `span` (the loop or the hook that ran out).

    `whole_round`: it is the round's budget that the hooks of the round spent together.
    """
    who = f"the hooks of this round took more than {MAX_ROUND_STEPS:,}" if whole_round else \
        f"it took more than {MAX_STEPS:,}"
    return GameRuleError(Diagnostic(span, f"the power '{power}' ran for too long and was stopped", "R001",
                                    hint=f"{who} steps (turns of loops and elements walked by expressions); "
                                         "see 'The step budget' in docs/language.md"))


def spend(ctx, items, where: tuple[str, Span]):
    """Charge `len(items)` steps to the hook or rule `ctx` runs; give back `items` (a tuple) to walk.

    `where`: (the power's name, the span of the loop), for R001.
    """
    steps = ctx.steps + len(items)
    ctx.steps = steps
    if steps > MAX_STEPS:
        raise out_of_steps(*where)
    return items


_CEILING = 10**12  # estimates are cut here: what matters is whether they pass MAX_STEPS


def estimate(node: ast.Node, size_of: Callable[[ast.Node], int]) -> int:
    """The most steps a hook's body (or a rule's condition) can spend, with `size_of(group)` its most elements.

    Counted as at run time: a loop walks its source's elements and spends one step for each
    (a statement loop's jump, or an element an expression walks), its body once per element;
    every `where` is counted, and both sides of an `if`, so this is a bound, not a guess.
    """
    def cost(n: ast.Node) -> int:
        loop = _LOOPS.get(type(n))
        if loop is None:
            return min(sum(cost(child) for child in ast.children(n)), _CEILING)
        if isinstance(n, ast.Repeat):
            turns, before = n.count, 0
        else:
            turns, before = size_of(n.source), cost(n.source)
        return min(before + turns * (1 + cost(getattr(n, loop))), _CEILING)

    return cost(node)


# The loops that spend steps, with the field that runs once per element.
_LOOPS = {ast.Comprehension: "body", ast.Where: "condition", ast.WithExtreme: "key", ast.Each: "body",
          ast.Repeat: "body"}


__all__ = ["estimate", "ESTIMATED_CARDS", "ESTIMATED_COMMUNITIES", "ESTIMATED_FACTIONS", "MAX_ROUND_STEPS", "MAX_STEPS",
           "out_of_steps", "spend"]
