"""A game at the table: one person at a seat, a bot at every other, started, saved, resumed and taken back.

Used by the terminal game and the web table alike. The game is replayable:
a save holds the scenario, the options, the seed, the answers, the bots and
whether the Factions were drawn at random (`"random_setup": true`, drawn again
from the seed), and replaying the answers rebuilds the game exactly, the bots included (each
is shown again every decision it made, so that its random source is where it
was). Taking back the person's last answer is such a replay, one answer short
of it (with everything the bots answered after it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

from happydayz.base.errors import Diagnostic, HappyError, Span, UsageError
from happydayz.base.files import write_atomic
from happydayz.data.environment import Environment
from happydayz.kernel.game import Decision, Game
from happydayz.kernel.savegame import (S_FIELD, S_REPLAY, SaveProblem, checksum, dumps_record, new_game, read_save,
                                       save_record)
from happydayz.kernel.setup import prepare
from happydayz.kernel.tables import SIDES
from happydayz.language import vm
from happydayz.players.agents import Agent
from happydayz.players.registry import BOTS, make_bots, parse_bots
from happydayz.table.breakdown import breakdown
from happydayz.table.labels import option_text
from happydayz.table.memory import ZoneMemory
from happydayz.table.narration import Line, Narrator
from happydayz.table.powers import power_label, powers_in_play

#: Decisions answered by picking a card (their options' values are card ids, or (card, side) for a lead).
CARD_DECISIONS = ("transfer", "lead", "follow")
#: The viewer of `TableSession.view` who holds no seat: sees only what every Community sees.
SPECTATOR = -1


def bot_names(spec: str | Sequence[str] | None, players: int, seat: int) -> list[str]:
    """A bot name for every seat (the person's own is never asked) from `--bots`.

    One name for every other seat, one per seat, or one per other seat in seat
    order. Raises UsageError (an unknown bot, a list of the wrong length).
    """
    if spec is None:
        return ["random"] * players
    names = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else [str(n).strip() for n in spec]
    if len(names) == players - 1 and players > 2:
        names = names[:seat] + ["random"] + names[seat:]
    return parse_bots(names, players)


def card_order(game: Game):
    """A sort key for cards: by the rank of their Faction in play (always-in-play first), then by value."""
    order = {name: i for i, name in enumerate(dict.fromkeys(game.factions_in_play()))}
    cards = game.cards

    def key(card: int) -> tuple:
        spec = cards[card]
        return (order.get(spec.faction, len(order)), spec.faction, spec.value if spec.value is not None else -1, card)
    return key


def option_card(decision: Decision, index: int) -> int | None:
    """The card an option of a card decision plays or passes."""
    value = decision.options[index].value
    if decision.kind == "lead":
        return value[0]
    return value if decision.kind in CARD_DECISIONS else None


def sorted_options(game: Game, decision: Decision) -> list[int]:
    """The indexes of a decision's options in the order to show them: cards sorted as the hand is."""
    indexes = list(range(len(decision.options)))
    if decision.kind not in CARD_DECISIONS:
        return indexes
    key = card_order(game)
    return sorted(indexes, key=lambda i: (key(option_card(decision, i)), i))


def _key_span(file: str, key: str) -> Span:
    """Where a key of a save file is (line 1, column 1 if the file cannot be read)."""
    quoted = f'"{key}"'
    try:
        lines = Path(file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, ValueError):
        return Span(file, 1, 1)
    for number, line in enumerate(lines, start=1):
        column = line.find(quoted)
        if column >= 0:
            return Span(file, number, column + 1, number, column + 1 + len(quoted))
    return Span(file, 1, 1)


def _new_game(data: dict, env: Environment, file: str) -> Game:
    """A fresh game for validated save data (kernel.savegame.new_game), its Factions drawn at random again from
    the seed when the save says `"random_setup": true`. Raises SaveProblem for a bad `random_setup`."""
    drawn = data.get("random_setup", False)
    if not isinstance(drawn, bool):
        raise SaveProblem(Diagnostic(_key_span(file, "random_setup"), "random_setup: expected true or false",
                                     S_FIELD))
    if not drawn:
        return new_game(data, env)
    options = data["options"]
    setup, _ = prepare(env, data["scenario"], options["players"], options["express"], options["promos"],
                       options["random_powers"], options.get("faction_change", True), random_setup=True,
                       setup_seed=data["seed"])
    return Game(setup, data["seed"])


class TableSession:
    """One person at `seat` (and, at the web table, other people at the seats of `people`); a bot named
    `bots[s]` plays every other seat s."""

    def __init__(self, game: Game, seat: int, bots: Sequence[str], scenario_ref: str,
                 env: Environment | None = None, people: Sequence[int] = ()) -> None:
        if not 0 <= seat < game.n:
            raise UsageError(f"seat {seat} is not a seat of this {game.n}-player game: choose 0 to {game.n - 1}")
        self.game = game
        self.seat = seat
        self.people = frozenset({seat, *(p for p in people if 0 <= p < game.n)})  # the seats no bot plays
        self.bot_names = list(bots)
        self.scenario_ref = scenario_ref
        self.env = env if env is not None else Environment()
        self.bots: list[Agent] = make_bots(self.bot_names, game.seed)
        for s, bot in enumerate(self.bots):
            bind = getattr(bot, "bind", None)
            if bind is not None:  # bots that read the compiled powers
                bind(game.setup, s)
        self.narrator = Narrator(game, seat)
        self.lines: list[Line] = self.narrator.new_lines()
        self.memory = ZoneMemory()  # the cards the person saw go into each Expedition zone
        self.memory.update(game.observe(seat))
        self.others: dict[int, tuple[Narrator, list[Line]]] = {}  # the narration of the other viewers, made on demand
        self.actors: list[int] = []  # who gave each answer of game.answers
        self.texts: dict = {}  # (power file, variant) -> card text, read once

    # ------------------------------------------------------------ making one
    @classmethod
    def start(cls, env: Environment, scenario_ref: str | os.PathLike | None, players: int | None = None,
              seat: int = 0, seed: int = 0, express: bool = False, promos: bool = False,
              random_powers: bool = False, bots: str | Sequence[str] | None = None,
              random_setup: bool = False, play_bots: bool = True) -> "TableSession":
        """A new game; the bots play up to the person's first decision (unless `play_bots` is false: the web
        server runs them itself, so that it can stop them).

        `random_setup` (or the scenario's own key) draws the Factions at random with `seed`, as
        `simulate --random-setup` does.
        """
        setup, scenario = prepare(env, scenario_ref, players, express, promos, random_powers,
                                  random_setup=random_setup, setup_seed=seed)
        if not 0 <= seat < setup.n:
            raise UsageError(f"--seat {seat} is not a seat of a {setup.n}-player game: choose 0 to {setup.n - 1}")
        reference = str(scenario_ref if scenario_ref is not None else scenario.id)
        session = cls(Game(setup, seed), seat, bot_names(bots, setup.n, seat), reference, env)
        if play_bots:
            session.run_bots()
        return session

    @classmethod
    def from_record(cls, data: dict, env: Environment | None = None, file: str = "<save>",
                    seat: int | None = None, stop: Callable[[], None] | None = None,
                    play_bots: bool = True) -> "TableSession":
        """The game of validated save data (see kernel.savegame.read_save), replayed to where it was.

        `stop`, called before each answer is replayed, may raise to give the replay up (the web server's
        cancellation); `play_bots` as for `start`.
        """
        env = env if env is not None else Environment()
        seat = data.get("seat", seat if seat is not None else 0)
        game = _new_game(data, env, file)
        names = data.get("bots")
        session = cls(game, seat, parse_bots(names, game.n) if names else ["random"] * game.n,
                      data["scenario"], env, data.get("people", ()))
        session.replay(data["answers"], file, stop)
        if play_bots:
            session.run_bots()
        return session

    @classmethod
    def resume(cls, path: str | os.PathLike, env: Environment | None = None, seat: int = 0) -> "TableSession":
        """A saved game. Raises HappyError for a bad save file."""
        return cls.from_record(read_save(path), env, str(path), seat)

    def replay(self, answers: Sequence[int], file: str = "<save>", stop: Callable[[], None] | None = None) -> None:
        """Apply saved answers, letting each bot see again the decisions it made. Raises SaveProblem."""
        game = self.game
        for number, answer in enumerate(answers):
            if stop is not None:
                stop()
            decision = game.decision
            if decision is None:
                raise SaveProblem(Diagnostic(_key_span(file, "answers"), f"answers: the game is over after {number} "
                                             f"answers, but there are {len(answers)}", S_REPLAY))
            if decision.decider not in self.people and 0 <= answer < len(decision.options):
                self.bots[decision.decider].decide(game.observe(decision.decider), decision)
            try:
                self._apply(answer)
            except HappyError as exc:
                raise SaveProblem(Diagnostic(_key_span(file, "answers"), f"answers: answer #{number + 1} does not "
                                             f"replay: {exc.diagnostics[0].message}", S_REPLAY)) from None

    # -------------------------------------------------------------- playing
    @property
    def over(self) -> bool:
        return self.game.decision is None

    @property
    def my_turn(self) -> bool:
        decision = self.game.decision
        return decision is not None and decision.decider == self.seat

    def _apply(self, index: int) -> list[Line]:
        actor = self.game.decision.decider
        self.game.apply(index)
        self.actors.append(actor)
        self.memory.update(self.game.observe(self.seat))
        lines = self.narrator.new_lines()
        self.lines.extend(lines)
        return lines

    def answer(self, index: int, stop: Callable[[], None] | None = None, seat: int | None = None) -> list[Line]:
        """The answer (an option's index) of the person at `seat` (default: `self.seat`); then the bots play up to
        a person's next decision.

        Raises UsageError when it is not that person's turn or the index is not an option.
        """
        decision = self.game.decision
        if decision is None or decision.decider != (self.seat if seat is None else seat) or decision.decider not in self.people:
            raise UsageError("it is not your turn to answer")
        if type(index) is not int or not 0 <= index < len(decision.options):
            raise UsageError(f"there is no option {index!r}: choose 0 to {len(decision.options) - 1}")
        lines = self._apply(index)
        return lines + self.run_bots(stop)

    @property
    def bots_to_play(self) -> bool:
        """Whether a bot must answer before a person can (run_bots was stopped, or has not run yet)."""
        decision = self.game.decision
        return decision is not None and decision.decider not in self.people

    def run_bots(self, stop: Callable[[], None] | None = None) -> list[Line]:
        """Let the bots answer until a person must decide or the game is over.

        `stop`, called before each bot decision, may raise to stop there: every answer given so far stays
        applied, and a later call goes on from that decision.
        """
        lines: list[Line] = []
        game = self.game
        while (decision := game.decision) is not None and decision.decider not in self.people:
            if stop is not None:
                stop()
            lines += self._apply(self.bots[decision.decider].decide(game.observe(decision.decider), decision))
        return lines

    # ------------------------------------------------------------ saving
    def record(self) -> dict:
        """The save data: kernel.savegame's, with the seat and the bots."""
        data = save_record(self.game, self.scenario_ref, seat=self.seat, env=self.env)
        stamped = data.pop("checksum", None) is not None
        data["bots"] = list(self.bot_names)
        if len(self.people) > 1:  # other people's seats (the web table): no bot plays them
            data["people"] = sorted(self.people)
        if self.game.setup.scenario.random_setup:  # the Factions were drawn with the seed: draw them again
            data["random_setup"] = True
        if stamped:  # the checksum covers the bots and the draw too, and stays last
            data["checksum"] = checksum(data)
        return data

    def save(self, path: str | os.PathLike) -> dict:
        """Write a save file (atomically); its data."""
        data = self.record()
        write_atomic(path, dumps_record(data), error=SaveProblem, what="save file")  # never over a folder or device
        return data

    def can_take_back(self) -> bool:
        return self.seat in self.actors

    def take_back(self, stop: Callable[[], None] | None = None) -> "TableSession":
        """The game as it was before the person's last answer (a new session, replayed from the start).

        Raises UsageError when the person has not answered yet.
        """
        if not self.can_take_back():
            raise UsageError("there is no answer of yours to take back")
        last = len(self.actors) - 1 - self.actors[::-1].index(self.seat)
        data = {**self.record(), "answers": list(self.game.answers[:last])}
        session = TableSession(_new_game(data, self.env, "<save>"), self.seat, self.bot_names, self.scenario_ref,
                               self.env, self.people)
        session.texts = self.texts
        session.replay(data["answers"], stop=stop)
        return session

    # -------------------------------------------------------------- views
    def hand(self, seat: int | None = None) -> list[int]:
        """The hand of `seat` (default: the person's), sorted; during the Transfer, without the cards already
        chosen to pass."""
        game = self.game
        seat = self.seat if seat is None else seat
        held = list(game.zone("hand", seat))
        if game.decision is not None and game.decision.kind == "transfer":
            for giver, _, card in game.transfer_picks:
                if giver == seat and card in held:
                    held.remove(card)
        return sorted(held, key=card_order(game))

    def passing(self, seat: int | None = None) -> list[tuple[int, int]]:
        """(card, receiver) of the Transfer cards `seat` (default: the person) has chosen this round, until they
        are passed."""
        game = self.game
        seat = self.seat if seat is None else seat
        if game.decision is None or game.decision.kind != "transfer":
            return []
        return [(card, receiver) for giver, receiver, card in game.transfer_picks if giver == seat and card >= 0]

    def card_record(self, card: int) -> dict:
        spec = self.game.cards[card]
        record = {"id": card, "label": spec.label, "faction": spec.faction, "value": spec.value,
                  "survivors": spec.survivors}
        if spec.shown:  # the name its box's card_names gives it at the table
            record["name"] = spec.shown
        return record

    def decision_record(self, seat: int | None = None) -> dict | None:
        """The pending decision of `seat` (default: the person's): its kind, its prompt (a power's names the
        power), the options in showing order."""
        game = self.game
        decision = game.decision
        if decision is None or decision.decider != (self.seat if seat is None else seat):
            return None
        options = []
        for index in sorted_options(game, decision):
            option = decision.options[index]
            entry: dict[str, Any] = {"index": index, "label": option_text(game, decision, index, self.seat)}
            card = option_card(decision, index)
            if card is None and decision.kind not in CARD_DECISIONS and type(option.value) is int and \
                    not (option.value < game.n and option == game.tables.seat[option.value]):
                card = option.value  # a power's choice of a card (not of a Community): it can be chosen on the card
            if card is not None:
                entry["card"] = card
            if decision.kind == "lead":
                entry["side"] = option.value[1]
            if option.value is vm.STOP:
                entry["stop"] = True
            options.append(entry)
        asking = game.asking_power()
        return {"kind": decision.kind, "prompt": decision.prompt, "options": options,
                "power": power_label(game, asking[0], asking[1]) if asking else None, "sides": list(SIDES)}

    def narration(self, viewer: int) -> list[Line]:
        """Every line so far as `viewer` (a seat, or SPECTATOR) may know it."""
        if viewer == self.seat:
            return self.lines
        if viewer not in self.others:
            self.others[viewer] = (Narrator(self.game, viewer), [])
        narrator, lines = self.others[viewer]
        lines.extend(narrator.new_lines())
        return lines

    def winning_seat(self) -> int | None:
        """Who is winning the trick in play (the kernel's own reading of it: Game.winning_play)."""
        trick = self.game.trick
        if trick is None or not trick.plays:
            return None
        play = self.game.winning_play()
        return play[0] if play is not None else trick.leader

    def last_trick(self) -> dict | None:
        """The last trick won: its plays in order (public: every card of a trick is seen) and who won it."""
        log = self.game.log
        for end in range(len(log) - 1, -1, -1):
            if log[end]["event"] == "win":
                break
        else:
            return None
        won = log[end]
        plays = [e for e in log[:end] if e["event"] == "play"][-len(won["cards"]):] if won["cards"] else []
        ids = {spec.label: card for card, spec in reversed(list(enumerate(self.game.cards)))}
        return {"winner": won["seat"], "round": won["round"],
                "plays": [{**self.card_record(ids[p["card"]]), "seat": p["seat"], "trump": p["trump"]}
                          for p in plays if p["card"] in ids]}

    def styles(self) -> dict[str, dict]:
        """Each Faction's colour and icon from its box file (None where the box gives none)."""
        factions = self.env.library.all_factions()
        names = dict.fromkeys(spec.faction for spec in self.game.cards)
        return {name: {"colour": getattr(factions.get(name), "colour", None),
                       "icon": getattr(factions.get(name), "icon", None)} for name in names}

    def view(self, viewer: int | None = None) -> dict:
        """Everything the person at `viewer` (default: `self.seat`; SPECTATOR: no seat) may see, as JSON data
        (Game.observe and no more: a spectator sees what every Community sees, and no hand)."""
        game = self.game
        viewer = self.seat if viewer is None else viewer
        seated = viewer != SPECTATOR
        obs = game.observe(viewer if seated else 0)
        n = game.n
        trick = obs["trick"]
        decision = game.decision
        view = {
            "scenario": {"id": game.setup.scenario.id, "title": game.setup.scenario.title, "ref": self.scenario_ref},
            "seat": viewer, "spectator": not seated, "people": sorted(self.people),
            "players": n, "seed": game.seed, "bots": list(self.bot_names),
            "waiting_for": None if decision is None or decision.decider == viewer else {
                "seat": decision.decider, "label": game.seat_label(decision.decider), "kind": decision.kind,
                "bot": None if decision.decider in self.people else self.bot_names[decision.decider]},
            "styles": self.styles(),
            "round": obs["round"], "rounds": obs["rounds"], "over": self.over,
            "winners": list(game.winners) if game.over else None,
            "communities": [{
                "seat": s, "label": game.seat_label(s), "you": s == viewer, "bot": None if s in self.people else
                self.bot_names[s], "population": obs["populations"][s], "round_gain": obs["round_gains"][s],
                "hand_size": obs["hand_sizes"][s], "expedition_size": obs["expedition_sizes"][s],
                "face_up": [self.card_record(c["id"]) for c in obs["expedition_face_up"][s]],
                "known": [self.card_record(c["id"]) for c in obs["expedition_known"][s]],
                "perhaps": [self.card_record(c) for c in self.memory.perhaps(obs, s, seated)],  # seen going in, maybe gone
                "transfer": [self.card_record(c["id"]) for c in obs["transfer"][s]],
                **({"transfer_unseen": obs["transfer_sizes"][s] - len(obs["transfer"][s])}
                   if "transfer_sizes" in obs else {}),  # (passed between two others, seen by them only)
            } for s in range(n)],
            "hand": [self.card_record(c) for c in self.hand(viewer)] if seated else [],
            "passing": [{**self.card_record(c), "to": r} for c, r in self.passing(viewer)] if seated else [],
            "encounter": self.card_record(obs["encounter"]["id"]) if obs["encounter"] else None,
            "reserve_size": obs["reserve_size"],
            "trick": None if trick is None else {
                "leader": trick["leader"], "side": trick["side"], "led": trick["led"], "winning": self.winning_seat(),
                "plays": [{**self.card_record(p["id"]), "seat": p["seat"], "trump": p["trump"]}
                          for p in trick["plays"]]},
            "last_trick": self.last_trick(),
            "decision": self.decision_record(viewer) if seated else None,
            "powers": [p.record() for p in powers_in_play(game, self.env, self.texts)],
            "breakdown": [r.record() for r in breakdown(game)],
            "narration": [line.record() for line in self.narration(viewer)],
            "answers": len(game.answers),
            "can_take_back": self.people == {viewer} and self.can_take_back(),
        }
        if game.setup.teams is not None:  # the hand's teams (only then, so that other views keep their keys)
            view["teams"] = [list(team) for team in game.setup.teams]
            view["team_scores"] = game.team_scores()
        if game.setup.floor != 0:  # the hand's floor (only when it is not 0): what "nobody wins" is measured by
            view["floor"] = "none" if game.setup.floor is None else game.setup.floor
        if "dummy" in obs:  # a hand with a dummy (only then): its seat once laid, and its hand, face up for all
            view["dummy"] = self.dummy_record()
        return view

    def dummy_record(self) -> dict | None:
        """The dummy once it is laid (hand.dummy): its seat, its controller and its hand, sorted, face up for
        every viewer (spectators too); None before it is laid, or in a round without one."""
        game = self.game
        if game.dummy is None:
            return None
        return {"seat": game.dummy, "label": game.seat_label(game.dummy),
                "controller": game.setup.partner_of[game.dummy],
                "hand": [self.card_record(c) for c in self.hand(game.dummy)]}


__all__ = ["TableSession", "SPECTATOR", "bot_names", "card_order", "sorted_options", "option_card", "BOTS",
           "CARD_DECISIONS"]
