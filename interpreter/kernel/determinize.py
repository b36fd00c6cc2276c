"""Determinization: one full game state consistent with what a Community sees.

A bot that searches (ismcts.py) cannot look at the real Game: it only gets the
observation of its own Community (`Game.observe(seat)`). To try moves it
samples *determinizations*: complete games that agree with everything the
observer sees — its own hand, every Transfer zone, the trick on the table, the
Encounter card, the cards known in the Expedition zones, every zone's size,
the populations — and deal the cards it cannot see (the other hands, the
Expedition cards not known to be there, the Reserve, the discard pile) at
random among the hidden places, each place keeping its size.

`sample_state(setup, observation, rng)` builds such a Game, puts it at the
same decision as the observation's (a Transfer pass, a lead or a follow) and
returns it. Nothing but the static setup and the observation is read.

What everyone saw earlier in the round is honoured too: the cards known to
lie in each Expedition zone stay there, and a Community known to lack a
Faction (the observation's `voids`; or in the trick on the table, it played a
card neither of the Faction led nor always playable) is dealt none. The
caller may pass more voids it has inferred (`voids={seat: {faction, ...}}`).
A void that cannot be honoured (too few cards left to fill the hand) is
dropped rather than failing.
"""

from __future__ import annotations

import random
from itertools import filterfalse
from typing import Iterable, Mapping

from happydayz.base.draws import shuffle
from happydayz.kernel.game import Decision, Game
from happydayz.kernel.layout import Layout, Trick
from happydayz.kernel.setup import GameSetup
from happydayz.kernel.tables import round_deck, tables_of
from happydayz.kernel.observation import card_ids, has_known

#: Decision kinds at which a determinization can be built from an observation.
#: A choice inside a power (choose/ask) needs the state of the running power,
#: which the observation does not show.
SUPPORTED_KINDS = ("transfer", "lead", "follow")

class DeterminizeError(ValueError):
    """The observation cannot be turned into a game state (an unsupported decision, or an inconsistency)."""


# --------------------------------------------------------------- what is seen
def in_play_cards(setup: GameSetup, observation: Mapping) -> list[int]:
    """The card ids of this round's deck, from the Factions in play the observation lists.

    The kernel's own rule (`game.round_deck`: each Faction's cards, with the
    promo swaps when they are on).
    """
    factions = tuple(observation.get("always", setup.always)) + tuple(f["faction"] for f in observation["factions"])
    return sorted(round_deck(setup, factions))


def _faction_rules(setup: GameSetup, observation: Mapping, faction: str):
    variant = "basic"
    for f in observation["factions"]:
        if f["faction"] == faction:
            variant = f["variant"]
    return setup.rules(faction, variant)


def _rules(setup: GameSetup, observation: Mapping, card: int):
    return _faction_rules(setup, observation, setup.cards[card].faction)


def known_cards(observation: Mapping, expeditions: list[list[int]] | None = None) -> set[int]:
    """Every card id the observer sees (its hand, Transfer zones, face-up cards, Encounter, table, and a dummy
    hand laid face up).

    `expeditions`: expeditions_seen(observation), if the caller has it already.
    """
    seen = set(card_ids(observation, "hand"))
    for zone in card_ids(observation, "transfer"):
        seen.update(zone)
    for zone in expeditions if expeditions is not None else expeditions_seen(observation):
        seen.update(zone)
    encounter = card_ids(observation, "encounter")
    if encounter is not None:
        seen.add(encounter)
    turned = card_ids(observation, "turned_up")  # (a hand with turn_up: the card face up on the Reserve)
    if turned is not None:
        seen.add(turned)
    trick = observation.get("trick")
    if trick:
        seen.update(p["id"] for p in trick["plays"])
    dummy = observation.get("dummy")  # a dummy hand laid face up (hand.dummy): every card of it is seen
    if dummy is not None:
        seen.update(card_ids(observation, "hands_known")[dummy])
    return seen


def expeditions_seen(observation: Mapping) -> list[list[int]]:
    """Each Community's cards known to lie in its Expedition zone: those everyone saw go there, then its
    face-up ones (the known ones first, in their order: a sampled game then knows them in the same order)."""
    face_up = card_ids(observation, "expedition_face_up")
    known = card_ids(observation, "expedition_known") if has_known(observation) else None
    if not known:
        return [list(dict.fromkeys(cards)) for cards in face_up]
    return [list(dict.fromkeys(known[seat] + face_up[seat])) for seat in range(len(face_up))]


def expedition_seen(observation: Mapping, seat: int) -> list[int]:
    """The cards known to lie in one Community's Expedition zone (see expeditions_seen)."""
    return expeditions_seen(observation)[seat]


