"""What one Community may see, key by key: Game.observe and a bot's seat view read the same makers.

Each maker takes the game and the seat and makes one key of the observation, so a
bot that reads a few keys of its lazy view (an Observation made with `seat_view`,
as players.agents.play_game hands it) gets exactly what the whole view
(Game.observe) would give, without the rest being made. The card lists also come
by their ids alone (CARD_IDS, read through `card_ids`), without a dict per card.

Expedition zones are face down (only their size and their face-up cards show),
the Reserve only its size (and the card a hand with `turn_up` turned face up on
it, while it lies there); cards inside a decision's options are shown because
the rules let the chooser see them.
"""

from __future__ import annotations

from itertools import compress
from typing import Any, Callable, Mapping

from happydayz.language.compiler import TURNED_STATE

Maker = Callable[[Any, int], object]  # (game, seat) -> the value of one key


def _labels(game, cards) -> list[dict]:
    label = game.tables.label
    return [{"id": c, "label": label[c]} for c in cards]


def _face_up(game, cards):
    up = game.face_up_factions()
    if not up:
        return []
    faction = game.tables.faction
    return [c for c in cards if faction[c] in up]


def _hands_known(game, seat: int) -> list[list[int]]:
    """The cards `seat` knows to lie in each other Community's hand: those passed into it at this round's
    Transfer (`into: hand`) that it still holds, if `seat` saw them go (everyone, or their giver); and the
    card the hand turned up (`turn_up`), which everyone saw taken, while it stays in the hand it went to; and
    the whole of a dummy hand once it is laid face up (`hand.dummy`)."""
    everyone = game.setup.hand.seen_by == "everyone"
    known: list[list[int]] = [[] for _ in range(game.n)]
    loc, hand_keys = game.loc, game.hand_keys
    for giver, receiver, card in game.transfer_picks:
        if card >= 0 and receiver != seat and (everyone or giver == seat) and loc[card] == hand_keys[receiver]:
            known[receiver].append(card)
    turned = game.state.get((TURNED_STATE, None)) if game.setup.hand.turn_up else None
    if turned is not None and loc[turned] in hand_keys and loc[turned] != hand_keys[seat]:
        known[hand_keys.index(loc[turned])].append(turned)
    dummy = game.dummy
    if dummy is not None and dummy != seat:  # a dummy hand (hand.dummy) lies face up once laid: all of it
        known[dummy] = list(game.zones[hand_keys[dummy]])
    return known


def _transfer_ids(game, seat: int) -> list[list[int]]:
    """The cards `seat` sees in each Transfer zone: all of them, or with `seen_by: giver_and_receiver` (and
    `into: transfer_zone`) those of its own zone and those it passed; a card a power put there is seen."""
    zones = game.zones
    if not game.setup.secret_transfer:
        return [list(zones[k]) for k in game.transfer_keys]
    hidden = {card for giver, receiver, card in game.transfer_picks if card >= 0 and seat not in (giver, receiver)}
    return [list(zones[k]) if s == seat or not hidden else [c for c in zones[k] if c not in hidden]
            for s, k in enumerate(game.transfer_keys)]


def _trick(game, seat: int):
    trick = game.trick
    if trick is None:
        return None
    label = game.tables.label
    out = {"leader": trick.leader, "side": trick.side, "led": trick.led,
           "plays": [{"seat": s, "card": label[card], "id": card, "trump": trump} for s, card, trump in trick.plays]}
    if trick.untaken is not None:  # (only a trick a power left to nobody: `nobody takes trick`)
        out["untaken"] = list(trick.untaken)
    return out


