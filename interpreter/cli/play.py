"""Playing in the terminal: one person at one seat, bots at the others.

The person is asked only for their own decisions. Each time, the table is shown
as that Community sees it (`Game.observe`): round, populations, Factions in
play, the Encounter card, the trick so far, the hand (sorted), every Transfer
zone and the Expedition zones (their size and face-up cards). Between answers,
one line per event tells what happened, naming the power and variant behind
every effect (table.narration); each count is broken down (table.breakdown).
The game itself (bots, saves, take-back) is a table.session.TableSession.
Input is read line by line from a text stream, so a game can be played from
piped input.

Input: an option number (or its exact label), `save PATH`, `powers`,
`explain NAME`, `count`, `back`, `show`, `help`, `quit`. End of input stops
the game without saving.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from happydayz.base.errors import HappyError, UsageError
from happydayz.cli.common import add_game_options, add_random_setup, stdout_console, whole_number
from happydayz.data.environment import Environment
from happydayz.kernel.determinize import expedition_seen
from happydayz.kernel.game import Decision, Game
from happydayz.kernel.outcome import winners_text
from happydayz.kernel.savegame import new_game, read_save, replay_answers
from happydayz.kernel.setup import prepare
from happydayz.language.english import variant_label
from happydayz.players.agents import Agent
from happydayz.players.registry import BOTS, make_bots, parse_bots
from happydayz.table.breakdown import breakdown, breakdown_lines
from happydayz.table.labels import card_name, community_name, option_text
from happydayz.table.narration import Line
from happydayz.table.powers import find_in_play, powers_in_play
from happydayz.table.session import TableSession, sorted_options

HELP = """\
Commands:
  NUMBER      choose the option with that number (or type the option's text)
  save PATH   write a save file and keep playing; resume later with
              happydayz play --resume PATH
  powers      the powers in play, with their card text
  explain NAME  the card text of one power in play
  count       each round's count broken down (Survivor cards, losses, powers)
  back        take back your last answer (a playtesting aid)
  show        show the table again
  help        show this help
  quit        stop the game without saving
"""


def start_game(scenario_ref: str | os.PathLike | None, players: int | None, seat: int, seed: int,
               express: bool = False, promos: bool = False, random_powers: bool = False,
               env: Environment | None = None) -> tuple[Game, list[Agent], str]:
    """A new game, random bots for every seat, and the scenario reference to save."""
    setup, scenario = prepare(env if env is not None else Environment(), scenario_ref, players, express, promos,
                              random_powers)
    if not 0 <= seat < setup.n:
        raise UsageError(f"--seat {seat} is not a seat of a {setup.n}-player game: choose 0 to {setup.n - 1}")
    game = Game(setup, seed)
    bots = make_bots(parse_bots(None, setup.n), seed)
    return game, bots, str(scenario_ref if scenario_ref is not None else scenario.id)


def resume_game(path: str | os.PathLike, seat: int = 0,
                env: Environment | None = None) -> tuple[Game, list[Agent], str, int]:
    """Rebuild a saved game and its bots exactly as they were when it was saved.

    The bots are shown again every decision they made, so that their random
    sources are where they were. The seat comes from the save file when it
    names one. Raises HappyError for a bad save file.
    """
    data = read_save(path)
    seat = data.get("seat", seat)
    game = new_game(data, env)
    if not 0 <= seat < game.n:
        raise UsageError(f"--seat {seat} is not a seat of this {game.n}-player game")
    bots = make_bots(parse_bots(None, game.n), data["seed"])

    def catch_up(game: Game, decision: Decision, answer: int) -> None:
        if decision.decider != seat:
            bots[decision.decider].decide(game.observe(decision.decider), decision)

    replay_answers(game, data["answers"], str(path), before=catch_up)
    return game, bots, data["scenario"], seat


@dataclass
class Session:
    """One person at `seat`; `bots[s]` answers for every other seat s (a table.session.TableSession)."""

    table: TableSession
    console: Console
    stdin: TextIO = field(default_factory=lambda: sys.stdin)

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def seat(self) -> int:
        return self.table.seat

    def who(self, seat: int) -> str:
        return community_name(self.game, seat, self.seat)

    def say(self, text: str = "", style: str | None = None) -> None:
        # On a terminal, rich wraps between words at its width (the terminal itself would cut words in two);
        # piped output keeps each line whole, for whoever reads it.
        self.console.print(Text(text, style=style or ""), soft_wrap=not self.console.is_terminal)

    # ------------------------------------------------------------ the loop
    def run(self) -> str:
        """Play until the game ends ("over"), the person quits ("quit") or input ends ("eof")."""
        self.report(self.table.lines)
        while (decision := self.game.decision) is not None:
            self.show(decision)
            choice = self.ask(decision)
            if isinstance(choice, str):
                return choice
            self.report(self.table.answer(choice))
        return "over"

    def ask(self, decision: Decision) -> int | str:
        order = sorted_options(self.game, decision)
        count = len(order)
        while True:
            numbers = "1" if count == 1 else f"1-{count}"
            self.console.print(Text(f"Your choice ({numbers}, help, save PATH, quit): ", style="bold"), end="")
            line = self.stdin.readline()
            if not self.stdin.isatty() and line:
                self.console.print(Text(line.rstrip("\n")), soft_wrap=True)
            if line == "":
                self.say()
                self.say(self._unsaved("Input ended: the game stops here"))
                return "eof"
            text = line.strip()
            command, _, rest = text.partition(" ")
            lowered = command.lower()
            if text.isdigit():
                number = int(text)
                if 1 <= number <= count:
                    return order[number - 1]
                self.say(f"There is no option {number}: enter a number from 1 to {count}.", "yellow")
            elif lowered in ("help", "?", "h"):
                self.say(HELP.rstrip())
            elif lowered in ("quit", "exit", "q"):
                self.say(self._unsaved("You left the game"))
                return "quit"
            elif lowered == "show":
                self.show(decision)
            elif lowered == "save":
                self.save(rest.strip())
            elif lowered == "powers" and not rest:
                self.show_powers()
            elif lowered == "explain":
                self.explain(rest.strip())
            elif lowered == "count" and not rest:
                self.show_count()
            elif lowered == "back" and not rest:
                if self.take_back():
                    decision = self.game.decision
                    order = sorted_options(self.game, decision)
                    count = len(order)
                    self.show(decision)
            elif text and decision.index_of_label(text) is not None:
                return decision.index_of_label(text)
            elif not text:
                self.say(f"Enter a number from 1 to {count} (or 'help').", "yellow")
            else:
                self.say(f"'{text}' is not an option: enter a number from 1 to {count}, "
                         f"'save PATH', 'powers', 'explain NAME', 'help' or 'quit'.", "yellow")

    def _unsaved(self, what: str) -> str:
        last = getattr(self, "last_save", None)
        if last is None:
            return f"{what}; nothing was saved."
        return f"{what}; the game as it was when saved is in {last[0]} (answers given since then are not saved)." \
            if last[1] != len(self.game.answers) else f"{what}; it is saved in {last[0]}."

    def save(self, target: str) -> None:
        if not target:
            self.say("Say where to save: save PATH", "yellow")
            return
        path = Path(target).expanduser()
        try:
            self.table.save(path)
        except OSError as exc:
            self.say(f"cannot write the save file {path}: {exc.strerror or exc}", "red")
            return
        self.last_save = (path, len(self.game.answers))
        self.say(f"Saved to {path}. Resume with: happydayz play --resume {path}", "green")

    def take_back(self) -> bool:
        try:
            self.table = self.table.take_back()
        except (HappyError, UsageError) as exc:
            self.say(str(exc), "yellow")
            return False
        self.say(f"Your last answer is taken back ({len(self.game.answers)} answers replayed).", "green")
        return True

    # -------------------------------------------------------- what happened
    def report(self, lines: list[Line]) -> None:
        """One line per event since the last answer: plays, tricks won, every effect of a power, counts."""
        for line in lines:
            style = "bold" if line.event in ("count", "game_over", "win") else None
            self.say(line.text, style)
            if line.event == "count":
                count = next((c for c in breakdown(self.game) if c.round == line.round), None)
                if count is not None:
                    for text in breakdown_lines(count, self.who):
                        self.say("  " + text)

    def show_powers(self) -> None:
        for power in powers_in_play(self.game, self.table.env, self.table.texts):
            self.say(power.text)
            self.say()

    def explain(self, name: str) -> None:
        if not name:
            self.say("Say which power: explain NAME (see 'powers')", "yellow")
            return
        power = find_in_play(self.game, self.table.env, name, self.table.texts)
        if power is None:
            names = ", ".join(p.name for p in powers_in_play(self.game, self.table.env))
            self.say(f"No power '{name}' is in play (in play: {names}).", "yellow")
            return
        self.say(power.text)

    def show_count(self) -> None:
        counts = breakdown(self.game)
        if not counts:
            self.say("No round has been counted yet.")
        for count in counts:
            title = f"Round {count.round}" + ("" if count.counted else " so far (powers only)")
            self.say(title, "bold")
            for text in breakdown_lines(count, self.who):
                self.say("  " + text)

    # ---------------------------------------------------------- the table
    def show(self, decision: Decision) -> None:
        obs = self.game.observe(self.seat)
        console = self.console
        console.rule(f"Round {obs['round']} of {obs['rounds']} - you are {self.game.seat_label(self.seat)}")
        in_play = [*obs["always"], *(variant_label(f["faction"], f["variant"]) for f in obs["factions"])]
        self.say("Factions in play: " + ", ".join(in_play))
        if obs["added"]:
            self.say("Added powers: " + ", ".join(obs["added"]))

        table = Table(show_edge=False, pad_edge=False)
        for heading, justify in (("Community", "left"), ("Survivors", "right"), ("Round", "right"),
                                 ("Hand", "right"), ("Expedition", "right"), ("Known in it", "left"),
                                 ("Transfer zone", "left")):
            table.add_column(heading, justify=justify, overflow="fold")
        for s in range(obs["players"]):
            transfer = ", ".join(card_name(self.game, c["id"]) for c in obs["transfer"][s]) or "-"
            if "transfer_sizes" in obs and obs["transfer_sizes"][s] > len(obs["transfer"][s]):  # passed unseen
                unseen = obs["transfer_sizes"][s] - len(obs["transfer"][s])
                transfer = (transfer + ", " if obs["transfer"][s] else "") + f"{unseen} unseen"
            # what everyone knows lies in the Expedition zone: its face-up cards and those seen going there,
            # then those seen going there that a power may have taken out unseen since
            known_text = ", ".join(card_name(self.game, c) for c in expedition_seen(obs, s)) or "-"
            perhaps = self.table.memory.perhaps(obs, s)
            if perhaps:
                known_text += "; perhaps still: " + ", ".join(card_name(self.game, c) for c in perhaps)
            name = f"{s} (you)" if s == self.seat else str(s)
            table.add_row(Text(name, style="bold" if s == self.seat else ""), str(obs["populations"][s]),
                          f"{obs['round_gains'][s]:+d}", str(obs["hand_sizes"][s]),
                          str(obs["expedition_sizes"][s]), Text(known_text), Text(transfer))
        console.print(table)

        encounter = card_name(self.game, obs["encounter"]["id"]) if obs["encounter"] else "none"
        self.say(f"Encounter card: {encounter}    Reserve: {obs['reserve_size']} cards")
        trick = obs["trick"]
        if trick is not None:
            leader = self.who(trick["leader"])
            if trick["plays"]:
                led = trick["led"] or "no Faction yet"
                plays = "; ".join(f"{self.who(p['seat'])}: {card_name(self.game, p['id'])}" +
                                  (" (cuts)" if p["trump"] else "") for p in trick["plays"])
                self.say(f"Trick: {leader} led on the {trick['side']} side, {led} led - {plays}")
            else:
                self.say(f"Trick: {leader} to lead")
        dummy = self.table.dummy_record()
        if dummy is not None:  # a dummy's hand lies face up for everyone once laid (hand.dummy)
            cards = ", ".join(card_name(self.game, c["id"]) for c in dummy["hand"]) or "(empty)"
            played_by = "you" if dummy["controller"] == self.seat else self.who(dummy["controller"])
            self.say(f"Dummy ({self.who(dummy['seat'])}, played by {played_by}), face up: {cards}",
                     "bold" if decision.actor == dummy["seat"] else None)
        hand = ", ".join(card_name(self.game, c) for c in self.table.hand()) or "(empty)"
        own_transfer = ", ".join(card_name(self.game, c["id"]) for c in obs["transfer"][self.seat]) or "(empty)"
        self.say(f"Your hand: {hand}", "bold")
        passing = self.table.passing()
        if passing:
            self.say("Chosen to pass: " + ", ".join(f"{card_name(self.game, c)} to {self.who(r)}" for c, r in passing))
        self.say(f"Your Transfer zone (visible to all): {own_transfer}")
        self.say()
        if decision.actor != decision.decider:  # the dummy's decision, asked of its partner
            self.say(f"You decide for the dummy, {self.who(decision.actor)}: its cards above", "bold")
        self.say(decision.prompt, "bold")
        order = sorted_options(self.game, decision)
        width = len(str(len(order)))
        for number, index in enumerate(order, start=1):
            self.say(f"  {number:>{width}}. {option_text(self.game, decision, index, self.seat)}")

    def show_final(self) -> None:
        """Populations round by round, and at the end."""
        game = self.game
        self.console.rule("Game over")
        table = Table(show_edge=False, pad_edge=False)
        table.add_column("Community")
        for record in game.history:
            table.add_column(f"Round {record['round']}", justify="right")
        table.add_column("Final population", justify="right")
        for s in range(game.n):
            cells = [f"{r['deltas'][s]:+d}" for r in game.history]
            table.add_row(Text(self.who(s)), *cells, str(game.population[s]))
        self.console.print(table)


# ------------------------------------------------------------ the command

def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat of a game in the terminal; bots play the others. Every effect "
                                   "of a power is told as it happens. At your turn type an option number, "
                                   "'powers', 'explain NAME', 'count', 'back', 'save PATH', 'help' or 'quit'.")
    add_game_options(p)
    add_random_setup(p)
    p.add_argument("--seat", type=whole_number, default=0, metavar="N", help="your seat, from 0 (default: 0)")
    p.add_argument("--seed", type=whole_number, default=0, metavar="S", help="the seed of the game (default: 0)")
    p.add_argument("--bots", metavar="NAMES",
                   help=f"the bots at the other seats: one name for all, or one per seat ({', '.join(BOTS)}; "
                        "default: random)")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game (its own scenario, options, seat and bots)")
    p.set_defaults(run=_run_play)


def _run_play(args) -> int:
    console = stdout_console()
    if args.resume:
        table = TableSession.resume(args.resume, args.env, args.seat)
        console.print(Text(f"Resuming {args.resume}: {len(table.game.answers)} answers replayed.", style="bold"),
                      soft_wrap=True)
        table.lines = []  # what happened before the save is not told again
    else:
        table = TableSession.start(args.env, args.scenario, args.players, args.seat, args.seed, args.express,
                                   args.promos, args.random_powers, bots=args.bots, random_setup=args.random_setup)
    game, seat = table.game, table.seat
    scenario = game.setup.scenario
    factions = ", ".join(variant_label(f, v) for f, v in (tuple(x) for x in game.factions))
    if scenario.random_setup:
        factions += " (drawn at random" + "".join(f", with {name}" for name in scenario.added) + ")"
    bots = ", ".join(f"{s}: {name}" for s, name in enumerate(table.bot_names) if s != seat)
    console.print(Text(f"{scenario.id} - {scenario.title}: {game.n} players, you are {game.seat_label(seat)}. "
                       f"Factions: {factions}. Type 'help' for the commands.", style="bold"), soft_wrap=True)
    console.print(Text(f"Bots: {bots}. Type 'powers' to read the powers in play.", style="bold"), soft_wrap=True)
    session = Session(table, console, sys.stdin)
    if session.run() != "over":
        return 0
    session.show_final()
    console.print(Text(winners_text(game.winners, you=seat, teams=game.setup.teams, floor=game.setup.floor), style="bold"))
    return 0


COMMANDS = [_add_play]
