"""How the table names a card and an option to the person playing: a card with the Survivors it counts, their
own Community with "(you)". The kernel's labels stay plain (they are what a scripted game or a save names)."""

from __future__ import annotations

from happydayz.kernel.game import Decision, Game


def signed(number: int) -> str:
    """+3, −3 (a true minus sign)."""
    return f"{number:+d}".replace("-", "\u2212")


def card_name(game: Game, card: int) -> str:
    """A card's name with the Survivors it counts, when it counts any: "… 10 (−3)" for a loss, "… 4 (+1)".

    The name is the one its box's `card_names` gives it ("Q" and the Faction's icon), else its label."""
    spec = game.cards[card]
    name = spec.shown or spec.label
    return f"{name} ({signed(spec.survivors)})" if spec.survivors else name


def community_name(game: Game, seat: int, viewer: int | None) -> str:
    name = game.seat_label(seat)
    return f"{name} (you)" if seat == viewer else name


def option_text(game: Game, decision: Decision, index: int, viewer: int | None) -> str:
    """An option as the person reads it: a card with its Survivors, their own Community marked "(you)"."""
    option = decision.options[index]
    value, label = option.value, option.label
    card = value[0] if type(value) is tuple and value and type(value[0]) is int else value
    seats = game.tables.seat
    if type(value) is int and 0 <= value < len(seats) and option == seats[value]:  # a Community to choose
        return community_name(game, value, viewer)
    if type(card) is int and 0 <= card < len(game.cards) and label.startswith(game.cards[card].label):
        return card_name(game, card) + label[len(game.cards[card].label):]  # a card, e.g. "… 4 (+1) on +"
    return label


__all__ = ["signed", "card_name", "community_name", "option_text"]
