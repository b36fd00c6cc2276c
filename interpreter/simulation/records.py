"""What a simulation records of each game beyond its result: who led first, and what each power did.

These per-game fields are what the balance report's first-player and per-power
sections read (docs/balance.md).
"""

from __future__ import annotations

from happydayz.kernel.game import Game
from happydayz.kernel.tables import tables_of


def first_leader(game) -> int | None:
    """The seat that led the first trick of the game (None if no trick was played)."""
    for event in game.log:
        if event["event"] == "encounter":
            return event["leader"]
    return None


# Effect events: what a power did, each naming the power, its variant, its hook and who it ran for ("by").
_EFFECTS = frozenset({"move", "score", "next_leader", "next_lead"})


def power_stats(game: Game) -> dict[str, dict[str, list[int]]]:
    """What each power did in a game, per seat, read from its event log.

    Returns {"<power name>/<variant>": {"triggers": [...], "score": [...], "moved": [...]}},
    each list per seat, where the variant is basic, positive, negative, or
    fixed (a power without variants), and

    - triggers: how often the power ran for that seat with an effect. An
      on-win power counts every trick it ran for (the log's "power" events);
      an end-of-round power counts the rounds in which it changed something
      for that seat.
    - score: Survivors that seat gained (+) or lost (-) through the power's own
      gain/lose effects.
    - moved: the Survivors on the cards the power moved into (+) or out of (-)
      that seat's Expedition: they count for it at the count. Cards moved
      between two places that are not Expeditions count for nobody.

    Every power with a hook that is in play when the game starts is listed,
    with zeros if it never ran, so that "in play but never triggered" can be
    told from "not in play". The game must have kept its event log.
    """
    setup = game.setup
    n = game.n
    stats: dict[str, dict[str, list[int]]] = {}

    def entry(name: str, variant: str) -> dict[str, list[int]]:
        key = f"{name}/{variant}"
        if key not in stats:
            stats[key] = {"triggers": [0] * n, "score": [0] * n, "moved": [0] * n}
        return stats[key]

    def has_hook(program) -> bool:
        return bool(program.hooks)

    begin = next((e for e in game.log if e["event"] == "game_start"), None)
    factions = [tuple(f) for f in (begin["factions"] if begin else [])]
    variant_of = dict(factions)
    for faction in (*setup.always, *(f for f, _ in factions)):
        power = setup.faction_power.get(faction)
        if power is not None:
            kind = "fixed" if power.fixed else variant_of.get(faction, "basic")
            if has_hook(power.variant(kind)):
                entry(power.name, kind)
    for added in (begin["added"] if begin else []):
        power = setup.added_power.get(added)
        if power is not None and has_hook(power.variant("basic")):
            entry(power.name, "fixed" if power.fixed else "basic")
    if setup.options.promos:
        for faction, (_, card) in setup.promo_swaps.items():
            power = setup.card_power.get(card)
            if faction in variant_of and power is not None and has_hook(power.variant("basic")):
                entry(power.name, "fixed" if power.fixed else "basic")

    survivors = {card.label: card.survivors or 0 for card in setup.cards}
    expedition = {key: seat for seat, key in enumerate(tables_of(setup).expedition_keys)}
    triggered: set[tuple] = set()  # the end-of-round runs (round, power, variant, seat, card) already counted
    for event in game.log:
        kind = event["event"]
        if kind == "power":
            entry(event["power"], event["variant"])["triggers"][event["seat"]] += 1
            continue
        if kind not in _EFFECTS:
            continue
        record = entry(event["power"], event["variant"])
        if kind == "score":
            record["score"][event["seat"]] += event["amount"]
            if event["amount"] == 0:
                continue  # not an effect: it does not make the run count as triggered
        elif kind == "move":
            moved, dest = record["moved"], expedition.get(event["to"])
            for label, source in zip(event["cards"], event["from"]):
                if source in expedition:
                    moved[expedition[source]] -= survivors[label]
                if dest is not None:
                    moved[dest] += survivors[label]
        if event["hook"] == "end":
            run = (event["round"], event["power"], event["variant"], event["by"], event.get("card"))
            if run not in triggered:
                triggered.add(run)
                record["triggers"][event["by"]] += 1
    return {key: stats[key] for key in sorted(stats)}


def game_extras(game) -> dict:
    """The optional per-game fields the report uses: first_leader and powers."""
    return {"first_leader": first_leader(game), "powers": power_stats(game)}


__all__ = ["first_leader", "power_stats", "game_extras"]
