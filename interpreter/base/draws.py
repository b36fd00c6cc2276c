"""Random draws exactly as `random.Random`'s own methods make them, without a method call per draw.

A bot's search draws thousands of times per decision (a shuffle per sampled
state, a tie-break or a random pick per playout move). `random.Random.shuffle`,
`randrange(n)` and `choice` are Python code that calls `_randbelow` once per
draw; these functions inline that loop. They give the same result and leave
the generator in the same state, so a seeded bot decides as it did with the
methods — which is checked against the methods when this module is loaded:
if a Python version draws otherwise, the methods themselves are used. A
subclass of random.Random (which may draw otherwise) always gets its methods.
"""

from __future__ import annotations

import random


def _randbelow(rng: random.Random, n: int) -> int:
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle(rng: random.Random, x: list) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _inlined_draws_are_exact() -> bool:
    for seed in range(3):
        a, b = random.Random(seed), random.Random(seed)
        xs, ys = list(range(70)), list(range(70))
        a.shuffle(xs)
        _shuffle(b, ys)
        picks = [a.randrange(n) for n in range(1, 40)] + [a.choice(xs) for _ in range(5)]
        again = [_randbelow(b, n) for n in range(1, 40)] + [ys[_randbelow(b, len(ys))] for _ in range(5)]
        if xs != ys or picks != again or a.getstate() != b.getstate():
            return False
    return True


_EXACT = _inlined_draws_are_exact()


def shuffle(rng: random.Random, x: list) -> None:
    """`rng.shuffle(x)`: the same order, the same draws."""
    if _EXACT and type(rng) is random.Random:
        _shuffle(rng, x)
    else:
        rng.shuffle(x)


def randbelow(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0: the same number, the same draws."""
    if _EXACT and type(rng) is random.Random:
        return _randbelow(rng, n)
    return rng.randrange(n)


def choice(rng: random.Random, seq):
    """`rng.choice(seq)` for a non-empty sequence: the same item, the same draws."""
    return seq[randbelow(rng, len(seq))]


__all__ = ["shuffle", "randbelow", "choice"]
