"""Static game data: cards, Factions, boxes and scenarios, as loaded from boxes/.

Nothing here knows any particular Faction: a box file says which Factions
exist, what their cards are worth and which power file runs each of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from happydayz.data.hand import Hand


@dataclass(frozen=True)
class CardSpec:
    """One printed card. `value` is None for cards without a value."""

    faction: str
    value: int | None
    survivors: int
    power: str | None = None  # path of the card's own power file (a promo card)
    label: str = ""  # readable name: "<Faction> <value>", or the Faction alone
    shown: str = ""  # how the table shows it to the players (a box's card_names); "": the label


_LABEL = re.compile(r"^(.*?)\s*(\d+)?$")


def label_order(label: str) -> tuple[str, int]:
    """A sort key for card labels that reads the value as a number: "Faction 4" before "Faction 12"."""
    name, value = _LABEL.match(label).groups()
    return name, int(value) if value else -1


@dataclass(frozen=True)
class FactionDef:
    name: str
    power_file: Path  # absolute path of the power file that runs this Faction
    cards: tuple[CardSpec, ...]
    box: str
    always: bool = False  # in play in every game (fixed powers, no variants)
    colour: str | None = None  # "#rrggbb" the table draws its cards in (None: a generated colour-blind-safe one)
    icon: str | None = None  # a short symbol shown on its cards (None: none)


@dataclass(frozen=True)
class AddedPowerDef:
    """A power added to the game rather than bound to a Faction."""

    name: str
    power_file: Path
    box: str


@dataclass(frozen=True)
class PromoDef:
    """A promo card that replaces one card of its Faction and runs its own power."""

    name: str
    faction: str
    replaces_value: int
    survivors: int
    power_file: Path
    box: str
    label: str = ""  # how the card is shown; see boxes.promo_card()


@dataclass(frozen=True)
class FactionChoice:
    faction: str
    variant: str = "basic"


#: The Transfer directions a house rule may choose; "both" is the box's usual Transfer.
TRANSFER_DIRECTIONS = ("both", "left", "right", "across")


@dataclass(frozen=True)
class HouseRules:
    """A scenario's changes to the box's rules (`house_rules:` in a scenario); None or the default: as the box says.

    The kernel reads them once per setup (kernel.setup.build_setup).
    """

    hand_size: int | None = None  # cards dealt to each Community, whatever the player count
    transfer_cards: int | None = None  # cards each Community passes at the Transfer (0: no Transfer)
    transfer_direction: str = "both"  # both (the box's usual: left, then right, alternating), left, right, across
    transfer_rounds: tuple[int, ...] | None = None  # the rounds with a Transfer (None: every round)
    encounter: bool = True  # an Encounter card is turned up at each trick
    sides: tuple[str, ...] = ("+", "-")  # the sides of the board a leader may choose
    rounds: int | None = None  # rounds of a campaign
    starting_population: int | None = None
    elimination: bool = True  # a Community at 0 Survivors at a count ends the game

    @property
    def changed(self) -> bool:
        """Whether any rule differs from the box's."""
        return self != HouseRules()


@dataclass(frozen=True)
class Scenario:
    id: str  # "<box id>/<n>", or a file path for a user's scenario
    title: str
    box: str  # the box whose rules and always-in-play Factions are used
    factions: tuple[FactionChoice, ...]
    added: tuple[str, ...] = ()
    players: int | None = None
    promos: bool = False  # the promo cards replace the cards they stand in for
    random_setup: bool = False  # the Factions and added powers are drawn at random (kernel.setup.draw_powers)
    source: Path | None = None  # the YAML file it came from
    house_rules: HouseRules = HouseRules()
    hand: Hand = Hand()  # its `hand:`, key by key over the box's (data.hand)
    options: tuple[tuple[str, int | bool], ...] = ()  # `options:`, the values it sets its powers' options to
    state: tuple[str, ...] = ()  # `state:`, the shared counters and marks it declares (language.scenario_state)


@dataclass(frozen=True)
class Box:
    id: str  # short and lowercase, e.g. "my-box"
    title: str
    source: Path
    starting_population: int
    deal: dict[int, int]  # players -> cards dealt to each
    campaign_rounds: int
    transfer_cards: int  # cards each Community passes at the Transfer
    always: tuple[str, ...]  # always-in-play Factions, highest rank first
    factions: dict[str, FactionDef]
    added_powers: dict[str, AddedPowerDef]
    promos: tuple[PromoDef, ...]
    scenarios: tuple[Scenario, ...]
    hand: Hand = Hand()  # its `hand:` section (data.hand); what it leaves out is Happy DayZ's


@dataclass(frozen=True)
class Library:
    """Every box loaded, plus the Factions and powers of user scenarios."""

    boxes: dict[str, Box]
    extra_factions: dict[str, FactionDef] = field(default_factory=dict)
    extra_added: dict[str, AddedPowerDef] = field(default_factory=dict)  # added powers of user scenarios

    def all_factions(self) -> dict[str, FactionDef]:
        found: dict[str, FactionDef] = {}
        for box in self.boxes.values():
            for name, faction in box.factions.items():
                found.setdefault(name, faction)
        found.update(self.extra_factions)
        return found

    def all_added_powers(self) -> dict[str, AddedPowerDef]:
        found: dict[str, AddedPowerDef] = {}
        for box in self.boxes.values():
            found.update(box.added_powers)
        found.update(self.extra_added)
        return found

    def scenarios(self) -> list[Scenario]:
        return [s for box in self.boxes.values() for s in box.scenarios]
