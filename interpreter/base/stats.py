"""The 95 % confidence interval of a rate: the Wilson score interval (standard library only).

Used by the balance report (happydayz.report.stats, which adds means and tests)
and by simulations that play until their rates are known closely enough
(happydayz.simulation.precision). The Wilson interval stays inside [0, 1] and
behaves well for rates near 0 or 1 and for few games (unlike the textbook
"p ± z·sqrt(p(1-p)/n)" interval).
"""

from __future__ import annotations

import math
from statistics import NormalDist

CONFIDENCE = 0.95


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile for a confidence level (0.95 -> 1.959964...)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of a rate `successes / trials`.

    With no trials nothing is known: (0.0, 1.0).
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = z_value(confidence)
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2.0 * trials)) / denominator
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denominator
    low, high = centre - half, centre + half
    # The exact ends for 0 and n successes (floating point may miss them by 1e-17).
    if successes == 0:
        low = 0.0
    if successes == trials:
        high = 1.0
    return max(0.0, low), min(1.0, high)


def half_width(successes: int, trials: int, confidence: float = CONFIDENCE) -> float:
    """Half the width of the Wilson interval: the "±" of a rate (the interval is not symmetric about it)."""
    low, high = wilson_interval(successes, trials, confidence)
    return (high - low) / 2.0


__all__ = ["CONFIDENCE", "z_value", "wilson_interval", "half_width"]
