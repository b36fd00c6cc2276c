"""The dummy hand (hand.dummy: partner_of_declarer): laid face up after the opening lead, its decisions asked of
its partner (the auction's winner), shown in every observation, played by every bot, and the current player of
the OpenSpiel and PettingZoo adapters.

The scripted game tests/games/dummy_partner_plays.yaml plays the rule by hand.
"""

from __future__ import annotations

import random

import pytest

from happydayz.kernel.determinize import sample_state
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.language.compiler import AUCTION_STATE
from happydayz.players.agents import play_game
from happydayz.players.registry import BOTS, make_bots

from conftest import ENV, ROOT

MODS = ROOT / "tests" / "games" / "mods"


def _setup():
    return prepare(ENV, MODS / "dummy.scenario.yaml", express=True)[0]


def _to_first_dummy_decision(game: Game, rng: random.Random):
    """Answer at random up to the first decision of the dummy's seat after it is laid; the decisions before."""
    before = []
    while game.decision is not None:
        d = game.decision
        if game.dummy is not None and d.actor == game.dummy:
            return before
        before.append(d)
        game.apply(rng.randrange(len(d.options)))
    raise AssertionError("no dummy decision in the game")


def _seed_with_a_dummy(setup) -> int:
    for seed in range(50):
        game = Game(setup, seed)
        rng = random.Random(seed)
        try:
            _to_first_dummy_decision(game, rng)
        except AssertionError:
            continue
        return seed
    raise AssertionError("no seed gives a dummy")


def test_the_dummys_legal_moves_are_asked_of_the_declarer_and_are_the_dummys_cards():
    setup = _setup()
    seed = _seed_with_a_dummy(setup)
    game = Game(setup, seed)
    before = _to_first_dummy_decision(game, random.Random(seed))
    declarer = game.state[(AUCTION_STATE["winner"], None)]
    dummy = setup.partner_of[declarer]
    d = game.decision
    assert game.dummy == dummy and d.actor == dummy and d.decider == declarer and d.kind in ("lead", "follow")
    hand = set(game.zone("hand", dummy))
    assert {o.value[0] if isinstance(o.value, tuple) else o.value for o in d.options} <= hand
    # before the opening lead every decision was asked of its own seat (the dummy bid for itself)
    assert all(b.decider == b.actor for b in before)
    assert any(b.kind == "bid" and b.actor == dummy for b in before)
    # the dummy's own seat is asked nothing once it is laid: the game runs to its end the same way
    rng = random.Random(1)
    while game.decision is not None:
        d = game.decision
        if game.dummy is not None:
            assert d.decider == (setup.partner_of[d.actor] if d.actor == game.dummy else d.actor)
        else:
            assert d.decider == d.actor
        game.apply(rng.randrange(len(d.options)))
    assert game.over


def test_a_third_seat_sees_the_dummys_hand_once_it_is_laid_and_not_before():
    setup = _setup()
    seed = _seed_with_a_dummy(setup)
    game = Game(setup, seed)
    rng = random.Random(seed)
    # negative control: before the opening lead nobody sees another's hand
    while game.dummy is None:
        third = (game.decision.actor + 1) % 4
        obs = game.observe(third)
        assert obs["dummy"] is None and all(not cards for cards in obs["hands_known"])
        game.apply(rng.randrange(len(game.decision.options)))
    dummy = game.dummy
    declarer = setup.partner_of[dummy]
    for seat in range(4):
        obs = game.observe(seat)
        assert obs["dummy"] == dummy
        shown = [c["id"] for c in obs["hands_known"][dummy]]
        assert shown == ([] if seat == dummy else list(game.zone("hand", dummy)))
    assert game.observe(declarer)["hand"] == [{"id": c, "label": game.label(c)} for c in game.zone("hand", declarer)]


def test_a_game_without_a_dummy_shows_no_dummy_key():
    setup = prepare(ENV, MODS / "teams_pooled.scenario.yaml", express=True)[0]
    game = Game(setup, 1)
    assert "dummy" not in game.observe(0) and "hands_known" not in game.observe(0)
    assert game.decision.decider == game.decision.actor
    assert "decider" not in repr(game.decision)


