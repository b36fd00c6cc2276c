"""Bridge (the bundled box `bridge`) played in lockstep with OpenSpiel's game "bridge" (use_double_dummy_result=false).

OpenSpiel's game is one deal: the chance outcomes (the 52 cards, card i of the deal to player i mod 4),
then an auction from the dealer, then, unless all four passed, the play, in which OpenSpiel asks the
declarer for the dummy's cards too. Here OpenSpiel's auction is driven with random calls (six in ten
passes, the rest among the six lowest calls it allows, so that every level is reached); its
contract (declarer, strain, level, doubled or redoubled) is then laid into the kernel through the
box's own decisions: the same deal (Game's deal_plan), the kernel's auction answered so that the
declarer bids the contract (the others pass: the kernel must ask the dealer first, then each seat in
turn), and the box's doubling questions answered as OpenSpiel's contract says. A deal passed out in
OpenSpiel (four passes) must score 0 there and be dealt again by the kernel (the box's `all_pass:
redeal`). Then at every play decision both engines must ask the same player (the kernel's decider:
the declarer for the dummy) for the same legal cards; one of them, chosen at random, is applied to
both. At the end the declarer's tricks and the score must agree: OpenSpiel's return of each player is
the kernel's count of its team (pooled) for the deal.

    python tests/conformance/bridge_lockstep.py --hands 2000                 # the defaults
    python tests/conformance/bridge_lockstep.py --hands 200 --setting dealer=2 --setting dealer_vul=true
    python tests/conformance/bridge_lockstep.py --all         # 2,000 at the defaults, 200 per other setting
    python tests/conformance/bridge_lockstep.py --controls    # the negative controls

A mismatch names the seed, the decision (its number, the contract) and both move sets.
"""

from __future__ import annotations

import random
import re
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
STRAINS = SUITS + (None,)  # OpenSpiel's denominations: the four suits, then no trump (a level alone)
RANKS = "23456789TJQKA"
#: OpenSpiel's parameters and their defaults (use_double_dummy_result is always false here: the play is played).
DEFAULTS = {"dealer": 0, "dealer_vul": False, "non_dealer_vul": False, "use_double_dummy_result": False,
            "num_tricks_in_observation": 2}
#: The options of the box's added power Bridge (dealer is the hand's first_dealer; the rest is observation).
OPTIONS = ("dealer_vul", "non_dealer_vul")
#: The settings of the lockstep runs: each other value of one parameter, the others at their defaults.
SETTINGS = [{}] + [{"dealer": d} for d in (1, 2, 3)] + [
    {"dealer_vul": True}, {"non_dealer_vul": True}, {"dealer_vul": True, "non_dealer_vul": True},
    {"dealer": 3, "dealer_vul": True}, {"num_tricks_in_observation": 0}]


@dataclass
class Figures(lockstep_report.Figures):
    passed_out: int = 0
    doubled: int = 0
    redoubled: int = 0
    no_trump: int = 0
    made: int = 0
    dummy_decisions: int = 0  # play decisions of the dummy's seat, asked of the declarer


@dataclass(frozen=True)
class Contract:
    level: int
    strain: int  # 0..3 the suits (OpenSpiel's), 4 no trump
    declarer: int
    doubled: int  # 1, 2 (doubled), 4 (redoubled)
    last_bidder: int  # who made the last bid (the box's auction winner is the last bidder)

    def __str__(self) -> str:
        return f"{self.level}{'CDHSN'[self.strain]}{'' if self.doubled == 1 else 'X' if self.doubled == 2 else 'XX'} " \
               f"by {self.declarer}"


def contract_of(index: int, last_bidder: int) -> Contract:
    """OpenSpiel's Contract::Index decoded: 1 + (((level-1) * 5 + strain) * 4 + declarer) * 3 + doubling."""
    index -= 1
    index, doubling = divmod(index, 3)
    index, declarer = divmod(index, 4)
    level, strain = divmod(index, 5)
    return Contract(level + 1, strain, declarer, (1, 2, 4)[doubling], last_bidder)


