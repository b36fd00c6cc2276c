"""From a scenario to the static facts of one game: its cards and its powers.

A GameSetup never changes during a game; everything that does lives in the
game state (game.py). Nothing here knows a particular Faction: the box files
say which Factions are always in play, which cards they have, which power
file runs each of them, and which promo cards replace which card.
"""

from __future__ import annotations

import os
import random
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Mapping

from happydayz.base.errors import Diagnostic, GameRuleError, Span, suggest
from happydayz.data.boxes import MAX_PLAYERS, PLAYER_COUNTS, default_scenario, promo_card, scenario_hand
from happydayz.data.hand import (ByRound, Hand, HandSizeError, Teams, hand_problems, round_sizes, score_problems,
                                 team_problems, dummy_problems)
from happydayz.data.options import option_problem
from happydayz.data.environment import Environment
from happydayz.data.model import CardSpec, FactionChoice, Library, Scenario
from happydayz.language.ast import VARIANTS
from happydayz.language.scenario_state import read_state_entry
from happydayz.language.compiler import AUCTION_STATE, DEALER_STATE, REDEAL_STATE, SHARED_STATE, TURNED_STATE, CompiledPower, StateSpec, VariantProgram


@dataclass(frozen=True)
class GameOptions:
    players: int = 4
    express: bool = False
    promos: bool = False  # promo cards replace the cards they stand in for
    random_powers: bool = False  # the optional rule: a random power card each round
    faction_change: bool = True  # the Community that lost most may swap a Faction

    def record(self) -> dict:
        """The options as written in JSON output and save files."""
        return asdict(self)


@dataclass(eq=False)  # compared and hashed by identity: caches of derived facts are keyed by the setup
class GameSetup:
    scenario: Scenario
    options: GameOptions
    cards: list[CardSpec]  # every card that may come into play; index = card id
    always: tuple[str, ...]  # always-in-play Factions, highest rank first
    candidates: tuple[str, ...]  # Factions of the boxes in use that may come into play
    faction_cards: dict[str, tuple[int, ...]]  # the normal deck of each Faction
    promo_swaps: dict[str, tuple[int, int]]  # Faction -> (card replaced, promo card)
    faction_power: dict[str, CompiledPower]
    added_power: dict[str, CompiledPower]
    card_power: dict[int, CompiledPower]
    starting_population: int
    deal: dict[int, int]
    rounds: int
    transfer_cards: int
    power_pool_added: tuple[str, ...]  # added powers the random-power rule may draw
    # the scenario's house rules the game reads (the deal, rounds, population and Transfer size are above);
    # the older Transfer house rules as written (the game reads them through `hand`, which says them again)
    transfer_direction: str = "both"  # both (left, right, left...), left, right, across (kernel.tables)
    transfer_rounds: frozenset[int] | None = None  # the rounds with a Transfer; None: every round
    encounter: bool = True  # an Encounter card is turned up at each trick
    sides: tuple[str, ...] = ("+", "-")  # the sides a leader may choose
    elimination: bool = True  # a Community at the floor (0 Survivors) at a count ends the game
    # the hand's score (data.hand), read at each count: the floor (None: none), the target ((at_least, at_most),
    # None: no target), and whether the most or the fewest win
    floor: int | None = 0
    target: tuple | None = None
    winner: str = "most"
    # the hand's teams (None: every Community for itself): the seats of each team, each seat's team (an index of
    # teams), its teammates clockwise from it (itself first), its partner (the next teammate clockwise; itself
    # alone), and whether a team keeps one score
    teams: tuple[tuple[int, ...], ...] | None = None
    team_index: tuple[int, ...] = ()
    team_of: tuple[tuple[int, ...], ...] = ()
    partner_of: tuple[int, ...] = ()
    pooled: bool = False
    # the hand the game plays (data.hand: every key given), and the cards dealt to each in rounds 1, 2, ...
    hand: Hand = field(default_factory=Hand)
    hand_sizes: tuple[int, ...] = ()
    programs: dict[tuple, object] = field(default_factory=dict)
    state_specs: dict[str, StateSpec] = field(default_factory=dict)  # state key -> the counter or mark declared
    round_state: frozenset[str] = frozenset()  # the keys of those kept for a round only
    option_state: dict[tuple, object] = field(default_factory=dict)  # (key, None) -> each option's value this game
    kernel_tables: Any = field(default=None, init=False, repr=False)  # the CardTables, built on first use (tables_of)
    # the added powers' game-wide `rule trumps` (over every card), in the scenario's order; () in most games
    game_trumps: tuple = ()
    # the added powers' game-wide `rule counts as F ranked V when C`: (C, F, V) each, in order; () in most games
    game_counts_as: tuple = ()
    with_game_rules: dict = field(default_factory=dict, repr=False)  # id(a Faction's rules) -> them with game_trumps
    # the added powers in play (a tuple of names) -> this setup with their game-wide rules (with_added)
    with_drawn: dict = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return self.options.players

    def with_added(self, added) -> "GameSetup":
        """This setup with the game-wide rules of the added powers `added` (the scenario's, then those the
        random-power rule drew, in that order): itself when they bring no rule beyond the scenario's."""
        key = tuple(added)
        got = self.with_drawn.get(key)
        if got is None:
            trumps, counts_as = game_rules_of([self.added_power[name] for name in key if name in self.added_power])
            if trumps == self.game_trumps and counts_as == self.game_counts_as:
                got = self
            else:
                got = replace(self, game_trumps=trumps, game_counts_as=counts_as, with_game_rules={})
                got.kernel_tables = self.kernel_tables  # the same cards and zones
            self.with_drawn[key] = got
        return got

    def rules(self, faction: str, variant: str) -> VariantProgram:
        own = self.faction_power[faction].variant(variant)
        if not self.game_trumps:
            return own
        merged = self.with_game_rules.get(id(own))
        if merged is None:
            merged = self.with_game_rules[id(own)] = (own, with_game_trumps(own, self.game_trumps))
        return merged[1]

    @property
    def secret_transfer(self) -> bool:
        """Whether the passed cards lie in Transfer zones that only their giver and receiver see."""
        return self.hand.seen_by == "giver_and_receiver" and self.hand.into == "transfer_zone"

    def hand_size(self, round_no: int) -> int:
        """Cards dealt to each Community in round `round_no` (a round past the game's last: the last's)."""
        sizes = self.hand_sizes
        return sizes[min(round_no, len(sizes)) - 1]

    def transfer_in(self, round_no: int) -> tuple[int, str]:
        """(cards each Community passes, to whom) in round `round_no`: (0, "none") for no Transfer."""
        return transfer_in(self.hand, round_no)

    def program(self, key: tuple):
        """The compiled hook behind a frame's key (power file, variant, hook)."""
        return self.programs[key]