def test_a_determinization_from_the_declarers_view_keeps_the_dummys_hand():
    setup = _setup()
    seed = _seed_with_a_dummy(setup)
    game = Game(setup, seed)
    _to_first_dummy_decision(game, random.Random(seed))
    d = game.decision
    for k in range(5):
        sample = sample_state(setup, game.observe(d.decider), random.Random(k), d)
        assert sample.zone("hand", d.actor) == game.zone("hand", d.actor)
        assert sample.zone("hand", d.decider) == game.zone("hand", d.decider)
        assert sample.decision.decider == d.decider and sample.decision.actor == d.actor


class _Recording:
    """A bot that remembers the seat of each observation it was handed, with the decision's actor."""

    def __init__(self, bot, seen):
        self.bot, self.seen = bot, seen

    def bind(self, setup, seat=None):
        if hasattr(self.bot, "bind"):
            self.bot.bind(setup, seat)
        return self

    def decide(self, observation, decision):
        self.seen.append((observation["seat"], decision.actor, decision.decider))
        return self.bot.decide(observation, decision)


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_the_dummy_from_the_declarers_view_to_the_end(bot):
    setup = _setup()
    played = False
    for seed in range(4):
        game = Game(setup, seed)
        seen = []
        play_game(game, [_Recording(b, seen) for b in make_bots([bot] * 4, seed)])
        assert game.over and game.winners
        assert all(seat == decider for seat, _, decider in seen)
        played = played or any(actor != decider for _, actor, decider in seen)
    assert played, "no bot was asked a dummy's decision"


def test_openspiel_and_pettingzoo_name_the_declarer_as_the_current_player_of_the_dummys_decision():
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    import happydayz.openspiel  # noqa: F401  (registers the game)
    import happydayz.pettingzoo as hpz

    scenario = str(MODS / "dummy.scenario.yaml")
    game = pyspiel.load_game("happydayz", {"scenario": scenario, "players": 4, "express": True})
    asked = 0
    for seed in range(3):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            d = state.game.decision
            assert state.current_player() == d.decider
            asked += d.decider != d.actor
            state.apply_action(rng.choice(state.legal_actions()))
    assert asked

    env = hpz.raw_env(scenario=scenario, players=4, express=True)
    env.reset(seed=3)
    asked = 0
    rng = random.Random(3)
    while env.game.decision is not None:
        d = env.game.decision
        assert env.agent_selection == f"community_{d.decider}"
        mask = env.observe(env.agent_selection)["action_mask"]
        other = f"community_{d.actor}"
        if d.actor != d.decider:
            asked += 1
            assert not env.observe(other)["action_mask"].any()  # the dummy's own seat has no move
        env.step(rng.choice([i for i, m in enumerate(mask) if m]))
    assert asked


def test_a_dummy_without_teams_or_an_auction_is_refused_at_load(tmp_path, capsys):
    from happydayz.cli.app import main

    text = (MODS / "dummy.scenario.yaml").read_text(encoding="utf-8")
    bad = text.replace("  teams: {partners: [[0, 2], [1, 3]], score: pooled}\n", "")
    assert bad != text
    path = tmp_path / "dummy.scenario.yaml"
    path.write_text(bad, encoding="utf-8")
    for name in ("plain.power",):
        (tmp_path / name).write_text((MODS / name).read_text(encoding="utf-8"), encoding="utf-8")
    code = main(["check", str(path)])
    out = capsys.readouterr()
    text_out = out.out + out.err
    assert code != 0
    assert "D062" in text_out and "the dummy is the partner of the auction's winner, but the hand has no teams" \
        in text_out
    assert f"{path}:" in text_out


WATCH = """power Watch {
  added

  mark laid for round

  on enter expedition {
    if dummy == partner of auction_winner {
      set laid = true
    }
  }

  at end of round {
    if laid and self == dummy {
      gain 7
    }
  }
}
"""


