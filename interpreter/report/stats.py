"""Small statistics helpers for balance reports: rates and means with 95 % intervals.

Only the standard library is used. Every rate gets a Wilson score interval
(happydayz.base.stats, shared with the simulations that play until their rates
are known closely enough), which stays inside [0, 1] and behaves well for rates
near 0 or 1 and for few games (unlike the textbook "p ± z·sqrt(p(1-p)/n)" interval).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Iterable, Sequence

from happydayz.base.stats import CONFIDENCE, wilson_interval, z_value


@dataclass(frozen=True)
class Rate:
    """A proportion with its Wilson interval."""

    successes: int
    trials: int
    low: float
    high: float

    @property
    def value(self) -> float | None:
        return self.successes / self.trials if self.trials else None

    def record(self) -> dict:
        return {"successes": self.successes, "trials": self.trials, "rate": self.value,
                "low": self.low, "high": self.high}


def rate(successes: int, trials: int, confidence: float = CONFIDENCE) -> Rate:
    low, high = wilson_interval(successes, trials, confidence)
    return Rate(successes, trials, low, high)


@dataclass(frozen=True)
class Mean:
    """A sample mean with a normal-approximation interval (mean ± z·s/√n)."""

    count: int
    mean: float | None
    low: float | None
    high: float | None
    stdev: float | None

    def record(self) -> dict:
        return {"count": self.count, "mean": self.mean, "low": self.low, "high": self.high, "stdev": self.stdev}


def mean_interval(values: Iterable[float], confidence: float = CONFIDENCE) -> Mean:
    """The mean of `values` with its confidence interval.

    The interval uses the normal approximation, which is close for the
    hundreds of games a balance run has; with one value the interval is the
    value itself, with none everything is None.
    """
    data = [float(v) for v in values]
    n = len(data)
    if n == 0:
        return Mean(0, None, None, None, None)
    mean = math.fsum(data) / n
    if n == 1:
        return Mean(1, mean, mean, mean, 0.0)
    variance = math.fsum((x - mean) ** 2 for x in data) / (n - 1)
    stdev = math.sqrt(variance)
    half = z_value(confidence) * stdev / math.sqrt(n)
    return Mean(n, mean, mean - half, mean + half, stdev)


def proportion_z_test(successes: int, trials: int, expected: float) -> float | None:
    """Two-sided p-value that a rate differs from `expected` (normal approximation).

    None when there are no trials or `expected` is 0 or 1.
    """
    if trials == 0 or not 0.0 < expected < 1.0:
        return None
    observed = successes / trials
    z = (observed - expected) / math.sqrt(expected * (1.0 - expected) / trials)
    return 2.0 * (1.0 - NormalDist().cdf(abs(z)))


def median(values: Sequence[float]) -> float:
    """The median of a non-empty sequence."""
    data = sorted(values)
    if not data:
        raise ValueError("median of no values")
    mid = len(data) // 2
    return data[mid] if len(data) % 2 else (data[mid - 1] + data[mid]) / 2.0


__all__ = ["CONFIDENCE", "z_value", "wilson_interval", "Rate", "rate", "Mean", "mean_interval",
           "proportion_z_test", "median"]