def build_setup(scenario: Scenario, library: Library, options: GameOptions, env: Environment) -> GameSetup:
    """The static facts of a game of `scenario` with `options`; its powers are compiled through `env`."""
    load_power = env.load_power
    box = library.boxes.get(scenario.box)
    if box is None:
        raise setup_error(scenario, f"the scenario names the box '{scenario.box}', which is not loaded")
    house = scenario.house_rules
    hand = scenario_hand(box.hand, house, scenario.hand)
    if hand.transfer_cards is None:
        hand = replace(hand, transfer_cards=ByRound((box.transfer_cards,)))
    for _, problem in hand_problems(hand) + score_problems(hand) + team_problems(hand, options.players) + dummy_problems(hand):
        raise setup_error(scenario, problem)
    if hand.auction == "none":
        hand = replace(hand, auction=None)  # (the kernel reads None: no auction)
    n = options.players
    rounds = 1 if options.express else house.rounds or box.campaign_rounds
    deal = dict(box.deal) if hand.hand_size == "deal" else {
        players: 0 for players in range(PLAYER_COUNTS[0], MAX_PLAYERS + 1)}
    if n not in deal:
        known = ", ".join(str(p) for p in sorted(deal))
        raise setup_error(scenario, f"{n} players cannot play this box: it deals for {known} players")
    try:
        hand_sizes = tuple(round_sizes(hand, box.deal, n, rounds))
    except HandSizeError as exc:
        raise setup_error(scenario, str(exc)) from None
    if hand.hand_size != "deal":
        deal = dict.fromkeys(deal, hand_sizes[0])  # (what the older house rule hand_size said: one size for all)
    transfer_cards = box.transfer_cards if house.transfer_cards is None else house.transfer_cards
    if n % 2 and any(transfer_in(hand, r)[1] == "across" for r in range(1, rounds + 1)):
        raise setup_error(scenario, f"the Transfer passes across the table, but nobody sits across "
                                    f"it in a game of {n}: play with an even number of players")
    seats = [hand.first_dealer] + [rule[1] for rule in hand.first_leader.items if type(rule) is tuple
                                   and rule[0] == "seat"]
    for seat in seats:
        if seat >= n:
            raise setup_error(scenario, f"the hand names seat {seat}, but a game of {n} has seats 0 to {n - 1}")
    factions = library.all_factions()
    factions.update(box.factions)  # the scenario's box's own definitions win (as in the scenario's checks)
    factions.update(library.extra_factions)
    for choice in scenario.factions:
        if choice.faction not in factions:
            raise setup_error(scenario, f"the scenario names the Faction '{choice.faction}', which no loaded box has")
    always = tuple(box.always)
    in_use_boxes = {scenario.box} | {factions[c.faction].box for c in scenario.factions}
    candidates = tuple(
        name for name, f in factions.items()
        if (f.box in in_use_boxes or name in library.extra_factions) and name not in always
    )
    for choice in scenario.factions:
        if choice.faction not in candidates:
            candidates += (choice.faction,)

    cards: list[CardSpec] = []
    faction_cards: dict[str, tuple[int, ...]] = {}
    for name in always + candidates:
        fdef = box.factions[name] if name in always else factions[name]
        start = len(cards)
        cards.extend(fdef.cards)
        faction_cards[name] = tuple(range(start, len(cards)))

    known = set(always) | set(candidates)
    faction_power: dict[str, CompiledPower] = {}
    for name in always + candidates:
        fdef = box.factions[name] if name in always else factions[name]
        faction_power[name] = load_power(fdef.power_file, known | set(factions))
    for name, power in faction_power.items():
        if power.binding != "faction" or power.faction != name:
            raise setup_error(scenario, f"the power file {power.file.name} is {_binding_words(power)}, "
                                        f"so it cannot be the power of the Faction {name}")
    for choice in scenario.factions:
        power = faction_power[choice.faction]
        if choice.variant not in VARIANTS:
            raise setup_error(scenario, f"unknown variant '{choice.variant}' for {choice.faction}")
        if power.fixed and choice.variant != "basic":
            raise setup_error(scenario, f"the power of {choice.faction} has no variants; it plays only as basic")

    promo_swaps: dict[str, tuple[int, int]] = {}
    card_power: dict[int, CompiledPower] = {}
    seen_promo: set[str] = set()
    for box_id in sorted(library.boxes, key=lambda b: (b != scenario.box, b)):
        for promo in library.boxes[box_id].promos:
            if promo.faction not in faction_cards or promo.faction in seen_promo:
                continue
            seen_promo.add(promo.faction)
            replaced = next((c for c in faction_cards[promo.faction] if cards[c].value == promo.replaces_value), None)
            if replaced is None:
                continue
            card_id = len(cards)
            cards.append(promo_card(promo))
            promo_swaps[promo.faction] = (replaced, card_id)
            card_power[card_id] = _check_binding(scenario, load_power(promo.power_file, known | set(factions)),
                                                 "card", f"the power of the card {promo.name}")

    added_defs = library.all_added_powers()
    for name in scenario.added:
        if name not in added_defs:
            raise setup_error(scenario, f"the scenario adds the power '{name}', which no loaded box has")
    pool_added = tuple(name for name, a in added_defs.items() if a.box in in_use_boxes or name in library.extra_added)
    added_power = {name: _check_binding(scenario, load_power(added_defs[name].power_file, known | set(factions)),
                                        "added", f"the added power {name}")
                   for name in sorted(set(scenario.added) | set(pool_added))}

    if hand.hand_size != "deal" or options.players > PLAYER_COUNTS[-1]:
        # a deal the box's own table did not size for the deck: it must fit the first round's deck
        deck = sum(len(faction_cards[name]) for name in always + tuple(c.faction for c in scenario.factions))
        most = max(hand_sizes)
        if most * options.players > deck:
            raise setup_error(scenario, f"{options.players} Communities dealt {most} cards each "
                                        f"need {most * options.players} cards, but the deck of "
                                        f"this game has {deck}")
    labels = {card.label for card in cards}
    for rule in hand.first_leader.items:
        if type(rule) is tuple and rule[0] == "holder" and rule[1] not in labels:
            raise setup_error(scenario, f"the first leader is the holder of {rule[1]!r}, which is not a card of "
                                        "this game")

    setup = GameSetup(
        scenario=scenario, options=options, cards=cards, always=always, candidates=candidates,
        faction_cards=faction_cards, promo_swaps=promo_swaps, faction_power=faction_power,
        added_power=added_power, card_power=card_power,
        starting_population=house.starting_population or box.starting_population,
        deal=deal, rounds=rounds,
        transfer_cards=transfer_cards, power_pool_added=pool_added,
        transfer_direction=house.transfer_direction,
        transfer_rounds=None if house.transfer_rounds is None else frozenset(house.transfer_rounds),
        encounter=house.encounter, sides=house.sides, elimination=house.elimination,
        hand=hand, hand_sizes=hand_sizes,
        floor=None if hand.floor == "none" else hand.floor, target=None if hand.target == "none" else hand.target,
        winner=hand.winner, **_team_facts(hand, n),
    )
    _index_programs(setup)
    return setup


