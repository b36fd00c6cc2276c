"""One English line per event of a game, as one Community may know it.

Every effect of a power is told with the power and its variant
("Name (TITLE): ..."), each card a power deals out on a line of its own. A
line never tells a Community more than it may see (`Game.observe`): the
cards that move out of sight (into another Community's hand, from the
Reserve, blind out of an Expedition zone) are told as "a card" or "2 cards".

    narrator = Narrator(game, viewer=0)
    game.apply(...)
    for line in narrator.new_lines(): print(line.text)

Read the new lines after each answer: what a card's move showed is judged on
the table as it is then.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from happydayz.kernel.game import Game
from happydayz.kernel.outcome import winners_text
from happydayz.table.labels import card_name, community_name, signed
from happydayz.table.powers import power_label

#: The zones everybody sees (each Community's Transfer zone is visible to all too).
PUBLIC_ZONES = ("table", "encounter")
OWNED_ZONES = {"hand": "hand", "transfer": "Transfer zone", "expedition": "Expedition zone"}


@dataclass(frozen=True)
class Line:
    """One line of narration: its text, the event it tells, the round, and the power behind it (if any)."""

    text: str
    event: str
    round: int
    power: str | None = None
    variant: str | None = None

    def record(self) -> dict:
        return {"text": self.text, "event": self.event, "round": self.round, "power": self.power,
                "variant": self.variant}


@dataclass
class Narrator:
    """Turns the new events of `game.log` into lines for the Community `viewer` (None: a spectator who sees all)."""

    game: Game
    viewer: int | None = None
    seen: int = 0  # events already told
    leading: bool = field(default=False, init=False)  # the next play leads a trick
    side: str | None = field(default=None, init=False)  # the side of the trick in play
    _ids: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        for card, spec in enumerate(self.game.cards):
            self._ids.setdefault(spec.label, []).append(card)

    # ------------------------------------------------------------ names
    def community(self, seat: int) -> str:
        return community_name(self.game, seat, self.viewer)

    def zone(self, key: str, position: str | None = None) -> str:
        kind, _, owner = key.partition(":")
        if owner:
            whose = "your" if int(owner) == self.viewer else f"{self.game.seat_label(int(owner))}'s"
            return f"{whose} {OWNED_ZONES.get(kind, kind)}"
        if kind == "reserve":
            return "the top of the Reserve" if position == "top" else (
                "the bottom of the Reserve" if position in ("bottom", "end") else "the Reserve")
        return {"discard": "the discard pile", "table": "the table", "encounter": "the Encounter card's place",
                "out": "out of the game"}.get(kind, kind)

    def card(self, label: str) -> str:
        """A card's label with the Survivors it counts (a loss shown with a minus)."""
        ids = self._ids.get(label)
        return card_name(self.game, ids[0]) if ids else label

    def name(self, label: str) -> str:
        """A card's name alone: the one its box's card_names gives it, else its label."""
        ids = self._ids.get(label)
        return (self.game.cards[ids[0]].shown or label) if ids else label

    def cause(self, event: dict) -> str:
        return power_label(self.game, event["power"], event.get("variant"), event.get("card"))

    # --------------------------------------------------------- visibility
    def _open(self, key: str) -> bool:
        """Whether the viewer sees what lies in the zone `key`."""
        if self.viewer is None or key in PUBLIC_ZONES or key.startswith("transfer:"):
            return True
        kind, _, owner = key.partition(":")
        return kind in ("hand", "expedition") and owner == str(self.viewer)

    def visible(self, label: str, source: str, dest: str) -> bool:
        """Whether the viewer may know which card moved from `source` to `dest`."""
        if self._open(source) or self._open(dest):
            return True
        if not dest.startswith("expedition:"):
            return False  # into a hand, the Reserve, the discard pile, out of the game: out of sight
        game = self.game
        for card in self._ids.get(label, ()):
            if game.loc[card] == dest and (game.seen[card] or game.rules_of(card).face_up):
                return True  # everyone saw it go there (not a blind pick), or it lies face up there
        return False

    def cards_text(self, labels: list[str], sources: list[str], dest: str) -> str:
        shown = [self.card(label) for label, source in zip(labels, sources) if self.visible(label, source, dest)]
        hidden = len(labels) - len(shown)
        if hidden:
            shown.append("a card" if hidden == 1 else f"{hidden} cards")
        return ", ".join(shown)

    # ------------------------------------------------------------- lines
    def new_lines(self) -> list[Line]:
        """The lines of the events logged since the last call.

        Scores in a row from one power for one Community (a power that gains twice) make one line.
        """
        log = self.game.log
        lines: list[Line] = []
        events = log[self.seen:]
        i = 0
        while i < len(events):
            event = events[i]
            if event["event"] == "score":
                j = i + 1
                while j < len(events) and events[j]["event"] == "score" and _same_score(events[j], event):
                    j += 1
                if j > i + 1:
                    lines.append(Line(self._scores(events[i:j]), "score", event.get("round", 0), event["power"],
                                      event.get("variant")))
                    i = j
                    continue
            lines.extend(self.lines_of(event))
            i += 1
        self.seen = len(log)
        return lines

    def lines_of(self, event: dict) -> list[Line]:
        kind = event["event"]
        round_no = event.get("round", 0)
        texts = getattr(self, f"_{kind}", None)
        if texts is None:
            return []
        power = event.get("power")
        return [Line(text, kind, round_no, power, event.get("variant") if power else None) for text in texts(event)]

    def _game_start(self, e: dict) -> list[str]:
        factions = ", ".join(power_label(self.game, f, v) for f, v in e["factions"])
        added = f"; added: {', '.join(e['added'])}" if e.get("added") else ""
        return [f"A game of {e['scenario']} for {e['players']} players: {factions}{added}."]

    def _deal(self, e: dict) -> list[str]:
        carried = self._carried(e["round"], e["hands"])
        sizes = [len(hand) for hand in e["hands"]]
        reserve = f"{len(e['reserve'])} in the Reserve"
        if len(set(sizes)) == 1 and not any(carried):
            return [f"Round {e['round']}: {sizes[0]} cards dealt to each Community, {reserve}."]
        if len(set(sizes)) == 1:  # the same hands, some of them partly carried over
            kept = "; ".join(f"{self.community(s)} kept {', '.join(k)} from the last round and was dealt "
                             f"{sizes[s] - len(k)}" for s, k in enumerate(carried) if k)
            return [f"Round {e['round']}: {sizes[0]} cards in each Community's hand ({kept}); {reserve}."]
        told = "; ".join(f"{self.community(s)} {sizes[s] - len(k)}" + (f" (and kept {', '.join(k)})" if k else "")
                         for s, k in enumerate(carried))
        return [f"Round {e['round']}: cards dealt - {told}; {reserve}."]

    def _carried(self, round_no: int, hands: list[list[str]]) -> list[list[str]]:
        """The cards each Community carried into round `round_no` (they were in its Expedition zone at the end
        of the round before, and their rules carry them over), as labels: they are public."""
        history = self.game.history
        if round_no < 2 or len(history) < round_no - 1:
            return [[] for _ in hands]
        before = history[round_no - 2]["expeditions"]
        carried = []
        for seat, hand in enumerate(hands):
            left = list(hand)
            kept = []
            for label in before[seat] if seat < len(before) else ():
                ids = self._ids.get(label)
                if ids and label in left and self.game.rules_of(ids[0]).carried_over:
                    left.remove(label)
                    kept.append(label)
            carried.append(kept)
        return carried

    def _dealer(self, e: dict) -> list[str]:
        return [f"Round {e['round']}: {self.community(e['seat'])} deals."]

    def _transfer(self, e: dict) -> list[str]:
        if self.game.setup.hand.into != "hand":  # face up in the receiver's Transfer zone: everyone sees it
            return [f"{self.community(p['from'])} passes {self.card(p['card'])} to "
                    f"{self.zone('transfer:' + str(p['to']))}." for p in e["passes"]]
        # into the receiver's hand: only the giver and the receiver know the card, unless everyone sees it
        everyone = self.game.setup.hand.seen_by == "everyone"
        return [f"{self.community(p['from'])} passes "
                f"{self.card(p['card']) if everyone or self.viewer in (None, p['from'], p['to']) else 'a card'} to "
                f"{self.zone('hand:' + str(p['to']))}." for p in e["passes"]]

    def _encounter(self, e: dict) -> list[str]:
        card = f"New trick: the Encounter card is {self.card(e['card'])}" if e.get("card") else \
            "New trick: no Encounter card (the Reserve is empty)"
        named = f" ({e['named']} must be led)" if e.get("named") else ""
        self.leading = True
        return [f"{card}; {self.community(e['leader'])} leads{named}."]

    def _play(self, e: dict) -> list[str]:
        side = e.get("side")
        if self.leading and side:
            self.side = side
            how = f"leads {self.card(e['card'])} on the {side} side"
        else:
            how = f"plays {self.card(e['card'])}"
        self.leading = False
        cut = " and cuts" if e.get("trump") else ""
        return [f"{self.community(e['seat'])} {how}{cut}."]

    def _win(self, e: dict) -> list[str]:
        led = f"{e['led']} led" if e.get("led") else "no Faction led"
        side = f" on the {self.side} side" if self.side else ""
        blocked = " (power blocked)" if e.get("blocked") else ""
        return [f"Trick won by {self.community(e['seat'])}: {led}{side}{blocked} - {', '.join(self.name(c) for c in e.get('cards', []))}"]

    def _untaken(self, e: dict) -> list[str]:
        led = f"{e['led']} led" if e.get("led") else "no Faction led"
        side = f" on the {self.side} side" if self.side else ""
        where = "the discard pile" if e.get("to") == "discard" else \
            ("the top of the Reserve" if e.get("position") == "top" else "the bottom of the Reserve")
        return [f"Nobody takes the trick: {led}{side} - {', '.join(e.get('cards', []))}; its cards go to {where}."]

    def _next_side(self, e: dict) -> list[str]:
        return [f"{self.cause(e)}: the next trick is played on the {e['side']} side."]

    def _power(self, e: dict) -> list[str]:
        return [f"{self.cause(e)}: the power of the Faction led acts for {self.community(e['seat'])}."]

    def _move(self, e: dict) -> list[str]:
        labels, sources, dest = e["cards"], e["from"], e["to"]
        what = self.cards_text(labels, sources, dest)
        origins = list(dict.fromkeys(sources))
        if origins == [dest]:
            return [f"{self.cause(e)}: {what} stay{'s' if len(labels) == 1 else ''} in {self.zone(dest)}."]
        source = ", ".join(self.zone(s) for s in origins)
        dest_owner = dest.partition(":")[2]
        if dest.startswith("expedition:") and len(origins) == 1 and origins[0].startswith("expedition:"):
            # told from the Community whose power acts: it gives from its own zone, or takes into it
            giver, taker, actor = int(origins[0].partition(":")[2]), int(dest_owner), e.get("by")
            if actor == taker:
                return [f"{self.cause(e)}: {self.community(taker)} takes {what} from {self.zone(origins[0])}."]
            if actor == giver:
                return [f"{self.cause(e)}: {self.community(giver)} gives {what} to {self.zone(dest)}."]
        return [f"{self.cause(e)}: {what} {'goes' if len(labels) == 1 else 'go'} from {source} to "
                f"{self.zone(dest, e.get('position'))}."]

    def _score(self, e: dict) -> list[str]:
        return [self._scores([e])]

    def _scores(self, events: list[dict]) -> str:
        """One power's scores for one Community: "gains 5 Survivors", or "gains 5 Survivors, then 5 more (10 this
        round)" when it scores more than once."""
        amounts = [e["amount"] for e in events]

        def part(amount: int, first: bool) -> str:
            verb = "gains" if amount >= 0 else "loses"
            if first:
                return f"{verb} {abs(amount)} Survivor{'s' if abs(amount) != 1 else ''}"
            same = (amount >= 0) == (amounts[0] >= 0)
            return f"{abs(amount)} more" if same else f"{verb} {abs(amount)}"
        told = ", then ".join(part(a, i == 0) for i, a in enumerate(amounts))
        total = sum(amounts)
        tail = f" ({signed(total)} this round)" if len(amounts) > 1 else " this round"
        return f"{self.cause(events[0])}: {self.community(events[0]['seat'])} {told}{tail}."

    def _next_leader(self, e: dict) -> list[str]:
        return [f"{self.cause(e)}: {self.community(e['seat'])} will lead the next trick."]

    def _next_lead(self, e: dict) -> list[str]:
        return [f"{self.cause(e)}: the next trick must be led with {e['faction']}."]

    def _count(self, e: dict) -> list[str]:
        changes = ", ".join(f"{self.community(s)} {signed(d)} \u2192 {p}"
                            for s, (d, p) in enumerate(zip(e["deltas"], e["populations"])))
        return [f"End of round {e['round']}: {changes}."]

    def _faction_change(self, e: dict) -> list[str]:
        return [f"Faction change: {e['old']} is replaced by {e['new']} (its basic power)."]

    def _power_drawn(self, e: dict) -> list[str]:
        return [f"Power drawn: {e['name']}."]

    def _game_over(self, e: dict) -> list[str]:
        return ["Game over. " + winners_text(e["winners"], you=self.viewer, teams=e.get("teams"),
                                             floor=self.game.setup.floor)]


def _same_score(one: dict, other: dict) -> bool:
    """Two scores of one power's run for one Community (the same power, variant, card, actor and seat)."""
    return all(one.get(key) == other.get(key) for key in ("power", "variant", "hook", "card", "by", "seat", "round"))


def narrate(game: Game, viewer: int | None = None) -> list[Line]:
    """Every line of a game's log so far, as `viewer` may know it now (see Narrator)."""
    return Narrator(game, viewer).new_lines()


__all__ = ["Line", "Narrator", "narrate"]
