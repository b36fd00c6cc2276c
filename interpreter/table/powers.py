"""The powers in play in a game, each with its name, variant and card text (as `happydayz explain` shows it)."""

from __future__ import annotations

from dataclasses import dataclass

from happydayz.authoring.powerfiles import checked_power
from happydayz.base.errors import HappyError
from happydayz.data.environment import Environment
from happydayz.kernel.game import Game
from happydayz.language.cardtext import card_text
from happydayz.language.compiler import CompiledPower
from happydayz.language.english import VARIANT_MARKS, variant_label


def powers_by_name(game: Game) -> dict[str, CompiledPower]:
    """Every compiled power a game may run, by the name its power file gives it."""
    setup = game.setup
    found: dict[str, CompiledPower] = {}
    for power in (*setup.faction_power.values(), *setup.added_power.values(), *setup.card_power.values()):
        found.setdefault(power.name, power)
    return found


def power_label(game: Game, name: str, variant: str | None, card: str | None = None) -> str:
    """A power as a player names it: "Name", "Name (TITLE)" for a titled variant, else "Name (+)" or "Name (-)"."""
    power = powers_by_name(game).get(name)
    title = None
    if power is not None and variant in power.variants:
        title = power.variants[variant].title
    text = variant_label(name, variant, title)
    if card is not None and card != name:
        text += f" of {card}"
    return text


@dataclass(frozen=True)
class PowerInPlay:
    name: str
    kind: str  # "always", "faction", "added" or "card"
    variant: str  # basic, positive, negative or fixed
    label: str  # as power_label names it
    text: str  # the card text

    def record(self) -> dict:
        return {"name": self.name, "kind": self.kind, "variant": self.variant, "label": self.label,
                "text": self.text}


def explain(power: CompiledPower, variant: str | None, env: Environment) -> str:
    """The card text of one variant of a compiled power (all variants when `variant` is None)."""
    try:
        checked = checked_power(power.file, env)
        wanted = None if power.fixed or variant in (None, "fixed") else variant
        return card_text(checked, wanted)
    except (HappyError, ValueError, OSError) as exc:  # a file changed on disk since the game began
        return f"(no card text: {exc})"


def powers_in_play(game: Game, env: Environment, cache: dict | None = None) -> list[PowerInPlay]:
    """The powers of the game as it is now: the always-in-play Factions, the Factions (with their variants),
    the added powers and the cards with a power of their own that are in the round's deck. `cache` (a dict
    the caller keeps) saves reading a power file's card text again."""
    setup = game.setup
    found: list[PowerInPlay] = []

    def add(power: CompiledPower, kind: str, variant: str) -> None:
        variant = "fixed" if power.fixed else variant
        key = (str(power.file), variant)
        text = cache.get(key) if cache is not None else None
        if text is None:
            text = explain(power, variant, env)
            if cache is not None:
                cache[key] = text
        found.append(PowerInPlay(power.name, kind, variant, power_label(game, power.name, variant), text))

    for name in setup.always:
        add(setup.faction_power[name], "always", "basic")
    for name, variant in game.factions:
        add(setup.faction_power[name], "faction", variant)
    for name in game.added:
        add(setup.added_power[name], "added", "basic")
    in_deck = set(game.round_cards())
    for card, power in setup.card_power.items():
        if card in in_deck:
            add(power, "card", "basic")
    return found


def find_in_play(game: Game, env: Environment, name: str, cache: dict | None = None) -> PowerInPlay | None:
    """The power in play named `name` (any case; a file stem's underscores read as spaces), or None."""
    wanted = name.strip().lower().replace("_", " ")
    for power in powers_in_play(game, env, cache):
        if power.name.lower() == wanted or power.label.lower() == wanted:
            return power
    return None


__all__ = ["PowerInPlay", "power_label", "powers_by_name", "powers_in_play", "find_in_play", "explain",
           "VARIANT_MARKS"]