def _team_facts(hand: Hand, n: int) -> dict:
    """The GameSetup's team fields for a hand's teams (every Community a team of one without them)."""
    if isinstance(hand.teams, Teams):
        teams = tuple(tuple(sorted(team)) for team in hand.teams.partners)
    else:
        teams = tuple((seat,) for seat in range(n))
    index = tuple(next(i for i, team in enumerate(teams) if seat in team) for seat in range(n))
    of = tuple(tuple(sorted(teams[index[seat]], key=lambda s: (s - seat) % n)) for seat in range(n))
    return {"teams": teams if isinstance(hand.teams, Teams) else None, "team_index": index, "team_of": of,
            "partner_of": tuple(mates[1] if len(mates) > 1 else seat for seat, mates in enumerate(of)),
            "pooled": isinstance(hand.teams, Teams) and hand.teams.score == "pooled"}


def transfer_in(hand: Hand, round_no: int) -> tuple[int, str]:
    """(cards each Community passes, to whom) in round `round_no` of a complete hand: (0, "none") for none."""
    cards, to = hand.transfer_cards.at(round_no), hand.transfer_to.at(round_no)
    return (0, "none") if cards == 0 or to == "none" else (cards, to)


def _binding_words(power: CompiledPower) -> str:
    if power.binding == "faction":
        return f"for the Faction {power.faction}"
    return "for a card" if power.binding == "card" else "an added power"


