"""The bots are honest: two games that differ only in cards a seat cannot see get the same decision from that
seat's bot, because the bot sees only its seat's observation.

The second game is the first with two hidden cards swapped between two other Communities' hands. Both games
give the seat the very same observation (checked), and each bot, made alike and shown the same decisions,
answers them alike. The negative control swaps a card of the seat's own hand: the observation then differs, so
the comparison can tell two games apart.
"""

from __future__ import annotations

import random

import pytest

from happydayz.kernel.game import Game
from happydayz.players.registry import BOTS

from test_bots import setup_for

SEAT = 0


def _swap(game: Game, first: str, second: str, rng: random.Random) -> Game | None:
    """A copy of `game` with one card of zone `first` and one of zone `second` exchanged (None if one is empty)."""
    if not game.zones[first] or not game.zones[second]:
        return None
    other = game.copy()
    a, b = rng.choice(other.zones[first]), rng.choice(other.zones[second])
    one, two = other.zones[first], other.zones[second]
    one[one.index(a)], two[two.index(b)] = b, a
    other.loc[a], other.loc[b] = second, first
    return other


def answers_of(bot: str, setup, games) -> list:
    """What a bot of that kind, made alike for each game and seated at SEAT, answers in each game."""
    answers = []
    for version in games:
        agent = BOTS[bot](1234)
        bind = getattr(agent, "bind", None)
        if bind is not None:
            bind(setup, SEAT)
        answers.append(agent.decide(version.observe(SEAT), version.decision))
    return answers


def _positions(scenario: str, players: int, seed: int, wanted: int):
    """Up to `wanted` (game, hidden swap, own swap) at decisions of SEAT with a choice, in a random game."""
    setup = setup_for(scenario, players)
    game, rng, found = Game(setup, seed), random.Random(seed), []
    while game.decision is not None and len(found) < wanted:
        decision = game.decision
        if decision.actor == SEAT and len(decision.options) > 1 and rng.random() < 0.4:
            hidden = _swap(game, "hand:1", "hand:2", rng)
            own = _swap(game, f"hand:{SEAT}", "hand:1", rng)
            if hidden is not None and own is not None:
                found.append((game.copy(), hidden, own))
        game.apply(rng.randrange(len(decision.options)))
    return setup, found


@pytest.mark.parametrize("scenario, players", [("woodstock-fever/1", 4), ("american-dream/6", 3)])
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_decides_the_same_whatever_it_cannot_see(scenario, players, bot):
    setup, positions = _positions(scenario, players, seed=11, wanted=2 if bot == "ismcts" else 6)
    assert positions
    for game, hidden, own in positions:
        seen = game.observe(SEAT)
        assert hidden.observe(SEAT) == seen, "the swapped cards were not hidden from the seat"
        assert own.observe(SEAT) != seen  # the negative control: a swap the seat can see changes what it sees
        answers = answers_of(bot, setup, (game, hidden))
        assert answers[0] == answers[1], (bot, game.decision.kind)


def test_the_comparison_catches_a_bot_that_peeks():
    """Negative control: a bot that reads another hand (here handed the game itself) decides differently in at
    least one pair of games, so the test above would fail for such a bot."""
    def peeking(game: Game) -> int:
        return hash(tuple(game.zones["hand:1"])) % len(game.decision.options)

    _, positions = _positions("woodstock-fever/1", 4, seed=11, wanted=6)
    assert any(peeking(game) != peeking(hidden) for game, hidden, _ in positions)
