"""Oh Hell (the bundled box `oh-hell`) played in lockstep with OpenSpiel's game "oh_hell".

OpenSpiel's game is one hand whose chance outcomes OpenSpiel draws: the number of tricks, the
dealer, the deal (card by card, to players 0, 1, 2, ... whoever deals) and the turned-up card, whose
suit is trumps. The same outcomes are laid into the kernel: the number of tricks as the hand's
`hand_size` and the dealer as its `first_dealer` for the round, the deal and the turned-up card as
the round's deal and the Reserve's top card (Game's deal_plan, as a scripted game lays its own).
Then at every decision both engines must ask the same player, for the same kind of move (a bid,
then a card), with the same legal moves (bids mapped bid for bid: OpenSpiel's action is the
number of cards plus the bid; cards card for card); one of them, chosen at random, is applied to
both. At the end every player's points must agree: OpenSpiel's return is the kernel's round delta.

    python tests/conformance/oh_hell_lockstep.py --hands 2000                 # the defaults, 3 players
    python tests/conformance/oh_hell_lockstep.py --hands 200 --setting players=5 --setting off_bid_penalty=true
    python tests/conformance/oh_hell_lockstep.py --all         # 2,000 at the defaults, 200 per other setting
    python tests/conformance/oh_hell_lockstep.py --controls    # the negative controls

A mismatch names the seed, the decision (its number, the player, the phase) and both move sets.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pyspiel
import lockstep_report
from lockstep_report import Mismatch, apply_both, command_line, play_hands

from happydayz.data.environment import Environment
from happydayz.data.hand import ByRound, Hand
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SUITS = ("Clubs", "Diamonds", "Spades", "Hearts")  # OpenSpiel's suit numbers 0..3 ("CDSH") in the box
RANKS = "23456789TJQKA"
#: OpenSpiel's parameters and their defaults.
DEFAULTS = {"players": 3, "num_suits": 4, "num_cards_per_suit": 13, "num_tricks_fixed": -1,
            "off_bid_penalty": False, "points_per_trick": 1}
#: The options of the box's added power OhHell (the others are scenarios and keys of the hand: docs/classics.md).
OPTIONS = ("off_bid_penalty", "points_per_trick")
#: The settings of the lockstep runs: each other value of one parameter, the others at their defaults
#: (every player count; num_suits at its extreme, 1, the box's scenario oh-hell/1).
SETTINGS = [{}] + [{"players": p} for p in range(4, 8)] + [
    {"num_suits": 1}, {"num_cards_per_suit": 2}, {"num_tricks_fixed": 1}, {"num_tricks_fixed": 17}, {"num_tricks_fixed": 5},
    {"off_bid_penalty": True}, {"points_per_trick": 3}, {"off_bid_penalty": True, "points_per_trick": 2},
    {"players": 7, "off_bid_penalty": True}]


#: num_cards_per_suit=2 (its extreme): a scenario file of four suits of two cards over the box's rules.
SHORT = str(Path(__file__).parent / "oh_hell_short" / "oh_hell_short.scenario.yaml")


def scenario_of(settings: dict) -> str:
    if settings["num_suits"] == 4 and settings["num_cards_per_suit"] == 13:
        return f"oh-hell/{settings['players']}"
    if settings["num_suits"] == 1 and settings["num_cards_per_suit"] == 13 and settings["players"] == 3:
        return "oh-hell/1"
    if settings["num_suits"] == 4 and settings["num_cards_per_suit"] == 2 and settings["players"] == 3:
        return SHORT
    raise ValueError(f"no scenario of the box for {settings}")


@dataclass
class Figures(lockstep_report.Figures):
    restricted: int = 0  # bids with fewer moves than 0 to the number of tricks: the dealer's restriction


class Kernel:
    """The kernel's side: a setup per (dealer, number of tricks), made when first needed."""

    def __init__(self, settings: dict, env: Environment | None = None) -> None:
        self.env = env or Environment()
        self.settings = settings
        self.scenario, self.library = self.env.resolve_scenario(scenario_of(settings))
        self.options = tuple(sorted((k, settings[k]) for k in OPTIONS))
        self.setups = {}
        self.suits = settings["num_suits"]
        #: the scenario's suits in OpenSpiel's order (the box's, or the two-card suits' own names)
        self.names = tuple(f if isinstance(f, str) else f.faction for f in self.scenario.factions)

    def setup(self, dealer: int, tricks: int):
        key = (dealer, tricks)
        if key not in self.setups:
            hand = Hand(first_dealer=dealer, hand_size=ByRound((tricks,)))
            laid = replace(self.scenario, hand=hand.over(self.scenario.hand), options=self.options)
            self.setups[key] = build_setup(laid, self.library, GameOptions(
                self.settings["players"], express=True, faction_change=False), self.env)
        return self.setups[key]

    def label_of_card(self, card: int) -> str:
        return f"{self.names[card % self.suits]} {card // self.suits + 2}"

    def card_of_label(self, label: str) -> int:
        suit, value = label.rsplit(" ", 1)
        return (int(value) - 2) * self.suits + self.names.index(suit)

    def new_game(self, dealer: int, tricks: int, hands: dict[int, list[int]], turned: int) -> Game:
        setup = self.setup(dealer, tricks)
        label = self.label_of_card

        def plan(g):
            dealt_here = len(g.zones[g.hand_keys[0]])  # the kernel's own deal, from its hand_size
            if dealt_here != len(hands[0]):
                raise ValueError(f"the kernel deals {dealt_here} cards each, OpenSpiel {len(hands[0])}")
            ids = g.tables.label.index
            dealt = set(hands_flat) | {turned}
            rest = [i for i, lab in enumerate(g.tables.label) if lab.rsplit(" ", 1)[0] in self.names
                    and lab.rsplit(" ", 1)[1].isdigit() and self.card_of_label(lab) not in dealt]
            return ({seat: [ids(label(c)) for c in cs] for seat, cs in hands.items()},
                    [ids(label(turned))] + rest)

        hands_flat = [c for cs in hands.values() for c in cs]
        return Game(setup, seed=0, record=False, deal_plan=plan)