#: The observation's keys in order, each with its maker.
KEYS: dict[str, Maker] = {
    "seat": lambda game, seat: seat,
    "players": lambda game, seat: game.n,
    "round": lambda game, seat: game.round_no,
    "rounds": lambda game, seat: game.setup.rounds,
    "populations": lambda game, seat: list(game.population),
    "teams": lambda game, seat: [list(team) for team in game.setup.teams],
    "team_scores": lambda game, seat: game.team_scores(),
    "round_gains": lambda game, seat: list(game.round_gain),
    "factions": lambda game, seat: [{"faction": f, "variant": v} for f, v in game.factions],
    "always": lambda game, seat: list(game.setup.always),
    "added": lambda game, seat: list(game.added),
    "hand": lambda game, seat: _labels(game, game.zones[game.hand_keys[seat]]),
    "transfer": lambda game, seat: [_labels(game, cards) for cards in _transfer_ids(game, seat)],
    "transfer_sizes": lambda game, seat: [len(game.zones[k]) for k in game.transfer_keys],
    "hand_sizes": lambda game, seat: [len(game.zones[k]) for k in game.hand_keys],
    "expedition_sizes": lambda game, seat: [len(game.zones[k]) for k in game.expedition_keys],
    "expedition_face_up": lambda game, seat: [_labels(game, _face_up(game, game.zones[k]))
                                              for k in game.expedition_keys],
    "expedition_known": lambda game, seat: [_labels(game, cards) for cards in game.known],
    "voids": lambda game, seat: [sorted(v) for v in game.voids],
    "reserve_size": lambda game, seat: len(game.zones["reserve"]),
    "encounter": lambda game, seat: _labels(game, game.zones["encounter"])[0] if game.zones["encounter"] else None,
    "active": lambda game, seat: game.active,
    "dealer": lambda game, seat: game.dealer,
    "hands_known": lambda game, seat: [_labels(game, cards) for cards in _hands_known(game, seat)],
    "dummy": lambda game, seat: game.dummy,
    "turned_up": lambda game, seat: _labels(game, [game.turned_up()])[0] if game.turned_up() is not None else None,
    "trick": _trick,
    "tricks_won": lambda game, seat: list(game.tricks_won),
    "state": lambda game, seat: game.visible_state(seat) if game.state else [],
    "history": lambda game, seat: [{"round": h["round"], "deltas": h["deltas"], "populations": h["populations"]}
                                   for h in game.history],
}

def _seen(game, seat: int) -> tuple[set[int], list[int], set[int]]:
    """(every card `seat` sees, the cards known in its own Expedition zone, its face-up ones there), in one
    pass over the zones: what determinize.known_cards and expeditions_seen read off the observation's keys
    (its hand, every Transfer zone it sees, each Expedition zone's known and face-up cards, the Encounter
    card, the turned-up card, the trick, a dummy hand laid face up). A bot reads it as
    `card_ids(view, "seen")`; tests/players/test_seen_ids.py checks it against those keys."""
    zones, flag = game.zones, game.seen
    seen = set(zones[game.hand_keys[seat]])
    if game.setup.secret_transfer:
        for cards in _transfer_ids(game, seat):
            seen.update(cards)
    else:
        for key in game.transfer_keys:
            seen.update(zones[key])
    is_seen = flag.__getitem__
    mine: list[int] = []
    up: set[int] = set()
    for s, key in enumerate(game.expedition_keys):
        cards = zones[key]
        face_up = _face_up(game, cards)
        known = list(compress(cards, map(is_seen, cards)))
        known += [c for c in face_up if not flag[c]]  # (a face-up card is seen whether or not it was flagged)
        if s == seat:
            mine, up = known, set(face_up)
        seen.update(known)
    encounter = zones["encounter"]
    if encounter:
        seen.add(encounter[0])
    turned = game.turned_up()
    if turned is not None:
        seen.add(turned)
    trick = game.trick
    if trick is not None:
        seen.update([card for _, card, _ in trick.plays])
    dummy = game.dummy
    if dummy is not None and dummy != seat:
        seen.update(zones[game.hand_keys[dummy]])
    return seen, mine, up


def _in_play(game) -> tuple:
    """(the keys always, factions and added as one hashable value), made once per set of powers in force
    (it depends on nothing else: Game.forget_rules)."""
    in_force = game._in_force
    got = in_force.in_play
    if got is None:
        got = in_force.in_play = (tuple(game.setup.always), tuple((f, v) for f, v in game.factions),
                                  tuple(game.added))
    return got


#: The card lists of KEYS by their ids alone (the Encounter card: its id, or None); and "seen" (_seen).
CARD_IDS: dict[str, Maker] = {
    "seen": _seen,
    # the trick by ids: (leader, side, led, [(seat, card), ...]), or None
    "trick": lambda game, seat: None if game.trick is None else (game.trick.leader, game.trick.side, game.trick.led,
                                                                 [(s, c) for s, c, _ in game.trick.plays]),
    # (the keys always, factions and added as one hashable value: what PowerModel.in_play is keyed by)
    "in_play": lambda game, seat: _in_play(game),
    "hand": lambda game, seat: list(game.zones[game.hand_keys[seat]]),
    "transfer": _transfer_ids,
    "expedition_known": lambda game, seat: game.known,
    "expedition_face_up": lambda game, seat: [_face_up(game, game.zones[k]) for k in game.expedition_keys],
    "encounter": lambda game, seat: game.zones["encounter"][0] if game.zones["encounter"] else None,
    "hands_known": _hands_known,
    "turned_up": lambda game, seat: game.turned_up(),
}