def hidden_cards(setup: GameSetup, observation: Mapping, expeditions: list[list[int]] | None = None) -> list[int]:
    """The cards of the round the observer cannot see, in id order (`expeditions`: as known_cards)."""
    seen = known_cards(observation, expeditions)
    for cards in hands_known(setup, observation):
        seen.update(cards)
    return [c for c in in_play_cards(setup, observation) if c not in seen]


def hands_known(setup: GameSetup, observation: Mapping) -> list[list[int]]:
    """The cards the observer knows to lie in each hand, passed into it (a hand whose Transfer goes into
    the hand: observation's `hands_known`), the turned-up card taken into one (turn_up), or a dummy hand laid
    face up (hand.dummy); none otherwise."""
    if setup.hand.into != "hand" and not setup.hand.turn_up and getattr(setup.hand, "dummy", "none") == "none":
        return []
    return card_ids(observation, "hands_known")


def trick_voids(setup: GameSetup, observation: Mapping) -> dict[int, set[str]]:
    """Voids shown by the trick on the table: seat -> Factions it cannot hold in its hand."""
    trick = observation.get("trick")
    voids: dict[int, set[str]] = {}
    if not trick or not trick.get("led"):
        return voids
    if setup.game_counts_as:  # a card may count as another Faction: the kernel's own voids (the view's) say it
        return voids
    led = trick["led"]
    plays = trick["plays"]
    cards = setup.cards
    # Where was the Faction led set? If the first card that could set it is of
    # another Faction, the Faction was named before the lead and every play counts.
    start = 0
    for i, p in enumerate(plays):
        rules = _rules(setup, observation, p["id"])
        if rules.never_leads or (rules.never_leads_when is not None and cards[p["id"]].faction != led):
            continue  # (a card whose `never leads` has a condition: it set the Faction led if it is of it)
        start = i if cards[p["id"]].faction == led else 0
        break
    for p in plays[start:]:
        card = p["id"]
        rules = _rules(setup, observation, card)
        if cards[card].faction != led and not rules.always_playable and rules.always_playable_when is None:
            voids.setdefault(p["seat"], set()).add(led)
    return voids


# ------------------------------------------------------------------ sampling
def _constrained(places: list[tuple[str, int, frozenset]]) -> list[tuple[frozenset, list[tuple[str, int]]]]:
    """The constrained places in the order they are dealt (most forbidden Factions first), in runs that forbid
    the same Factions: [(forbidden, [(name, size), ...])]."""
    runs: list[tuple[frozenset, list[tuple[str, int]]]] = []
    for name, size, forbidden in sorted((p for p in places if p[2]), key=lambda p: -len(p[2])):
        if runs and runs[-1][0] == forbidden:
            runs[-1][1].append((name, size))
        else:
            runs.append((forbidden, [(name, size)]))
    return runs


def _deal(runs, places, pool: list[int]) -> dict[str, list[int]]:
    """Deal the shuffled pool into places (name, size, forbidden Factions): the constrained ones first (`runs`:
    (the pool's cards they allow, places), see Sampler), then the others in order; what is left goes to the
    discard pile."""
    out: dict[str, list[int]] = {}
    remaining = pool
    for allows, run in runs:
        # each place of a run takes the first `size` allowed cards left; the places of a run
        # forbid the same Factions, so what the next one may take is what this one left
        allowed = list(filter(allows.__contains__, remaining))
        gone: set[int] = set()
        for name, size in run:
            if len(allowed) < size:  # an inconsistent void: drop it
                continue
            taken = allowed[:size]
            allowed = allowed[size:]
            gone.update(taken)
            out[name] = taken
        if gone:
            remaining = list(filterfalse(gone.__contains__, remaining))
    for name, size, _ in places:
        if name in out:
            continue
        out[name], remaining = remaining[:size], remaining[size:]
    if remaining:
        out["discard"] = out.get("discard", []) + remaining
    return out


