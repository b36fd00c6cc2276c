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
    """Game.set_position with the cards named by their labels: {seat: [labels]}, the Reserve top first."""
    names = CardNames(game)
    allowed = in_play_cards(game)

    def ids(table) -> dict[int, list[int]]:
        return {int(seat): [names.card(label, allowed) for label in labels] for seat, labels in (table or {}).items()}

    placed = {kind: ids(table) for kind, table in (("hands", hands), ("transfers", transfers),
                                                   ("expeditions", expeditions))}
    return game.set_position(**placed, reserve=[names.card(label, allowed) for label in reserve],
                             populations=populations, active=active, round_no=round_no, carried=ids(carried))