def _check_binding(scenario: Scenario, power: CompiledPower, wanted: str, use: str) -> CompiledPower:
    if power.binding != wanted:
        raise setup_error(scenario, f"the power file {power.file.name} is {_binding_words(power)}, "
                                    f"so it cannot be used as {use}")
    return power


def game_rules_of(added: list) -> tuple[tuple, tuple]:
    """The game-wide rules of these added powers, in their order: (the `rule trumps` tests, the `rule counts as`)."""
    trumps = tuple(p.variant("fixed").trumps for p in added if p.fixed and p.variant("fixed").trumps)
    return trumps, tuple(rule for p in added if p.fixed for rule in p.variant("fixed").counts_as)


def with_game_trumps(own: VariantProgram, game: tuple) -> VariantProgram:
    """A Faction's rules with the game-wide `rule trumps` of added powers: its own rule is tested first, then
    each game-wide one in turn; the card trumps if one holds (docs/language.md, "Game-wide rules")."""
    tests = ((own.trumps,) if own.trumps is not None else ()) + game

    def trumps(ctx) -> bool:
        return any(test(ctx) for test in tests)

    return replace(own, trumps=trumps)


def _index_programs(setup: GameSetup) -> None:
    powers = list(setup.faction_power.values()) + list(setup.added_power.values()) + list(setup.card_power.values())
    owners: dict[str, object] = {}  # state key -> the power file that declares it
    used: list[tuple[CompiledPower, StateSpec]] = []  # the shared states the powers' `uses` lines name
    for entry in setup.scenario.state:  # the scenario's own `state:` (language.scenario_state): shared state
        decl, problem = read_state_entry(entry)
        if decl is None:
            raise setup_error(setup.scenario, f"state: {problem}")
        key = SHARED_STATE + decl.name
        owners[key] = "scenario"  # (not a power file)
        setup.state_specs[key] = StateSpec(key, decl.name, decl.kind, decl.per_community, decl.lifetime,
                                           decl.visibility, None, decl.holds, "declares")
    for power in powers:
        for kind, variant in power.variants.items():
            for hook, program in variant.hooks.items():
                setup.programs[power.hook_key(kind, hook)] = program
        for spec in power.state.values():
            if spec.shared == "uses":
                used.append((power, spec))
                continue
            if owners.setdefault(spec.key, power.file) != power.file:
                if owners[spec.key] == "scenario":
                    raise setup_error(setup.scenario, f"the scenario declares the shared {spec.kind} '{spec.name}' "
                                      f"(state:) and the power file {power.file.name} declares it too: one declares "
                                      "it, the others say 'uses'")
                if spec.shared:
                    raise setup_error(setup.scenario, f"the power files {owners[spec.key].name} and {power.file.name} "
                                      f"both declare the shared {spec.kind} '{spec.name}': one declares it, the "
                                      "others say 'uses'")
                raise setup_error(setup.scenario, f"the power files {owners[spec.key].name} and {power.file.name} are "
                                  f"both named '{power.name}' and both keep '{spec.name}': give the powers different "
                                  "names, so that each keeps its own")
            setup.state_specs[spec.key] = spec
    for power, spec in used:  # each `uses` line names a shared state of the game, as it is declared
        problem = shared_use_problem(spec, setup.state_specs.get(spec.key))
        if problem:
            raise setup_error(setup.scenario, f"{power.file.name}: {problem}")
    kept = [*AUCTION_STATE.items(), *AUCTION_PROGRESS.items()] if setup.hand.auction is not None else []
    if setup.hand.dealer != "none":
        kept.append(("dealer", DEALER_STATE))
    if setup.hand.turn_up:
        kept.append(("turned", TURNED_STATE))
    game_kept = list(REDEAL_STATE.items()) if setup.hand.auction is not None and \
        setup.hand.auction.all_pass == "redeal" else []
    for name, key in game_kept:  # kept from round to round
        setup.state_specs[key] = StateSpec(key, name, "counter", False, "game", "public")
    if kept:  # the hand's record (the dealer, the auction): public state of the round (kernel.game)
        for name, key in kept:
            if key in setup.state_specs:
                raise setup_error(setup.scenario, f"a power named '{key.split(':')[0]}' keeps '{name}', which is the "
                                                  "auction's: give the power another name")
            setup.state_specs[key] = StateSpec(key, name, "counter", name == "bid", "round", "public")
    setup.round_state = frozenset(key for key, spec in setup.state_specs.items() if spec.lifetime == "round")
    fixed = [setup.added_power[name] for name in setup.scenario.added if name in setup.added_power]
    setup.game_trumps, setup.game_counts_as = game_rules_of(fixed)
    if not setup.hand.turn_up:  # (`happydayz check` says it at the scenario's place: D046)
        playing = [setup.faction_power.get(c.faction) for c in setup.scenario.factions]
        playing += [setup.added_power.get(name) for name in setup.scenario.added]
        for power in playing:
            if power is not None and power.turned_up_at is not None:
                at = power.turned_up_at
                raise setup_error(setup.scenario, f"the power {power.name} reads turned_up ({power.file.name}:"
                                                  f"{at.line}:{at.column}), the card the hand turns up, but this "
                                                  "game's hand turns up none: say turn_up: true in its hand")
    _set_options(setup)