class Sampler:
    """Determinizations of one observation: what the observation says, read once; `sample(rng)` deals one.

    A search samples hundreds of states from one observation: everything that does
    not depend on the draw (the unseen cards, the places and their sizes, the
    known zones, the trick, the layout's public fields) is worked out here once.
    `Sampler(...).sample(rng)` is `sample_state(...)` exactly: the same Game from
    the same random draws. Arguments as for `sample_state`; the errors of an
    observation that cannot be sampled (DeterminizeError) are raised here.
    """

    def __init__(self, setup: GameSetup, observation: Mapping, decision: Decision | None = None,
                 voids: Mapping[int, Iterable[str]] | None = None, use_voids: bool = True, quiet: bool = False):
        me = observation["seat"]
        n = observation["players"]
        trick_obs = observation.get("trick")
        kind = decision.kind if decision is not None else ("transfer" if trick_obs is None else
                                                           ("lead" if not trick_obs["plays"] else "follow"))
        if kind not in SUPPORTED_KINDS:
            raise DeterminizeError(f"cannot determinize at a '{kind}' decision (only {', '.join(SUPPORTED_KINDS)})")
        cards = setup.cards
        self.setup, self.decision, self.kind, self.me, self.quiet = setup, decision, kind, me, quiet
        self.observation = observation

        # --- the places the hidden cards go to, with their sizes
        forbidden: dict[int, set[str]] = {}
        if use_voids:
            for seat, fs in trick_voids(setup, observation).items():
                forbidden.setdefault(seat, set()).update(fs)
            for seat, fs in enumerate(observation.get("voids", ())):
                forbidden.setdefault(seat, set()).update(fs)
            for seat, fs in (voids or {}).items():
                forbidden.setdefault(int(seat), set()).update(fs)
        places: list[tuple[str, int, frozenset]] = []
        passed = hands_known(setup, observation) or [[] for _ in range(n)]  # the cards known in each hand
        for seat in range(n):
            if seat != me:
                places.append((f"hand:{seat}", observation["hand_sizes"][seat] - len(passed[seat]),
                               frozenset(forbidden.get(seat, ()))))
        # A card that lies face up in an Expedition zone would be seen there: the
        # hidden cards of those Factions are elsewhere (a hand, the Reserve, the discard).
        face_up = frozenset(f for f in list(observation.get("always", setup.always)) +
                            [x["faction"] for x in observation["factions"]]
                            if _faction_rules(setup, observation, f).face_up)
        seen = expeditions_seen(observation)
        for seat in range(n):
            face_down = observation["expedition_sizes"][seat] - len(seen[seat])
            places.append((f"expedition:{seat}", face_down, face_up))
        turned = card_ids(observation, "turned_up") if setup.hand.turn_up else None  # face up on the Reserve's top
        places.append(("reserve", observation["reserve_size"] - (turned is not None), frozenset()))
        transfer_seen = card_ids(observation, "transfer")
        if setup.secret_transfer:  # the cards passed between two others: hidden in the receiver's Transfer zone
            for seat, size in enumerate(observation["transfer_sizes"]):
                if size > len(transfer_seen[seat]):
                    places.append((f"transfer:{seat}", size - len(transfer_seen[seat]),
                                   frozenset(forbidden.get(seat, ()))))
        self.pool = hidden_cards(setup, observation, seen)
        needed = sum(size for _, size, _ in places)
        if needed > len(self.pool):
            raise DeterminizeError(f"the observation hides {needed} cards but only {len(self.pool)} are unseen")
        self.places = places
        # the constrained places' runs, each with the unseen cards it may be dealt (those not of a Faction it
        # forbids); a place of no card is left to the others (_deal gives it an empty list all the same)
        self.runs = [(frozenset(c for c in self.pool if cards[c].faction not in forbidden), run)
                     for forbidden, run in _constrained([place for place in places if place[1]])]

        # --- the zones the observer sees
        zones: dict[str, list[int]] = {f"hand:{me}": [c["id"] for c in observation["hand"]]}
        for seat in range(n):
            zones[f"transfer:{seat}"] = list(transfer_seen[seat])
            if seat != me and passed[seat]:
                zones[f"hand:{seat}"] = list(passed[seat])
            zones[f"expedition:{seat}"] = seen[seat]
        if observation.get("encounter"):
            zones["encounter"] = [observation["encounter"]["id"]]
        if turned is not None:
            zones["reserve"] = [turned]
        if trick_obs:
            zones["table"] = [p["id"] for p in trick_obs["plays"]]
        self.zones = zones
        # the places whose zone already holds cards the observer sees there (the known Expedition cards)
        self.seen_places = [name for name, _, _ in places if zones.get(name)]

        self.trick = None
        if kind != "transfer":
            plays = [(p["seat"], p["id"], bool(p.get("trump", False))) for p in trick_obs["plays"]]
            led = trick_obs["led"]
            self.trick = (trick_obs["leader"], observation["encounter"]["id"] if observation.get("encounter") else None,
                          led, trick_obs["side"], plays,
                          led is not None and not any(cards[card].faction == led for _, card, _ in plays),
                          tuple(trick_obs["untaken"]) if trick_obs.get("untaken") else None)
        # the layout's public fields (Game.from_layout copies what it keeps)
        self.public = dict(
            population=list(observation["populations"]),
            factions=[(f["faction"], f["variant"]) for f in observation["factions"]],
            added=list(observation["added"]),
            round_no=observation["round"],
            round_gain=list(observation["round_gains"]),
            active=observation["active"],
            known=[[c["id"] for c in zone] for zone in observation.get("expedition_known", [[]] * n)],
            voids=[set(v) for v in observation.get("voids", [()] * n)],
            history=[{"round": h["round"], "deltas": list(h["deltas"]), "populations": list(h["populations"]),
                      "expeditions": [], "factions": []} for h in observation.get("history", [])],
            phase=kind,
            tricks_won=list(observation.get("tricks_won") or [0] * n),
            dealer=observation.get("dealer"),
            # what the observer sees of the powers' counters and marks; another's secret ones read as 0 or false
            state={(f"{s['power']}:{s['name']}", s["seat"]): s["value"] for s in observation.get("state", ())},
        )

    def sample(self, rng: random.Random) -> Game:
        """One full Game consistent with the observation, at its decision, the hidden cards dealt by `rng`."""
        pool = self.pool[:]
        shuffle(rng, pool)
        dealt = _deal(self.runs, self.places, pool)
        zones = dict(self.zones)
        zones.update(dealt)
        for name in self.seen_places:  # the cards seen there first, then the dealt ones
            zones[name] = self.zones[name] + dealt[name]
        trick = None
        if self.trick is not None:
            leader, encounter, led, side, plays, named, untaken = self.trick
            trick = Trick(leader, encounter, led=led, side=side, plays=list(plays), named=named, untaken=untaken)
        game_rng = random.Random(rng.getrandbits(64))  # drawn before the Transfer picks: the order of draws is fixed
        picks = _transfer_picks(self.setup, zones, self.observation, self.decision, rng, self.me) \
            if self.kind == "transfer" else []
        layout = Layout(zones=zones, trick=trick, transfer_picks=picks, **self.public)
        game = Game.from_layout(self.setup, layout, game_rng, record=not self.quiet)
        decision = self.decision
        if decision is not None:
            got = game.decision
            # (the options are the setup's own objects: the same tuple when the same cards are offered)
            if got is None or got.actor != decision.actor or got.kind != decision.kind or \
                    (got.options != decision.options and
                     [o.value for o in got.options] != [o.value for o in decision.options]):
                raise DeterminizeError("the sampled state does not ask the observed decision "
                                       f"(asked {got.kind if got else None} of {got.actor if got else None})")
        return game


