"""What a simulation records of each game beyond its result: who led first, and what each power did.

These per-game fields are what the balance report's first-player and per-power
sections read (docs/balance.md).
"""

from __future__ import annotations

import functools
from pathlib import Path

from happydayz.kernel.game import Game


def first_leader(game) -> int | None:
    """The seat that led the first trick of the game (None if no trick was played)."""
    for event in game.log:
        if event["event"] == "encounter":
            return event["leader"]
    return None


def _effective(effect: tuple) -> bool:
    kind = effect[0]
    if kind == "score":
        return effect[2] != 0
    if kind == "move":
        return bool(effect[1])
    return True


def power_stats(game, start=None) -> dict[str, dict[str, list[int]]]:
    """What each power did in a finished game, per seat.

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
    told from "not in play".

    The log does not say which power a score, a move or an end-of-round effect
    comes from, so the game is replayed with the effects traced (about the
    cost of the game itself, without the bots): from its seed, or from `start`,
    a copy of the game taken before its first answer (for a game set to a
    position). The replay must give the same log, else ValueError.
    """
    setup = game.setup
    n = game.n
    stats: dict[str, dict[str, list[int]]] = {}

    def entry(name: str, variant: str) -> dict[str, list[int]]:
        key = f"{name}/{variant}"
        if key not in stats:
            stats[key] = {"triggers": [0] * n, "score": [0] * n, "moved": [0] * n}
        return stats[key]

    powers = [*setup.faction_power.values(), *setup.added_power.values(), *setup.card_power.values()]
    names = {str(p.file): p.name for p in powers}

    def has_hook(program) -> bool:
        return program.on_win is not None or program.end_of_round is not None

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

    replay = Game(setup, game.seed) if start is None else start.copy()
    played = len(replay.answers)
    for event in game.log[len(replay.log):]:
        if event["event"] == "power":
            entry(event["power"], event["variant"])["triggers"][event["seat"]] += 1

    apply = functools.partial(Game.apply_effects, replay)
    survivors = [card.survivors or 0 for card in setup.cards]
    expedition = {f"expedition:{seat}": seat for seat in range(n)}  # zone -> its seat
    counted: list = []  # end-of-round frames already counted (kept alive, so ids stay unique)
    counted_ids: set[int] = set()

    def traced(effects: list[tuple]) -> None:
        if replay.frames:
            frame = replay.frames[0]  # the frame the VM is running
            file, kind, hook = frame.key
            record = entry(names.get(file, Path(file).stem), kind)
            score, moved = record["score"], record["moved"]
            loc = replay.loc
            where: dict[int, str] = {}  # cards this list has moved already leave from there
            for effect in effects:
                if effect[0] == "score":
                    score[effect[1]] += effect[2]
                elif effect[0] == "move":
                    _, cards, zone, owner, _ = effect
                    dest = zone if owner is None else f"{zone}:{owner}"
                    for card in cards:
                        source = expedition.get(where.get(card, loc[card]))
                        if source is not None:
                            moved[source] -= survivors[card]
                        if dest in expedition:
                            moved[expedition[dest]] += survivors[card]
                        where[card] = dest
            if hook == "end" and id(frame) not in counted_ids and any(_effective(e) for e in effects):
                counted.append(frame)
                counted_ids.add(id(frame))
                record["triggers"][frame.me] += 1
        apply(effects)

    class Traced(Game):  # this replay only; the kernel is untouched
        __slots__ = ()

        def apply_effects(self, effects: list[tuple]) -> None:
            traced(effects)

    replay.__class__ = Traced
    for answer in game.answers[played:]:
        replay.apply(answer)
    if len(replay.log) != len(game.log) or replay.population != game.population:
        raise ValueError("the game does not replay from its seed and answers; power statistics need a game "
                         "played from the start with Game(setup, seed), or the copy it was played from (start)")
    return {key: stats[key] for key in sorted(stats)}


def game_extras(game) -> dict:
    """The optional per-game fields the report uses: first_leader and powers."""
    return {"first_leader": first_leader(game), "powers": power_stats(game)}


__all__ = ["first_leader", "power_stats", "game_extras"]
