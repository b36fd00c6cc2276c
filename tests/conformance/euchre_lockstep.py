"""Euchre (the bundled box `euchre`) played in lockstep with OpenSpiel's game "euchre".

OpenSpiel's game is one hand whose chance outcomes OpenSpiel draws: the dealer, the deal (card by
card, the first to the dealer, then clockwise) and the turned-up card. The same outcomes are laid
into the kernel: the dealer as the hand's `first_dealer`, the deal and the turned-up card as the
round's deal and the Reserve's top card (Game's deal_plan, as a scripted game lays its own). Then at
every decision both engines must ask the same player, for the same kind of move, with the same
legal moves: the bids (OpenSpiel's pass and four suits, bid for bid: the kernel's two stages are
OpenSpiel's two rounds of bidding), the dealer's discard (card for card), going alone (the maker's
question, then with allow_lone_defender each defender's: yes is OpenSpiel's "Alone", no its
"Partner"), and the cards of the play (card for card). One of them, chosen at random, is applied to
both (a bid passes with probability 3/4 where it may, so that the second round and the stuck dealer
come often; every other move is uniform). At the end every player's points must agree: OpenSpiel
gives the makers the hand's score and the defenders minus it, the kernel gives the team that scores
its points, so OpenSpiel's return of a player is its team's gain less the other team's. A hand nobody
bids in (without stick_the_dealer) is over for OpenSpiel with no points, and the kernel must deal
again (the next dealer) with no points either.

    python tests/conformance/euchre_lockstep.py --hands 2000                # the defaults
    python tests/conformance/euchre_lockstep.py --hands 200 --setting allow_lone_defender=true
    python tests/conformance/euchre_lockstep.py --all            # 2,000 at the defaults, 200 per other setting
    python tests/conformance/euchre_lockstep.py --controls       # the negative controls

A mismatch names the seed, the decision (its number, the player, the phase) and both move sets.
"""

from __future__ import annotations

import random
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import pyspiel
import lockstep_report
from lockstep_report import Mismatch, apply_both, command_line, play_hands

from happydayz.data.environment import Environment
from happydayz.data.hand import Hand
from happydayz.kernel.game import Game
from happydayz.kernel.setup import GameOptions, build_setup

SCENARIO = "euchre/1"
TABLE = Path(__file__).resolve().parents[2] / "powers" / "euchre_table.power"
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")  # OpenSpiel's suit numbers 0..3 ("CDHS")
RANKS = "9TJQKA"
PASS, ALONE, PARTNER = 24, 29, 30
BIDS = {"pass": PASS, "Clubs": 25, "Diamonds": 26, "Hearts": 27, "Spades": 28}
ANSWERS = {"yes": ALONE, "no": PARTNER}
#: OpenSpiel's parameters and their defaults: both are options of the box's added power EuchreTable.
DEFAULTS = {"allow_lone_defender": False, "stick_the_dealer": True}
#: The settings of the lockstep runs: each other value of one parameter, the others at their defaults.
SETTINGS = [{}, {"allow_lone_defender": True}, {"stick_the_dealer": False}]
PASS_RATE = 0.75  # a bid passes this often where it may (random play would rarely reach the stuck dealer)


def card_of_label(label: str) -> int:
    """OpenSpiel's number for a card of the box ("Spades 11", the jack: rank 2 * 4 + suit 3)."""
    suit, value = label.rsplit(" ", 1)
    return (int(value) - 9) * 4 + SUITS.index(suit)


def label_of_card(card: int) -> str:
    return f"{SUITS[card % 4]} {card // 4 + 9}"