def shared_use_problem(used: StateSpec, declared: StateSpec | None) -> str | None:
    """What is wrong with a `uses` line against the shared state of its name the game declares; None if nothing."""
    if declared is None or not declared.shared:
        return (f"'uses {used.kind} {used.name}' names a shared {used.kind} that no power of the game declares "
                f"(an added power's 'shared {used.kind} {used.name}')")
    if used.shape != declared.shape:
        return (f"'uses {_shape_words(used)}' does not match the declaration 'shared {_shape_words(declared)}'")
    return None


def _shape_words(spec: StateSpec) -> str:
    return (f"{spec.kind} {spec.name}" + (f": {spec.holds}" if spec.holds else "")
            + (" per community" if spec.per_community else ""))


#: What the kernel keeps of an auction in progress, beside its record (compiler.AUCTION_STATE): who bids next,
#: and the passes in a row.
AUCTION_PROGRESS = {"turn": "Auction:turn", "passes": "Auction:passes", "start": "Auction:start"}


def _set_options(setup: GameSetup) -> None:
    """Each option the powers declare, at the scenario's value or its default (a game starts with them set)."""
    declared = {spec.name: spec.option for spec in setup.state_specs.values() if spec.option is not None}
    given = dict(setup.scenario.options)
    for name, value in given.items():
        problem = option_problem(name, value, declared)
        if problem:
            raise setup_error(setup.scenario, f"options.{name}: {problem}")
    for spec in setup.state_specs.values():
        if spec.option is not None:
            value = given.get(spec.name, spec.option)
            if type(value) is not type(spec.option):  # two powers declare one name as a Number and a Yes/No
                problem = option_problem(spec.name, value, {spec.name: spec.option})
                raise setup_error(setup.scenario, f"options.{spec.name}: {problem}")
            setup.option_state[(spec.key, None)] = value


