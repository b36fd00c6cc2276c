"""What one Community may see, key by key: Game.observe and a bot's seat view read the same makers.

Each maker takes the game and the seat and makes one key of the observation, so a
bot that reads a few keys (players.agents.seat_view) gets exactly what the whole
view (Game.observe) would give, without the rest being made. The card lists also
come by their ids alone (CARD_IDS), without a dict per card.

Expedition zones are face down (only their size and their face-up cards show),
the Reserve only its size; cards inside a decision's options are shown because
the rules let the chooser see them.
"""

from __future__ import annotations

from typing import Any, Callable

Maker = Callable[[Any, int], object]  # (game, seat) -> the value of one key


def _labels(game, cards) -> list[dict]:
    label = game.tables.label
    return [{"id": c, "label": label[c]} for c in cards]


def _face_up(game, cards):
    rules_of = game.rules_of
    return [c for c in cards if rules_of(c).face_up]


def _trick(game, seat: int):
    trick = game.trick
    if trick is None:
        return None
    label = game.tables.label
    return {"leader": trick.leader, "side": trick.side, "led": trick.led,
            "plays": [{"seat": s, "card": label[card], "id": card, "trump": trump} for s, card, trump in trick.plays]}


#: The observation's keys in order, each with its maker.
KEYS: dict[str, Maker] = {
    "seat": lambda game, seat: seat,
    "players": lambda game, seat: game.n,
    "round": lambda game, seat: game.round_no,
    "rounds": lambda game, seat: game.setup.rounds,
    "populations": lambda game, seat: list(game.population),
    "round_gains": lambda game, seat: list(game.round_gain),
    "factions": lambda game, seat: [{"faction": f, "variant": v} for f, v in game.factions],
    "always": lambda game, seat: list(game.setup.always),
    "added": lambda game, seat: list(game.added),
    "hand": lambda game, seat: _labels(game, game.zones[game.hand_keys[seat]]),
    "transfer": lambda game, seat: [_labels(game, game.zones[k]) for k in game.transfer_keys],
    "hand_sizes": lambda game, seat: [len(game.zones[k]) for k in game.hand_keys],
    "expedition_sizes": lambda game, seat: [len(game.zones[k]) for k in game.expedition_keys],
    "expedition_face_up": lambda game, seat: [_labels(game, _face_up(game, game.zones[k]))
                                              for k in game.expedition_keys],
    "expedition_known": lambda game, seat: [_labels(game, cards) for cards in game.known],
    "voids": lambda game, seat: [sorted(v) for v in game.voids],
    "reserve_size": lambda game, seat: len(game.zones["reserve"]),
    "encounter": lambda game, seat: _labels(game, game.zones["encounter"])[0] if game.zones["encounter"] else None,
    "active": lambda game, seat: game.active,
    "trick": _trick,
    "tricks_won": lambda game, seat: list(game.tricks_won),
    "state": lambda game, seat: game.visible_state(seat) if game.state else [],
    "history": lambda game, seat: [{"round": h["round"], "deltas": h["deltas"], "populations": h["populations"]}
                                   for h in game.history],
}

#: The card lists of KEYS by their ids alone (the Encounter card: its id, or None).
CARD_IDS: dict[str, Maker] = {
    "hand": lambda game, seat: list(game.zones[game.hand_keys[seat]]),
    "transfer": lambda game, seat: [list(game.zones[k]) for k in game.transfer_keys],
    "expedition_known": lambda game, seat: game.known,
    "expedition_face_up": lambda game, seat: [_face_up(game, game.zones[k]) for k in game.expedition_keys],
    "encounter": lambda game, seat: game.zones["encounter"][0] if game.zones["encounter"] else None,
}


def observe(game, seat: int) -> dict:
    """The whole observation of `seat`: every key of KEYS, in order."""
    return {key: make(game, seat) for key, make in KEYS.items()}


__all__ = ["KEYS", "CARD_IDS", "observe"]