def short(kernel: Kernel, card: int) -> str:
    return "CDSH"[card % kernel.suits] + RANKS[card // kernel.suits]


def kernel_moves(kernel: Kernel, game: Game, num_cards: int) -> tuple[int, str, dict[int, int]]:
    """(player, kind, {OpenSpiel action: option index}) of the kernel's decision."""
    d = game.decision
    label = game.tables.label
    moves = {}
    if d.kind == "choose":
        for i, option in enumerate(d.options):
            moves[num_cards + int(option.label)] = i
        return d.actor, "bid", moves
    for i, option in enumerate(d.options):
        card = option.value[0] if isinstance(option.value, tuple) else option.value
        moves[kernel.card_of_label(label[card])] = i
    return d.actor, "play", moves


def play_hand(seed: int, kernel: Kernel, spiel_game, figures: Figures) -> None:
    """One hand in lockstep; raises Mismatch at the first difference."""
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    history = [int(a) for a in state.history()]
    tricks, dealer = history[0], history[1]
    n = spiel_game.num_players()
    num_cards = kernel.suits * kernel.settings["num_cards_per_suit"]
    hands = {seat: [] for seat in range(n)}
    for i, card in enumerate(history[2:2 + n * tricks]):
        hands[i % n].append(card)
    turned = history[2 + n * tricks]
    fixed = kernel.settings["num_tricks_fixed"]
    try:
        game = kernel.new_game(dealer, tricks if fixed == -1 else fixed, hands, turned)
        game.decision
    except Exception as exc:  # a control's engines that cannot even share the deal (another deck, players)
        raise Mismatch(f"seed {seed}: the kernel cannot lay OpenSpiel's deal ({tricks} tricks, dealer {dealer}, "
                       f"{n} players): {type(exc).__name__}: {exc}") from None
    if kernel.card_of_label(game.tables.label[game.turned_up()]) != turned:
        raise Mismatch(f"seed {seed}: the kernel turned up {game.tables.label[game.turned_up()]}, "
                       f"OpenSpiel {short(kernel, turned)}")
    step = 0
    while not state.is_terminal():
        if game.over or game.decision is None:
            raise Mismatch(f"seed {seed}, decision {step}: the kernel's hand is over, OpenSpiel's player "
                           f"{state.current_player()} still plays {sorted(state.legal_actions())}")
        player, kind, moves = kernel_moves(kernel, game, num_cards)
        legal = state.legal_actions()
        spiel_kind = "bid" if legal[0] >= num_cards else "play"

        def shown(k, actions):
            return sorted(a - num_cards for a in actions) if k == "bid" else sorted(short(kernel, a) for a in actions)
        if (player, kind, set(moves)) != (state.current_player(), spiel_kind, set(legal)):
            raise Mismatch(
                f"seed {seed}, decision {step} (dealer {dealer}, {tricks} tricks, trump {short(kernel, turned)}): "
                f"kernel: player {player} to {kind} {shown(kind, moves)}; "
                f"OpenSpiel: player {state.current_player()} to {spiel_kind} {shown(spiel_kind, legal)}\n"
                f"  OpenSpiel's state:\n{state}")
        figures.decisions += 1
        figures.restricted += kind == "bid" and len(legal) < tricks + 1
        action = rng.choice(sorted(legal))
        apply_both(state, game, moves[action], action, seed, step)
        step += 1
    if not (game.over or game.round_no > 1):
        raise Mismatch(f"seed {seed}: OpenSpiel's hand is over, the kernel still asks "
                       f"{game.decision.kind if game.decision else game.phase}")
    points_ours = list(game.last_deltas)
    points_theirs = [int(r) for r in state.returns()]
    if points_ours != points_theirs:
        raise Mismatch(f"seed {seed}: points differ at the end: kernel {points_ours}, OpenSpiel {points_theirs}\n"
                       f"  OpenSpiel's state:\n{state}")
    figures.hands += 1


def run(settings_ours: dict, settings_theirs: dict | None = None, hands: int = 50, first_seed: int = 0,
        stop_at_first: bool = True) -> tuple[Figures, list[str]]:
    """Lockstep over `hands` hands (seeds first_seed...); the mismatches found (at most one with stop_at_first)."""
    ours = {**DEFAULTS, **settings_ours}
    theirs = {**DEFAULTS, **(settings_theirs if settings_theirs is not None else settings_ours)}
    kernel = Kernel(ours)
    spiel_game = pyspiel.load_game("oh_hell", theirs)
    figures = Figures()
    return play_hands(lambda seed: play_hand(seed, kernel, spiel_game, figures),
                      figures, hands, first_seed, stop_at_first)


#: The negative controls: (parameter, the kernel's settings, OpenSpiel's settings). Where a parameter
#: is a chance outcome of OpenSpiel's (num_tricks_fixed), the kernel's side keeps its own hand size
#: instead of laying OpenSpiel's; players and num_suits change what is dealt, so the kernel cannot lay
#: OpenSpiel's deal at all, and that is the mismatch found.
CONTROLS = [
    ("players", {}, {"players": 4}),
    ("num_suits", {}, {"num_suits": 1}),
    ("num_cards_per_suit", {}, {"num_cards_per_suit": 2}),
    ("num_tricks_fixed", {"num_tricks_fixed": 5}, {}),
    ("off_bid_penalty", {}, {"off_bid_penalty": True}),
    ("points_per_trick", {}, {"points_per_trick": 2}),
]


def main(argv=None) -> int:
    controls = [(f"control {name}", lambda o=ours, t=theirs: run(o, t, hands=2000)) for name, ours, theirs in CONTROLS]
    return command_line(__doc__, "oh_hell", DEFAULTS, SETTINGS, run, controls, argv)


if __name__ == "__main__":
    sys.exit(main())