def sample_state(setup: GameSetup, observation: Mapping, rng: random.Random, decision: Decision | None = None,
                 voids: Mapping[int, Iterable[str]] | None = None, use_voids: bool = True,
                 quiet: bool = False) -> Game:
    """A full Game consistent with one Community's observation, at the same decision.

    `decision` (the decision the observer is answering) is needed at a Transfer
    pass (to know which card it already picked) and lets the result be checked;
    without it the phase is read from the observation (a trick with no play:
    a lead; a trick in progress: a follow). `quiet` turns the new game's event log off
    (for fast playouts). Raises DeterminizeError for a decision kind outside
    SUPPORTED_KINDS. Many samples of one observation: `Sampler`.
    """
    return Sampler(setup, observation, decision, voids, use_voids, quiet).sample(rng)


def _transfer_picks(setup: GameSetup, zones: dict[str, list[int]], observation: Mapping,
                    decision: Decision | None, rng: random.Random, me: int) -> list[tuple[int, int, int]]:
    """Picks already made this Transfer: the observer's own (known), the earlier seats' (sampled)."""
    passes = tables_of(setup).transfer_plan(*setup.transfer_in(observation["round"]))[0]
    per_seat = len(passes[me])
    hand = [c["id"] for c in observation["hand"]]
    if decision is not None:
        offered = {o.value for o in decision.options}
        mine = [c for c in hand if c not in offered]
    else:
        mine = []
    picks: list[tuple[int, int, int]] = []
    for seat in range(me):
        held = list(zones.get(f"hand:{seat}", ()))
        targets = [receiver for receiver, _ in passes[seat]]
        for k in range(len(targets)):
            if held:
                card = held.pop(rng.randrange(len(held)))
                picks.append((seat, targets[k], card))
            else:
                picks.append((seat, targets[k], -1))
    targets = [receiver for receiver, _ in passes[me]]
    for k, card in enumerate(mine[:per_seat]):
        picks.append((me, targets[k], card))
    return picks


__all__ = ["sample_state", "Sampler", "in_play_cards", "known_cards", "expeditions_seen", "expedition_seen", "hidden_cards", "trick_voids",
           "DeterminizeError", "SUPPORTED_KINDS"]