#: How the harness lays the contract into the kernel: the negative controls change one part of it.
@dataclass(frozen=True)
class Laying:
    declarer: str = "declarer"  # or "last_bidder": the side's last bidder (the box's own auction's rule)
    strain: str = "contract"  # or "no_trump": every contract laid as no trump
    doubling: bool = True  # False: every contract laid undoubled
    level_shift: int = 0  # a level more than the contract's (less, past 7)
    dummy: str | None = None  # the kernel's hand.dummy instead of the box's (a control: "none")


class Kernel:
    """The kernel's side: a setup per dealer, made when first needed."""

    def __init__(self, settings: dict, laying: Laying = Laying(), env: Environment | None = None) -> None:
        self.env = env or Environment()
        self.settings = settings
        self.laying = laying
        self.scenario, self.library = self.env.resolve_scenario("bridge/1")
        self.options = tuple(sorted((k, settings[k]) for k in OPTIONS))
        self.setups = {}

    def setup(self, dealer: int):
        if dealer not in self.setups:
            hand = Hand(first_dealer=dealer)
            if self.laying.dummy is not None:
                hand = replace(hand, dummy=self.laying.dummy)
            laid = replace(self.scenario, hand=hand.over(self.scenario.hand), options=self.options)
            self.setups[dealer] = build_setup(laid, self.library, GameOptions(4, express=True, faction_change=False),
                                              self.env)
        return self.setups[dealer]

    @staticmethod
    def label_of_card(card: int) -> str:
        return f"{SUITS[card % 4]} {card // 4 + 2}"

    @staticmethod
    def card_of_label(label: str) -> int:
        suit, value = label.rsplit(" ", 1)
        return (int(value) - 2) * 4 + SUITS.index(suit)

    def new_game(self, dealer: int, hands: dict[int, list[int]]) -> Game:
        def plan(g):
            ids = g.tables.label.index
            return {seat: [ids(self.label_of_card(c)) for c in cs] for seat, cs in hands.items()}, []
        return Game(self.setup(dealer), seed=0, record=False, deal_plan=plan)


