"""The count of each Community broken down: its Survivor cards, its losses, and what each power gave or took.

At the end of a round a Community adds the Survivors of the cards in its
Expedition zone (cards with a loss subtract), then applies the end-of-round
powers; on-win powers may have scored during the round. A breakdown splits the
round's change into those parts; they add up to the change the count made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from happydayz.kernel.game import Game
from happydayz.table.labels import signed
from happydayz.table.powers import power_label


@dataclass
class Row:
    """One Community's count for one round."""

    seat: int
    survivor_cards: int = 0  # the sum of the cards that bring Survivors
    losses: int = 0  # the sum (below 0) of the cards that cost Survivors
    powers: dict[str, int] = field(default_factory=dict)  # power label -> Survivors gained or lost
    change: int = 0  # what the count added (before the population is kept at 0 or more)
    population: int | None = None  # after the count

    def record(self) -> dict:
        return {"seat": self.seat, "survivor_cards": self.survivor_cards, "losses": self.losses,
                "powers": dict(self.powers), "change": self.change, "population": self.population}


@dataclass
class RoundCount:
    round: int
    rows: list[Row]
    loss_label: str  # "<Faction> losses" when one Faction's cards bring every loss, else "losses"
    counted: bool = True  # False: the round in progress (only the powers' scores so far)

    def record(self) -> dict:
        return {"round": self.round, "loss_label": self.loss_label, "counted": self.counted,
                "rows": [row.record() for row in self.rows]}


def loss_label(game: Game) -> str:
    """What the cards with a loss are called: after their Faction when they all belong to one."""
    factions = sorted({c.faction for c in game.cards if c.survivors < 0})
    return f"{factions[0]} losses" if len(factions) == 1 else "losses"


def _scores(game: Game, round_no: int) -> list[dict[str, int]]:
    scores: list[dict[str, int]] = [{} for _ in range(game.n)]
    for event in game.log:
        if event["event"] == "score" and event.get("round") == round_no:
            label = power_label(game, event["power"], event.get("variant"), event.get("card"))
            row = scores[event["seat"]]
            row[label] = row.get(label, 0) + event["amount"]
    return scores


def breakdown(game: Game) -> list[RoundCount]:
    """Every counted round's breakdown, then (while a round is being played) the powers' scores so far."""
    survivors: dict[str, int] = {c.label: c.survivors for c in game.cards}
    label = loss_label(game)
    rounds: list[RoundCount] = []
    for record in game.history:
        scores = _scores(game, record["round"])
        rows = []
        for seat, cards in enumerate(record["expeditions"]):
            values = [survivors.get(c, 0) for c in cards]
            rows.append(Row(seat, sum(v for v in values if v > 0), sum(v for v in values if v < 0), scores[seat],
                            record["deltas"][seat], record["populations"][seat]))
        rounds.append(RoundCount(record["round"], rows, label))
    if not game.over and game.round_no > len(game.history):
        scores = _scores(game, game.round_no)
        rows = [Row(seat, powers=scores[seat], change=game.round_gain[seat], population=game.population[seat])
                for seat in range(game.n)]
        rounds.append(RoundCount(game.round_no, rows, label, counted=False))
    return rounds


def breakdown_lines(count: RoundCount, community=lambda seat: f"Community {seat}") -> list[str]:
    """One line per Community: "Community 0: Survivor cards +12, <Faction> losses −27, Name +3 = −12 → 54"."""
    lines = []
    for row in count.rows:
        parts = []
        if count.counted:
            parts += [f"Survivor cards {signed(row.survivor_cards)}", f"{count.loss_label} {signed(row.losses)}"]
        parts += [f"{name} {signed(amount)}" for name, amount in row.powers.items()]
        if not parts:
            parts = ["no power has scored yet"]
        total = f" = {signed(row.change)} \u2192 {row.population}" if count.counted else ""
        lines.append(f"{community(row.seat)}: {', '.join(parts)}{total}")
    return lines


__all__ = ["Row", "RoundCount", "breakdown", "breakdown_lines", "loss_label"]
