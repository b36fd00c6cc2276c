"""Hearts (the bundled box `hearts`) played in lockstep with OpenSpiel's game "hearts".

OpenSpiel's game is one hand whose chance outcomes (the pass direction, then the deal, card by card)
OpenSpiel draws. The same outcomes are laid into the kernel: the pass direction as the hand's
`transfer.to` for the round, the deal as the round's deal (Game's deal_plan, as a scripted game
lays its own). Then at every decision both engines must ask the same player, for the same kind of
move (OpenSpiel's pass is three card choices by one player, then the next player's three: so is
the kernel's), with the same legal cards (mapped card for card); one of them, chosen at random, is
applied to both. At the end every player's points must agree: OpenSpiel's return is 26 less the
points, the kernel's round delta is the points (the box's score counts the points taken).

    python tests/conformance/hearts_lockstep.py --hands 2000            # the defaults
    python tests/conformance/hearts_lockstep.py --hands 200 --setting jd_bonus=true
    python tests/conformance/hearts_lockstep.py --all              # 2,000 at the defaults, 200 per other setting
    python tests/conformance/hearts_lockstep.py --controls         # the negative controls

A mismatch names the seed, the decision (its number, the player, the phase) and both move sets.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace

import pyspiel
import lockstep_report
from lockstep_report import Mismatch, apply_both, command_line, play_hands

from happydayz.data.environment import Environment
from happydayz.data.hand import ByRound, Hand
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SCENARIO = "hearts/1"
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")  # OpenSpiel's suit numbers 0..3
RANKS = "23456789TJQKA"
#: OpenSpiel's parameters and their defaults; every one but pass_cards is an option of the box's powers.
DEFAULTS = {"pass_cards": True, "no_pts_on_first_trick": True, "can_lead_any_club": False, "jd_bonus": False,
            "avoid_all_tricks_bonus": False, "qs_breaks_hearts": True, "must_break_hearts": True,
            "can_lead_hearts_instead_of_qs": False}
#: OpenSpiel's pass directions (its first chance outcome) as the hand's `transfer.to`.
DIRECTIONS = {0: "none", 1: "left", 2: "across", 3: "right"}


def card_of_label(label: str) -> int:
    """OpenSpiel's number for a card of the box ("Spades 12", the queen: rank 10 * 4 + suit 3)."""
    suit, value = label.rsplit(" ", 1)
    return (int(value) - 2) * 4 + SUITS.index(suit)


def label_of_card(card: int) -> str:
    return f"{SUITS[card % 4]} {card // 4 + 2}"


