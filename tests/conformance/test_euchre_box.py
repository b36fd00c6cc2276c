"""The bundled Euchre box (boxes/euchre.yaml): listed, checked, shown with its own card names, played to the
end of a whole game (to 10 points) by every bot and both trick loops, and going alone played out: the
partner of a lone maker (or defender) lays its hand aside and sits the hand out, skipped when leading and
following, its cards hidden from the others. (Its rules against OpenSpiel's: test_euchre.py; hands worked
out by hand: tests/games/classic_euchre_*.yaml.)"""

from __future__ import annotations

import random
import re

import pytest

from happydayz.cli.app import main
from happydayz.data.environment import Environment
from happydayz.kernel import fastpath
from happydayz.kernel.determinize import Sampler
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.simulation.simulate import simulate

ENV = Environment()
SCENARIOS = ("euchre/1", "euchre/2", "euchre/3")


def _setup(scenario: str, express: bool = True):
    return prepare(ENV, scenario, express=express)[0]


def _answer(game: Game, *labels: str) -> None:
    for label in labels:
        index = game.decision.index_of_label(label)
        assert index is not None, (label, [o.label for o in game.decision.options])
        game.apply(index)


def _dealt(hands: dict, reserve: list):
    def plan(game):
        ids = game.tables.label.index
        return {seat: [ids(c) for c in cards] for seat, cards in hands.items()}, [ids(c) for c in reserve]
    return plan


# seat 0 deals and turns up the ten of hearts (the deal of tests/games/classic_euchre_bowers_and_loner.yaml)
DEAL = {0: ["Diamonds 11", "Diamonds 14", "Spades 10", "Clubs 9", "Clubs 10"],
        1: ["Hearts 12", "Diamonds 13", "Diamonds 9", "Spades 13", "Hearts 9"],
        2: ["Diamonds 12", "Diamonds 10", "Spades 12", "Clubs 11", "Spades 9"],
        3: ["Hearts 11", "Hearts 14", "Hearts 13", "Spades 14", "Clubs 14"]}
RESERVE = ["Hearts 10", "Clubs 12", "Clubs 13", "Spades 11"]


def test_the_box_holds_a_24_card_deck_of_four_suits_nine_to_ace():
    box = ENV.library.boxes["euchre"]
    assert list(box.factions) == ["Clubs", "Diamonds", "Hearts", "Spades"] and box.always == ()
    cards = [c for f in box.factions.values() for c in f.cards]
    assert len(cards) == 24 and sorted({c.value for c in cards}) == list(range(9, 15))
    assert all(c.survivors == 0 for c in cards)


def test_cards_are_shown_as_players_know_them():
    shown = {c.label: c.shown for f in ENV.library.boxes["euchre"].factions.values() for c in f.cards}
    assert (shown["Spades 11"], shown["Hearts 10"], shown["Diamonds 9"], shown["Clubs 14"], shown["Hearts 12"]) == (
        "J♠", "10♥", "9♦", "A♣", "Q♥")


