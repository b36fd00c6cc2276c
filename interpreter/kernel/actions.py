"""A fixed action space and a fixed-size observation for research frameworks.

OpenSpiel and PettingZoo want what the kernel does not have: one numbering of
every answer a game of a setup can ever take, and a tensor of one shape for
what a Community sees. This module gives both, for one GameSetup, and reads
nothing but a Decision's options and `Game.observe(seat)`.

Actions. The numbers are laid out in blocks (N cards, n Communities, F Factions):

    block        size   answers
    lead         2N     lead card c on side "+" (2c) or "-" (2c + 1)
    card         N      follow with, pass (Transfer) or choose card c
    seat         n      choose Community s (a power's choice, or the dealer: a `dealer` decision)
    faction      F      choose a Faction (the setup's Factions, in `factions` order)
    yes, no      2      answer a yes/no question
    stop         1      stop an "up to" choice
    keep         1      keep the Factions in play (a Faction change)
    change       F * F  replace Faction a with Faction b (a Faction change, a drawn power)
    bid          B      a bid of the hand's auction (only with one): each number, Faction, or level and
                        Faction it may say, lowest first, then pass

Each Decision's options map one to one onto actions (`actions`), so the legal
actions are exactly the kernel's options, and an action maps back to the
option's index (`option_index`).

Observations: `encode_observation(observation)` turns one `observe(seat)`
dict into a float32 vector of `ObservationLayout.size` values, the
concatenation of the named pieces of `ObservationLayout.pieces`
(name, shape), in this order:

    seat                n        1 for the observing Community
    round               1        round / rounds
    populations         n        population / scale (the starting population, or a target's reach if larger)
    round_gains         n        Survivors gained this round / starting population
    factions            F x 3    1 at (Faction, variant basic/positive/negative) in play (fixed: basic)
    hand                N        1 for each card in the observer's hand
    transfer            n x N    the cards in each Community's Transfer zone
    expedition_known    n x N    the cards everyone knows lie in each Expedition zone
    expedition_face_up  n x N    the face-up cards of each Expedition zone
    hand_sizes          n        cards in each hand / N
    expedition_sizes    n        cards in each Expedition zone / N
    reserve_size        1        cards in the Reserve / N
    encounter           N        the Encounter card
    active              n        the active Community
    trick_leader        n        the leader of the trick on the table
    trick_side          2        the side it was led on (+, -)
    trick_led           F        the Faction led
    trick_plays         n x N    the card each Community played to it
    trick_trumps        n        1 where that play trumps
    voids               n x F    the Factions each Community is known to lack
    turned_up           N        the card the hand turned up, while it lies on the Reserve (only with turn_up)
    teams               n x T    1 at (seat, its team), T teams (only with hand.teams)
    team_scores         T        each team's score / scale (only with hand.teams)
    dummy               n        the dummy's seat, once its hand is laid face up (only with hand.dummy)
    dummy_hand          N        the dummy's hand, face up for everyone once laid (only with hand.dummy)

Every value lies in [-BOUND, BOUND] (a population many times the starting one is cut
off there).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from happydayz.base.errors import GameRuleError
from happydayz.kernel.game import Decision
from happydayz.kernel.setup import GameSetup
from happydayz.kernel.tables import SIDES, tables_of
from happydayz.language import vm

VARIANTS = ("basic", "positive", "negative")
BOUND = 10.0  # every observation value lies in [-BOUND, BOUND]


def setup_factions(setup: GameSetup) -> tuple[str, ...]:
    """Every Faction a game of `setup` can name: the always-in-play ones, the candidates, any card's."""
    names = list(setup.always) + [f for f in setup.candidates if f not in setup.always]
    names += sorted({c.faction for c in setup.cards} - set(names))
    return tuple(names)


