"""The generic trick-taking kernel.

A Game holds all that changes during a game as plain data (zones, populations,
the trick in progress, powers being run) and steps through the rules until a
Community must decide something. Every decision — transfer, lead, follow, a
choice inside a power, a Faction change — is a Decision with an actor and a
list of legal options; `apply(index)` answers it. Randomness comes from one
seeded RNG held by the game, so a seed and the list of answers replay a game
exactly.

The kernel knows no Faction. Which cards may always be played, which never
set the Faction led, which cut a trick, which are kept face up or carried to
the next round, and what happens when a trick is won or a round counted, all
come from the compiled power files.
"""

from __future__ import annotations

import copy
import random
from itertools import compress
from typing import Callable

from happydayz.language import vm
from happydayz.language.compiler import Blind, VariantProgram
from happydayz.base.errors import Diagnostic, GameRuleError
from happydayz.base.draws import shuffle
from happydayz.kernel import fastpath, observation
from happydayz.kernel.setup import AUCTION_PROGRESS, GameSetup, scenario_span
from happydayz.language.compiler import AUCTION_STATE, DEALER_STATE, REDEAL_STATE, TURNED_STATE
from happydayz.data.hand import FIRST_BID, MAX_REDEALS
from happydayz.kernel.layout import Layout, Trick
from happydayz.kernel.tables import InForce, Option, pick, round_deck, tables_of

LEAD_PROMPT = "Lead a card: choose it and the side of the board"


def _follow_prompt(trick: "Trick") -> str:
    """A follow's prompt, kept on the trick: it is the same for every follow once the Faction led is known."""
    trick.prompt = f"Play a card ({trick.led or 'any Faction'} led, {trick.side} side)"
    return trick.prompt


def _scenario_reference(scenario) -> str:
    """How to find the scenario again: its id, or for a user's file its absolute path."""
    if scenario.source is not None and scenario.id.lower().endswith((".yaml", ".yml")):
        return str(scenario.source)
    return scenario.id


_STOP_OPTION = Option(vm.STOP, "stop choosing")
_UNANSWERED = object()  # no choice waits for an answer (see Game._phase_powers)


#: Every kind of decision the kernel asks (Decision.kind); tests/players/test_honesty.py checks each call that
#: asks one names a kind of this list, and that every bot answers each kind honestly.
DECISION_KINDS = ("dealer", "transfer", "bid", "lead", "follow", "choose", "ask", "faction_change", "replace_power")


class Decision:
    """A question to one Community: who answers, what kind of decision, its prompt, its legal options.

    A small class with slots rather than a NamedTuple: one is made for every decision
    of every playout, and CPython 3.11 makes, reads and frees a tuple subclass several
    times slower. It compares by value and never changes once made.
    """

    __slots__ = ("actor", "kind", "prompt", "options", "decider")

    def __init__(self, actor: int, kind: str, prompt: str, options: tuple[Option, ...]) -> None:
        self.actor = actor  # the Community whose decision it is (whose card is played)
        self.decider = actor  # the one asked: another for a dummy hand (Game._ask sets it as it makes one)
        self.kind = kind  # one of DECISION_KINDS
        self.prompt = prompt
        self.options = options

    def _fields(self) -> tuple:
        return self.actor, self.kind, self.prompt, self.options, self.decider

    def __eq__(self, other: object) -> bool:
        return type(other) is Decision and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        if self.decider != self.actor:
            return "Decision(actor={!r}, kind={!r}, prompt={!r}, options={!r}, decider={!r})".format(*self._fields())
        return "Decision(actor={!r}, kind={!r}, prompt={!r}, options={!r})".format(*self._fields()[:4])

    def index_of_label(self, label: str) -> int | None:
        wanted = label.strip().lower()
        for i, option in enumerate(self.options):
            if option.label.lower() == wanted:
                return i
        return None


# A play is a plain tuple (seat, card, trump): four are made in every trick, and a
# tuple subclass costs several times as much to make, read and free.
Play = tuple[int, int, bool]


# Attributes a copy shares with its original: set once per setup, never changed.
_SHARED = frozenset({"setup", "cards", "tables", "hand_keys", "transfer_keys", "expedition_keys", "_in_force",
                     "deal_plan", "dummy_rule", "dummy"})


