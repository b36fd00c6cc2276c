"""Runs a compiled hook against the game, stopping at each choice.

A Frame is plain data (a program's key, a program counter, variables), so a
game in the middle of a power can be copied; the compiled closures themselves
are looked up again from the key and never copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from happydayz.language.compiler import (ASK, CHOOSE, EACH_INIT, EACH_NEXT, EFFECT, JUMP, JUMP_UNLESS, LET, MODE, SIMUL_BEGIN,
                                        SIMUL_END, ChoiceSpec, Program)
from happydayz.language.budget import MAX_ROUND_STEPS, MAX_STEPS, out_of_steps
from happydayz.language.host import PowerHost

STOP = "stop"  # the option that ends an "up to" choice early


@dataclass(slots=True)
class Frame:
    """A hook being run: where it is and what it has bound.

    It is also what the compiled closures read while it runs (the attributes
    of a Ctx, `g` included), so running a hook builds no context object.
    """

    key: tuple  # (power file, variant, hook) — finds the Program again
    me: int
    this: int | None = None
    trick: tuple = ()
    encounter: tuple = ()
    led: str | None = None
    leader: int | None = None
    card: int | None = None  # `played`: the card a play, a lead or an `on trick` hook is about
    winner: int | None = None  # the trick's winner, in the hooks of a trick won
    winning: int | None = None  # the card that won it
    side: str | None = None  # the trick's side
    pc: int = 0
    env: dict = field(default_factory=dict)
    buffer: list | None = None  # effects held back inside `simultaneously`
    picked: list | None = None  # a multi-card choice in progress
    steps: int = 0  # the steps this hook has spent, across its choices (language.budget)
    g: PowerHost | None = None  # the game, while the hook runs (set by run, cleared when it stops)


def frame(key: tuple, me: int, this: int | None = None, trick: tuple = (), encounter: tuple = (),
          led: str | None = None, leader: int | None = None, card: int | None = None, winner: int | None = None,
          winning: int | None = None, side: str | None = None) -> Frame:
    """A new Frame at the hook's start."""
    return Frame(key, me, this, trick, encounter, led, leader, card, winner, winning, side)


@dataclass(slots=True)
class Ctx:
    """What a compiled closure reads outside a hook (a rule's condition): the game and its bindings."""

    g: PowerHost
    me: int
    env: dict
    trick: tuple = ()
    encounter: tuple = ()
    led: str | None = None
    leader: int | None = None
    this: int | None = None
    card: int | None = None
    void: bool = False
    side: str | None = None
    winner: int | None = None
    winning: int | None = None
    offer: tuple | None = None  # a bid considered by a `rule bids only when`: (number or level, Faction, passing)
    steps: int = 0  # the steps this evaluation has spent (language.budget)


# The VM has stopped at a choice: (actor, kind, prompt, options, element) — who chooses,
# "choose" or "ask", the prompt, the values offered (card ids, seats, Faction names, numbers,
# sides, True/False, a course's words, STOP) and what they are (Card, Community, Faction,
# Number, Side, Yes/No, Course). A plain tuple:
# one is made for nearly every trick of a playout.
ChoiceRequest = tuple[int, str, str, list, str]