class ActionSpace:
    """The numbering of every answer a game of one setup can take (see the module's table)."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.tables = tables_of(setup)
        self.cards = N = len(setup.cards)
        self.players = n = setup.n
        self.factions = setup_factions(setup)
        F = len(self.factions)
        self.faction_index = {name: i for i, name in enumerate(self.factions)}
        self.lead = 0
        self.card = 2 * N
        self.seat = self.card + N
        self.faction = self.seat + n
        self.yes = self.faction + F
        self.no = self.yes + 1
        self.stop = self.no + 1
        self.keep = self.stop + 1
        self.change = self.keep + 1
        self.bid = self.change + F * F
        self.bids = _auction_bids(setup, self.factions)  # every bid a game of this setup may make, numbered
        self.bid_index = {value: i for i, value in enumerate(self.bids)}
        self.size = self.bid + len(self.bids)
        self._last: tuple = (None, [])  # the last decision encoded and its actions
        # a card's name in action strings: its label, and its id where two cards share a label
        labels = self.tables.label
        shared = {label for label in labels if labels.count(label) > 1}
        self.card_names = tuple(f"{label} (card {i})" if label in shared else label for i, label in enumerate(labels))

    # ------------------------------------------------------------- options
    def encode(self, decision: Decision, index: int) -> int:
        """The action of option `index` of `decision`."""
        option = decision.options[index]
        value, kind = option.value, decision.kind
        if kind == "lead":
            card, side = value
            return self.lead + 2 * card + SIDES.index(side)
        if kind in ("follow", "transfer"):
            return self.card + value
        if kind == "dealer":
            return self.seat + value
        if kind == "bid":
            return self.bid + self.bid_index[value]
        if kind in ("faction_change", "replace_power"):
            if value is None:
                return self.keep
            old, new = value
            return self.change + self.faction_index[old] * len(self.factions) + self.faction_index[new]
        # a choice inside a power: a card, a Community, a Faction, yes/no or stop
        if type(value) is bool:
            return self.yes if value else self.no
        if type(value) is int:
            if value < self.players and option == self.tables.seat[value]:
                return self.seat + value
            return self.card + value
        if type(value) is str:
            if value in self.faction_index and option.label == value:
                return self.faction + self.faction_index[value]
            if value == vm.STOP:
                return self.stop
        raise GameRuleError(f"no action stands for the option {option.label!r} of '{decision.prompt}'")

    def actions(self, decision: Decision) -> list[int]:
        """The action of each option of `decision`, in the options' order (all different)."""
        if decision is self._last[0]:  # asked again about the same decision (it is never changed once made)
            return self._last[1]
        found = [self.encode(decision, i) for i in range(len(decision.options))]
        if len(set(found)) != len(found):
            raise GameRuleError(f"two options of '{decision.prompt}' share an action")
        self._last = (decision, found)
        return found

    def legal(self, decision: Decision | None) -> list[int]:
        """The legal actions, sorted: exactly the decision's options."""
        return [] if decision is None else sorted(self.actions(decision))

    def mask(self, decision: Decision | None) -> np.ndarray:
        """1 for each legal action, as int8 of length `size`."""
        mask = np.zeros(self.size, np.int8)
        if decision is not None:
            mask[self.actions(decision)] = 1
        return mask

    def option_index(self, decision: Decision, action: int) -> int:
        """The index of the option that `action` stands for; a GameRuleError if it is not legal."""
        try:
            return self.actions(decision).index(int(action))
        except ValueError:
            raise GameRuleError(f"action {action} ({self.describe(action)}) is not a legal answer to "
                                f"'{decision.prompt}'") from None

    def describe(self, action: int) -> str:
        """A short name of an action, whatever the decision."""
        label, F = self.card_names, len(self.factions)
        if not 0 <= action < self.size:
            return f"no action {action}"
        if action < self.card:
            return f"lead {label[action // 2]} on {SIDES[action % 2]}"
        if action < self.seat:
            return label[action - self.card]
        if action < self.faction:
            return self.tables.seat[action - self.seat].label
        if action < self.yes:
            return self.factions[action - self.faction]
        fixed = {self.yes: "yes", self.no: "no", self.stop: "stop choosing", self.keep: "keep the Factions in play"}
        if action in fixed:
            return fixed[action]
        if action >= self.bid:
            value = self.bids[action - self.bid]
            return "pass" if value == "pass" else f"bid {' '.join(str(v) for v in value if v is not None)}"
        old, new = divmod(action - self.change, F)
        return f"replace {self.factions[old]} with {self.factions[new]}"


def _auction_bids(setup: GameSetup, factions: tuple[str, ...]) -> tuple:
    """Every bid of the setup's auction (the kernel's option values), lowest first, then pass; () without one.

    An auction of stages (`then:`) numbers the bids of its first stage, then those of each later stage not
    numbered yet: a bid says the same thing, and takes the same number, in every stage.
    """
    auction = setup.hand.auction
    if auction is None:
        return ()
    values: dict = {}
    for stage in auction.stages:
        kind = stage.bids[0]
        if kind == "numbers":
            values.update(dict.fromkeys((n, None) for n in range(stage.bids[1], stage.bids[2] + 1)))
        elif kind == "factions":
            values.update(dict.fromkeys((None, f) for f in factions))
        else:
            values.update(dict.fromkeys((n, f) for n in range(stage.bids[1], stage.bids[2] + 1)
                                        for f in factions + ((None,) if len(stage.bids) > 3 else ())))
    return (*values, "pass")