class Game:
    # Slots, not a __dict__: a Game has more attributes than CPython 3.11 keeps in an
    # instance's shared-key table (30), and past that limit its attribute reads and
    # method calls are no longer specialized. The trick loop reads them at every play.
    __slots__ = ("setup", "seed", "rng", "n", "cards", "tables", "hand_keys", "transfer_keys", "expedition_keys",
                 "record", "zones", "loc", "population", "factions", "added", "round_no", "round_gain",
                 "tricks_played", "active", "designated", "named_lead", "named_side", "trick", "carried", "transfer_picks",
                 "frames", "after_frames", "phase", "decision", "history", "log", "answers", "over", "winners",
                 "last_deltas", "seen", "voids", "_in_force", "tricks_won", "state", "round_ends", "game_ends",
                 "deal_plan", "dealer", "round_steps", "dummy_rule", "dummy")

    def __init__(self, setup: GameSetup, seed: int = 0, record: bool = True, deal_plan: Callable | None = None):
        """A new game. `record=False` keeps no event log (faster; for playouts nobody reads).

        `deal_plan(game)`, if given, is asked at each deal for the round's deal fixed by hand
        ((hands by seat, Reserve top first) in card ids, or None to keep the shuffled one): a
        scripted game's, applied before anything of the round happens (a start-of-round hook).
        """
        self.setup = setup
        self.deal_plan = deal_plan
        self.seed = seed
        self.rng = random.Random(seed)
        n = setup.n
        self.n = n
        self.cards = setup.cards
        self.tables = tables_of(setup)
        tables = self.tables
        self.hand_keys, self.transfer_keys, self.expedition_keys = (tables.hand_keys, tables.transfer_keys,
                                                                    tables.expedition_keys)
        self.record = record
        self.zones: dict[str, list[int]] = {key: [] for key in tables.zone_names}  # filled by the first round's setup
        self.loc: list[str] = ["out"] * len(self.cards)
        self.population = [setup.starting_population] * n
        self.factions: list[list[str]] = [[c.faction, c.variant] for c in setup.scenario.factions]
        self.added: list[str] = list(setup.scenario.added)
        self.round_no = 0
        self.round_gain = [0] * n
        self.tricks_played = 0
        self.round_steps = 0  # the steps all the round's hooks spent (vm.ended)
        self.active = 0
        self.dummy_rule = getattr(setup.hand, "dummy", "none") == "partner_of_declarer"
        self.dummy = None  # the seat of the dummy hand laid face up this round (hand.dummy), or None
        self.designated: int | None = None
        self.named_lead: str | None = None
        self.named_side: str | None = None  # the side a power named for the next trick (`next side`)
        self.trick: Trick | None = None
        self.carried: list[list[int]] = [[] for _ in range(n)]
        self.transfer_picks: list[tuple[int, int, int]] = []  # (giver, receiver, card)
        self.frames: list[vm.Frame] = []
        self.after_frames = ""
        self.dealer: int | None = None  # who deals the round (the hand's dealer rule; None: nobody deals)
        self.phase = self._next_round_phase()
        self.decision: Decision | None = None  # waiting for an answer; None once the game is over
        self.history: list[dict] = []
        self.log: list[dict] = []
        self.answers: list[int] = []
        self.over = False
        self.winners: list[int] = []
        self.last_deltas = [0] * n
        # What every Community has seen this round (see _move_cards): each card's arrival in
        # the zone it is in (read through `known`), and the Factions each hand is known to lack.
        self.seen: list[bool] = [False] * len(self.cards)
        self.voids: list[set[str]] = [set() for _ in range(n)]
        self.tricks_won = [0] * n
        # (state key, seat or None) -> the value of a power's counter or mark, or of an option (set from the start)
        self.state: dict[tuple, object] = dict(setup.option_state)
        self.round_ends = False  # a power ended the round: it ends after the trick in progress
        self.game_ends = False  # a power ended the game (`end game` at the end of a round): it ends at this count
        self._in_force: InForce  # set by forget_rules
        self.forget_rules()
        if record:
            self._event("game_start", seed=seed, scenario=_scenario_reference(setup.scenario),
                        box=setup.scenario.box, players=n,
                        factions=[list(f) for f in self.factions], added=list(self.added),
                        options={"express": setup.options.express, "promos": setup.options.promos,
                                 "random_powers": setup.options.random_powers,
                                 "faction_change": setup.options.faction_change})
        self._advance()

    # ------------------------------------------------------------ public API
    def apply(self, index: int) -> None:
        """Answer the pending decision with the option at `index`."""
        d = self.decision
        if d is None:
            raise GameRuleError("the game is over: there is no decision to answer")
        self._answer(d, index)
        self._advance()

    def play(self, choose: Callable[[Decision], int], *, round_only: bool = False) -> None:
        """Answer every decision with `choose(decision)` (an option's index) until the game ends.

        With `round_only`, stop at the first decision after the round in progress is
        counted. The same as calling `apply(choose(game.decision))` in a loop, in one
        loop: a playout (a search's simulation, a benchmark's random game) spends most
        of its time going from one decision to the next.
        """
        rounds = len(self.history)
        while fastpath.ENABLED:  # the trick loop generated for this setup (kernel.fastpath)
            loop = fastpath.loop_for(self)
            if loop is None:
                break
            if loop(self, choose, round_only, rounds):
                return
        while True:
            d = self.decision
            if d is None:
                if self.over:
                    return
                _PHASES[self.phase](self)
                continue
            if round_only and len(self.history) != rounds:
                return
            self._answer(d, choose(d))

    def _answer(self, d: Decision, index: int) -> None:
        if type(index) is not int or not 0 <= index < len(d.options):
            raise GameRuleError(f"illegal answer {index!r} to '{d.prompt}': choose 0 to {len(d.options) - 1}")
        option = d.options[index]
        self.answers.append(index)
        if self.record:
            event = {"event": "decision", "round": self.round_no, "actor": d.actor, "decision": d.kind,
                     "answer": option.label}
            if d.decider != d.actor:  # a dummy's decision: who answered it (docs/boxes.md, 'The dummy')
                event["decider"] = d.decider
            self.log.append(event)
        self.decision = None
        _ANSWERS[d.kind](self, d, option.value)

    def copy(self) -> "Game":
        """An independent copy: it shares the setup and what is never changed in place, nothing else."""
        other = Game.__new__(Game)  # not a new game: every field is copied from this one
        for name, copier in _COPY_PLAN:
            value = getattr(self, name)
            if copier is not None and type(value) not in _IMMUTABLE:
                value = copier(value)
            setattr(other, name, value)
        return other

    @property
    def known(self) -> list[list[int]]:
        """The cards everyone knows to lie in each Expedition zone, in the zone's order."""
        flag, zones = self.seen.__getitem__, self.zones
        return [list(compress(cards, map(flag, cards))) for cards in map(zones.__getitem__, self.expedition_keys)]

    @known.setter
    def known(self, known: list[list[int]]) -> None:
        self.seen = [False] * len(self.cards)
        for cards in known:
            for card in cards:
                self.seen[card] = True

    def held(self, seat: int) -> tuple[int, ...]:
        zones = self.zones
        return (*zones[self.hand_keys[seat]], *zones[self.transfer_keys[seat]])

    def zone(self, kind: str, seat: int) -> list[int]:
        """A Community's hand, Transfer or Expedition zone."""
        return self.zones[self.tables.zone_keys[kind][seat]]

    @property
    def reserve(self) -> list[int]:
        return self.zones["reserve"]

    def factions_in_play(self) -> tuple[str, ...]:
        return self.setup.always + tuple(f for f, _ in self.factions)

    def round_cards(self) -> list[int]:
        """The cards of a round with the Factions now in play (promo cards in place when used)."""
        return list(self._round_deck())

    def _round_deck(self) -> tuple[int, ...]:
        in_force = self._in_force
        if in_force.deck is None:
            in_force.deck = tuple(round_deck(self.setup, self.factions_in_play()))
        return in_force.deck

    def label(self, card: int) -> str:
        return self.tables.label[card]

    def variant_of(self, faction: str) -> str:
        for f, v in self.factions:
            if f == faction:
                return v
        return "basic"

    def rules_of(self, card: int) -> VariantProgram:
        known = self._in_force.rules
        rules = known[card]
        if rules is None:
            faction = self.tables.faction[card]
            rules = known[card] = self.setup.rules(faction, self.variant_of(faction))
        return rules

    def face_up_factions(self) -> frozenset[str]:
        """The Factions whose cards lie face up in an Expedition zone (rules_of(card).face_up), made once per
        set of powers in force: the observation reads a card's Faction instead of its rules."""
        in_force = self._in_force
        if in_force.face_up is None:
            setup = self.setup
            in_force.face_up = frozenset(f for f in setup.faction_power
                                         if setup.rules(f, self.variant_of(f)).face_up)
        return in_force.face_up

    def forget_rules(self) -> None:
        """The powers in force changed: look every card's rules up again.

        The per-card list is filled lazily and shared by every game of this setup with the
        same Factions and variants (the entries depend on nothing else), so a new game or
        a sampled state does not look them all up again.
        """
        key = (tuple(map(tuple, self.factions)), tuple(self.added))
        memo = self.tables.in_force
        in_force = memo.get(key)
        if in_force is None:
            always = frozenset(f for f in self.setup.faction_power
                               if self.setup.rules(f, self.variant_of(f)).always_playable
                               or self.setup.rules(f, self.variant_of(f)).wild)
            in_force = memo[key] = InForce(len(self.cards), always)
            self._find_events(in_force)
        self._in_force = in_force

    def _find_events(self, in_force: InForce) -> None:
        """Which hooks of the powers in force run at a play, a trick's end, a round's start and the game's end."""
        setup = self.setup
        in_play = tuple(dict.fromkeys(self.factions_in_play()))
        game_wide = [(setup.faction_power[f], self.variant_of(f)) for f in in_play]
        game_wide += [(setup.added_power[name], "basic") for name in self.added]
        for faction in in_play:
            power, variant = setup.faction_power[faction], self.variant_of(faction)
            lead, play = power.hook_key(variant, "lead"), power.hook_key(variant, "play")
            if lead or play:
                in_force.play_hooks[faction] = (lead, play)
            won = power.hook_key(variant, "trick")
            if won:
                in_force.trick_hooks[faction] = won
        for attr, hook in (("after_keys", "after_trick"), ("start_keys", "start"), ("bid_keys", "after_transfer"),
                           ("game_end_keys", "game_end")):
            setattr(in_force, attr, tuple(k for k in (p.hook_key(v, hook) for p, v in game_wide) if k))
        rules = {f: setup.rules(f, self.variant_of(f)) for f in in_play}
        in_force.ruled = frozenset(f for f, r in rules.items() if r.decides_the_winner)
        in_force.restricted = frozenset(f for f, r in rules.items() if r.restricts_play)
        in_force.restrictions = {
            rule: {f: (got, *rules[f].card_split.get(rule, (None, got))) for f in in_force.restricted
                   if (got := getattr(rules[f], rule)) is not None}
            for rule in _RESTRICTIONS}
        in_force.sometimes_playable = frozenset(f for f, r in rules.items() if r.always_playable_when is not None)
        in_force.must_beat = frozenset(f for f, r in rules.items() if r.must_beat)
        in_force.must_trump = frozenset(f for f, r in rules.items() if r.must_trump)
        in_force.names_side = any(power.variant(variant).names_side for power, variant in game_wide)
        for zone in ("expedition", "hand"):
            keys = tuple(k for k in (p.hook_key(v, "enter_" + zone) for p, v in game_wide) if k)
            if keys:
                in_force.enter_keys[zone] = keys

    def _win_hook(self, faction: str) -> tuple | None:
        """(frame key, power name, variant kind) of the on-win hook a trick led by `faction` runs, or None."""
        hooks = self._in_force.win_hooks
        if faction not in hooks:
            power = self.setup.faction_power.get(faction)
            key = power.hook_key(self.variant_of(faction), "win") if power is not None else None
            hooks[faction] = None if key is None else (key, power.name, key[1])
        return hooks[faction]

    # ------------------------------------------------ states set by hand
    # The three ways to put a game in a state it did not reach by play: a position
    # laid out by hand (tests, scripted games), a deal fixed by hand, and a
    # state sampled from what one Community saw (determinize.py). Only these
    # write the game's fields from outside the rules.

    @classmethod
    def from_layout(cls, setup: GameSetup, layout: Layout, rng: random.Random, record: bool = True) -> "Game":
        """A game in the state `layout` describes, at the decision it says; see Layout."""
        game = cls.__new__(cls)
        game.setup, game.seed, game.rng, game.record = setup, 0, rng, record
        game.n = setup.n
        game.cards = setup.cards
        game.dummy_rule, game.dummy = getattr(setup.hand, "dummy", "none") == "partner_of_declarer", None
        game.tables = tables = tables_of(setup)
        game.hand_keys, game.transfer_keys, game.expedition_keys = (tables.hand_keys, tables.transfer_keys,
                                                                    tables.expedition_keys)
        zones = {key: [] for key in tables.zone_names}
        game.zones = zones
        game.loc = loc = ["out"] * len(setup.cards)
        for key, cards in layout.zones.items():  # (a search samples hundreds of layouts: kept tight)
            zones[key] = cards = list(cards)
            for card in cards:
                loc[card] = key
        zones["out"] = list(compress(range(len(loc)), map("out".__eq__, loc)))
        game.population = list(layout.population)
        game.factions = [list(pair) for pair in layout.factions]
        game.added = list(layout.added)
        if len(game.added) > len(setup.scenario.added):  # a power the random-power rule drew: its game-wide rules
            game.setup = setup.with_added(game.added)
        game.round_no = layout.round_no
        game.round_gain = list(layout.round_gain)
        game.tricks_played = 0
        game.round_steps = 0  # the steps all the round's hooks spent (vm.ended)
        game.active = layout.active
        game.designated = game.named_lead = game.named_side = None
        game.trick = layout.trick
        game.carried = [[] for _ in range(game.n)]
        game.transfer_picks = list(layout.transfer_picks)
        game.frames, game.after_frames = [], ""
        game.decision = None
        game.history = [dict(h) for h in layout.history]
        game.last_deltas = list(game.history[-1]["deltas"]) if game.history else [0] * game.n
        game.log, game.answers = [], []
        game.over, game.winners = False, []
        game.known = layout.known
        game.voids = [set(v) for v in layout.voids]
        game.tricks_won = list(layout.tricks_won) if layout.tricks_won else [0] * game.n
        game.deal_plan = None
        game.dealer = layout.dealer
        game.state, game.round_ends, game.game_ends = {**setup.option_state, **layout.state}, False, False
        game.forget_rules()
        game.phase = layout.phase
        game._advance()
        return game

    def set_position(self, *, hands: dict[int, list[int]] | None = None,
                     transfers: dict[int, list[int]] | None = None,
                     expeditions: dict[int, list[int]] | None = None, reserve: list[int] = (),
                     populations: list[int] | None = None, active: int = 0, round_no: int = 1,
                     carried: dict[int, list[int]] | None = None) -> "Game":
        """Put every named card in its zone (the others out of the round) and play on from a new trick.

        Like a chess FEN: a position given by hand. Nobody is taken to have seen
        the cards arrive, and the game keeps its random source.
        """
        for card in range(len(self.cards)):
            if self.loc[card] != "out":
                self._move(card, "out")
        for kind, table in (("hand", hands), ("transfer", transfers), ("expedition", expeditions)):
            for seat, cards in (table or {}).items():
                if not 0 <= seat < self.n:
                    raise GameRuleError(f"there is no seat {seat} in a {self.n}-player game")
                for card in cards:
                    self._move(card, self.tables.zone_keys[kind][seat])
        for card in reserve:
            self._move(card, "reserve")
        if populations is not None:
            if len(populations) != self.n:
                raise GameRuleError(f"{len(populations)} populations given for {self.n} Communities")
            self.population = [int(p) for p in populations]
        if not 0 <= active < self.n:
            raise GameRuleError(f"the active Community must be a seat from 0 to {self.n - 1}, not {active}")
        self.carried = [list((carried or {}).get(s, [])) for s in range(self.n)]
        self.round_no = round_no
        self.round_gain = [0] * self.n
        self.known = [[] for _ in range(self.n)]
        self.voids = [set() for _ in range(self.n)]
        self.tricks_played = 0
        self.round_steps = 0  # the steps all the round's hooks spent (vm.ended)
        self.tricks_won = [0] * self.n
        self.round_ends = self.game_ends = False
        self.active = active
        self.designated = self.named_lead = self.named_side = None
        self.trick = None
        self.frames = []
        self.decision = None
        self.over = False
        self.phase = "start_trick"
        self._event("position", hands={s: [self.label(c) for c in self.zone("hand", s)] for s in range(self.n)})
        self._advance()
        return self

    def rig_deal(self, hands: dict[int, list[int]], reserve: list[int]) -> None:
        """Replace the deal of the round just dealt by one given by hand (cards not given stay out).

        Only before the round's first Transfer pass: the Transfer is then asked again.
        """
        if self.phase != "transfer" or self.transfer_picks:
            raise GameRuleError("a deal can be fixed only before the round's first Transfer pass")
        self._replace_deal(hands, reserve)
        self.decision = None  # the Transfer question was about the shuffled hand: ask it again
        self._advance()

    def _replace_deal(self, hands: dict[int, list[int]], reserve: list[int]) -> None:
        for card in range(len(self.cards)):
            if self.loc[card] == "reserve" or self.loc[card] in self.hand_keys:
                self._move(card, "out")
        for seat, cards in hands.items():
            for card in cards:
                self._move(card, self.hand_keys[seat])
        for card in reserve:
            self._move(card, "reserve")
        self._event("scripted_deal", hands={s: [self.label(c) for c in self.zone("hand", s)] for s in range(self.n)},
                    reserve=[self.label(c) for c in self.reserve])

    # ------------------------------------------------------------- the loop
    def _advance(self) -> None:
        phases = _PHASES
        for _ in range(100_000):
            if self.decision is not None or self.over:
                return
            phases[self.phase](self)
        raise RuntimeError("the game loop made no progress")  # pragma: no cover - a kernel bug, not a user's

    def _ask(self, actor: int, kind: str, prompt: str, options) -> None:
        if self.dummy_rule:  # a hand with a dummy: its decisions are asked of its controller once it is laid
            self.decision = decision = Decision(actor, kind, prompt, tuple(options))
            decision.decider = self._decider(actor)
            return
        self.decision = Decision(actor, kind, prompt, tuple(options))

    def _decider(self, actor: int) -> int:
        """Who answers `actor`'s decision: the dummy's partner for the dummy, once it is laid (docs/boxes.md,
        'The dummy'); it is laid when the round's first card has been played, if the auction has a winner."""
        if self.dummy is None:
            trick = self.trick
            if (trick is not None and trick.plays) or self.tricks_played > 1 or any(self.tricks_won):
                winner = self.state.get((AUCTION_STATE["winner"], None))
                if winner is not None:
                    self.dummy = self.setup.partner_of[winner]
                    if self.record:
                        self._event("dummy", seat=self.dummy, controller=winner,
                                    hand=[self.label(c) for c in self.zone("hand", self.dummy)])
        if actor == self.dummy:
            return self.setup.partner_of[actor]
        return actor

    def _event(self, kind: str, **data) -> None:
        # hot paths test self.record themselves, so as not to build the event's data for nothing
        if self.record:
            self.log.append({"event": kind, "round": self.round_no, **data})

    def _move(self, card: int, dest: str, top: bool = False) -> None:
        zones, loc = self.zones, self.loc
        zones[loc[card]].remove(card)
        if top:
            zones[dest].insert(0, card)
        else:
            zones[dest].append(card)
        loc[card] = dest

    def _move_cards(self, cards: tuple[int, ...], zone: str, owner: int | None, position: str,
                    cause: dict | None, source: vm.Frame | None = None) -> None:
        """A power's move, keeping `known` and `voids` true to what everyone saw of it.

        A card a power moves is seen, unless the power picked it at random: a random
        pick out of an Expedition zone leaves nobody sure of which known card is still
        there. A card arriving in a hand ends what was known of that hand's voids.
        """
        if source is not None and self._in_force.enter_keys:
            self._move_cards_entering(cards, zone, owner, position, cause, source)
            return
        dest = zone if owner is None else self.tables.zone_keys[zone][owner]
        zones, loc, seen = self.zones, self.loc, self.seen
        blind = type(cards) is Blind
        sources = [loc[card] for card in cards] if cause is not None else None
        if blind:
            for card in cards:
                if loc[card] in self.tables.expedition_seat:
                    for other in zones[loc[card]]:
                        seen[other] = False
        for card in cards:  # all out, then all in: the order _move gives card by card
            zones[loc[card]].remove(card)
            loc[card] = dest
        if position == "top":
            zones[dest][:0] = cards
        else:
            zones[dest].extend(cards)
        if zone == "expedition":
            seen_now = not blind
            for card in cards:
                seen[card] = seen_now
        elif zone != "reserve" and zone != "discard":  # into a hand or a Transfer zone
            self.voids[owner].clear()
        if cause is not None:
            self._event("move", **cause, cards=[self.tables.label[c] for c in cards], **{"from": sources}, to=dest,
                        position=position)

    def _move_cards_entering(self, cards: tuple[int, ...], zone: str, owner: int | None, position: str,
                             cause: dict | None, source: vm.Frame) -> None:
        """_move_cards, then the `on enter` hooks of the cards that entered a zone (only with such a hook in force)."""
        dest = zone if owner is None else self.tables.zone_keys[zone][owner]
        before = [self.loc[card] for card in cards]
        self._move_cards(cards, zone, owner, position, cause)
        if owner is None or zone not in self._in_force.enter_keys:
            return
        new = [(card, _ORIGIN.get(key.split(":", 1)[0], "reserve")) for card, key in zip(cards, before) if key != dest]
        if new:  # (a card moved into the zone it was in does not enter it)
            program = self.setup.programs[source.key]
            mover = next((f for f, p in self.setup.faction_power.items() if p.name == program.power), None)
            self._entered(tuple(c for c, _ in new), zone, owner, tuple(w for _, w in new), mover,
                          source.env.get("@chain") or (program.power,), 1)

    def _entered(self, cards, zone: str, owner: int, origin, mover: str | None, chain: tuple = (),
                 at: int | None = None) -> None:
        """Queue the `on enter` hooks of the powers in force for `cards`, which entered `zone` of `owner`.

        They run next, before any hook already waiting (after the hook that moved the cards, which
        runs on first), once per card and power, for the Community that received the card. Hooks
        triggered by such hooks are bounded: a chain longer than MAX_ENTER_CHAIN stops the game (R002).
        """
        keys = self._in_force.enter_keys.get(zone)
        if not keys:
            return
        if len(chain) > MAX_ENTER_CHAIN:
            names = " -> ".join(chain)
            raise GameRuleError(Diagnostic(self.setup.programs[keys[0]].span,
                                           f"the hooks 'on enter {zone}' kept triggering one another: "
                                           f"{names}; a chain of more than {MAX_ENTER_CHAIN} is stopped", "R002",
                                           hint="a hook that moves the card that entered into another such zone "
                                                "triggers the hooks there again: move it only on a condition that "
                                                "stops (count(mover) == 0, a mark)"))
        new = []
        for i, card in enumerate(cards):
            where = origin if type(origin) is str else origin[i]
            for key in keys:
                power = self.setup.programs[key].power
                f = vm.frame(key, owner, card=card)
                f.env.update({"@movers": () if mover is None else (mover,), "@from": where, "@chain": chain + (power,)})
                new.append(f)
                if self.record:
                    self._event("enter", power=power, seat=owner, card=self.tables.label[card], to=zone,
                                **{"from": where, "mover": mover})
        frames = self.frames
        if at is None:
            frames.extend(new)
        else:  # after the running hook (frames[0]), before the hooks already waiting
            frames[at:at] = new

    def seat_label(self, seat: int) -> str:
        return self.tables.seat[seat].label

    def asking_power(self) -> tuple[str, str, str | None] | None:
        """(power name, variant kind, variant title) of the power whose choice is pending, else None.

        The variant kind is basic, positive, negative or fixed; the title is the
        printed name of an advanced power ("ALL EQUAL"), if it has one.
        """
        if self.decision is None or self.decision.kind not in ("choose", "ask") or not self.frames:
            return None
        program = self.setup.programs[self.frames[0].key]
        file = self.frames[0].key[0]
        power = next((p for p in (*self.setup.faction_power.values(), *self.setup.added_power.values(),
                                  *self.setup.card_power.values()) if str(p.file) == file), None)
        title = power.variants[program.variant].title if power is not None else None
        return program.power, program.variant, title

    # ---------------------------------------------------------- round setup
    def _next_round_phase(self) -> str:
        """The phase a round starts with: a dealer's choice first when the hand says the dealer is chosen."""
        return "choose_dealer" if self.setup.hand.dealer == "chosen" else "setup_round"

    def _phase_choose_dealer(self) -> None:
        """The previous dealer (round 1: the hand's first dealer) chooses who deals the next round."""
        chooser = self.setup.hand.first_dealer if self.dealer is None else self.dealer
        self.phase = "setup_round"
        self._ask(chooser, "dealer", f"Choose the dealer of round {self.round_no + 1}", self.tables.seat)

    def _answer_dealer(self, d: Decision, seat: int) -> None:
        self.dealer = seat

    def _deal_by(self) -> int | None:
        """Who deals the round just begun, by the hand's dealer rule (None: nobody deals)."""
        hand = self.setup.hand
        if hand.dealer == "fixed":  # (each deal again after nobody bid moves the deal on: all_pass: redeal)
            return (hand.first_dealer + self.state.get((REDEAL_STATE["redeals"], None), 0)) % self.n
        if hand.dealer == "rotating":
            return (hand.first_dealer + self.round_no - 1 + self.state.get((REDEAL_STATE["redeals"], None), 0)) % self.n
        return self.dealer  # chosen (asked before the deal), or nobody

    def _phase_setup_round(self) -> None:
        self.round_no += 1
        self.dealer = self._deal_by()
        # Every card goes back out, then the round's deck is shuffled and dealt. The zones
        # are rebuilt whole rather than card by card: this runs once per playout.
        zones = self.zones
        for cards in zones.values():
            cards.clear()
        in_force = self._in_force
        carried = {c for seat in self.carried for c in seat} if any(self.carried) else None
        deck = [c for c in self._round_deck() if c not in carried] if carried else list(self._round_deck())
        shuffle(self.rng, deck)  # rng.shuffle(deck), its draws inlined (base.draws): the same order, the same state
        per_seat = self.setup.hand_size(self.round_no)
        self.loc = loc = ["out"] * len(self.cards)
        for seat, key in enumerate(self.hand_keys):
            hand = zones[key]
            kept = self.carried[seat]
            if kept:
                hand.extend(kept)
            take = min(per_seat - len(kept), len(deck))
            if take > 0:
                hand.extend(deck[:-take - 1:-1])  # dealt from the end of the deck, one card at a time
                del deck[-take:]
            for card in hand:
                loc[card] = key
        zones["reserve"].extend(deck)
        for card in deck:
            loc[card] = "reserve"
        if not carried or carried.issubset(in_force.deck):  # the usual case: out are the cards not in the deck
            if in_force.out is None:
                in_deck = set(in_force.deck)
                in_force.out = tuple(c for c in range(len(self.cards)) if c not in in_deck)
            zones["out"].extend(in_force.out)
        else:
            zones["out"].extend([c for c, where in enumerate(loc) if where == "out"])
        self.seen = [False] * len(self.cards)
        for void in self.voids:  # (a copy has its own sets: see _COPIERS)
            void.clear()
        self.round_gain = [0] * self.n
        self.tricks_played = 0
        self.round_steps = 0  # the steps all the round's hooks spent (vm.ended)
        self.designated = self.named_lead = self.named_side = self.dummy = None
        self.tricks_won = [0] * self.n
        self.round_ends = self.game_ends = False
        if self.state:
            round_keys = self.setup.round_state
            self.state = {k: v for k, v in self.state.items() if k[0] not in round_keys}
        if self.dealer is not None:
            self.state[(DEALER_STATE, None)] = self.dealer  # what the powers read as `dealer`
            if self.record:
                self._event("dealer", seat=self.dealer)
        if self.record:
            self._event("deal", hands=[[self.label(c) for c in self.zone("hand", s)] for s in range(self.n)],
                        reserve=[self.label(c) for c in self.reserve])
        if self.deal_plan is not None:
            planned = self.deal_plan(self)  # (it reads what each Community carried into the round)
            if planned is not None:
                self._replace_deal(*planned)
        if carried:
            self.carried = [[] for _ in range(self.n)]
        if self.setup.hand.turn_up:
            self._turn_up()
        self.transfer_picks = []
        self.phase = "transfer"
        if in_force.start_keys:
            self._run_for_everyone(in_force.start_keys, "transfer")

    def _turn_up(self) -> None:
        """The hand's turn_up: the Reserve's top card, face up for everyone, kept as the round's TURNED_STATE."""
        reserve = self.zones["reserve"]
        if not reserve:
            raise GameRuleError(Diagnostic(scenario_span(self.setup.scenario),
                                           f"round {self.round_no}: the hand turns up the Reserve's top card "
                                           "(turn_up), but the deal left no card in the Reserve", "G001", quote=False))
        self.state[(TURNED_STATE, None)] = reserve[0]
        if self.record:
            self._event("turn_up", card=self.label(reserve[0]))

    def turned_up(self) -> int | None:
        """The card the hand turned up this round, while it still lies on the Reserve (None: none there)."""
        card = self.state.get((TURNED_STATE, None))
        return card if card is not None and self.loc[card] == "reserve" else None

    def _run_for_everyone(self, keys: tuple[tuple, ...], then: str) -> None:
        """Run game-wide hooks once for each Community (seat order), then go on to the phase `then`."""
        for key in keys:
            for seat in range(self.n):
                self.frames.append(vm.frame(key, seat))
        self.after_frames = then
        self.phase = "powers"

    def _transfer_plan(self) -> tuple[tuple, tuple]:
        """This round's Transfer, as the hand says (CardTables.transfer_plan)."""
        return self.tables.transfer_plan(*self.setup.transfer_in(self.round_no))

    def _transfer_targets(self, seat: int) -> list[int]:
        """The seats `seat` passes its Transfer cards to this round, in order."""
        return [receiver for receiver, _ in self._transfer_plan()[0][seat]]

    def _phase_transfer(self) -> None:
        picks, steps = self.transfer_picks, self._transfer_plan()[1]
        while len(picks) < len(steps):
            seat, k, receiver, prompt = steps[len(picks)]
            hand = self.zones[self.hand_keys[seat]]
            if k:  # a card picked for an earlier pass is not offered again (picks are made seat by seat)
                hand = hand[:]
                for _, _, card in picks[-k:]:
                    if card >= 0:
                        hand.remove(card)
            if hand:
                self._ask(seat, "transfer", prompt, pick(self.tables.follow, hand))
                return
            picks.append((seat, receiver, -1))  # nothing left to pass: this pass is skipped
        into_hand = self.setup.hand.into == "hand"
        received = self.hand_keys if into_hand else self.transfer_keys
        for _, receiver, card in picks:
            if card >= 0:
                self._move(card, received[receiver])
        if self.record:
            self._event("transfer", passes=[{"from": g, "to": r, "card": self.label(c)} for g, r, c in picks if c >= 0])
        if into_hand and "hand" in self._in_force.enter_keys:  # each card passed enters its receiver's hand
            for _, receiver, card in picks:
                if card >= 0:
                    self._entered((card,), "hand", receiver, "hand", None)
            if self.frames:
                self.after_frames = "transferred"
                self.phase = "powers"
                return
        self._phase_transferred()

    def _phase_transferred(self) -> None:
        """The Transfer made (and the `on enter hand` hooks of its cards run): the auction, or the first trick."""
        if self.setup.hand.auction is not None:
            self._begin_auction()
            return
        self._to_first_trick()

    def _to_first_trick(self) -> None:
        """The Transfer (and the auction) over: the round's first leader, then the bidding moment's hooks."""
        self.active = self._round_leader()
        self.phase = "start_trick"
        if self._in_force.bid_keys:  # the bidding moment: each Community in turn, from the round's first leader
            for key in self._in_force.bid_keys:
                for seat in self.tables.clockwise[self.active]:
                    self.frames.append(vm.frame(key, seat))
            self.after_frames = "start_trick"
            self.phase = "powers"

    # ------------------------------------------------------------- the auction
    # The hand's auction (data.hand.Auction, docs/boxes.md): laps in table order from one seat. What it
    # has seen is public state of the round (compiler.AUCTION_STATE): the bids made, each Community's
    # number or level, the winner and its bid; AUCTION_PROGRESS keeps whose turn it is.
    def _begin_auction(self) -> None:
        first = self.setup.hand.auction.first
        if first == "dealer":
            seat = self.dealer
        elif first == "dealer_left":
            seat = (self.dealer + 1) % self.n
        else:
            seat = first[1]
        self.state[(AUCTION_PROGRESS["turn"], None)] = seat
        self.state[(AUCTION_PROGRESS["passes"], None)] = 0
        self.state[(AUCTION_STATE["made"], None)] = 0
        if self.setup.hand.auction.then:  # an auction of stages: the first one (auction_stage)
            self.state[(AUCTION_STATE["stage"], None)] = 1
            self.state[(AUCTION_PROGRESS["start"], None)] = 0
        self.phase = "auction"

    def _stage(self):
        """The auction's stage now bidding (data.hand.Auction: itself, or one of its `then`)."""
        auction = self.setup.hand.auction
        return auction.then[self.state[(AUCTION_STATE["stage"], None)] - 2] if auction.then and \
            self.state[(AUCTION_STATE["stage"], None)] > 1 else auction

    def _bid_key(self, value) -> tuple[int, int]:
        """How a bid ranks: its number or level, then its Faction's rank (the first Faction in play is highest);
        a level alone of an auction with `no_trump` ranks above every Faction's bid of its level."""
        level, faction = value
        order = [f for f, _ in self.factions]
        if faction is None and level and self._no_trump():
            return (level, len(order) + 1)
        return (level or 0, len(order) - order.index(faction) if faction in order else 0)

    def _no_trump(self) -> bool:
        """Whether the hand's auction bids levels alone too (`bids: {levels: ..., no_trump: true}`)."""
        return any(stage.level_alone for stage in self.setup.hand.auction.stages)

    def _best_bid(self) -> tuple | None:
        state = self.state
        if (AUCTION_STATE["winner"], None) not in state:
            return None
        return (state.get((AUCTION_STATE["contract"], None), 0), state.get((AUCTION_STATE["trump"], None)))

    def _bid_options(self, seat: int) -> list[Option]:
        """The bids `seat` may make: those the hand's auction offers, above the best one if it climbs, that
        the powers' `rule bids only when` allow (all of them if those rules would leave none), then pass."""
        auction = self._stage()
        kind, factions = auction.bids[0], [f for f, _ in self.factions]
        if kind == "numbers":
            values = [(n, None) for n in range(auction.bids[1], auction.bids[2] + 1)]
        elif kind == "factions":
            values = [(None, f) for f in reversed(factions)]
        else:
            alone = [None] if auction.level_alone else []  # no_trump: a level alone, above every Faction
            values = [(n, f) for n in range(auction.bids[1], auction.bids[2] + 1) for f in factions[::-1] + alone]
        best = self._best_bid()
        if auction.climbing and best is not None:
            floor = self._bid_key(best)
            values = [v for v in values if self._bid_key(v) > floor]
        rules = self._bid_rules()
        if rules:
            allowed = [v for v in values if self._bid_allowed(rules, seat, v)]
            values = allowed or values
        options = [Option(v, self._bid_label(v, kind == "levels")) for v in values]
        if auction.passing and (not rules or self._bid_allowed(rules, seat, "pass") or not options):
            options.append(Option("pass", "pass"))
        return options

    def _bid_rules(self) -> tuple:
        in_force = self._in_force
        if in_force.bid_rules is None:
            setup = self.setup
            programs = [setup.rules(f, self.variant_of(f)) for f in dict.fromkeys(self.factions_in_play())]
            programs += [setup.added_power[name].variant("basic") for name in self.added]
            in_force.bid_rules = tuple(p.bids_only_when for p in programs if p.bids_only_when is not None)
        return in_force.bid_rules

    def _bid_allowed(self, rules: tuple, seat: int, value) -> bool:
        offer = (0, None, True) if value == "pass" else (value[0] or 0, value[1], False)
        ctx = vm.Ctx(self, seat, {}, offer=offer)
        return all(rule(ctx) for rule in rules)

    def _phase_auction(self) -> None:
        seat = self.state[(AUCTION_PROGRESS["turn"], None)]
        options = self._bid_options(seat)
        if not options:  # nothing above the best bid, and no pass: the auction is over
            self._end_auction()
            return
        best = self._best_bid()
        said = f" (the best so far: {self._bid_label(best, self._stage().bids[0] == 'levels')})" \
            if best is not None else ""
        self._ask(seat, "bid", f"Bid in the auction{said}", options)

    @staticmethod
    def _bid_label(value, levels: bool = False) -> str:
        """A bid as the players read it: a number, a Faction, a level and a Faction; a level alone (no_trump): "3 no trump"."""
        level, faction = value
        if faction is None:
            return f"{level} no trump" if levels else str(level)
        return faction if not level else f"{level} {faction}"

    def _answer_bid(self, d: Decision, value) -> None:
        auction, state, seat = self._stage(), self.state, d.actor
        made = state[(AUCTION_STATE["made"], None)] + 1
        state[(AUCTION_STATE["made"], None)] = made
        passes = state[(AUCTION_PROGRESS["passes"], None)]
        if value == "pass":
            passes += 1
        else:
            passes = 0
            state[(AUCTION_STATE["bid"], seat)] = value[0] or 0
            best = self._best_bid()
            if best is None or self._bid_key(value) > self._bid_key(best):  # (equals: the first one stands)
                state[(AUCTION_STATE["winner"], None)] = seat
                state[(AUCTION_STATE["contract"], None)] = value[0] or 0
                state[(AUCTION_STATE["trump"], None)] = value[1]
        state[(AUCTION_PROGRESS["passes"], None)] = passes
        state[(AUCTION_PROGRESS["turn"], None)] = (seat + 1) % self.n
        n = self.n
        start = state.get((AUCTION_PROGRESS["start"], None), 0)  # the bids made before this stage
        bid = (AUCTION_STATE["winner"], None) in state
        if auction.ends == 0:
            over = made - start >= n
        elif auction.ends == FIRST_BID:
            over = bid or passes >= n
        else:
            over = (bid and passes >= auction.ends) or (not bid and passes >= n) or made - start >= 50 * n
        if over:
            stage = state.get((AUCTION_STATE["stage"], None), 1)
            if not bid and stage <= len(self.setup.hand.auction.then):  # nobody bid: the next stage, from the start
                state[(AUCTION_STATE["stage"], None)] = stage + 1
                state[(AUCTION_PROGRESS["start"], None)] = made
                state[(AUCTION_PROGRESS["passes"], None)] = 0
                self._begin_stage()
                return
            self._end_auction()

    def _begin_stage(self) -> None:
        """A later stage of the auction begins where the first one did (the turn back to its first bidder)."""
        first = self.setup.hand.auction.first
        self.state[(AUCTION_PROGRESS["turn"], None)] = self.dealer if first == "dealer" else \
            (self.dealer + 1) % self.n if first == "dealer_left" else first[1]

    def _end_auction(self) -> None:
        state = self.state
        if self.record:
            winner = state.get((AUCTION_STATE["winner"], None))
            data = {"stage": state[(AUCTION_STATE["stage"], None)]} if self.setup.hand.auction.then else {}
            self._event("auction", winner=winner,
                        contract=None if winner is None else self._bid_label(
                            self._best_bid(), self._stage().bids[0] == "levels"),
                        bids=[state.get((AUCTION_STATE["bid"], s)) for s in range(self.n)], **data)
        if self.setup.hand.auction.all_pass == "redeal":
            redealt = REDEAL_STATE["redealt"]
            if (AUCTION_STATE["winner"], None) not in state and state.get((redealt, None), 0) < MAX_REDEALS:
                self._redeal()
                return
            state.pop((redealt, None), None)
        self._to_first_trick()

    def _redeal(self) -> None:
        """Nobody bid (all_pass: redeal): the round is dealt again, by the next Community (the deal moves on)."""
        state = self.state
        for key in REDEAL_STATE.values():
            state[(key, None)] = state.get((key, None), 0) + 1
        if self.record:
            self._event("redeal", dealer=self.dealer)
        if self.setup.hand.dealer == "chosen":
            self.dealer = (self.dealer + 1) % self.n
        self.round_no -= 1  # (the deal counts the round again)
        self.phase = "setup_round"

    def _answer_transfer(self, d: Decision, card: int) -> None:
        seat, _, receiver, _ = self._transfer_plan()[1][len(self.transfer_picks)]
        self.transfer_picks.append((seat, receiver, card))
        self._phase_transfer()

    def _round_leader(self) -> int:
        """Who leads the round's first trick, by the hand's rule for this round (data.hand, docs/boxes.md).

        A power's `next leader` at the start of the round overrides it (Game.designated, read at the trick).
        """
        rule = self.setup.hand.first_leader.at(self.round_no)
        if rule == "best_transfer_card":
            return self._first_leader()
        if rule == "fewest_survivors":
            return min(range(self.n), key=lambda s: (self.population[s], self.last_deltas[s], s))
        if rule == "dealer":
            return self.dealer
        if rule == "dealer_left":
            return (self.dealer + 1) % self.n
        if rule in ("auction_winner", "auction_winner_left"):  # nobody won: the dealer's left, or Community 0
            winner = self.state.get((AUCTION_STATE["winner"], None))
            if winner is None:
                return 0 if self.dealer is None else (self.dealer + 1) % self.n
            return winner if rule == "auction_winner" else (winner + 1) % self.n
        kind, what = rule
        if kind == "seat":
            return what
        label = self.tables.label  # the holder of a card: its hand or Transfer zone
        for seat in range(self.n):
            if any(label[c] == what for c in self.held(seat)):
                return seat
        return 0 if self.dealer is None else (self.dealer + 1) % self.n

    def _first_leader(self) -> int:
        """The seat whose received cards rank highest: Faction rank first, then value."""
        lead_rank = self._in_force.lead_rank
        if lead_rank is None:
            order = self.factions_in_play()
            rank: dict[str, int] = {}
            for i, name in enumerate(order):
                rank.setdefault(name, len(order) - i)
            lead_rank = self._in_force.lead_rank = tuple(
                (rank.get(faction, 0), value or 0) for faction, value in zip(self.tables.faction, self.tables.value))
        best_seat, best_key = 0, None
        for seat in range(self.n):
            key = sorted(pick(lead_rank, self.zones[self.transfer_keys[seat]]), reverse=True)
            if best_key is None or key > best_key:
                best_seat, best_key = seat, key
        return best_seat

    # --------------------------------------------------------------- tricks
    # The reference trick loop. Game.play runs the copy that kernel.fastpath generates per
    # set-up (tests/kernel/test_fast_trick_path.py holds the two to the same games); this one
    # runs for Game.apply and wherever the generator steps aside. It reads the per-card
    # tables and builds no labels (the options are made once per setup). A phase whose next
    # phase is certain (a trick's start, a play, its resolution, a power's answer, a trick's
    # end, a Transfer pick) sets it and runs it at once.
    def _phase_start_trick(self) -> None:
        zones = self.zones
        for key in self.tables.held_keys:  # (a loop, not any(map(...)): the first hand nearly always holds cards)
            if zones[key]:
                break
        else:  # no card left in any hand or Transfer zone
            self.phase = "count"
            return
        self.tricks_played += 1
        # Every trick takes at least one card out of the hands, so a round has about as many tricks
        # as it has cards at most; far more means a power keeps giving cards back: stop, don't hang.
        if self.tricks_played > len(self.cards):
            raise GameRuleError(Diagnostic(scenario_span(self.setup.scenario),  # (which power is not known)
                                           f"round {self.round_no} did not end after {self.tricks_played - 1} tricks: "
                                           "a power keeps bringing cards back into the hands", "R001", quote=False))
        encounter = None
        reserve = zones["reserve"]
        if reserve and self.setup.encounter:  # the top card of the Reserve becomes the Encounter card
            encounter = reserve[0]
            self._move(encounter, "encounter")
        leader = self._trick_leader()
        named = self.named_lead
        self.trick = Trick(leader, encounter, led=named, named=named is not None)
        self.named_lead = None
        if self.named_side is not None:  # a power named this trick's side: its leader chooses only the card
            self.trick.side, self.named_side = self.named_side, None
        if self.record:
            self.log.append({"event": "encounter", "round": self.round_no,
                             "card": self.tables.label[encounter] if encounter is not None else None,
                             "leader": leader, "named": named})
        self.phase = "lead"
        self._phase_lead()

    def _trick_leader(self) -> int:
        """Who leads the trick now starting: the one a power named, else the active Community (the last
        trick's winner, or the round's first leader); one without cards passes the lead clockwise.

        The one rule of both trick loops: the generated one (kernel.fastpath) calls it too.
        """
        zones, hand_keys, transfer_keys = self.zones, self.hand_keys, self.transfer_keys
        leader = self.designated if self.designated is not None else self.active
        self.designated = None
        while not (zones[hand_keys[leader]] or zones[transfer_keys[leader]]):
            leader = (leader + 1) % self.n
        return leader

    def _legal_options(self, seat: int, options: tuple) -> tuple:
        """The options (from `options`, a per-card table) of the cards `seat` may play now, in the hand's order."""
        zones = self.zones
        held = zones[self.hand_keys[seat]]
        received = zones[self.transfer_keys[seat]]
        if received:
            held = held + received
        led = self.trick.led
        if self._in_force.restricted:
            held = self._restrict(seat, held, led)
        if led is not None and self.setup.game_counts_as:  # a card may count as another Faction (rule counts as)
            counted, always = self._counted_as(seat, held), self._in_force.always_playable
            legal = [c for c in held if counted[c][0] == led or self.tables.faction[c] in always]
            if len(legal) != len(held) and any(counted[c][0] == led for c in legal):
                held = legal
        elif led is not None:
            # The cards of the Faction led and those that may always be played (filter keeps
            # the hand's order without a Python-level loop); all of them if it holds none of
            # the Faction led.
            playable, of_led = self._in_force.playable_for(led, self.tables.cards_of)
            legal = list(filter(playable.__contains__, held))
            if len(legal) != len(held) and not of_led.isdisjoint(legal):
                if self._in_force.sometimes_playable:
                    legal = self._also_playable(seat, held, legal, led)
                held = legal
        return pick(options, held)

    def _counted_as(self, seat: int, cards) -> dict:
        """card -> (the Faction, the value) each of `cards`, held or played by `seat`, counts as for following and
        winning: the first game-wide `rule counts as F ranked V when C` whose C holds, else its own."""
        tables = self.tables
        out = {}
        for card in cards:
            out[card] = self._ruled_as(seat, card) or (tables.faction[card], tables.value[card])
        return out

    def _ruled_as(self, seat: int, card: int) -> tuple | None:
        """(Faction, value) of the first game-wide `rule counts as` that holds for `card`, or None."""
        trick = self.trick
        ctx = vm.Ctx(self, seat, {}, trick=tuple(c for _, c, _ in trick.plays), led=trick.led, leader=trick.leader,
                     card=card, void=False, side=trick.side)
        for condition, faction, rank in self.setup.game_counts_as:
            if condition(ctx):
                return faction(ctx), rank(ctx)
        return None

    def _faction_as(self, seat: int, card: int) -> str:
        """The Faction `card` counts as for following (its own but where a game-wide `rule counts as` says)."""
        if not self.setup.game_counts_as:
            return self.tables.faction[card]
        return self._counted_as(seat, (card,))[card][0]

    def _also_playable(self, seat: int, held: list[int], legal: list[int], led: str) -> list[int]:
        """`legal` and the cards of `held` whose `rule always playable when C` holds now, in the hand's order."""
        sometimes, faction, trick = self._in_force.sometimes_playable, self.tables.faction, self.trick
        so_far = tuple(card for _, card, _ in trick.plays)
        allowed = set(legal)
        for card in held:
            if card not in allowed and faction[card] in sometimes:
                ctx = vm.Ctx(self, seat, {}, trick=so_far, led=led, leader=trick.leader, card=card, void=False,
                             side=trick.side)
                if self.rules_of(card).always_playable_when(ctx):
                    allowed.add(card)
        return [card for card in held if card in allowed]

    def _restrict(self, seat: int, held: list[int], led: str | None) -> list[int]:
        """The cards `seat` may play once the rules on leading and playing are applied (see docs/language.md).

        A rule never leaves a Community without a card to play: if it would, it does not apply.
        """
        in_force, faction = self._in_force, self.tables.faction
        trick = self.trick
        so_far = tuple(card for _, card, _ in trick.plays)
        if led is None:
            void = False
        elif self.setup.game_counts_as:
            void = not any(self._faction_as(seat, c) == led for c in held)
        else:
            void = led not in map(faction.__getitem__, held)
        leader, side, Ctx = trick.leader, trick.side, vm.Ctx

        def passing(cards, rule: str) -> list[int]:
            """The cards of `cards` whose rule `rule` (a condition, or a yes/no) holds; a card without it never does.

            A Faction's verdict: True or False for all its cards (a yes/no, or its condition's part that does not
            read the card decided once: InForce.restrictions), else the part read card by card."""
            of_faction = in_force.restrictions[rule]
            if not of_faction:
                return []
            out, verdicts = [], {}
            for card in cards:
                f = faction[card]
                verdict = verdicts.get(f)
                if verdict is None:
                    rules = of_faction.get(f)
                    if rules is None:
                        verdict = False
                    else:
                        condition, unread, read = rules
                        if type(condition) is bool:
                            verdict = condition
                        elif unread is not None and not unread(Ctx(self, seat, {}, so_far, (), led, leader, None,
                                                                   None, void, side)):
                            verdict = False
                        else:
                            verdict = True if read is None else read
                    verdicts[f] = verdict
                if verdict is True or (verdict is not False and verdict(
                        Ctx(self, seat, {}, so_far, (), led, leader, None, card, void, side))):
                    out.append(card)
            return out

        forced = passing(held, "must_be_played")
        if not forced and void and in_force.must_trump:
            forced = [c for c in held if faction[c] in in_force.must_trump and self._trumps(seat, c, void)]
        if forced:
            allowed = forced
        elif not trick.plays:  # a lead
            gated = in_force.restrictions["leads_only_when"]
            may = set(passing([c for c in held if faction[c] in gated], "leads_only_when"))
            allowed = [c for c in held if faction[c] not in gated or c in may]
        else:
            barred = set(passing(held, "only_leads"))
            allowed = [c for c in held if c not in barred] if barred else list(held)
        allowed = allowed or held
        must_beat = self._in_force.must_beat
        if must_beat and trick.plays:  # a card of such a Faction must beat the winning card, if one of them can
            beaters = [c for c in allowed if faction[c] in must_beat and self._would_win(seat, c, void)]
            if beaters:
                allowed = [c for c in allowed if faction[c] not in must_beat or c in beaters]
        return allowed

    def _trumps(self, seat: int, card: int, void: bool) -> bool:
        """Whether `card`, played now by `seat`, would trump the trick (its `rule trumps when` holds)."""
        trick = self.trick
        condition = self.rules_of(card).trumps
        if condition is None or self._faction_as(seat, card) == trick.led:
            return False
        return bool(condition(vm.Ctx(self, seat, {}, trick=tuple(c for _, c, _ in trick.plays), led=trick.led,
                                     leader=trick.leader, card=card, void=void, side=trick.side)))

    def _would_win(self, seat: int, card: int, void: bool) -> bool:
        """Whether `card`, played now by `seat`, would take the trick from the card winning it so far."""
        plays = self.trick.plays
        plays.append((seat, card, self._trumps(seat, card, void)))
        try:
            best = self.winning_play()
        finally:
            plays.pop()
        return best is not None and best[1] == card

    def _phase_lead(self) -> None:
        seat = self.trick.leader
        options = sum(self._legal_options(seat, self.tables.lead), ())  # both sides of each card
        side = self.trick.side
        if side is not None:  # named before the lead (`next side`): that side only
            options = tuple(option for option in options if option[0][1] == side)
        self._ask(seat, "lead", LEAD_PROMPT, options)

    def _answer_lead(self, d: Decision, value) -> None:
        card, side = value
        self.trick.side = side
        self._answer_follow(d, card)

    def _phase_follow(self) -> None:
        # the next seat after the last play (the leader's, at first) that still holds cards
        trick = self.trick
        zones, hand_keys, transfer_keys = self.zones, self.hand_keys, self.transfer_keys
        seat = trick.plays[-1][0]
        while True:
            seat = (seat + 1) % self.n
            if seat == trick.leader:
                self.phase = "resolve"
                self._phase_resolve()
                return
            if zones[hand_keys[seat]] or zones[transfer_keys[seat]]:
                break
        self._ask(seat, "follow", trick.prompt or _follow_prompt(trick), self._legal_options(seat, self.tables.follow))

    def _answer_follow(self, d: Decision, card: int) -> None:
        """Play a card (a lead too, once its side is set)."""
        seat = d.actor
        trick = self.trick
        faction = self.tables.faction[card]
        counted = self.setup.game_counts_as
        follows = self._faction_as(seat, card) if counted else faction  # (before the card leaves the hand)
        self._move(card, "table")
        led = trick.led
        trump = False
        if follows != led:  # a lead, or a card off the Faction led: what its rules say matters
            rules = self._in_force.rules[card] or self.rules_of(card)
            if led is None:
                if not rules.never_leads and (rules.never_leads_when is None or not self._holds_at_play(
                        rules.never_leads_when, seat, card, False)):
                    trick.led = follows
                    trick.prompt = None
            else:
                if faction not in self._in_force.always_playable:
                    # the rules made it follow if it could, unless a rule may keep a card of the Faction led
                    # from being played (a conditional `always playable`, `must be played`): then only if
                    # it holds none
                    may_keep = self._in_force.restricted or faction in self._in_force.sometimes_playable
                    if not may_keep or not any(self._faction_as(seat, c) == led for c in self.held(seat)):
                        # a void names the cards' own Faction (the sampled states deal by it): where a card
                        # may count as another Faction (rule counts as), one of the Faction led may still be
                        # held, counting as another: then no void
                        if not counted or not any(self.tables.faction[c] == led for c in self.held(seat)):
                            self.voids[seat].add(led)
                if rules.trumps is not None:
                    # the card is not of the Faction led, so the seat was void before playing it iff it is now
                    if counted:
                        void = not any(self._faction_as(seat, c) == led for c in self.held(seat))
                    else:
                        tf = self.tables.faction
                        void = not any(tf[c] == led for c in self.held(seat))
                    ctx = vm.Ctx(self, seat, {}, trick=tuple(c for _, c, _ in trick.plays), led=led,
                                 leader=trick.leader, card=card, void=void, side=trick.side)
                    trump = bool(rules.trumps(ctx))
        trick.plays.append((seat, card, trump))
        if self.record:
            self.log.append({"event": "play", "round": self.round_no, "seat": seat, "card": self.tables.label[card],
                             "side": trick.side, "trump": trump})
        self.phase = "follow"
        hooks = self._in_force.play_hooks
        if hooks and faction in hooks:
            self._run_play_hooks(hooks[faction], seat, card)
            return
        self._phase_follow()

    def _holds_at_play(self, condition, seat: int, card: int, void: bool) -> bool:
        """A rule's condition about `card`, which `seat` is playing (the trick so far: the cards before it)."""
        trick = self.trick
        return bool(condition(vm.Ctx(self, seat, {}, trick=tuple(c for _, c, _ in trick.plays), led=trick.led,
                                     leader=trick.leader, card=card, void=void, side=trick.side)))

    def _run_play_hooks(self, keys: tuple, seat: int, card: int) -> None:
        """A card with `on lead` or `on play` hooks was played: run them, then the trick goes on."""
        trick = self.trick
        lead, play = keys
        for key in (lead if len(trick.plays) == 1 else None, play):
            if key is not None:
                if self.record:
                    self._event("power", power=self.setup.programs[key].power, variant=key[1], seat=seat)
                self.frames.append(vm.frame(key, seat, None, tuple(c for _, c, _ in trick.plays), (), trick.led,
                                            trick.leader, card=card, side=trick.side))
        self.after_frames = "follow"
        self.phase = "powers"
        self._phase_powers()

    def _ruled_winning_play(self) -> Play | None:
        """The winning play when a rule reads the whole trick (wins, never wins, wild, beats) or a card was declared.

        In order: the first card that `wins` (and may win); else the best trump or card of the
        Faction led, as _trumping_play, counting a wild card as the Faction led and a declared
        card as what it was declared; then a card that `beats` the winner's Faction takes it.
        """
        trick, tables = self.trick, self.tables
        led, declared = trick.led, trick.declared or {}
        cards = tuple(card for _, card, _ in trick.plays)
        counted = {}  # card -> (Faction, value) it counts as (game-wide `rule counts as`); {} in most games
        if self.setup.game_counts_as:
            for seat, card, _ in trick.plays:
                ruled = self._ruled_as(seat, card)
                if ruled is not None:  # (else its own, or the Faction led for a wild card)
                    counted[card] = ruled

        def ctx(seat: int, card: int) -> vm.Ctx:
            # void: the seat played off the Faction led because it held none (what it showed everyone)
            return vm.Ctx(self, seat, {}, trick=cards, led=led, leader=trick.leader, card=card,
                          void=led in self.voids[seat], side=trick.side)

        def holds(seat: int, card: int, condition) -> bool:
            return bool(condition(ctx(seat, card)))

        def counts_as(card: int) -> str:
            if card in declared:
                return declared[card]
            if card in counted:
                return counted[card][0]
            return led if led is not None and self.rules_of(card).wild else tables.faction[card]

        contenders = []
        for play in trick.plays:
            seat, card, _ = play
            rules = self.rules_of(card)
            if rules.never_wins is not None and holds(seat, card, rules.never_wins):
                continue
            if rules.wins is not None and holds(seat, card, rules.wins):
                return play
            contenders.append(play)
        values = {**dict(enumerate(tables.value)), **{card: v for card, (_, v) in counted.items()}} if counted else None
        best = self._trumping_play(contenders, counts_as, values)
        if best is not None:
            for play in contenders:  # each card once, in play order: a cycle of `beats` cannot loop
                seat, card, _ = play
                beats = self.rules_of(card).beats
                if play is not best and beats is not None:
                    beaten = beats(ctx(seat, card))
                    if counts_as(best[1]) in beaten or tables.faction[best[1]] in beaten:
                        best = play
        return best

    def _winning_play(self) -> Play | None:
        """The best play of the Faction led (None: the leader wins), or with a trump played, _trumping_play's."""
        trick = self.trick
        value, faction = self.tables.value, self.tables.faction
        led = trick.led
        high = trick.side == "+"
        best: Play | None = None
        best_value = 0
        for play in trick.plays:
            _, card, trump = play
            if trump:
                return self._trumping_play()
            v = value[card]
            if v is None or faction[card] != led:  # (led may be None: no card's Faction is)
                continue
            if best is None or ((v > best_value) if high else (v < best_value)):  # the first of equals wins
                best, best_value = play, v
        return best

    def _trumping_play(self, plays: list[Play] | None = None, counts_as: Callable | None = None,
                       values: dict | None = None) -> Play | None:
        """The trumping play with the best value, else the best play of the Faction led.

        Among `plays` (default: the trick's), each card of the Faction `counts_as(card)` says
        (default: its own; see _ruled_winning_play).
        """
        trick = self.trick
        value = self.tables.value if values is None else values  # (values: each card's ranked value)
        faction_of = counts_as or self.tables.faction.__getitem__
        led = trick.led
        high = trick.side == "+"
        best: Play | None = None
        best_value = best_trumps = None
        for play in (trick.plays if plays is None else plays):
            _, card, trump = play
            v = value[card]
            if v is None or not (trump or faction_of(card) == led):  # (led may be None: no card's Faction is)
                continue
            if best is not None:
                if best_trumps and not trump:
                    continue
                if trump == best_trumps and not ((v > best_value) if high else (v < best_value)):
                    continue
            best, best_value, best_trumps = play, v, trump
        return best

    def winning_play(self) -> Play | None:
        """The play winning the trick so far (None: nobody can win it, and it goes to its leader): what the trick's
        resolution takes, and what a table shows while the trick is played."""
        trick = self.trick
        ruled = self._in_force.ruled
        if self.setup.game_counts_as:
            return self._ruled_winning_play()
        if (ruled or trick.declared) and (trick.declared or any(self.tables.faction[c] in ruled for _, c, _ in trick.plays)):
            return self._ruled_winning_play()
        return self._winning_play()

    def _phase_resolve(self) -> None:
        trick = self.trick
        if trick.untaken is not None:
            self._resolve_untaken()
            return
        play = self.winning_play()
        winner = play[0] if play is not None else trick.leader
        played, encounter = self._collect_trick(winner)
        blocked = play is not None and play[2] and self.rules_of(play[1]).blocks_led_power
        if self.record:
            label = self.tables.label
            self.log.append({"event": "win", "round": self.round_no, "seat": winner, "led": trick.led,
                             "blocked": blocked, "cards": [label[card] for _, card, _ in trick.plays]})
        self.active = winner
        self.tricks_won[winner] += 1
        hook = None
        # A trick in which no card of the Faction led was played (only always-playable cards, or a
        # Faction named before the lead that nobody played) goes to its leader and triggers nothing.
        if play is not None and trick.led is not None and not blocked:
            hooks = self._in_force.win_hooks
            hook = hooks[trick.led] if trick.led in hooks else self._win_hook(trick.led)
        winning = play[1] if play is not None else trick.plays[0][1]  # nobody could win: the leader's card
        if hook is not None:
            key, name, kind = hook
            if self.record:
                self._event("power", power=name, variant=kind, seat=winner)
            self.frames.append(vm.frame(key, winner, None, played, encounter, trick.led, trick.leader,
                                        winner=winner, winning=winning, side=trick.side))
        in_force = self._in_force
        if in_force.trick_hooks or in_force.after_keys:
            self._queue_trick_hooks(winner, winning, played, encounter)
        self.after_frames = "end_trick"
        self.phase = "powers"
        self._phase_powers()

    def _resolve_untaken(self) -> None:
        """A trick nobody takes (`nobody takes trick`): its cards and Encounter card go where the power said; nobody
        won it (no trick counted, no hook of a won trick), and its leader leads next unless a power named another."""
        trick = self.trick
        zone, position = trick.untaken
        zones, loc = self.zones, self.loc
        table = zones["table"]
        cards = tuple(table)
        table.clear()
        if trick.encounter is not None:
            zones["encounter"].remove(trick.encounter)
            cards += (trick.encounter,)
        for card in cards:
            loc[card] = zone
            self.seen[card] = True  # played face up: everyone saw where they went
        if position == "top":
            zones[zone][:0] = cards
        else:
            zones[zone].extend(cards)
        if self.record:
            self.log.append({"event": "untaken", "round": self.round_no, "leader": trick.leader, "led": trick.led,
                             "cards": [self.tables.label[c] for _, c, _ in trick.plays], "to": zone,
                             "position": position})
        self.active = trick.leader
        self.phase = "end_trick"
        self._phase_end_trick()

    def _collect_trick(self, winner: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The trick's cards, and its Encounter card, go to the winner's Expedition: (played, encounter)."""
        dest = self.expedition_keys[winner]
        zones, loc = self.zones, self.loc
        table = zones["table"]  # only plays go to the table: it holds this trick's cards, in order
        played = tuple(table)
        table.clear()
        won = played
        encounter = ()
        if self.trick.encounter is not None:
            encounter = (self.trick.encounter,)
            won += encounter
            zones["encounter"].remove(self.trick.encounter)
        seen = self.seen
        for card in won:
            loc[card] = dest
            seen[card] = True  # played face up: everyone saw where they went
        zones[dest].extend(won)
        if self._in_force.enter_keys:
            self._entered(won, "expedition", winner, "trick", None)
        return played, encounter

    def _queue_trick_hooks(self, winner: int, winning: int | None, played: tuple, encounter: tuple) -> None:
        """After a trick's `on win`: each card's `on trick` hook (in play order), then every `after trick` hook."""
        trick, in_force = self.trick, self._in_force
        frames = [(in_force.trick_hooks[self.tables.faction[card]], seat, card) for seat, card, _ in trick.plays
                  if self.tables.faction[card] in in_force.trick_hooks]
        frames += [(key, winner, None) for key in in_force.after_keys]
        for key, seat, card in frames:
            if self.record:
                self._event("power", power=self.setup.programs[key].power, variant=key[1], seat=seat)
            self.frames.append(vm.frame(key, seat, None, played, encounter, trick.led, trick.leader, card=card,
                                        winner=winner, winning=winning, side=trick.side))

    def _phase_end_trick(self) -> None:
        if self.designated is not None:
            self.active = self.designated
        self.trick = None
        if self.round_ends:  # a power ended the round
            self.phase = "count"
            return
        self.phase = "start_trick"
        self._phase_start_trick()

    # --------------------------------------------------------------- powers
    def _phase_powers(self, answer=_UNANSWERED) -> None:
        """Run the hooks waiting in `frames`, first to last, until one asks a choice.

        `answer`: the value chosen at the first frame's pending choice, if any (it is
        recorded, and the hook runs on).
        """
        frames = self.frames
        while frames:
            frame = frames[0]
            program = self.setup.programs[frame.key]
            if answer is not _UNANSWERED:
                vm.answer(frame, program, answer)
                answer = _UNANSWERED
            request = vm.run(self, frame, program)
            if request is not None:
                # the options for the values the power offers (cards and seats reuse the setup's options)
                actor, kind, prompt, values, element = request
                made = self.tables.options_of[element]
                if values[-1] is vm.STOP:  # only ever last (an "up to" choice)
                    options = (*pick(made, values[:-1]), _STOP_OPTION)
                else:
                    options = pick(made, values)
                self._ask(actor, kind, prompt, options)
                return
            vm.ended(self, frames.pop(0), program)
        self.phase = self.after_frames
        _PHASES[self.phase](self)

    def _answer_choose(self, d: Decision, value) -> None:
        self._phase_powers(value)

    _answer_ask = _answer_choose

    def apply_effects(self, effects: list[tuple], source: vm.Frame) -> None:
        """Do what a statement of a power says (see language.host); `source` is the frame of its hook.

        Every event this makes names its cause: the power, its variant, the hook
        ("win" or "end"), the Community it runs for ("by") and, for a card's own
        power, the card.
        """
        cause = self._cause(source) if self.record else None
        for effect in effects:
            kind = effect[0]
            if kind == "move":
                _, cards, zone, owner, position = effect
                if cards:
                    self._move_cards(cards, zone, owner, position, cause, source)
            elif kind == "score":
                _, seat, amount = effect
                self.round_gain[seat] += amount
                if cause is not None:
                    self._event("score", **cause, seat=seat, amount=amount)
            elif kind == "next_leader":
                self.designated = effect[1]
                if cause is not None:
                    self._event("next_leader", **cause, seat=effect[1])
            elif kind == "next_lead":
                self.named_lead = effect[1]
                if cause is not None:
                    self._event("next_lead", **cause, faction=effect[1])
            else:
                self._apply_trick_effect(effect, cause)

    def _apply_trick_effect(self, effect: tuple, cause: dict | None) -> None:
        """The effects of the language's events and state (see language.host): rarer, so kept out of the loop above."""
        kind, trick = effect[0], self.trick
        if kind == "state":
            _, key, seat, value = effect
            self.state[(key, seat)] = value
            if cause is not None:
                self._event("state", **cause, name=key.split(":", 1)[1], seat=seat, value=value)
        elif kind == "declare":
            _, card, faction = effect
            if trick is None or card not in (c for _, c, _ in trick.plays):
                return  # only a card of the trick on the table can count as another Faction
            trick.declared = {**(trick.declared or {}), card: faction}
            if trick.plays[0][1] == card and not trick.named:
                trick.led, trick.prompt = faction, None
            if cause is not None:
                self._event("declare", **cause, card=self.tables.label[card], faction=faction)
        elif kind == "side":
            if trick is None:
                return
            trick.side = effect[1] or ("-" if trick.side == "+" else "+")
            trick.prompt = None
            if cause is not None:
                self._event("side", **cause, side=trick.side)
        elif kind == "untaken":
            if trick is None or self.after_frames != "follow":
                return  # only a trick still being played can be left to nobody
            trick.untaken = (effect[1], effect[2])
            if cause is not None:
                self._event("untaken_by", **cause)
        elif kind == "next_side":
            self.named_side = effect[1]
            if cause is not None:
                self._event("next_side", **cause, side=effect[1])
        elif kind == "end":
            if effect[1] == "trick" and self.after_frames == "follow":
                self.after_frames = "resolve"
            elif effect[1] == "round":
                self.round_ends = True
            elif effect[1] == "game" and self.after_frames == "end_round":
                self.game_ends = True
            if cause is not None:
                self._event("end", **cause, what=effect[1])
        else:  # pragma: no cover
                raise AssertionError(f"unknown effect {kind}")

    def _cause(self, frame: vm.Frame) -> dict:
        """What the events of a hook's effects say caused them."""
        program = self.setup.programs[frame.key]
        cause = {"power": program.power, "variant": program.variant, "hook": program.hook, "by": frame.me}
        if frame.this is not None:
            cause["card"] = self.tables.label[frame.this]
        return cause

    # ---------------------------------------------------------------- count
    def _phase_count(self) -> None:
        in_force = self._in_force
        if in_force.end_hooks is None:  # the frame keys of the Factions' end-of-round powers
            keys = (self.setup.faction_power[f].hook_key(self.variant_of(f), "end") for f in self.factions_in_play())
            in_force.end_hooks = tuple(key for key in keys if key is not None)
        for key in in_force.end_hooks:
            for seat in range(self.n):
                self.frames.append(vm.frame(key, seat))
        for name in self.added:
            key = self.setup.added_power[name].hook_key("basic", "end")
            if key is not None:
                for seat in range(self.n):
                    self.frames.append(vm.frame(key, seat))
        for card, power in self.setup.card_power.items():
            seat = self.tables.expedition_seat.get(self.loc[card])  # a card's power counts in an Expedition
            key = power.hook_key("basic", "end") if seat is not None else None
            if key is not None:
                self.frames.append(vm.frame(key, seat, card))
        self.after_frames = "end_round"
        self.phase = "powers"

    def _phase_end_round(self) -> None:
        survivors, label = self.tables.read["survivors"], self.tables.label
        expeditions = [self.zones[key] for key in self.expedition_keys]
        deltas = [sum(pick(survivors, cards)) + gain for cards, gain in zip(expeditions, self.round_gain)]
        setup = self.setup
        floor = setup.floor
        if setup.pooled:  # a team keeps one score: what its Communities gained together (data.hand: teams)
            self.population = _floored(self.population, _pooled(deltas, setup.team_of), floor)
        elif floor == 0:  # Happy DayZ's floor (data.hand: score.floor)
            self.population = [max(0, p + d) for p, d in zip(self.population, deltas)]
        else:
            self.population = _floored(self.population, deltas, floor)
        self.last_deltas = deltas
        record = {
            "round": self.round_no,
            "deltas": deltas,
            "populations": list(self.population),
            "expeditions": [list(pick(label, cards)) for cards in expeditions],
            "factions": [list(f) for f in self.factions],
        }
        self.history.append(record)
        if self.record:
            self._event("count", deltas=deltas, populations=list(self.population))
        if self.game_ends:  # a power's `end game` in this round's end-of-round hooks
            over = True
        elif setup.teams is not None:
            over = self.round_no >= setup.rounds or self._teams_end()
        else:
            over = (self.round_no >= setup.rounds or (setup.elimination and min(self.population) == floor)
                    or (setup.target is not None and self._target_reached(self.population)))
        if over:
            if self._in_force.game_end_keys:
                self.round_gain = [0] * self.n  # what the end-of-game hooks gain or lose, added below
                self._run_for_everyone(self._in_force.game_end_keys, "game_end")
                return
            self._finish()
            return
        self.carried = [[c for c in self.zone("expedition", s) if self.rules_of(c).carried_over] for s in range(self.n)]
        self.active = min(range(self.n), key=lambda s: (self.population[s], deltas[s], s))
        self.phase = "faction_change" if self.setup.options.faction_change else "random_power"

    def _phase_game_end(self) -> None:
        """The end-of-game hooks have run: what they gained or lost changes the populations now."""
        gains = _pooled(self.round_gain, self.setup.team_of) if self.setup.pooled else self.round_gain
        self.population = _floored(self.population, gains, self.setup.floor)
        if self.record:
            self._event("game_end_powers", deltas=list(self.round_gain), populations=list(self.population))
        self._finish()

    def _target_reached(self, scores: list[int]) -> bool:
        """Whether a score reached the hand's target at this count (score.target: at least, at most)."""
        at_least, at_most = self.setup.target
        return ((at_least is not None and max(scores) >= at_least)
                or (at_most is not None and min(scores) <= at_most))

    def team_scores(self) -> list[int]:
        """Each team's score (a hand with teams): the one it keeps (pooled), or its Communities' sum (each)."""
        setup, population = self.setup, self.population
        if setup.pooled:
            return [population[team[0]] for team in setup.teams]
        return [sum(population[seat] for seat in team) for team in setup.teams]

    def _team_floors(self) -> list[int] | None:
        floor = self.setup.floor
        if floor is None:
            return None
        return [floor if self.setup.pooled else floor * len(team) for team in self.setup.teams]

    def _teams_end(self) -> bool:
        """Whether a team's score ends the game at this count: a team at the floor, or the target reached."""
        scores, floors = self.team_scores(), self._team_floors()
        if self.setup.elimination and floors is not None and any(map(int.__eq__, scores, floors)):
            return True
        return self.setup.target is not None and self._target_reached(scores)

    def _finish(self) -> None:
        self.over = True
        self.phase = "over"
        setup = self.setup
        if setup.teams is None:
            self.winners = winners_of(self.population, setup.floor, setup.winner)
        else:  # a team wins together: its Communities are the winners
            scores, floors = self.team_scores(), self._team_floors()
            if floors is not None and all(map(int.__le__, scores, floors)):
                won = []
            else:
                won = winners_of(scores, None, setup.winner)
            self.winners = sorted(seat for team in won for seat in setup.teams[team])
        if self.record:
            if setup.teams is not None:  # (only then, so that a game without teams keeps its log)
                self._event("game_over", populations=list(self.population), winners=self.winners,
                            teams=[list(team) for team in setup.teams], winning_teams=self.winning_teams())
            else:
                self._event("game_over", populations=list(self.population), winners=self.winners)

    def _lost_most(self) -> int:
        return min(range(self.n), key=lambda s: (self.last_deltas[s], self.population[s], s))

    def _phase_faction_change(self) -> None:
        in_play = [f for f, _ in self.factions]
        spare = [c for c in self.setup.candidates if c not in in_play]
        options = [Option(None, "keep the Factions in play")]
        options += [Option([old, new], f"replace {old} with {new}") for old in in_play for new in spare]
        self.phase = "random_power"
        if len(options) > 1:
            self._ask(self._lost_most(), "faction_change", "You lost the most Survivors: you may replace a Faction", options)

    def _answer_faction_change(self, d: Decision, value) -> None:
        if value is not None:
            old, new = value
            self._replace_faction(old, new)

    def _replace_faction(self, old: str, new: str) -> None:
        for pair in self.factions:
            if pair[0] == old:
                pair[0], pair[1] = new, "basic"
        self.forget_rules()
        self._event("faction_change", old=old, new=new)

    def _phase_random_power(self) -> None:
        self.phase = self._next_round_phase()
        if not self.setup.options.random_powers:
            return
        pool = [("faction", f) for f in self.setup.candidates]
        pool += [("added", a) for a in self.setup.power_pool_added if a not in self.added]
        while pool:
            kind, name = pool.pop(self.rng.randrange(len(pool)))
            self._event("power_drawn", power_kind=kind, name=name)
            if kind == "added":
                self.added.append(name)
                self.setup = self.setup.with_added(self.added)  # its game-wide rules act like a fixed added power's
                self.forget_rules()
                continue
            in_play = [f for f, _ in self.factions]
            if name in in_play:
                for pair in self.factions:
                    if pair[0] == name:
                        pair[1] = "basic"
                self.forget_rules()
                return
            options = [Option([old, name], f"replace {old} with {name}") for old in in_play]
            self._ask(self._lost_most(), "replace_power", f"The power of {name} was drawn: choose the power it replaces", options)
            return

    def _answer_replace_power(self, d: Decision, value) -> None:
        old, new = value
        self._replace_faction(old, new)

    # ---------------------------------------------------------------- views
    def observe(self, seat: int) -> dict:
        """What one Community may see: its hand, every Transfer zone, the table (kernel.observation)."""
        return observation.observe(self, seat)

    def visible_state(self, seat: int | None) -> list[dict]:
        """The powers' counters and marks that `seat` may see (all of them for None): public ones, and its own secret ones."""
        specs, shown = self.setup.state_specs, []
        for (key, owner), value in sorted(self.state.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1])):
            spec = specs[key]
            if seat is None or spec.visibility == "public" or owner == seat:
                shown.append({"power": key.split(":", 1)[0], "name": spec.name, "seat": owner, "value": value})
        return shown

    def winning_teams(self) -> list[int]:
        """The teams that won (a hand with teams), as indexes of setup.teams."""
        teams = self.setup.teams
        return [i for i, team in enumerate(teams) if team[0] in self.winners] if teams is not None else []

    def result(self) -> dict:
        result = {
            "seed": self.seed,
            "rounds": len(self.history),
            "final_populations": list(self.population),
            "winners": list(self.winners),
        }
        if self.setup.teams is not None:  # only then, so that a game without teams keeps its keys
            result["teams"] = [list(team) for team in self.setup.teams]
            result["team_score"] = "pooled" if self.setup.pooled else "each"
            result["winning_teams"] = self.winning_teams()
        if self.setup.floor != 0:  # only then (Happy DayZ's floor of 0 keeps its keys): what elimination reaches
            result["floor"] = "none" if self.setup.floor is None else self.setup.floor
        return result


