"""ISMCTSAgent's default search (`search="paired"`): flat Monte Carlo over a few root moves, paired.

A playout's result swings some ±7 Survivors with the deal and the others' play, while
the moves worth comparing differ by one or two: compared on independent playouts,
a few hundred cannot rank them. So every sample (one determinization and one seed
for the playout policy's draws) is played out once for EVERY candidate root move —
common random numbers: the same hidden cards, the same game draws, the same
policy draws — and the moves are compared by their paired differences, from which
the deal's luck cancels. The candidates are GreedyAgent's best `widen` moves; the
move played is GreedyAgent's (the anchor) unless another's mean beats it by
`confidence` standard errors of the paired difference. See docs/bots.md.
"""

from __future__ import annotations

import math
import random
from typing import Mapping

from happydayz.base.draws import randbelow
from happydayz.kernel.game import Decision


def search(agent, observation: Mapping, decision: Decision, allowed: list[int]) -> int:
    """The paired search of `agent` (an ISMCTSAgent) over the root moves `allowed`; the move to play."""
    anchor = agent._anchor if agent._anchor in allowed else allowed[0]
    me = observation["seat"]
    k = len(allowed)
    rewards: list[list[float]] = [[] for _ in allowed]
    clock = agent.clock
    deadline = clock() + agent.milliseconds / 1000.0 if agent.milliseconds else None
    crn = random.Random()  # the playout policy's draws: reseeded alike for every move of a sample
    choose_for = agent._paired_chooser(crn)
    playouts = 0
    a = allowed.index(anchor)
    active = list(range(k))  # the candidates still played out (racing drops the clearly worse ones)
    race = agent.race
    agent._sampler = None  # made at the first sample (ISMCTSAgent._sample)
    try:
        while True:
            # whole samples only: a sample that did not play every move would pair nothing
            if deadline is not None:
                if playouts and clock() >= deadline:
                    break
            elif playouts and playouts + len(active) > agent.iterations:
                break
            base = agent._sample(observation, decision)
            seed = agent.rng.getrandbits(64)
            history = len(base.history)
            last = active[-1]
            for slot in active:
                game = base.copy() if slot != last else base  # (the last move plays the sample itself)
                crn.seed(seed)
                choose = choose_for(game)
                game.apply(allowed[slot])
                game.play(choose, round_only=True)
                rewards[slot].append(agent.rewards(game, history)[me])
            playouts += len(active)
            n = len(rewards[a])
            if race is not None and len(active) > 1 and n >= RACE_FROM and n % RACE_EVERY == 0:
                active = _race(rewards, active, a, race)
    finally:
        agent._sampler = None
    agent.stats["iterations"] += playouts
    means = [sum(r) / len(r) for r in rewards]
    best = max(active, key=lambda j: (means[j], j == a, -allowed[j]))
    chosen = anchor
    diff = error = 0.0
    if best != a:
        diff, error = mean_and_error([x - y for x, y in zip(rewards[best], rewards[a])])
        if len(rewards[a]) >= 2 and diff > agent.confidence * error:
            chosen = allowed[best]
    agent.last_search = {"candidates": list(allowed), "anchor": anchor, "samples": len(rewards[a]),
                         "playouts": playouts, "means": means, "best": allowed[best], "difference": diff,
                         "error": error, "chosen": chosen, "rewards": rewards, "active": [allowed[j] for j in active]}
    return chosen


RACE_FROM, RACE_EVERY = 16, 8  # racing: the first look after 16 samples, then every 8


def _race(rewards: list[list[float]], active: list[int], anchor: int, race: float) -> list[int]:
    """The candidates kept: the anchor, the leader and those the leader does not beat by `race` standard errors.

    Every candidate still active has a reward for every sample so far (dropping is for good), so the
    differences are paired over all of them.
    """
    n = len(rewards[anchor])
    leader = max(active, key=lambda j: sum(rewards[j]) / n)
    kept = []
    for j in active:
        if j in (leader, anchor):
            kept.append(j)
            continue
        diff, error = mean_and_error([x - y for x, y in zip(rewards[leader], rewards[j])])
        if not diff > race * error:
            kept.append(j)
    return kept


def mean_and_error(xs: list[float]) -> tuple[float, float]:
    """The mean of `xs` and its standard error (0 for fewer than two)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def light_chooser(policy, crn: random.Random):
    """`game -> chooser` for Game.play with the light playout policy drawing from `crn`."""
    policy.rng = crn
    return policy.chooser


def random_chooser(crn: random.Random):
    def for_game(game):
        return lambda d: 0 if len(d.options) == 1 else randbelow(crn, len(d.options))
    return for_game


def win_rewards(scores: list[float], setup, scale: float) -> list[float]:
    """`reward="win"`: half the share of the win, half the squashed margin, for each Community.

    `scores`: each Community's population after the count (negated where the fewest win).
    The win goes to the best score (a team's: its pooled population or its members' sum),
    shared 1/k among k tied; in an express game the round is the game. The margin is the
    score less the best other's, squashed by tanh(margin / scale) into [0, 1].
    """
    n = len(scores)
    if setup is not None and setup.teams is not None:
        teams = setup.teams
        unit_score = [scores[team[0]] if setup.pooled else sum(scores[s] for s in team) for team in teams]
        unit_of = [setup.team_index[s] for s in range(n)]
    else:
        unit_score, unit_of = list(scores), list(range(n))
    top = max(unit_score)
    winners = sum(1 for x in unit_score if x == top)
    per_unit = []
    for u, score in enumerate(unit_score):
        others = [x for v, x in enumerate(unit_score) if v != u]
        margin = score - max(others) if others else 0.0
        share = 1.0 / winners if score == top else 0.0
        per_unit.append(0.5 * share + 0.5 * (0.5 + 0.5 * math.tanh(margin / scale)))
    return [per_unit[unit_of[s]] for s in range(n)]