class ObservationLayout:
    """The pieces of the observation vector of one setup (see the module's table)."""

    def __init__(self, setup: GameSetup) -> None:
        N, n = len(setup.cards), setup.n
        self.factions = setup_factions(setup)
        self.faction_index = {name: i for i, name in enumerate(self.factions)}
        F = len(self.factions)
        self.cards, self.players = N, n
        # the scale of a score: the starting population, or a target's reach for a score counted up from 0
        target = [abs(t) for t in setup.target or () if t is not None]
        self.starting = max(1, setup.starting_population, *target)
        self.pieces: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("seat", (n,)), ("round", (1,)), ("populations", (n,)), ("round_gains", (n,)),
            ("factions", (F, len(VARIANTS))), ("hand", (N,)), ("transfer", (n, N)), ("expedition_known", (n, N)),
            ("expedition_face_up", (n, N)), ("hand_sizes", (n,)), ("expedition_sizes", (n,)), ("reserve_size", (1,)),
            ("encounter", (N,)), ("active", (n,)), ("trick_leader", (n,)), ("trick_side", (2,)), ("trick_led", (F,)),
            ("trick_plays", (n, N)), ("trick_trumps", (n,)), ("voids", (n, F)))
        if setup.hand.turn_up:  # (a piece of its own only where it is used: the others keep their shape)
            self.pieces += (("turned_up", (N,)),)
        self.teams = setup.teams
        if setup.teams is not None:  # (only with teams: each seat's team, one-hot, and each team's score)
            self.pieces += (("teams", (n, len(setup.teams))), ("team_scores", (len(setup.teams),)))
        if setup.hand.dummy == "partner_of_declarer":  # (the same: a game without a dummy keeps its shape)
            self.pieces += (("dummy", (n,)), ("dummy_hand", (N,)))
        self.slices, start = [], 0
        for name, shape in self.pieces:
            size = 1
            for d in shape:
                size *= d
            self.slices.append((name, start, start + size, shape))
            start += size
        self.size = start

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named pieces of `vector`, reshaped (views: writing one writes the vector)."""
        return {name: vector[a:b].reshape(shape) for name, a, b, shape in self.slices}

    def encode(self, observation: Mapping, out: np.ndarray | None = None,
               views: dict[str, np.ndarray] | None = None) -> np.ndarray:
        """The observation vector of one `Game.observe(seat)` dict.

        Written into `out` if given (with `views`, the result of `views(out)`, when the caller keeps it).
        """
        vector = np.zeros(self.size, np.float32) if out is None else out
        vector.fill(0)
        v = views if views is not None else self.views(vector)
        N, fi = self.cards, self.faction_index

        def ids(cards: Sequence[Mapping]) -> list[int]:
            return [c["id"] for c in cards]

        v["seat"][observation["seat"]] = 1
        v["round"][0] = observation["round"] / max(1, observation["rounds"])
        v["populations"][:] = np.array(observation["populations"]) / self.starting
        v["round_gains"][:] = np.array(observation["round_gains"]) / self.starting
        for f in observation["factions"]:
            if f["faction"] in fi:
                variant = f["variant"] if f["variant"] in VARIANTS else "basic"
                v["factions"][fi[f["faction"]], VARIANTS.index(variant)] = 1
        for name in observation.get("always", ()):
            if name in fi:
                v["factions"][fi[name], 0] = 1
        v["hand"][ids(observation["hand"])] = 1
        for seat in range(self.players):
            v["transfer"][seat, ids(observation["transfer"][seat])] = 1
            v["expedition_known"][seat, ids(observation["expedition_known"][seat])] = 1
            v["expedition_face_up"][seat, ids(observation["expedition_face_up"][seat])] = 1
            for faction in observation["voids"][seat]:
                if faction in fi:
                    v["voids"][seat, fi[faction]] = 1
        v["hand_sizes"][:] = np.array(observation["hand_sizes"]) / N
        v["expedition_sizes"][:] = np.array(observation["expedition_sizes"]) / N
        v["reserve_size"][0] = observation["reserve_size"] / N
        if observation["encounter"] is not None:
            v["encounter"][observation["encounter"]["id"]] = 1
        v["active"][observation["active"]] = 1
        trick = observation["trick"]
        if trick is not None:
            v["trick_leader"][trick["leader"]] = 1
            if trick["side"] in SIDES:
                v["trick_side"][SIDES.index(trick["side"])] = 1
            if trick["led"] in fi:
                v["trick_led"][fi[trick["led"]]] = 1
            for play in trick["plays"]:
                v["trick_plays"][play["seat"], play["id"]] = 1
                v["trick_trumps"][play["seat"]] = 1 if play["trump"] else 0
        if observation.get("turned_up") is not None and "turned_up" in v:
            v["turned_up"][observation["turned_up"]["id"]] = 1
        if "teams" in v and observation.get("teams") is not None:
            for team, seats in enumerate(observation["teams"]):
                v["teams"][seats, team] = 1
            v["team_scores"][:] = np.array(observation["team_scores"]) / self.starting
        dummy = observation.get("dummy")
        if dummy is not None and "dummy" in v:  # laid: its seat, and its hand (the dummy's own: its hand)
            v["dummy"][dummy] = 1
            own = dummy == observation["seat"]
            v["dummy_hand"][ids(observation["hand"] if own else observation["hands_known"][dummy])] = 1
        np.clip(vector, -BOUND, BOUND, out=vector)
        return vector


__all__ = ["ActionSpace", "ObservationLayout", "setup_factions", "VARIANTS", "BOUND"]