def _floored(population: list[int], deltas: list[int], floor: int | None) -> list[int]:
    """The populations after a count: each with its delta, never below the floor (None: no floor)."""
    if floor is None:
        return [p + d for p, d in zip(population, deltas)]
    return [max(floor, p + d) for p, d in zip(population, deltas)]


def _pooled(deltas: list[int], team_of: tuple[tuple[int, ...], ...]) -> list[int]:
    """Each Community's share of a pooled count: the whole of its team's."""
    return [sum(deltas[mate] for mate in mates) for mates in team_of]


def winners_of(scores: list[int], floor: int | None, winner: str) -> list[int]:
    """Who wins with these final scores (docs/rules.md, "The score"): the most, or the fewest, ties shared.

    With a floor, nobody wins when every score is at it (the game's threat wins); with no floor
    there is always a winner.
    """
    if floor is not None and max(scores) <= floor:
        return []
    best = max(scores) if winner == "most" else min(scores)
    return [s for s, score in enumerate(scores) if score == best]


# The phases and the answers by name: the loop looks them up at every step.
_RESTRICTIONS = ("must_be_played", "leads_only_when", "only_leads")  # the rules Game._restrict applies, by name

_PHASES = {name[len("_phase_"):]: f for name, f in vars(Game).items() if name.startswith("_phase_")}
_ANSWERS = {name[len("_answer_"):]: f for name, f in vars(Game).items() if name.startswith("_answer_")}
# what the trick loop generated per setup names of this module (see kernel.fastpath)
fastpath.KERNEL.update(Decision=Decision, PHASES=_PHASES, ANSWERS=_ANSWERS, LEAD_PROMPT=LEAD_PROMPT,
                       STOP_OPTION=_STOP_OPTION, UNANSWERED=_UNANSWERED, _follow_prompt=_follow_prompt)


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)  # not seeded: setstate gives it all its state
    other.setstate(rng.getstate())
    return other


