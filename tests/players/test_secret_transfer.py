"""A Transfer zone seen by its giver and receiver only (`seen_by: giver_and_receiver`, `into: transfer_zone`).

Every reader of a Community's view hides the cards passed between two others: the view itself (a count in
`transfer_sizes` instead of the cards), a bot's sampled states (which deal those cards among the unseen ones),
the action tensor, and so every bot. As in test_honesty, two games that differ only in such a hidden card get
the same decision from each bot; the negative control is the same swap with the zones public, which the seat
then sees.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from happydayz.kernel.actions import ObservationLayout
from happydayz.kernel.determinize import Sampler
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots

from conftest import ENV
from test_honesty import SEAT, answers_of

SCENARIO = """title: Secret passes
box: woodstock-fever
factions: [Hippies, Soldiers, Dogs]
players: 4
hand:
  transfer: {cards: 2, to: left, seen_by: SEEN, into: transfer_zone}
"""


def _setup(tmp_path: Path, seen_by: str = "giver_and_receiver"):
    path = tmp_path / f"{seen_by}.yaml"
    path.write_text(SCENARIO.replace("SEEN", seen_by), encoding="utf-8")
    return prepare(ENV, path, express=True)[0]


def _swap(game: Game, zone: str, other_zone: str, rng: random.Random) -> Game:
    """A copy of `game` with a card of `zone` and one of `other_zone` exchanged, the Transfer's record too."""
    other = game.copy()
    a, b = rng.choice(other.zones[zone]), rng.choice(other.zones[other_zone])
    one, two = other.zones[zone], other.zones[other_zone]
    one[one.index(a)], two[two.index(b)] = b, a
    other.loc[a], other.loc[b] = other_zone, zone
    other.transfer_picks = [(g, r, b if c == a else a if c == b else c) for g, r, c in other.transfer_picks]
    return other


def _positions(setup, seed: int, wanted: int):
    """Up to `wanted` (game, swap hidden from SEAT) at SEAT's decisions with a choice after the Transfer: a card
    seat 1 passed into seat 2's Transfer zone exchanged with one of seat 3's hand."""
    game, rng, found = Game(setup, seed), random.Random(seed), []
    while game.decision is not None and len(found) < wanted:
        decision = game.decision
        if decision.actor == SEAT and decision.kind in ("lead", "follow") and len(decision.options) > 1 and \
                game.zones["transfer:2"] and game.zones["hand:3"]:
            found.append((game.copy(), _swap(game, "transfer:2", "hand:3", rng)))
        game.apply(rng.randrange(len(decision.options)))
    return found


def test_the_view_shows_a_transfer_zone_to_its_giver_and_receiver_only(tmp_path):
    game = Game(_setup(tmp_path), 3)
    while game.decision.kind == "transfer":
        game.apply(0)
    passed = [(g, r, game.tables.label[c]) for g, r, c in game.transfer_picks]
    for seat in range(4):
        view = game.observe(seat)
        for zone in range(4):
            shown = sorted(c["label"] for c in view["transfer"][zone])
            if seat == zone:  # its own zone: every card
                assert shown == sorted(game.tables.label[c] for c in game.zone("transfer", zone))
            else:  # another's: the cards it passed there only (to the left: zone = seat + 1)
                assert shown == sorted(label for g, r, label in passed if g == seat and r == zone)
                assert len(shown) == (2 if zone == (seat + 1) % 4 else 0)
        assert view["transfer_sizes"] == [2, 2, 2, 2]
    public = Game(_setup(tmp_path, "everyone"), 3)
    assert "transfer_sizes" not in public.observe(0)  # (only where the zones are secret)


def test_a_sampled_state_deals_the_hidden_transfer_cards_among_the_unseen_ones(tmp_path):
    setup = _setup(tmp_path)
    game, _ = _positions(setup, 5, 1)[0]
    view = game.observe(SEAT)
    sampler = Sampler(setup, view, game.decision)
    truth = set(game.zones["transfer:2"])
    seen_there, hidden_there = [], []
    for s in range(30):
        sampled = sampler.sample(random.Random(s))
        for zone in range(4):
            assert len(sampled.zones[f"transfer:{zone}"]) == len(game.zones[f"transfer:{zone}"])
        assert set(sampled.zones["transfer:1"]) == set(game.zones["transfer:1"])  # what seat 0 passed there
        assert set(sampled.zone("hand", SEAT)) == set(game.zone("hand", SEAT))
        seen_there.append(set(sampled.zones["transfer:2"]) == truth)
        hidden_there.append(frozenset(sampled.zones["transfer:2"]))
    assert not all(seen_there) and len(set(hidden_there)) > 1  # not the true cards each time: they are not known


def test_the_action_tensor_does_not_mark_the_hidden_cards(tmp_path):
    setup = _setup(tmp_path)
    game, hidden = _positions(setup, 5, 1)[0]
    layout = ObservationLayout(setup)
    assert (layout.encode(game.observe(SEAT)) == layout.encode(hidden.observe(SEAT))).all()
    public = _setup(tmp_path, "everyone")
    game, hidden = _positions(public, 5, 1)[0]
    assert not (ObservationLayout(public).encode(game.observe(SEAT)) ==
                ObservationLayout(public).encode(hidden.observe(SEAT))).all()  # the negative control


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_a_bot_decides_the_same_whatever_lies_hidden_in_a_transfer_zone(tmp_path, bot):
    setup = _setup(tmp_path)
    positions = _positions(setup, 11, 2 if bot == "ismcts" else 5)
    assert positions
    for game, hidden in positions:
        assert hidden.observe(SEAT) == game.observe(SEAT), "the swapped cards were not hidden from the seat"
        answers = answers_of(bot, setup, (game, hidden))
        assert answers[0] == answers[1], (bot, game.decision.kind)


def test_the_same_swap_is_seen_when_the_transfer_zones_are_public(tmp_path):
    """Negative control: with `seen_by: everyone` the swap changes what the seat sees."""
    positions = _positions(_setup(tmp_path, "everyone"), 11, 3)
    assert positions and all(hidden.observe(SEAT) != game.observe(SEAT) for game, hidden in positions)


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.usefixtures("quick_ismcts")
def test_every_bot_plays_a_game_of_secret_transfer_zones_to_the_end(tmp_path, bot):
    game = Game(_setup(tmp_path), 2)
    result = play_game(game, make_bots([bot] * 4, 2))
    assert game.over and result["rounds"] == 1