def test_a_power_reads_the_dummy(tmp_path):
    """`dummy` is a built-in Community: the seat laid face up (Community 0 before it is laid)."""
    text = (MODS / "dummy.scenario.yaml").read_text(encoding="utf-8")
    text = text.replace("house_rules: {encounter: false}\n",
                        "added: [Watch]\nadded_powers:\n  - {name: Watch, power: watch.power}\n"
                        "house_rules: {encounter: false}\n")
    (tmp_path / "dummy.scenario.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "plain.power").write_text((MODS / "plain.power").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "watch.power").write_text(WATCH, encoding="utf-8")
    from happydayz.authoring.checking import check_paths
    assert "W024" not in [d.code for d in check_paths([tmp_path / "dummy.scenario.yaml"], ENV)]  # it has one
    setup = prepare(ENV, tmp_path / "dummy.scenario.yaml", express=True)[0]
    plain = _setup()  # the same hand without the power: the control
    checked = 0
    for seed in range(6):
        games = [Game(setup, seed), Game(plain, seed)]
        for game in games:
            rng = random.Random(seed)
            while game.decision is not None:
                game.apply(rng.randrange(len(game.decision.options)))
        winner = games[0].state.get((AUCTION_STATE["winner"], None))
        gains, control = games[0].history[0]["deltas"], games[1].history[0]["deltas"]
        if winner is None:
            assert gains == control
            continue
        dummy = setup.partner_of[winner]
        # the dummy's own count has the 7 more: nobody else's
        assert [g - c for g, c in zip(gains, control)] == [7 * (s == dummy) for s in range(4)], (seed, dummy)
        checked += 1
    assert checked


def test_every_seat_counts_the_laid_dummys_cards_as_seen():
    """known_cards (what GreedyAgent and its fast twin take out of the unseen cards) holds the dummy's hand for
    every other seat once it is laid, from the whole view and from a bot's seat view alike; not before."""
    from happydayz.kernel.determinize import known_cards
    from happydayz.kernel.observation import Observation, seat_view

    setup = _setup()
    seed = _seed_with_a_dummy(setup)
    game = Game(setup, seed)
    rng = random.Random(seed)
    while game.dummy is None:
        for seat in range(4):
            others = set().union(*(game.zone("hand", s) for s in range(4) if s != seat))
            assert not known_cards(game.observe(seat)) & others
        game.apply(rng.randrange(len(game.decision.options)))
    dummy = game.dummy
    for seat in range(4):
        hand = set(game.zone("hand", dummy))
        for obs in (game.observe(seat), Observation(lambda s=seat: game.observe(s), seat_view(game, seat))):
            assert hand <= known_cards(obs)


def test_the_observation_tensor_shows_the_laid_dummys_hand_to_every_seat():
    """OpenSpiel's and PettingZoo's observation vector (kernel.actions.ObservationLayout) has the dummy's seat
    and hand as pieces of their own in a game with a dummy: empty before it is laid, its cards after, for
    every seat; a game without a dummy keeps its shape."""
    from happydayz.kernel.actions import ObservationLayout

    setup = _setup()
    layout = ObservationLayout(setup)
    assert [name for name, _ in layout.pieces][-2:] == ["dummy", "dummy_hand"]
    plain = prepare(ENV, MODS / "teams_pooled.scenario.yaml", express=True)[0]
    assert "dummy" not in dict(ObservationLayout(plain).pieces)
    seed = _seed_with_a_dummy(setup)
    game = Game(setup, seed)
    rng = random.Random(seed)
    while game.dummy is None:
        for seat in range(4):
            v = layout.views(layout.encode(game.observe(seat)))
            assert not v["dummy"].any() and not v["dummy_hand"].any()
        game.apply(rng.randrange(len(game.decision.options)))
    dummy = game.dummy
    for seat in range(4):
        v = layout.views(layout.encode(game.observe(seat)))
        assert list(v["dummy"]) == [1.0 if s == dummy else 0.0 for s in range(4)]
        assert set(v["dummy_hand"].nonzero()[0]) == set(game.zone("hand", dummy))