#: Where a card that enters a zone came from (`from` in an `on enter` hook), by the kind of the zone it left.
_ORIGIN = {"hand": "hand", "transfer": "transfer", "expedition": "expedition", "reserve": "reserve",
           "discard": "discard", "table": "trick", "encounter": "trick", "out": "reserve"}
#: The longest chain of `on enter` hooks triggered by one another (R002 past it).
MAX_ENTER_CHAIN = 8


def _copy_frame(frame: vm.Frame) -> vm.Frame:
    other = copy.copy(frame)
    env = frame.env
    other.env = {k: copy.deepcopy(v) if type(v) not in _IMMUTABLE and type(v) is not tuple else v for k, v in env.items()}
    other.buffer = None if frame.buffer is None else list(frame.buffer)
    other.picked = None if frame.picked is None else list(frame.picked)
    return other


def _copy_trick(trick: Trick | None) -> Trick | None:
    if trick is None:
        return None
    return Trick(trick.leader, trick.encounter, trick.led, trick.side, list(trick.plays), trick.named, trick.prompt,
                 dict(trick.declared) if trick.declared else None, trick.untaken)


_IMMUTABLE = frozenset({int, str, bool, float, type(None), Decision})

# How Game.copy copies each changing attribute, as shallowly as is safe: the lists of
# tuples, events and history records are copied but not their items (never changed in
# place). Any other attribute is deep-copied.
_COPIERS = {
    "rng": _copy_rng,
    "zones": lambda zones: {key: cards[:] for key, cards in zones.items()},
    "loc": list, "population": list, "added": list, "round_gain": list, "transfer_picks": list,
    "history": list, "log": list, "answers": list, "winners": list, "last_deltas": list,
    "factions": lambda factions: [pair[:] for pair in factions],
    "carried": lambda carried: [cards[:] for cards in carried],
    "seen": list,
    "voids": lambda voids: [set(v) for v in voids],
    "tricks_won": list, "state": dict,
    "frames": lambda frames: [_copy_frame(f) for f in frames],
    "trick": _copy_trick,
}
# Game.copy's plan: each attribute with how it is copied (None: shared, never changed in place)
_COPY_PLAN = tuple((name, None if name in _SHARED else _COPIERS.get(name, copy.deepcopy)) for name in Game.__slots__)