def run(game: PowerHost, frame: Frame, program: Program) -> ChoiceRequest | None:
    """Step until the hook ends (None) or a choice must be made."""
    frame.g = game
    ctx = frame  # what the compiled closures read (see Frame)
    code = program.instructions
    end = len(code)
    env = frame.env
    # The counter lives in a local while the loop runs (the hot path of every power) and goes
    # back into the frame whenever the loop leaves, so a stopped frame can be copied and resumed.
    # (The steps stay in the frame: the expressions' loops spend them too.)
    pc = frame.pc
    try:
        while pc < end:
            ins = code[pc]
            op = ins[0]  # the opcodes in order of how often the bundled powers run them
            if op == EFFECT:
                effects = ins[1](ctx)
                if frame.buffer is not None:
                    frame.buffer.extend(effects)
                else:
                    game.apply_effects(effects, frame)
                pc += 1
            elif op == CHOOSE:
                spec = ins[1]
                if spec.mode == "one":  # the usual choice, inlined (_choice does the others)
                    options = list(spec.source(ctx))  # a group holds no repeats (see compiler)
                    if not options:
                        pc = ins[2]
                        continue
                    return (spec.chooser(ctx) if spec.chooser else frame.me, "choose", spec.prompt,
                            options, spec.element)
                frame.pc = pc
                request = _choice(ctx, frame, spec, ins[2])
                pc = frame.pc
                if request is not None:
                    return request
            elif op == EACH_NEXT:
                items, i = env[ins[1]]
                if i < len(items):
                    env[ins[1]] = (items, i + 1)
                    if ins[2] is not None:
                        env[ins[2]] = items[i]
                    pc += 1
                else:
                    pc = ins[3]
            elif op == JUMP:
                # Every statement loop goes back through a jump: counting jumps (with the
                # elements the expressions walk) bounds any power's run.
                frame.steps += 1
                if frame.steps > MAX_STEPS:
                    raise out_of_steps(program.power, program.span)
                pc = ins[1]
            elif op == JUMP_UNLESS:
                pc = pc + 1 if ins[1](ctx) else ins[2]
            elif op == LET:
                env[ins[1]] = ins[2](ctx)
                pc += 1
            elif op == EACH_INIT:
                env[ins[1]] = (tuple(ins[2](ctx)), 0)
                pc += 1
            elif op == ASK:
                actor = ins[2](ctx) if ins[2] else frame.me
                return (actor, "ask", ins[1], [True, False], "Yes/No")
            elif op == MODE:
                actor = ins[2](ctx) if ins[2] else frame.me
                return (actor, "choose", ins[4], list(ins[1]), "Course")
            elif op == SIMUL_BEGIN:
                frame.buffer = []
                pc += 1
            elif op == SIMUL_END:
                held, frame.buffer = frame.buffer or [], None
                game.apply_effects(held, frame)
                pc += 1
            else:  # pragma: no cover
                raise AssertionError(f"unknown opcode {op}")
        return None
    finally:
        frame.pc, frame.g = pc, None


def ended(game: PowerHost, frame: Frame, program: Program) -> None:
    """A hook has ended: its steps count to its round's, so that hooks that keep a round going stop too."""
    game.round_steps += frame.steps
    if game.round_steps > MAX_ROUND_STEPS:
        raise out_of_steps(program.power, program.span, whole_round=True)


def _options(ctx, frame: Frame, spec: ChoiceSpec) -> list:
    values = spec.source(ctx)  # a group holds no repeats (see compiler)
    if not frame.picked:  # the usual case: nothing picked yet
        return list(values)
    taken = set(frame.picked)
    return [x for x in values if x not in taken]


def _choice(ctx, frame: Frame, spec: ChoiceSpec, else_target: int) -> ChoiceRequest | None:
    """Ask the next pick of a choice of several cards, or bind them and move on (returns None)."""
    options = _options(ctx, frame, spec)
    picked = frame.picked if frame.picked is not None else []
    if len(picked) >= spec.count or not options:
        frame.picked = None
        if not picked and spec.mode == "exactly":
            frame.pc = else_target
            return None
        frame.env[spec.name] = tuple(picked)
        frame.pc += 1
        return None
    frame.picked = picked
    if spec.mode == "up_to":
        options = options + [STOP]
    up_to = "up to " if spec.mode == "up_to" else ""
    prompt = f"{spec.prompt} — {len(picked)} of {up_to}{spec.count} chosen"
    return (_actor(ctx, frame, spec), "choose", prompt, options, spec.element)


def _actor(ctx, frame: Frame, spec: ChoiceSpec) -> int:
    return spec.chooser(ctx) if spec.chooser else frame.me


def answer(frame: Frame, program: Program, value: Any) -> None:
    """Record the chosen option at the instruction where the VM stopped."""
    ins = program.instructions[frame.pc]
    if ins[0] == ASK:
        frame.pc = frame.pc + 1 if value else ins[3]
        return
    if ins[0] == MODE:
        frame.pc = ins[3][ins[1].index(value)]
        return
    spec: ChoiceSpec = ins[1]
    if spec.mode == "one":
        frame.env[spec.name] = value
        frame.pc += 1
        return
    if value == STOP:
        frame.env[spec.name] = tuple(frame.picked or ())
        frame.picked = None
        frame.pc += 1
        return
    frame.picked = (frame.picked or []) + [value]
