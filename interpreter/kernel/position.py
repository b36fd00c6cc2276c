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
        if allowed is not None and not any(card in allowed for card in candidates):
            raise GameRuleError(self._not_in_play(label, candidates))
        raise GameRuleError(f"the card '{label}' is named more often than the game has it")

    def _not_in_play(self, label: str, candidates: list[int]) -> str:
        """Why a card the game knows is not among the round's cards: its Faction is not in play, or it is left out."""
        faction = self.game.cards[candidates[0]].faction
        in_play = self.game.factions_in_play()
        if faction not in in_play:
            return (f"the card '{label}' is not in this game: {faction} is not a Faction in play "
                    f"(in play: {', '.join(in_play)})")
        return f"the card '{label}' is not in this game's deck (it is left out of the round)"


class MisnamedCard(GameRuleError):
    """A card label of a hand-made deal or position that names no card left to place; `where` is its place:
    (zone, seat, index) for a per-seat zone, (zone, index) for the Reserve."""

    def __init__(self, message: str, where: tuple):
        super().__init__(message)
        self.where = where


def card_ids(names: CardNames, zone: str, table: dict | list, allowed: set[int] | None):
    """The card ids of a zone's labels, {seat: [labels]} or a list (the Reserve); a bad label raises MisnamedCard."""
    def one(label, where):
        try:
            return names.card(label, allowed)
        except GameRuleError as exc:
            raise MisnamedCard(exc.diagnostics[0].message, where) from None

    if isinstance(table, dict):
        return {seat: [one(label, (zone, seat, i)) for i, label in enumerate(labels)] for seat, labels in table.items()}
    return [one(label, (zone, i)) for i, label in enumerate(table)]


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

    def ids(kind: str, table) -> dict[int, list[int]]:
        return {int(seat): cards for seat, cards in card_ids(names, kind, table or {}, allowed).items()}

    placed = {kind: ids(kind, table) for kind, table in (("hands", hands), ("transfers", transfers),
                                                         ("expeditions", expeditions))}
    return game.set_position(**placed, reserve=card_ids(names, "reserve", list(reserve), allowed),
                             populations=populations, active=active, round_no=round_no,
                             carried=ids("carried", carried))
