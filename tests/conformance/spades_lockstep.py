"""Spades (the bundled box `spades`) played in lockstep with OpenSpiel's game "spades".

OpenSpiel's game is one hand of partnership Spades whose chance outcomes OpenSpiel draws: the deal,
card by card to players 0, 1, 2, 3, 0, ... Player 0 bids first and leads unless `set_current_player`
names another after the deal, and the partnerships' running scores are 0 unless
`set_current_scores` presets them: they are read for the bags only (a score's last digit).
Each hand here draws the first bidder and lays it into both engines (OpenSpiel's
`set_current_player`, the kernel's `first_dealer`: its right neighbour), lays OpenSpiel's deal as
the kernel's (Game's deal_plan, as a scripted game lays its own) and, with `scores: bags`, presets
both engines' running scores to a random number of bags, 0 to 9, for each team (OpenSpiel's
`set_current_scores`, the kernel's populations), so that the bag penalty is reached. Then at every
decision both engines must ask the same player, for the same kind of move (a bid, then a card),
with the same legal moves (bids mapped bid for bid: OpenSpiel's action is 52 plus the bid; cards
card for card); one of them, chosen at random, is applied to both. At the end every player's points
must agree (OpenSpiel's return is the change of the kernel's team score over the hand, the winning
or losing bonus included), and so must whether the game is over (OpenSpiel's `is_game_over`).

OpenSpiel tests win_threshold and mercy_threshold against the hand's points, the kernel against
the running score: with running scores of 0 (`scores: zero`, the settings of those parameters) the
two are the same; with a few bags and the default thresholds no hand can tell them apart (a hand
scores at most 230, and at the mercy end only -387 or less). OpenSpiel also ignores use_mercy_rule
(its mercy end is on whenever mercy_threshold is not 0): the kernel's use_mercy_rule=false is
OpenSpiel's mercy_threshold=0.

    python tests/conformance/spades_lockstep.py --hands 2000                 # the defaults
    python tests/conformance/spades_lockstep.py --hands 200 --setting win_threshold=100 --setting scores=zero
    python tests/conformance/spades_lockstep.py --all         # 2,000 at the defaults, 200 per other setting
    python tests/conformance/spades_lockstep.py --controls    # the negative controls

A mismatch names the seed, the decision (its number, the player, the phase) and both move sets.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace

import pyspiel
import lockstep_report
from lockstep_report import Mismatch, apply_both, command_line, play_hands

from happydayz.data.environment import Environment
from happydayz.data.hand import Hand
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")  # OpenSpiel's suit numbers 0..3 ("CDHS") in the box
RANKS = "23456789TJQKA"
BID_BASE = 52
#: OpenSpiel's parameters and their defaults.
DEFAULTS = {"use_mercy_rule": True, "mercy_threshold": -350, "win_threshold": 500, "win_or_loss_bonus": 200,
            "num_tricks": 2}
#: The harness's own settings: the running scores laid in (bags: 0 to 9 a team; zero), and the
#: box's option broken_by_play (no parameter of OpenSpiel's: its spades are never broken).
OWN = {"scores": "bags", "broken_by_play": False}
#: The options of the box's powers (num_tricks is the size of OpenSpiel's observation, no rule).
OPTIONS = ("use_mercy_rule", "mercy_threshold", "win_threshold", "win_or_loss_bonus", "broken_by_play")
#: The settings of the lockstep runs: each other value of one parameter, the others at their
#: defaults, and combinations of them (docs/classics.md).
SETTINGS = [
    {},
    {"use_mercy_rule": False},
    {"mercy_threshold": -100, "scores": "zero"},
    {"mercy_threshold": -200, "scores": "zero"},
    {"win_threshold": 100, "scores": "zero"},
    {"win_threshold": 200, "scores": "zero"},
    {"win_or_loss_bonus": 0},
    {"num_tricks": 5},
    {"win_threshold": 100, "mercy_threshold": -100, "win_or_loss_bonus": 50, "scores": "zero"},
    {"use_mercy_rule": False, "mercy_threshold": -100, "scores": "zero"},
]


@dataclass
class Figures(lockstep_report.Figures):
    nils: int = 0  # nil bids made
    bag_penalties: int = 0  # hands in which a team's bags reached 10
    wins: int = 0  # hands ending the game by win_threshold
    mercies: int = 0  # hands ending the game by the mercy rule


def label_of_card(card: int) -> str:
    return f"{SUITS[card // 13]} {card % 13 + 2}"


def card_of_label(label: str) -> int:
    suit, value = label.rsplit(" ", 1)
    return SUITS.index(suit) * 13 + int(value) - 2


def short(card: int) -> str:
    return "CDHS"[card // 13] + RANKS[card % 13]


class Kernel:
    """The kernel's side: a setup per first dealer, made when first needed."""

    def __init__(self, settings: dict, env: Environment | None = None) -> None:
        self.env = env or Environment()
        self.settings = settings
        self.scenario, self.library = self.env.resolve_scenario("spades/1")
        self.options = tuple(sorted((k, settings[k]) for k in OPTIONS))
        self.setups = {}

    def setup(self, dealer: int):
        if dealer not in self.setups:
            hand = Hand(first_dealer=dealer)
            laid = replace(self.scenario, hand=hand.over(self.scenario.hand), options=self.options)
            self.setups[dealer] = build_setup(laid, self.library, GameOptions(4, express=False, faction_change=False),
                                              self.env)
        return self.setups[dealer]

    def new_game(self, dealer: int, hands: dict[int, list[int]], scores: list[int]) -> Game:
        def plan(g):
            ids = g.tables.label.index
            return {seat: [ids(label_of_card(c)) for c in cs] for seat, cs in hands.items()}, []

        game = Game(self.setup(dealer), seed=0, record=False, deal_plan=plan)
        game.population = [scores[seat % 2] for seat in range(4)]  # the teams' running scores, pooled
        return game