def short(card: int) -> str:
    return "CDHS"[card % 4] + RANKS[card // 4]


def spiel_call(rng: random.Random, legal: list[int]) -> int:
    """A random call: a pass half the time, else one of the eight lowest other calls (double, redouble, bids)."""
    passes, others = [a for a in legal if a == 52], sorted(a for a in legal if a != 52)
    if not others or (passes and rng.random() < 0.6):
        return passes[0]
    return rng.choice(others[:6])


def lay_auction(seed: int, game: Game, dealer: int, contract: Contract | None, laying: Laying) -> None:
    """Answer the kernel's auction so that the contract's declarer wins it with the contract (None: all pass)."""
    seat = dealer
    if contract is None:
        bidder, bid = None, None
    else:
        bidder = contract.declarer if laying.declarer == "declarer" else contract.last_bidder
        strain = 4 if laying.strain == "no_trump" else contract.strain
        level = contract.level + laying.level_shift
        bid = (level if 1 <= level <= 7 else contract.level - laying.level_shift, STRAINS[strain])
    passes, bid_made = 0, False
    while passes < (3 if bid_made else 4):
        d = game.decision
        if d is None or d.kind != "bid" or d.decider != seat:
            raise Mismatch(f"seed {seed}: the kernel's auction asks "
                           f"{'nothing' if d is None else f'player {d.decider} for a {d.kind}'}, "
                           f"OpenSpiel's player {seat} calls")
        values = [o.value for o in d.options]
        if seat == bidder and not bid_made:
            if bid not in values:
                raise Mismatch(f"seed {seed}: the kernel's auction does not offer player {seat} the bid {bid}")
            game.apply(values.index(bid))
            bid_made, passes = True, 0
        else:
            game.apply(values.index("pass"))
            passes += 1
        seat = (seat + 1) % 4


def lay_doubling(seed: int, game: Game, contract: Contract, laying: Laying) -> None:
    """Answer the box's doubling questions (after the auction) as OpenSpiel's contract says."""
    doubled = contract.doubled if laying.doubling else 1
    while game.decision is not None and game.decision.kind not in ("lead", "follow"):
        d = game.decision
        labels = [o.label for o in d.options]
        if "Redouble" in d.prompt:
            yes = doubled == 4
        elif "Double" in d.prompt:
            yes = doubled >= 2
        else:
            raise Mismatch(f"seed {seed}: after the auction the kernel asks player {d.decider} {d.kind}: {d.prompt}")
        game.apply(labels.index("yes" if yes else "no"))


def kernel_moves(game: Game) -> tuple[int, str, dict[int, int]]:
    """(decider, kind, {OpenSpiel card: option index}) of the kernel's decision."""
    d = game.decision
    label = game.tables.label
    moves = {}
    for i, option in enumerate(d.options):
        card = option.value[0] if isinstance(option.value, tuple) else option.value
        moves[Kernel.card_of_label(label[card])] = i
    return d.decider, d.kind, moves


def play_hand(seed: int, kernel: Kernel, spiel_game, figures: Figures) -> None:
    """One deal in lockstep; raises Mismatch at the first difference."""
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    deal = [int(a) for a in state.history()]
    hands = {seat: deal[seat::4] for seat in range(4)}
    dealer = kernel.settings["dealer"]
    first_caller = state.current_player()
    last_bidder = None
    while not state.is_terminal() and state.current_phase() == 1:  # OpenSpiel's auction (phase 1)
        call = spiel_call(rng, state.legal_actions())
        if call >= 55:
            last_bidder = state.current_player()
        state.apply_action(call)
    passed_out = state.is_terminal() and last_bidder is None
    contract = None if passed_out else contract_of(state.contract_index(), last_bidder)
    try:
        game = kernel.new_game(dealer, hands)
        game.decision
    except Exception as exc:
        raise Mismatch(f"seed {seed}: the kernel cannot lay OpenSpiel's deal: {type(exc).__name__}: {exc}") from None
    if game.decision is None or game.decision.decider != first_caller:
        raise Mismatch(f"seed {seed}: the kernel's auction starts with player "
                       f"{None if game.decision is None else game.decision.decider}, OpenSpiel's with {first_caller}")
    lay_auction(seed, game, dealer, contract, kernel.laying)
    if passed_out:
        returns = [int(r) for r in state.returns()]
        if returns != [0, 0, 0, 0] or game.round_no != 1 or game.decision is None or game.decision.kind != "bid":
            raise Mismatch(f"seed {seed}: passed out: OpenSpiel's returns {returns}; the kernel "
                           f"{'asks ' + game.decision.kind if game.decision else 'is over'} in round {game.round_no}")
        figures.passed_out += 1
        figures.hands += 1
        return
    lay_doubling(seed, game, contract, kernel.laying)
    figures.doubled += contract.doubled == 2
    figures.redoubled += contract.doubled == 4
    figures.no_trump += contract.strain == 4
    dummy = contract.declarer ^ 2
    step = 0
    while not state.is_terminal():
        if game.over or game.decision is None or game.round_no > 1:
            raise Mismatch(f"seed {seed}, decision {step} ({contract}): the kernel's deal is over, OpenSpiel's "
                           f"player {state.current_player()} still plays {sorted(short(a) for a in state.legal_actions())}")
        player, kind, moves = kernel_moves(game)
        legal = state.legal_actions()
        if kind not in ("lead", "follow") or (player, set(moves)) != (state.current_player(), set(legal)):
            raise Mismatch(
                f"seed {seed}, decision {step} ({contract}, dealer {dealer}): "
                f"kernel: player {player} (for {game.decision.actor}) to {kind} {sorted(short(a) for a in moves)}; "
                f"OpenSpiel: player {state.current_player()} to play {sorted(short(a) for a in legal)}\n"
                f"  OpenSpiel's state:\n{state}")
        figures.decisions += 1
        figures.dummy_decisions += game.decision.actor == dummy
        action = rng.choice(sorted(legal))
        apply_both(state, game, moves[action], action, seed, step)
        step += 1
    if not (game.over or game.round_no > 1):
        raise Mismatch(f"seed {seed}: OpenSpiel's deal is over, the kernel still asks "
                       f"{game.decision.kind if game.decision else game.phase}")
    theirs_tricks = int(re.search(r"Declarer tricks won: (\d+)", str(state)).group(1))
    team = game.setup.team_of[contract.declarer]
    ours_tricks = sum(len(game.history[0]["expeditions"][s]) for s in team) // 4  # a won trick's 4 cards each
    theirs = [int(r) for r in state.returns()]
    ours = [sum(game.last_deltas[m] for m in game.setup.team_of[s]) for s in range(4)]
    if ours_tricks != theirs_tricks or ours != theirs:
        raise Mismatch(f"seed {seed} ({contract}): the end differs: declarer's tricks kernel {ours_tricks}, "
                       f"OpenSpiel {theirs_tricks}; points kernel {ours}, OpenSpiel {theirs}\n"
                       f"  OpenSpiel's state:\n{state}")
    figures.made += theirs_tricks >= contract.level + 6
    figures.hands += 1


def run(settings_ours: dict, settings_theirs: dict | None = None, hands: int = 50, first_seed: int = 0,
        stop_at_first: bool = True, laying: Laying = Laying()) -> tuple[Figures, list[str]]:
    """Lockstep over `hands` deals (seeds first_seed...); the mismatches found (at most one with stop_at_first)."""
    ours = {**DEFAULTS, **settings_ours}
    theirs = {**DEFAULTS, **(settings_theirs if settings_theirs is not None else settings_ours)}
    kernel = Kernel(ours, laying)
    spiel_game = pyspiel.load_game("bridge", theirs)
    figures = Figures()
    return play_hands(lambda seed: play_hand(seed, kernel, spiel_game, figures),
                      figures, hands, first_seed, stop_at_first)


#: The negative controls: (name, the kernel's settings, OpenSpiel's settings, how the contract is laid).
#: A parameter's control gives the engines different values of it; a rule's control lays the contract
#: (or plays the hand) against that rule. num_tricks_in_observation changes only OpenSpiel's
#: observation tensor, nothing a decision or a score sees: it has no control (docs/classics.md).
CONTROLS = [
    ("dealer", {}, {"dealer": 1}, Laying()),
    ("dealer_vul", {}, {"dealer_vul": True}, Laying()),
    ("non_dealer_vul", {}, {"non_dealer_vul": True}, Laying()),
    ("use_double_dummy_result", {}, {"use_double_dummy_result": True}, Laying()),
    ("the dummy played by its own seat", {}, {}, Laying(dummy="none")),
    ("every contract in no trump", {}, {}, Laying(strain="no_trump")),
    ("the declarer: the side's last bidder", {}, {}, Laying(declarer="last_bidder")),
    ("the doubling left out", {}, {}, Laying(doubling=False)),
    ("a level more", {}, {}, Laying(level_shift=1)),
]


def main(argv=None) -> int:
    controls = [(f"control {name}", lambda o=ours, t=theirs, l=laying: run(o, t, hands=2000, laying=l))
                for name, ours, theirs, laying in CONTROLS]
    return command_line(__doc__, "bridge", DEFAULTS, SETTINGS, run, controls, argv, unit="deals")


if __name__ == "__main__":
    sys.exit(main())