class Observation(Mapping):
    """What `Game.observe(seat)` returns, made on first use: an agent that never looks costs nothing.

    It holds a way to make the view, not the game. It is the table as it is while
    the agent decides: read it then, not later.

    Made with `part` (as `play_game` does, by `seat_view`), it also answers one
    key at a time without making the whole view — `observation["hand_sizes"]`
    makes that list only — and the card lists by their ids alone
    (`card_ids(observation, key)`): a bot reads only what it needs. Every key is
    exactly what `Game.observe(seat)` gives for it.
    """

    __slots__ = ("_make", "_data", "_part", "_parts")

    def __init__(self, make: Callable[[], dict], part: Callable[[str], object] | None = None):
        self._make, self._data, self._part, self._parts = make, None, part, None

    def _made(self) -> dict:
        if self._data is None:
            self._data = self._make()
        return self._data

    def __getitem__(self, key: str):
        if self._data is None and self._part is not None:
            parts = self._parts
            if parts is None:
                parts = self._parts = {}
            elif key in parts:
                return parts[key]
            value = parts[key] = self._part(key)
            if value is not _WHOLE:
                return value
            del parts[key]
        return self._made()[key]

    def __iter__(self):
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


_WHOLE = object()  # what a part maker answers for a key it does not make alone: the whole view is made


def card_ids(observation: Mapping, key: str):
    """The ids of an observation's card list `key` (hand; per seat for transfer, expedition_face_up,
    expedition_known: a list of lists), or the Encounter card's id for "encounter" (None without one), the
    turned-up card's for "turned_up".

    From a seat view (`Observation` made with a part maker) without making the label dicts; from
    any other observation, read off its dicts. Never a list to change: it may be the view's own.
    """
    if isinstance(observation, Observation) and observation._data is None and observation._part is not None:
        parts = observation._parts
        if parts is None:
            parts = observation._parts = {}
        name = key + "#ids"
        value = parts.get(name, _WHOLE)
        if value is _WHOLE:
            value = observation._part(name)
            if value is not _WHOLE:
                parts[name] = value
        if value is not _WHOLE:
            return value
    value = observation.get(key) if key == "turned_up" else observation[key]
    if key in ("encounter", "turned_up"):
        return value["id"] if value else None
    if key == "hand":
        return [c["id"] for c in value]
    return [[c["id"] for c in cards] for cards in value]


def seat_view(game, seat: int) -> Callable[[str], object]:
    """The part maker of `seat`'s observation: one key of `game.observe(seat)` at a time (see Observation).

    Keys with a "#ids" suffix give the card lists by their ids (see card_ids). A key it does not make
    alone answers _WHOLE. Made while the agent decides: the game is read then.
    """

    def part(key: str):
        if key.endswith("#ids"):
            maker = CARD_IDS.get(key[:-4])
        else:
            maker = KEYS.get(key)
        return _WHOLE if maker is None else maker(game, seat)

    return part


def has_known(observation: Mapping) -> bool:
    """Whether the observation tells the cards known in each Expedition zone (observations made before
    `expedition_known` existed do not); a seat view tells without making the key."""
    if isinstance(observation, Observation) and observation._part is not None:
        return True
    return bool(observation.get("expedition_known"))


#: Keys shown only in a game that uses what they tell (a game of Happy DayZ's hand has no dealer).
OPTIONAL: dict[str, Callable[[Any], bool]] = {"dealer": lambda game: game.setup.hand.dealer != "none",
                                              "hands_known": lambda game: game.setup.hand.into == "hand" or
                                              bool(game.setup.hand.turn_up) or game.dummy_rule,
                                              "dummy": lambda game: game.dummy_rule,
                                              "teams": lambda game: game.setup.teams is not None,
                                              "team_scores": lambda game: game.setup.teams is not None,
                                              "turned_up": lambda game: bool(game.setup.hand.turn_up),
                                              "transfer_sizes": lambda game: game.setup.secret_transfer}


def observe(game, seat: int) -> dict:
    """The whole observation of `seat`: every key of KEYS, in order (an OPTIONAL one only where it is used)."""
    return {key: make(game, seat) for key, make in KEYS.items()
            if key not in OPTIONAL or OPTIONAL[key](game)}


__all__ = ["KEYS", "CARD_IDS", "Observation", "card_ids", "seat_view", "has_known", "observe"]
