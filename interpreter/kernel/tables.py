"""Facts looked up once per setup instead of at every play.

The trick loop runs for every card of every playout, so what it reads about
cards (labels, Factions, values, the options of a lead or a follow) is built
once per GameSetup, and what follows from the Factions and variants in play
(each card's rules, the on-win hooks, the round's deck) once per combination
of them. Nothing here changes once built, so games, their copies and sampled
states all share it.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, NamedTuple

from happydayz.language.compiler import VariantProgram
from happydayz.kernel.setup import GameSetup

_NO_CARDS: frozenset[int] = frozenset()

SIDES = ("+", "-")


class Option(NamedTuple):  # a tuple: games build thousands of them
    value: Any
    label: str


class CardTables:
    """Per-card facts the trick loop reads at every play, looked up once per setup.

    The options of a lead or a follow are the same objects in every trick, so
    a playout builds no labels and no tuples for them.
    """

    def __init__(self, cards, players: int, transfer_cards: int, direction: str = "both",
                 sides: tuple[str, ...] = SIDES) -> None:
        self.seat = tuple(Option(seat, f"Community {seat}") for seat in range(players))
        self.players = players
        self._transfer_plans: dict[tuple[int, str], tuple[tuple, tuple]] = {}
        # the box's Transfer (a round's own, if the hand says so: transfer_plan)
        self.transfers, self.transfer_steps = self.transfer_plan(transfer_cards, direction)
        self.hand_keys, self.transfer_keys, self.expedition_keys = (
            tuple(f"{kind}:{seat}" for seat in range(players)) for kind in ("hand", "transfer", "expedition"))
        self.held_keys = self.hand_keys + self.transfer_keys  # the zones a Community plays from
        # every zone of a game: the shared ones, then each seat's hand, Transfer and Expedition
        self.zone_names = ("out", "reserve", "discard", "table", "encounter") + tuple(
            key for seat in range(players) for key in (self.hand_keys[seat], self.transfer_keys[seat],
                                                        self.expedition_keys[seat]))
        self.zone_keys = {"hand": self.hand_keys, "transfer": self.transfer_keys, "expedition": self.expedition_keys}
        self.expedition_seat = {key: seat for seat, key in enumerate(self.expedition_keys)}
        self.in_force: dict[tuple, InForce] = {}  # Factions and variants in play -> what follows from them
        self.label = tuple(c.label for c in cards)
        self.faction = tuple(c.faction for c in cards)
        # Faction -> its cards, promo cards included (setup.faction_cards lists a round's deck without them)
        self.cards_of = {f: frozenset(i for i, g in enumerate(self.faction) if g == f) for f in set(self.faction)}
        self.value = tuple(c.value for c in cards)
        # a card's attributes as the power language reads them (no value reads as 0)
        self.read = {"faction": self.faction, "value": tuple(v or 0 for v in self.value),
                     "survivors": tuple(c.survivors or 0 for c in cards)}
        # the seats clockwise from each seat, that seat first
        self.clockwise = tuple(tuple((start + i) % players for i in range(players)) for start in range(players))
        self.follow = tuple(Option(i, c.label) for i, c in enumerate(cards))
        # the options of a power's choice, by the element chosen
        self.options_of = {"Card": self.follow, "Community": self.seat, "Faction": _OptionByName(),
                           "Yes/No": {True: Option(True, "yes"), False: Option(False, "no")},
                           "Number": _OptionByName(str), "Side": _OptionByName(lambda side: f"{side} side"),
                           "Course": _OptionByName()}
        # both sides of each card, or the sides a house rule leaves (GameSetup.sides)
        self.lead = tuple(tuple(Option((i, side), f"{c.label} on {side}") for side in sides)
                          for i, c in enumerate(cards))


    def transfer_plan(self, cards: int, to: str) -> tuple[tuple, tuple]:
        """A Transfer of `cards` cards each `to` (kernel.setup.GameSetup.transfer_in), worked out once:

        (each seat's passes in order: (receiver, the prompt that asks for the card); the picks of the
        round in the order they are made, seat by seat: (seat, how many that seat picked before,
        receiver, prompt)). `to` "none" (or 0 cards): no pass at all.
        """
        key = (cards, to)
        plan = self._transfer_plans.get(key)
        if plan is None:
            players, seat_options = self.players, self.seat
            count = 0 if to == "none" else cards
            transfers = tuple(tuple((receiver, _transfer_prompt(seat, receiver, players, seat_options[receiver].label))
                                    for receiver in _transfer_targets(seat, players, count, to))
                              for seat in range(players))
            steps = tuple((seat, k, receiver, prompt) for seat in range(players)
                          for k, (receiver, prompt) in enumerate(transfers[seat]))
            plan = self._transfer_plans[key] = (transfers, steps)
        return plan


class _OptionByName(dict):
    """The option of a value offered by name (a Faction, a number, a side, a course's words), made on first use."""

    def __init__(self, label=str) -> None:
        super().__init__()
        self.label = label

    def __missing__(self, name) -> Option:
        option = self[name] = Option(name, self.label(name))
        return option


class InForce:
    """What follows from the Factions and variants in play, worked out lazily.

    It depends on nothing else, so one object serves every game (and every copy
    or sampled state) of a setup with the same Factions and variants.
    """

    __slots__ = ("rules", "always_playable", "playable", "win_hooks", "end_hooks", "deck", "out", "lead_rank",
                 "play_hooks", "trick_hooks", "after_keys", "start_keys", "bid_keys", "game_end_keys", "ruled",
                 "restricted", "bid_rules", "sometimes_playable", "names_side", "must_beat",
                 "must_trump", "enter_keys", "face_up", "in_play", "restrictions")

    def __init__(self, cards: int, always_playable: frozenset[str]) -> None:
        self.rules: list[VariantProgram | None] = [None] * cards  # card -> its rules
        self.always_playable = always_playable  # Factions whose cards may always be played
        # Faction led -> (the cards a seat holding some of it may play, the cards of that Faction)
        self.playable: dict[str, tuple[frozenset[int], frozenset[int]]] = {}
        self.win_hooks: dict[str, tuple | None] = {}  # Faction led -> its on-win hook (see Game._win_hook)
        self.end_hooks: tuple[tuple, ...] | None = None  # the frame keys of the end-of-round powers
        self.deck: tuple[int, ...] | None = None  # the cards of a round (see Game._round_deck)
        self.out: tuple[int, ...] | None = None  # the cards not in it
        self.lead_rank: tuple | None = None  # card -> (Faction rank, value) for the first lead (Game._first_leader)
        # The events of the powers in force (see Game.forget_rules), all empty for the bundled powers:
        self.play_hooks: dict[str, tuple] = {}  # Faction -> (its on-lead key, its on-play key), either None
        self.trick_hooks: dict[str, tuple] = {}  # Faction -> its on-trick hook key
        self.after_keys: tuple[tuple, ...] = ()  # the after-trick hooks
        self.start_keys: tuple[tuple, ...] = ()  # the start-of-round hooks
        self.bid_keys: tuple[tuple, ...] = ()  # the after-transfer hooks (the bidding moment)
        self.bid_rules: tuple | None = None  # the `rule bids only when` conditions of the powers in force
        self.game_end_keys: tuple[tuple, ...] = ()  # the end-of-game hooks
        self.ruled: frozenset[str] = frozenset()  # Factions with a rule that says who wins (wins, wild, beats...)
        self.restricted: frozenset[str] = frozenset()  # Factions with a rule on what may be led or played
        # rule name ("must_be_played", "leads_only_when", "only_leads") -> {Faction: its condition or yes/no}, for
        # the restricted Factions that have that rule (Game._restrict reads a card's rule from its Faction)
        self.restrictions: dict[str, dict[str, object]] = {}
        self.sometimes_playable: frozenset[str] = frozenset()  # Factions with `rule always playable when C`
        self.must_beat: frozenset[str] = frozenset()  # Factions with `rule must beat`
        self.must_trump: frozenset[str] = frozenset()  # Factions with `rule must trump`
        self.names_side = False  # a power in force may name the next trick's side (`next side`)
        # zone kind ("expedition", "hand") -> the `on enter` hooks of the powers in force; empty: none
        self.enter_keys: dict[str, tuple[tuple, ...]] = {}
        self.face_up: frozenset[str] | None = None  # Factions whose cards lie face up (Game.face_up_factions)
        self.in_play: tuple | None = None  # the observation's "in_play#ids" (always, factions, added): one value

    def playable_for(self, led: str, cards_of: dict[str, frozenset[int]]) -> tuple[frozenset[int], frozenset[int]]:
        """(the cards a seat holding some of Faction `led` may play, the cards of `led`), made once per Faction."""
        rule = self.playable.get(led)
        if rule is None:
            of_led = cards_of.get(led, _NO_CARDS)
            rule = self.playable[led] = (
                of_led.union(*(cards_of.get(f, _NO_CARDS) for f in self.always_playable)), of_led)
        return rule


def _transfer_targets(seat: int, players: int, count: int, direction: str = "both") -> list[int]:
    """The receivers of `seat`'s `count` Transfer cards, in order.

    "both" is the boxes' Transfer: the left neighbour, then the right one (and on,
    alternating, should a house rule pass more than 2); "left", "right": every card to
    that neighbour; "across": to the seat opposite (an even number of players). With 2
    players every card goes to the other.
    """
    if players == 2:
        return [1 - seat] * count
    left, right = (seat + 1) % players, (seat - 1) % players
    if direction == "left":
        return [left] * count
    if direction == "right":
        return [right] * count
    if direction == "across":
        return [(seat + players // 2) % players] * count
    return [right if k % 2 else left for k in range(count)]


def _transfer_prompt(seat: int, receiver: int, players: int, label: str) -> str:
    if players == 2:
        return f"Choose a card to pass to {label}"
    if receiver == (seat + 1) % players:
        return f"Choose a card to pass to your left neighbour ({label})"
    if receiver == (seat - 1) % players:
        return f"Choose a card to pass to your right neighbour ({label})"
    return f"Choose a card to pass to the Community across the table ({label})"


def pick(table, keys) -> tuple:
    """(table[k] for each k in keys), as a tuple.

    itemgetter looks the keys up in C: mapping a tuple's `__getitem__` over the keys
    costs several times as much per key (a tuple's is a slot wrapper, slow to call).
    The options of every Transfer and power's choice are made this way, and those of
    a lead or a follow by Game._legal_options, which inlines it.
    """
    if len(keys) > 1:
        return itemgetter(*keys)(table)
    return (table[keys[0]],) if keys else ()  # itemgetter of one key returns the item, not a 1-tuple


def round_deck(setup: GameSetup, factions_in_play) -> list[int]:
    """The cards of a round with these Factions in play (promo cards in place when used)."""
    deck: list[int] = []
    for faction in factions_in_play:
        ids = list(setup.faction_cards[faction])
        swap = setup.promo_swaps.get(faction)
        if swap and setup.options.promos:
            ids = [swap[1] if c == swap[0] else c for c in ids]
        deck.extend(ids)
    return deck


def tables_of(setup: GameSetup) -> CardTables:
    """The setup's CardTables, built on first use."""
    if setup.kernel_tables is None:
        tables = CardTables(setup.cards, setup.n, setup.transfer_cards, setup.transfer_direction, setup.sides)
        # the hand's teams as a power reads them (`team of C`, `partner of C`: every Community alone without them)
        tables.team_of, tables.partner_of = setup.team_of, setup.partner_of
        setup.kernel_tables = tables
    return setup.kernel_tables