def short(action: int) -> str:
    if action < 24:
        return "CDHS"[action % 4] + RANKS[action // 4]
    return {24: "Pass", 25: "Clubs", 26: "Diamonds", 27: "Hearts", 28: "Spades", 29: "Alone", 30: "Partner"}[action]


@dataclass
class Figures(lockstep_report.Figures):
    second_round: int = 0  # hands whose trump was named in the second round of bidding
    stuck: int = 0  # the dealer's last bid of the second round, with no pass (stick_the_dealer)
    alone: int = 0  # hands a maker played alone
    defended_alone: int = 0  # hands a defender played alone (allow_lone_defender)
    redeals: int = 0  # hands nobody bid in


def broken_box(folder: Path, edit: tuple[str, str]) -> Path:
    """A copy of the box (in `folder`, its id `euchre-broken`) whose added power's text is edited (`edit`: (old,
    new)): the rule controls' kernel, whose box breaks one rule."""
    old, new = edit
    root = TABLE.parents[1]
    text = TABLE.read_text(encoding="utf-8")
    if old not in text:
        raise ValueError(f"the rule control's text is not in {TABLE.name}: {old!r}")
    # (a power file is looked up in the bundled powers first: the edited one takes a name of its own)
    (folder / "broken_table.power").write_text(text.replace(old, new), encoding="utf-8")
    box = (root / "boxes" / "euchre.yaml").read_text(encoding="utf-8")
    box = box.replace("id: euchre\n", "id: euchre-broken\n")
    box = box.replace("power: euchre_table.power", "power: broken_table.power")
    (folder / "euchre_broken.yaml").write_text(box, encoding="utf-8")
    return folder / "euchre_broken.yaml"


class Kernel:
    """The kernel's side: a setup per dealer, made when first needed (`edit`: a rule control's box)."""

    def __init__(self, settings: dict, env: Environment | None = None, edit: tuple[str, str] | None = None) -> None:
        self.env = env or Environment()
        self.settings = settings
        if edit is None:
            self.scenario, self.library = self.env.resolve_scenario(SCENARIO)
        else:
            self.folder = tempfile.TemporaryDirectory()  # (its files are read as each setup is built)
            folder = Path(self.folder.name)
            self.env = Environment(power_dirs=[folder], box_files=[broken_box(folder, edit)])
            self.scenario, self.library = self.env.resolve_scenario("euchre-broken/1")
        self.options = tuple(sorted(settings.items()))
        self.setups = {}

    def setup(self, dealer: int):
        if dealer not in self.setups:
            hand = Hand(first_dealer=dealer)
            laid = replace(self.scenario, hand=hand.over(self.scenario.hand), options=self.options)
            self.setups[dealer] = build_setup(laid, self.library, GameOptions(4, express=True, faction_change=False),
                                              self.env)
        return self.setups[dealer]

    def new_game(self, dealer: int, hands: dict[int, list[int]], turned: int) -> Game:
        dealt = {c for cs in hands.values() for c in cs} | {turned}
        rest = [c for c in range(24) if c not in dealt]

        def plan(g):
            ids = g.tables.label.index
            return ({seat: [ids(label_of_card(c)) for c in cs] for seat, cs in hands.items()},
                    [ids(label_of_card(c)) for c in [turned] + rest])
        return Game(self.setup(dealer), seed=0, record=False, deal_plan=plan)


def kernel_moves(game: Game) -> tuple[int, str, dict[int, int]]:
    """(player, kind, {OpenSpiel action: option index}) of the kernel's decision."""
    d = game.decision
    label = game.tables.label
    moves = {}
    if d.kind == "bid":
        return d.decider, "bid", {BIDS[o.label]: i for i, o in enumerate(d.options)}
    if d.kind == "ask":
        return d.decider, "go alone", {ANSWERS[o.label]: i for i, o in enumerate(d.options)}
    kind = "discard" if d.kind == "choose" else "play"
    for i, option in enumerate(d.options):
        card = option.value[0] if isinstance(option.value, tuple) else option.value
        moves[card_of_label(label[card])] = i
    return d.decider, kind, moves


def spiel_kind(state) -> str:
    """OpenSpiel's phase, from its legal actions: a card chosen right after a first-round bid is the discard."""
    legal = state.legal_actions()
    if legal[0] >= ALONE:
        return "go alone"
    if legal[-1] >= PASS:
        return "bid"
    return "discard" if 25 <= state.history()[-1] <= 28 else "play"


def choose(rng: random.Random, legal: list[int]) -> int:
    legal = sorted(legal)
    if PASS in legal and len(legal) > 1:
        return PASS if rng.random() < PASS_RATE else rng.choice([a for a in legal if a != PASS])
    return rng.choice(legal)


def play_hand(seed: int, kernel: Kernel, spiel_game, figures: Figures) -> None:
    """One hand in lockstep; raises Mismatch at the first difference."""
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    history = [int(a) for a in state.history()]
    dealer = history[0]
    hands = {seat: [] for seat in range(4)}
    for i, card in enumerate(history[1:21]):
        hands[(dealer + i) % 4].append(card)
    turned = history[21]
    game = kernel.new_game(dealer, hands, turned)
    if card_of_label(game.tables.label[game.turned_up()]) != turned:
        raise Mismatch(f"seed {seed}: the kernel turned up {game.tables.label[game.turned_up()]}, "
                       f"OpenSpiel {short(turned)}")
    step, passes, answers = 0, 0, 0
    while not state.is_terminal():
        if game.over or game.decision is None or game.round_no > 1 or game.dealer != dealer:
            raise Mismatch(f"seed {seed}, decision {step}: the kernel's hand is over, OpenSpiel's player "
                           f"{state.current_player()} still plays {[short(a) for a in sorted(state.legal_actions())]}")
        player, kind, moves = kernel_moves(game)
        legal = state.legal_actions()
        theirs = spiel_kind(state)
        if (player, kind, set(moves)) != (state.current_player(), theirs, set(legal)):
            raise Mismatch(
                f"seed {seed}, decision {step} (dealer {dealer}, turned up {short(turned)}): "
                f"kernel: player {player} to {kind} {[short(a) for a in sorted(moves)]}; "
                f"OpenSpiel: player {state.current_player()} to {theirs} {[short(a) for a in sorted(legal)]}\n"
                f"  OpenSpiel's state:\n{state}")
        figures.decisions += 1
        if kind == "bid":
            figures.stuck += passes == 7 and PASS not in legal
        action = choose(rng, legal)
        passes += action == PASS
        if kind == "go alone" and action == ALONE:
            if answers == 0:
                figures.alone += 1
            else:
                figures.defended_alone += 1
        answers += kind == "go alone"
        apply_both(state, game, moves[action], action, seed, step)
        step += 1
    points_theirs = [int(r) for r in state.returns()]
    if passes == 8:  # nobody bid: OpenSpiel's hand is over with no points; the kernel deals again
        figures.redeals += 1
        if game.over or game.round_no != 1 or game.dealer != (dealer + 1) % 4 or game.decision is None \
                or game.decision.kind != "bid" or game.population != [game.setup.starting_population] * 4:
            raise Mismatch(f"seed {seed}: nobody bid: the kernel does not deal again with no points (round "
                           f"{game.round_no}, dealer {game.dealer}, scores {game.population})")
        points_ours = [0, 0, 0, 0]
    else:
        figures.second_round += passes >= 4
        if not (game.over or game.round_no > 1):
            raise Mismatch(f"seed {seed}: OpenSpiel's hand is over, the kernel still asks "
                           f"{game.decision.kind if game.decision else game.phase}")
        deltas = list(game.last_deltas)  # each Community's gain (its team's: partners at seats s and s + 2)
        team = [deltas[seat] + deltas[(seat + 2) % 4] for seat in range(4)]
        points_ours = [team[seat] - team[(seat + 1) % 4] for seat in range(4)]
    if points_ours != points_theirs:
        raise Mismatch(f"seed {seed}: points differ at the end: kernel {points_ours}, OpenSpiel {points_theirs}\n"
                       f"  OpenSpiel's state:\n{state}")
    figures.hands += 1


def run(settings_ours: dict, settings_theirs: dict | None = None, hands: int = 50, first_seed: int = 0,
        stop_at_first: bool = True, edit: tuple[str, str] | None = None) -> tuple[Figures, list[str]]:
    """Lockstep over `hands` hands (seeds first_seed...); the mismatches found (at most one with stop_at_first).
    `edit`: the kernel plays the box with that change to its added power's text (a rule control)."""
    ours = {**DEFAULTS, **settings_ours}
    theirs = {**DEFAULTS, **(settings_theirs if settings_theirs is not None else settings_ours)}
    kernel = Kernel(ours, edit=edit)
    spiel_game = pyspiel.load_game("euchre", theirs)
    figures = Figures()
    return play_hands(lambda seed: play_hand(seed, kernel, spiel_game, figures),
                      figures, hands, first_seed, stop_at_first)


#: The negative controls: (parameter, the kernel's settings, OpenSpiel's settings).
CONTROLS = [
    ("allow_lone_defender", {}, {"allow_lone_defender": True}),
    ("allow_lone_defender (the other way)", {"allow_lone_defender": True}, {}),
    ("stick_the_dealer", {}, {"stick_the_dealer": False}),
    ("stick_the_dealer (the other way)", {"stick_the_dealer": False}, {}),
]


#: The rule controls: the kernel plays the box with one of its rules broken (its added power's text
#: edited), OpenSpiel its own game at the defaults: (rule, (the text, what it becomes)).
RULE_CONTROLS = [
    ("the left bower", ("rule counts as trump ranked 19 when value of played == 11 and ((",
                        "rule counts as trump ranked 19 when value of played == 99 and ((")),
    ("the right bower above the left", ("rule counts as trump ranked 20", "rule counts as trump ranked 18")),
    ("the dealer never discards the turned card", ("choose c from hand except turned_up", "choose c from hand")),
    ("a lone march scores 4", ("if maker_alone {\n          gain 4", "if maker_alone {\n          gain 2")),
    ("stick the dealer is the dealer's alone", ("passing and self == dealer", "passing and self == left of dealer")),
]


def main(argv=None) -> int:
    controls = [(f"control {name}", lambda o=ours, t=theirs: run(o, t, hands=2000)) for name, ours, theirs in CONTROLS]
    controls += [(f"rule control {name}", lambda e=edit: run({}, hands=2000, edit=e)) for name, edit in RULE_CONTROLS]
    return command_line(__doc__, "euchre", DEFAULTS, SETTINGS, run, controls, argv)


if __name__ == "__main__":
    sys.exit(main())