def test_scenarios_lists_it_and_check_passes_without_a_warning(capsys):
    assert main(["scenarios"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"euchre/1\s+│\s+Euchre, stick", out)
    assert "euchre/2" in out and "euchre/3" in out
    assert main(["check", "boxes/euchre.yaml", "powers/euchre_table.power", "powers/euchre_clubs.power",
                 "powers/euchre_diamonds.power", "powers/euchre_hearts.power", "powers/euchre_spades.power"]) == 0
    assert "0 errors, 0 warnings in 6 files" in capsys.readouterr().out


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("bots", ["random", "greedy", "ismcts"])
@pytest.mark.usefixtures("quick_ismcts")
def test_the_bots_play_whole_games_to_10(scenario, bots):
    result = simulate(scenario, players=4, games=6 if bots == "random" else 1, seed=1, bots=bots, env=ENV)
    for game in result["games"]:
        scores = game["final_populations"]
        assert scores[0] == scores[2] and scores[1] == scores[3]  # a team keeps one score
        best = max(scores)
        assert best >= 10 and min(scores) < 10 and game["rounds"] >= 3  # the first team to 10 points
        assert game["winners"] == [s for s in range(4) if scores[s] == best]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_both_trick_loops_play_the_same_games(scenario, monkeypatch):
    setup = _setup(scenario, express=False)
    for seed in range(6):
        games = []
        for fast in (False, True):
            monkeypatch.setattr(fastpath, "ENABLED", fast)
            game, chooser = Game(setup, seed), random.Random(seed)
            game.play(lambda d: chooser.randrange(len(d.options)))
            games.append(game)
        kernel, fast = games
        assert (kernel.log, kernel.answers, kernel.population) == (fast.log, fast.answers, fast.population)
        assert kernel.over and max(kernel.population) >= 10


def test_a_lone_makers_partner_sits_the_hand_out_unseen():
    game = Game(_setup("euchre/1"), 0, deal_plan=_dealt(DEAL, RESERVE))
    _answer(game, "pass", "pass", "Hearts", "Clubs 10", "yes")  # seat 3 orders hearts up and goes alone
    assert game.zone("hand", 1) == [] and game.decision.kind == "lead" and game.decision.actor == 2
    # the others do not see its cards: every sampled state keeps seat 1's hand empty and its cards hidden
    hidden = {game.tables.label.index(c) for c in DEAL[1]}
    sampler = Sampler(game.setup, game.observe(2), game.decision)
    for s in range(10):
        sampled = sampler.sample(random.Random(s))
        assert sampled.zone("hand", 1) == []
        assert not hidden & set(sampled.zone("hand", 2))
    asked = []
    rng = random.Random(1)
    while not game.over:
        asked.append(game.decision.actor)
        game.apply(rng.randrange(len(game.decision.options)))
    assert len(asked) == 15 and 1 not in asked  # five tricks of three cards; seat 1 never plays


def test_a_lone_defender_is_asked_after_the_maker_and_its_partner_sits_out():
    game = Game(_setup("euchre/2"), 0, deal_plan=_dealt(DEAL, RESERVE))
    _answer(game, "pass", "pass", "Hearts", "Clubs 10", "no")  # seat 3 plays with its partner
    # the defenders in turn from the dealer's left: seat 2, then seat 0 (seat 1 is a maker)
    assert (game.decision.kind, game.decision.actor) == ("ask", 2)
    _answer(game, "no")
    assert (game.decision.kind, game.decision.actor) == ("ask", 0)
    _answer(game, "yes")  # seat 0 defends alone: seat 2 sits out
    assert game.zone("hand", 2) == [] and (game.decision.kind, game.decision.actor) == ("lead", 1)
    rng, asked = random.Random(2), []
    while not game.over:
        asked.append(game.decision.actor)
        game.apply(rng.randrange(len(game.decision.options)))
    assert len(asked) == 15 and 2 not in asked
    made = game.tricks_won[1] + game.tricks_won[3]
    assert game.last_deltas == ([0, 0, 0, 1] if 3 <= made <= 4 else [0, 0, 0, 2] if made == 5 else [4, 0, 0, 0])


def test_a_hand_nobody_bids_in_is_dealt_again_by_the_next_dealer_without_stick_the_dealer():
    game = Game(_setup("euchre/3"), 0, deal_plan=_dealt(DEAL, RESERVE))
    _answer(game, *["pass"] * 7)
    # the dealer may pass (the bids: the lowest-ranked Faction first, a pass last)
    assert [o.label for o in game.decision.options] == ["Spades", "Diamonds", "Clubs", "pass"]
    _answer(game, "pass")
    assert (game.round_no, game.dealer, game.decision.kind, game.decision.actor) == (1, 1, "bid", 2)
    game = Game(_setup("euchre/1"), 0, deal_plan=_dealt(DEAL, RESERVE))
    _answer(game, *["pass"] * 7)
    assert [o.label for o in game.decision.options] == ["Spades", "Diamonds", "Clubs"]  # stick the dealer


def test_a_hand_nobody_bids_in_twenty_times_in_a_row_is_played_and_scores_nothing():
    game = Game(_setup("euchre/3"), 0)
    game.play(lambda d: d.index_of_label("pass") if d.kind == "bid" else 0)  # every Community always passes
    assert game.over and game.population == [0] * 4 and game.last_deltas == [0] * 4
    assert [e["event"] for e in game.log].count("redeal") == 20


def test_play_in_the_terminal_to_the_end(capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300))
    assert main(["play", "--scenario", "euchre/1", "--express", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    hand = re.search(r"Your hand: (.*)", out).group(1)
    assert re.fullmatch(r"((10|9|[JQKA])[♣♦♥♠](, )?)+", hand), hand
    assert "choose a card from your hand other than the turned-up card to discard" in out
    assert re.search(r"Game over\. Team [01] \(Community \d and Community \d\) wins\.", out)


def test_the_left_bower_held_off_a_lead_of_its_own_suit_shows_no_void_in_that_suit():
    """A Community whose only diamond is the left bower (a heart, hearts trumps) plays off a diamond lead: the
    others learn nothing that its sampled states could contradict. A void names the cards' own suit (the
    sampled states deal by it), so none is recorded while it holds a diamond counting as a heart; the
    Community that held no diamond at all is void in them."""
    deal = {0: ["Diamonds 11", "Spades 10", "Clubs 9", "Clubs 10", "Spades 13"],
            1: ["Hearts 12", "Diamonds 13", "Diamonds 9", "Diamonds 14", "Hearts 9"],
            2: ["Diamonds 12", "Diamonds 10", "Spades 12", "Clubs 11", "Spades 9"],
            3: ["Hearts 11", "Hearts 14", "Hearts 13", "Spades 14", "Clubs 14"]}
    game = Game(_setup("euchre/1"), 0, deal_plan=_dealt(deal, RESERVE))
    _answer(game, "pass", "pass", "Hearts", "Clubs 10", "no", "Diamonds 14 on +", "Diamonds 10", "Spades 14")
    assert game.decision.actor == 0
    assert sorted(o.label for o in game.decision.options) == ["Clubs 9", "Diamonds 11", "Hearts 10", "Spades 10",
                                                              "Spades 13"]  # void in diamonds as counted
    _answer(game, "Clubs 9")
    assert "Diamonds" not in game.voids[0] and "Diamonds" in game.voids[3]
    sampler = Sampler(game.setup, game.observe(1), game.decision)  # (a trick of four: the next one's lead)
    bower = game.tables.label.index("Diamonds 11")
    assert any(bower in sampler.sample(random.Random(s)).zone("hand", 0) for s in range(30))