def kernel_moves(game: Game) -> tuple[int, str, dict[int, int]]:
    """(player, kind, {OpenSpiel action: option index}) of the kernel's decision."""
    d = game.decision
    label = game.tables.label
    moves = {}
    if d.kind == "choose":
        for i, option in enumerate(d.options):
            moves[BID_BASE + int(option.label)] = i
        return d.actor, "bid", moves
    for i, option in enumerate(d.options):
        card = option.value[0] if isinstance(option.value, tuple) else option.value
        moves[card_of_label(label[card])] = i
    return d.actor, "play", moves


def spiel_parameters(settings: dict) -> dict:
    """OpenSpiel's parameters for these settings: its mercy end is off only with mercy_threshold 0."""
    params = {k: v for k, v in settings.items() if k in DEFAULTS}
    if not params["use_mercy_rule"]:
        params["mercy_threshold"] = 0
    return params


@dataclass
class Laid:
    """A hand laid by hand instead of drawn: the deal, the first bidder, the running scores and the
    bids some players make (the other moves stay random), for a rule random play rarely reaches."""
    hands: dict[int, list[int]]
    first: int
    scores: list[int]
    bids: dict[int, int]


def play_hand(seed: int, kernel: Kernel, spiel_game, theirs: dict, figures: Figures, laid: Laid | None = None) -> None:
    """One hand in lockstep; raises Mismatch at the first difference."""
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    if laid is not None:  # OpenSpiel deals card i of its chance actions to player i % 4
        for i in range(52):
            state.apply_action(laid.hands[i % 4][i // 4])
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    first = rng.randrange(4) if laid is None else laid.first
    if laid is not None:
        scores = list(laid.scores)
    else:
        scores = [rng.randrange(10), rng.randrange(10)] if theirs["scores"] == "bags" else [0, 0]
    state.set_current_player(first)
    state.set_current_scores(scores)
    hands = {seat: [] for seat in range(4)}
    for i, card in enumerate(int(a) for a in state.history()):
        hands[i % 4].append(card)
    ours_scores = scores if kernel.settings["scores"] == "bags" else [0, 0]  # a control may lay them in OpenSpiel only
    game = kernel.new_game((first + 3) % 4, hands, ours_scores)
    before = list(game.population)
    where = f"first bidder {first}, scores {scores}"
    step = 0
    bids = [None] * 4
    while not state.is_terminal():
        if game.over or game.decision is None or game.round_no > 1:
            raise Mismatch(f"seed {seed}, decision {step} ({where}): the kernel's hand is over, OpenSpiel's player "
                           f"{state.current_player()} still plays {sorted(state.legal_actions())}")
        player, kind, moves = kernel_moves(game)
        legal = state.legal_actions()
        spiel_kind = "bid" if legal[0] >= BID_BASE else "play"

        def shown(k, actions):
            return sorted(a - BID_BASE for a in actions) if k == "bid" else sorted(short(a) for a in actions)
        if (player, kind, set(moves)) != (state.current_player(), spiel_kind, set(legal)):
            raise Mismatch(
                f"seed {seed}, decision {step} ({where}): "
                f"kernel: player {player} to {kind} {shown(kind, moves)}; "
                f"OpenSpiel: player {state.current_player()} to {spiel_kind} {shown(spiel_kind, legal)}\n"
                f"  OpenSpiel's state:\n{state}")
        figures.decisions += 1
        action = rng.choice(sorted(legal))
        if laid is not None and spiel_kind == "bid" and player in laid.bids:
            action = BID_BASE + laid.bids[player]
        if spiel_kind == "bid":
            bids[player] = action - BID_BASE
        apply_both(state, game, moves[action], action, seed, step)
        step += 1
    if not (game.over or game.round_no > 1):
        raise Mismatch(f"seed {seed} ({where}): OpenSpiel's hand is over, the kernel still asks "
                       f"{game.decision.kind if game.decision else game.phase}")
    points_ours = [after - b for after, b in zip(game.population, before)]
    points_theirs = [int(r) for r in state.returns()]
    if points_ours != points_theirs or game.over != state.is_game_over():
        raise Mismatch(f"seed {seed} ({where}): points differ at the end: kernel {points_ours} (game over: "
                       f"{game.over}), OpenSpiel {points_theirs} (game over: {state.is_game_over()})\n"
                       f"  OpenSpiel's state:\n{state}")
    figures.hands += 1
    figures.nils += sum(1 for b in bids if b == 0)
    tricks = _tricks(state)
    for team in (0, 1):
        contract = bids[team] + bids[team + 2]
        taken = tricks[team] + tricks[team + 2]
        figures.bag_penalties += taken >= contract and scores[team] % 10 + taken - contract >= 10
    if state.is_game_over():  # OpenSpiel's returns hold the bonus: the hand's points are without it
        bonus = theirs["win_or_loss_bonus"]
        figures.wins += max(points_theirs) - bonus >= theirs["win_threshold"]
        figures.mercies += min(points_theirs) + bonus <= theirs["mercy_threshold"]


def _tricks(state) -> list[int]:
    """Each player's tricks, from OpenSpiel's text of the finished hand."""
    lines = str(state).splitlines()
    at = lines.index("North East  South  West", lines.index("Tricks taken:"))
    return [int(x) for x in lines[at + 1].split()]


def run(settings_ours: dict, settings_theirs: dict | None = None, hands: int = 50, first_seed: int = 0,
        stop_at_first: bool = True, laid: Laid | None = None) -> tuple[Figures, list[str]]:
    """Lockstep over `hands` hands (seeds first_seed...); the mismatches found (at most one with stop_at_first)."""
    ours = {**DEFAULTS, **OWN, **settings_ours}
    theirs = {**DEFAULTS, **OWN, **(settings_theirs if settings_theirs is not None else settings_ours)}
    kernel = Kernel(ours)
    spiel_game = pyspiel.load_game("spades", spiel_parameters(theirs))
    figures = Figures()
    return play_hands(lambda seed: play_hand(seed, kernel, spiel_game, theirs, figures, laid),
                      figures, hands, first_seed, stop_at_first)


def _cards(suit: int, low: int, high: int) -> list[int]:
    return [suit * 13 + value - 2 for value in range(low, high + 1)]


#: The mercy end at the defaults (-350), which random play rarely reaches: 9 bags for seats 0 and 2,
#: who hold the spades and the hearts and both bid nil; seat 0 leads a heart, seat 2 takes six heart
#: tricks, then seat 0 trumps its last heart: both nils are lost, the team takes all 13 tricks
#: (contract 0, 13 bags: 9 + 13 = 22, two penalties): -200 + 13 - 200 = -387, and with the
#: bonus lost -587. The other moves stay random.
MERCY_AT_THE_DEFAULTS = Laid(
    hands={0: _cards(3, 2, 8) + _cards(2, 2, 7), 1: _cards(0, 2, 14), 2: _cards(3, 9, 14) + _cards(2, 8, 14),
           3: _cards(1, 2, 14)},
    first=0, scores=[9, 0], bids={0: 0, 2: 0})


#: The negative controls: (parameter, the kernel's settings, OpenSpiel's settings, a laid hand or
#: None). The mercy end at -350, which random play rarely reaches, has its laid hand; thresholds
#: that random play reaches in one hand stand in for the other defaults; num_tricks is no rule (the
#: size of OpenSpiel's observation) and has none. `scores` presets the bags in OpenSpiel only; broken_by_play is the
#: box's own option, the usual table rule, which OpenSpiel does not have.
CONTROLS = [
    ("use_mercy_rule", {"use_mercy_rule": False}, {}, MERCY_AT_THE_DEFAULTS),
    ("mercy_threshold", {"scores": "zero"}, {"mercy_threshold": -100, "scores": "zero"}, None),
    ("win_threshold", {"scores": "zero"}, {"win_threshold": 100, "scores": "zero"}, None),
    ("win_or_loss_bonus", {"mercy_threshold": -100, "scores": "zero"},
     {"mercy_threshold": -100, "win_or_loss_bonus": 50, "scores": "zero"}, None),
    ("current_scores (bags)", {"scores": "zero"}, {"scores": "bags"}, None),
    ("broken_by_play", {"broken_by_play": True}, {}, None),
]


def main(argv=None) -> int:
    controls = [(f"control {name}", lambda o=ours, t=theirs, l=laid: run(o, t, hands=2000, laid=l))
                for name, ours, theirs, laid in CONTROLS]
    return command_line(__doc__, "spades", {**DEFAULTS, **OWN}, SETTINGS, run, controls, argv)


if __name__ == "__main__":
    sys.exit(main())