def scenario_span(scenario: Scenario) -> Span:
    return Span(str(scenario.source or scenario.id), 1, 1)


def setup_error(scenario: Scenario, message: str) -> GameRuleError:
    return GameRuleError(Diagnostic(scenario_span(scenario), message, "G001"))


def with_variants(scenario: Scenario, variants: Mapping[str, str] | None) -> Scenario:
    """The scenario with some of its Factions' power variants replaced ({Faction: variant}).

    Raises GameRuleError for a Faction the scenario does not have or an unknown variant.
    """
    if not variants:
        return scenario
    names = [choice.faction for choice in scenario.factions]
    for faction, variant in variants.items():
        if faction not in names:
            guess = suggest(faction, names)
            hint = f" (did you mean {guess!r}?)" if guess else ""
            raise GameRuleError(f"the scenario {scenario.id} has no Faction {faction!r}{hint}; "
                                f"its Factions: {', '.join(names)}")
        if variant not in VARIANTS:
            raise GameRuleError(f"unknown variant {variant!r} for {faction}: choose one of {', '.join(VARIANTS)}")
    factions = tuple(FactionChoice(c.faction, variants.get(c.faction, c.variant)) for c in scenario.factions)
    return replace(scenario, factions=factions)


#: Both rulebooks' random set-up draws the Power cards of this many different Factions.
RANDOM_SETUP_FACTIONS = 3


def draw_powers(scenario: Scenario, library: Library, seed: int) -> Scenario:
    """The scenario with its Factions drawn at random, as both rulebooks allow.

    The Power cards of the scenario's box are shuffled and drawn one by one: a
    Faction's card brings that Faction (basic power), an added power's card is
    added and another card drawn, until RANDOM_SETUP_FACTIONS Factions are in
    play. The same seed always draws the same set-up.
    """
    box = library.boxes.get(scenario.box)
    if box is None:
        raise setup_error(scenario, f"the scenario names the box '{scenario.box}', which is not loaded")
    pile = [("faction", name) for name in box.factions if name not in box.always]
    pile += [("added", name) for name in box.added_powers]
    random.Random(f"{seed}/random-setup").shuffle(pile)
    factions: list[FactionChoice] = []
    added: list[str] = []
    for kind, name in pile:
        if len(factions) == RANDOM_SETUP_FACTIONS:
            break
        if kind == "faction":
            factions.append(FactionChoice(name))
        else:
            added.append(name)
    if len(factions) < RANDOM_SETUP_FACTIONS:
        raise setup_error(scenario, f"the box '{box.id}' has only {len(factions)} Factions to draw, "
                                    f"not {RANDOM_SETUP_FACTIONS}")
    return replace(scenario, factions=tuple(factions), added=tuple(added), random_setup=True)


def prepare(env: Environment, scenario_ref: str | os.PathLike | None, players: int | None = None,
            express: bool = False, promos: bool = False, random_powers: bool = False, faction_change: bool = True,
            variants: Mapping[str, str] | None = None, random_setup: bool = False,
            setup_seed: int = 0) -> tuple[GameSetup, Scenario]:
    """The setup of a game for a scenario id or scenario file path (None: the default scenario).

    `players` None means the scenario's own player count, or 4. `promos`: the
    promo cards replace the cards they stand in for. `variants` overrides the
    power variant of some of the scenario's Factions ({Faction: variant}).
    `random_setup` (or the scenario's own key) draws the Factions at random
    with `setup_seed` (draw_powers). Raises HappyError (an unknown scenario, a
    bad file, a player count the box cannot deal for, a variant override that
    does not apply).
    """
    if scenario_ref is None:
        scenario_ref = default_scenario(env.library)
    scenario, extended = env.resolve_scenario(scenario_ref)
    if random_setup or scenario.random_setup:
        scenario = draw_powers(scenario, extended, setup_seed)
    scenario = with_variants(scenario, variants)
    if players is None:
        players = scenario.players or 4
    # A scenario file may ask for the promo cards itself.
    options = GameOptions(players, express, promos or scenario.promos, random_powers, faction_change)
    return build_setup(scenario, extended, options, env), scenario


__all__ = ["GameOptions", "GameSetup", "build_setup", "prepare", "with_variants", "setup_error"]
