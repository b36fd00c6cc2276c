"""Set a game to a position given by hand, like a chess FEN.

Cards are named by their labels ("Faction 9", or a valueless card's name);
equal labels (several valueless cards of one Faction) are taken in turn.
Cards not named stay out of the round.
"""

from __future__ import annotations

from happydayz.base.errors import GameRuleError
from happydayz.kernel.game import Game


class CardNames:
    """Finds card ids by label, each card at most once."""

    def __init__(self, game: Game):
        self.game = game
        self.taken: set[int] = set()
        self.by_label: dict[str, list[int]] = {}
        for card, spec in enumerate(game.cards):
            for key in _keys(spec.label):
                self.by_label.setdefault(key, []).append(card)

    def card(self, label: str, allowed: set[int] | None = None) -> int:
        key = _fold(label)
        candidates = self.by_label.get(key)
        if not candidates:
            raise GameRuleError(f"no card is called '{label}' in this game")
        for card in candidates:
            if card not in self.taken and (allowed is None or card in allowed):
                self.taken.add(card)
                return card
        raise GameRuleError(f"the card '{label}' is named more often than the game has it")


def _fold(label: str) -> str:
    return " ".join(label.lower().split())


def _keys(label: str) -> list[str]:
    """A label and its singular spelling ("Factions 9" and "Faction 9")."""
    folded = _fold(label)
    keys = [folded]
    head, _, tail = folded.partition(" ")
    if head.endswith("s"):
        keys.append((head[:-1] + (" " + tail if tail else "")).strip())
    return keys


def in_play_cards(game: Game) -> set[int]:
    return set(game.round_cards())


def set_position(game: Game, *, hands=None, transfers=None, expeditions=None, reserve=(), populations=None,
                 active: int = 0, round_no: int = 1, carried=None) -> Game:
    """Put every named card in its zone and let the game play on from a new trick."""
    names = CardNames(game)
    allowed = in_play_cards(game)
    for card in range(len(game.cards)):
        if game.loc[card] != "out":
            game._move(card, "out")
    for kind, table in (("hand", hands), ("transfer", transfers), ("expedition", expeditions)):
        for seat, labels in (table or {}).items():
            seat = int(seat)
            if not 0 <= seat < game.n:
                raise GameRuleError(f"there is no seat {seat} in a {game.n}-player game")
            for label in labels:
                game._move(names.card(label, allowed), f"{kind}:{seat}")
    for label in reserve:
        game._move(names.card(label, allowed), "reserve")
    if populations is not None:
        if len(populations) != game.n:
            raise GameRuleError(f"{len(populations)} populations given for {game.n} Communities")
        game.population = [int(p) for p in populations]
    game.carried = [[names.card(l, allowed) for l in (carried or {}).get(s, [])] for s in range(game.n)]
    if not 0 <= active < game.n:
        raise GameRuleError(f"the active Community must be a seat from 0 to {game.n - 1}, not {active}")
    game.round_no = round_no
    game.round_gain = [0] * game.n
    game.known = [[] for _ in range(game.n)]  # a position set by hand: nobody saw these cards arrive
    game.voids = [set() for _ in range(game.n)]
    game.tricks_played = 0
    game.active = active
    game.designated = game.named_lead = None
    game.trick = None
    game.frames = []
    game.decision = None
    game.over = False
    game.phase = "start_trick"
    game._event("position", hands={s: [game.label(c) for c in game.zone("hand", s)] for s in range(game.n)})
    game._advance()
    return game