def short(card: int) -> str:
    return RANKS[card // 4] + "CDHS"[card % 4]


def cards(suit: str, values) -> list[int]:
    """OpenSpiel's numbers of some cards of one suit ("C", "D", "H", "S"; values 2 to 14)."""
    return [(v - 2) * 4 + "CDHS".index(suit) for v in values]


#: A laid deal, no pass. North holds the two of clubs, the ace of diamonds, the queen of spades and ten
#: hearts: once it wins a diamond trick with its ace, it leads holding nothing but the queen and hearts,
#: hearts unbroken unless West has thrown its ace of hearts already (can_lead_hearts_instead_of_qs,
#: which random play reaches only every few hundred hands).
QUEEN_AND_HEARTS = {"direction": 0, "hands": {
    0: cards("C", [2]) + cards("D", [14]) + cards("S", [12]) + cards("H", range(2, 12)),
    1: cards("C", range(3, 10)) + cards("D", range(2, 8)),
    2: cards("C", range(10, 15)) + cards("D", range(8, 14)) + cards("H", [12, 13]),
    3: cards("S", [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14]) + cards("H", [14]),
}}

#: The negative controls: (parameter, the kernel's settings, OpenSpiel's settings, a laid deal or None).
#: pass_cards goes the other way round: the pass direction is OpenSpiel's chance outcome, laid into the
#: kernel, so only a kernel that never passes can disagree with an OpenSpiel that does.
CONTROLS = [
    ("pass_cards", {"pass_cards": False}, {}, None),
    ("no_pts_on_first_trick", {}, {"no_pts_on_first_trick": False}, None),
    ("can_lead_any_club", {}, {"can_lead_any_club": True}, None),
    ("jd_bonus", {}, {"jd_bonus": True}, None),
    ("avoid_all_tricks_bonus", {}, {"avoid_all_tricks_bonus": True}, None),
    ("qs_breaks_hearts", {}, {"qs_breaks_hearts": False}, None),
    ("must_break_hearts", {}, {"must_break_hearts": False}, None),
    ("can_lead_hearts_instead_of_qs", {}, {"can_lead_hearts_instead_of_qs": True}, QUEEN_AND_HEARTS),
]


Figures = lockstep_report.Figures


class Kernel:
    """The kernel's side: one setup per pass direction for a setting, a new game per hand."""

    def __init__(self, settings: dict, env: Environment | None = None) -> None:
        env = env or Environment()
        scenario, library = env.resolve_scenario(SCENARIO)
        options = tuple(sorted((k, v) for k, v in settings.items() if k != "pass_cards"))
        self.setups = {}
        for direction, to in DIRECTIONS.items():
            hand = Hand(transfer_to=ByRound((to,)))
            if not settings["pass_cards"]:
                hand = Hand(transfer_cards=ByRound((0,)))
            laid = replace(scenario, hand=hand.over(scenario.hand), options=options)
            self.setups[direction] = build_setup(laid, library, GameOptions(4, express=True, faction_change=False), env)

    def new_game(self, direction: int, hands: dict[int, list[int]]) -> Game:
        setup = self.setups[direction]
        game = Game(setup, seed=0, record=False, deal_plan=lambda g: (
            {seat: [_id(g, label_of_card(c)) for c in cards] for seat, cards in hands.items()}, []))
        return game


def _id(game: Game, label: str) -> int:
    index = game.tables.label.index(label)
    return index


def kernel_moves(game: Game) -> tuple[int, str, dict[int, int]]:
    """(player, kind, {OpenSpiel card: option index}) of the kernel's decision."""
    d = game.decision
    label = game.tables.label
    moves = {}
    for i, option in enumerate(d.options):
        card = option.value[0] if isinstance(option.value, tuple) else option.value
        moves[card_of_label(label[card])] = i
    kind = "pass" if d.kind == "transfer" else "play"
    return d.actor, kind, moves


def spiel_settings(settings: dict) -> dict:
    return {k: bool(v) for k, v in settings.items()}


def deal(seed: int, kernel: Kernel, spiel_game, rng: random.Random, laid: dict | None = None):
    """(OpenSpiel's state, the kernel's game, the pass direction) of one hand, the same deal in both.

    OpenSpiel's chance outcomes, drawn with `rng`: the pass direction, then the 52 cards dealt to players
    0, 1, 2, 3, 0... (the legal chance actions, not chance_outcomes(): with pass_cards=false OpenSpiel's
    chance_outcomes() still lists the four directions, while its only legal one is "no pass"); then laid
    into the kernel. `laid` (for the negative controls): {"direction": d, "hands": {seat: [cards]}} in
    place of OpenSpiel's random chance outcomes.
    """
    state = spiel_game.new_initial_state()
    if laid is None:
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
    else:
        state.apply_action(laid["direction"])
        order = [laid["hands"][i % 4][i // 4] for i in range(52)]
        for card in order:
            state.apply_action(card)
    direction = int(state.history()[0])
    hands = {seat: [] for seat in range(4)}
    for i, card in enumerate(state.history()[1:53]):
        hands[i % 4].append(int(card))
    return state, kernel.new_game(direction, hands), direction


def same_decision(state, game: Game, direction: int, seed: int, step: int) -> dict[int, int]:
    """The kernel's moves {OpenSpiel card: option index} once both engines are found asking the same player
    for the same kind of move with the same cards; else Mismatch."""
    if game.over or game.decision is None:
        raise Mismatch(f"seed {seed}, decision {step}: the kernel's hand is over, OpenSpiel's player "
                       f"{state.current_player()} still plays {sorted(short(a) for a in state.legal_actions())}")
    player, kind, moves = kernel_moves(game)
    spiel_kind = "pass" if len(state.history()) < 53 + (12 if direction else 0) else "play"
    legal = state.legal_actions()
    if (player, kind, set(moves)) != (state.current_player(), spiel_kind, set(legal)):
        raise Mismatch(
            f"seed {seed}, decision {step} (pass direction {DIRECTIONS[direction]}): "
            f"kernel: player {player} to {kind} {sorted(short(c) for c in moves)}; "
            f"OpenSpiel: player {state.current_player()} to {spiel_kind} {sorted(short(a) for a in legal)}\n"
            f"  OpenSpiel's state:\n{state}")
    return moves


def same_points(state, game: Game, seed: int) -> list[int]:
    """Every player's points once both hands are over and agree (OpenSpiel's return is 26 less them); else Mismatch."""
    if not game.over:
        raise Mismatch(f"seed {seed}: OpenSpiel's hand is over, the kernel still asks "
                       f"{game.decision.kind if game.decision else game.phase}")
    points_ours = list(game.last_deltas)  # (the box's score is the points taken: a heart 1, the queen 13)
    points_theirs = [26 - r for r in state.returns()]
    if points_ours != points_theirs:
        raise Mismatch(f"seed {seed}: points differ at the end: kernel {points_ours}, OpenSpiel {points_theirs}\n"
                       f"  OpenSpiel's state:\n{state}")
    return points_ours


def play_hand(seed: int, ours: dict, theirs: dict, kernel: Kernel, spiel_game, figures: Figures,
              laid: dict | None = None) -> None:
    """One hand in lockstep, a random legal card at each decision; raises Mismatch at the first difference.

    `laid`: a deal in place of OpenSpiel's random one (see `deal`).
    """
    rng = random.Random(seed)
    state, game, direction = deal(seed, kernel, spiel_game, rng, laid)
    step = 0
    while not state.is_terminal():
        moves = same_decision(state, game, direction, seed, step)
        figures.decisions += 1
        card = rng.choice(sorted(state.legal_actions()))
        apply_both(state, game, moves[card], card, seed, step)
        step += 1
    same_points(state, game, seed)
    figures.hands += 1


def run(settings_ours: dict, settings_theirs: dict | None = None, hands: int = 50, first_seed: int = 0,
        stop_at_first: bool = True, laid=None) -> tuple[Figures, list[str]]:
    """Lockstep over `hands` hands (seeds first_seed...); the mismatches found (at most one with stop_at_first)."""
    ours = {**DEFAULTS, **settings_ours}
    theirs = {**DEFAULTS, **(settings_theirs if settings_theirs is not None else settings_ours)}
    kernel = Kernel(ours)
    spiel_game = pyspiel.load_game("hearts", spiel_settings(theirs))
    figures = Figures()
    return play_hands(lambda seed: play_hand(seed, ours, theirs, kernel, spiel_game, figures, laid=laid),
                      figures, hands, first_seed, stop_at_first)


def main(argv=None) -> int:
    controls = [(f"control {name}" + (" (a laid deal)" if laid else ""),
                 lambda o=ours, t=theirs, l=laid: run(o, t, hands=2000, laid=l)) for name, ours, theirs, laid in CONTROLS]
    settings = [{}] + [{name: not default} for name, default in DEFAULTS.items()]
    return command_line(__doc__, "hearts", DEFAULTS, settings, run, controls, argv)


if __name__ == "__main__":
    sys.exit(main())
