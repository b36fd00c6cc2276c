"""The trick loop as Python source generated for one set-up: Game.play's fast path.

A random playout goes round the trick loop at every play (Game's
`_phase_start_trick`, `_phase_lead`, `_legal_options`, `_answer_follow`,
`_phase_follow`, `_phase_resolve`, `_phase_powers`, `_phase_end_trick`),
calling a method at each step and reading, at each play,
facts that never change in a game of one set-up: how many Communities there are,
the names of their zones, which Factions may always be played, which never set
the Faction led, which have a `trumps` rule, which block the led power, whether
an Encounter card is turned up. In the manner of `language.codegen`, this module
writes, for one set-up (GameSetup) and the Factions and variants in force (an
InForce), one Python function — `play(game, choose, round_only, rounds)` — that
runs Game.play's loop with the trick path inline and those facts folded in as
literals, compiles it once and keeps it on the set-up's CardTables. A game
with an event log gets its own loop, with the kernel's events written in; one
without gets a loop without them. So the hand-written kernel can stay plain
Python that reads as the rules do: it is the reference, and speed is this
module's job.

- **The rules are the kernel's.** Who leads a trick (`Game._trick_leader`, which
  reads the round's first leader that the hand worked out) and who wins it
  (`Game._winning_play`) are not written here: the loop calls the kernel's one
  copy of each, so a hand described in a box file drives both loops.
- **The kernel is the reference.** The generated loop does what Game.play does,
  in the same order: the same decisions (the same option objects, actor, kind
  and prompt), the same calls of `choose` with the game in the same state, the
  same answers recorded, the same events logged, the same random draws, the
  same zones, populations, history. It runs the on-win hook of each trick and
  answers its choices; anything else — a Transfer, a count and its end-of-round
  powers, a Faction change — is handed to the kernel's own phases and answers.
  `tests/kernel/test_fast_trick_path.py` plays every bundled scenario both ways.
- **It steps aside.** No function is made (None) when a power in force has a
  rule on who wins or on what may be played, names the next trick's side (`next side`), or an event hook (`on lead`, `on
  play`, `on trick`, `after trick`, `start`, `after transfer`, `game end`):
  Game.play then runs its own loop. The generated loop returns False when the Factions in force change
  (a Faction change, a drawn power), and Game.play looks again.
- **Nothing a modder wrote is pasted into the source.** The identifiers are the
  generator's; a Faction's name or a zone's key is re-emitted with repr() once
  checked to be a str, a count with repr() once checked to be an int.
- **The switch.** `fastpath.ENABLED = False` (`bench/bench.py --no-fast-tricks`,
  `bench/instructions.py --no-fast-tricks`) runs the kernel's loop; both
  play the same games. (Game.apply, one decision at a time, always runs the
  kernel's own phases.)
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import Any, Callable

from happydayz.language import vm
from happydayz.kernel.layout import Trick
from happydayz.kernel.tables import pick

#: Whether Game.play runs the generated trick loop (a switch for comparisons and tests, not a setting:
#: both ways play the same games).
ENABLED = True

_MISSING = object()
_PLACEHOLDER = re.compile(r"@([A-Z_]+)@")


def _str(value: object) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a str, not {type(value).__name__}")
    return repr(value)


def _int(value: object) -> str:
    if type(value) is not int:
        raise TypeError(f"expected an int, not {type(value).__name__}")
    return repr(value)


def _strs(values) -> str:
    items = sorted(values)
    for item in items:
        _str(item)
    # written for `in` tests only: CPython makes a set display there a frozenset constant
    return "{" + ", ".join(map(repr, items)) + "}" if items else "()"


def _str_tuple(values) -> str:
    return "(" + "".join(_str(v) + ", " for v in values) + ")"


def _int_tuple(values) -> str:
    return "(" + "".join(_int(v) + ", " for v in values) + ")"


# The loop. Names in capitals are the per-set-up literals (replaced below) or the
# namespace's objects; the other names are the generator's own locals.
_TEMPLATE = '''
def play(game, choose, round_only, rounds):
    answers = game.answers
    tables = game.tables
    faction_of = tables.faction
    lead_table = tables.lead
    follow_table = tables.follow
    answering = UNANSWERED
    while True:
        if game._in_force is not IN_FORCE:
            return False
        d = game.decision
        if d is None:
            if game.over:
                return True
            if game.phase != 'start_trick':
                PHASES[game.phase](game)
                continue
        else:
            if round_only and len(game.history) != rounds:
                return True
            index = choose(d)
            options = d.options
            if type(index) is not int or index < 0 or index >= len(options):
                game._answer(d, index)
                continue
            value = options[index][0]
            answers.append(index)
@LOG_DECISION@
            game.decision = None
            kind = d.kind
            if kind == 'follow':
                card = value
                trick = game.trick
            elif kind == 'lead':
                card, side = value
                trick = game.trick
                trick.side = side
            elif (kind == 'choose' or kind == 'ask') and game.phase == 'powers' and game.after_frames == 'end_trick':
                answering = value  # a choice of a trick's hook: Game._answer_choose, run on below
            else:
                ANSWERS[kind](game, d, value)
                continue
            if kind == 'follow' or kind == 'lead':
                # ---- Game._answer_follow: the card is played
                seat = d.actor
                faction = faction_of[card]
                zones = game.zones
                loc = game.loc
                zones[loc[card]].remove(card)
                zones['table'].append(card)
                loc[card] = 'table'
                led = trick.led
                trump = False
                if faction != led:
                    if led is None:
                        if faction not in @NEVER_LEADS@:
                            trick.led = faction
                            trick.prompt = None
                    else:
                        if faction not in @ALWAYS@:
                            game.voids[seat].add(led)
@TRUMPS@
                plays = trick.plays
                plays.append((seat, card, trump))
@LOG_PLAY@
                game.phase = 'follow'
                # ---- Game._phase_follow: the next seat that holds cards, else the trick is resolved
                leader = trick.leader
                while True:
                    seat = @NEXT@[seat]
                    if seat == leader:
                        break
                    if zones[@HAND_KEYS@[seat]] or zones[@TRANSFER_KEYS@[seat]]:
                        break
                if seat != leader:
                    led = trick.led
@HELD_FOLLOW@
                    if len(held) > 1:
                        options = itemgetter(*held)(follow_table)
                    else:
                        options = (follow_table[held[0]],)
                    game.decision = Decision(seat, 'follow', trick.prompt or _follow_prompt(trick), options)
                    continue
                # ---- Game._phase_resolve
                game.phase = 'resolve'
                # who wins: the kernel's own rule (one copy of it, read by both loops)
                play = game._ruled_winning_play() if trick.declared else game._winning_play()
                winner = play[0] if play is not None else leader
                played, encounter = game._collect_trick(winner)
                blocked = play is not None and play[2] and faction_of[play[1]] in @BLOCKS@
@LOG_WIN@
                game.active = winner
                game.tricks_won[winner] += 1
                hook = None
                led = trick.led
                if play is not None and led is not None and not blocked:
                    hook = WIN_HOOKS[led] if led in WIN_HOOKS else game._win_hook(led)
                winning = play[1] if play is not None else plays[0][1]
                frames = game.frames
                if hook is not None:
@LOG_POWER@
                    frames.append(Frame(hook[0], winner, None, played, encounter, led, leader, None, winner,
                                        winning, trick.side))
                game.after_frames = 'end_trick'
                game.phase = 'powers'
            frames = game.frames
            # ---- Game._phase_powers
            asked = False
            while frames:
                frame = frames[0]
                program = PROGRAMS[frame.key]
                if answering is not UNANSWERED:
                    answer(frame, program, answering)
                    answering = UNANSWERED
                request = run(game, frame, program)
                if request is not None:
                    actor, kind, prompt, values, element = request
                    made = OPTIONS_OF[element]
                    if values[-1] is STOP:
                        options = (*pick(made, values[:-1]), STOP_OPTION)
                    elif len(values) > 1:
                        options = itemgetter(*values)(made)
                    else:
                        options = (made[values[0]],)
                    game.decision = Decision(actor, kind, prompt, options)
                    asked = True
                    break
                ended(game, frames.pop(0), program)
            answering = UNANSWERED
            if asked:
                continue
            if game.after_frames != 'end_trick':
                game.phase = game.after_frames
                PHASES[game.phase](game)
                continue
            # ---- Game._phase_end_trick
            game.phase = 'end_trick'
            if game.designated is not None:
                game.active = game.designated
            game.trick = None
            if game.round_ends:
                game.phase = 'count'
                continue
            game.phase = 'start_trick'
            continue
        # ---- Game._phase_start_trick (the phase is start_trick, no decision waits)
        zones = game.zones
@ANY_HELD@
        else:
            game.phase = 'count'
            continue
        if game.tricks_played >= @NCARDS@:
            PHASES['start_trick'](game)
            continue
        game.tricks_played += 1
        encounter = None
@ENCOUNTER@
        leader = game._trick_leader()  # who leads: the kernel's own rule, as for who wins
        named = game.named_lead
        trick = game.trick = Trick(leader, encounter, named, None, [], named is not None)
        game.named_lead = None
@LOG_ENCOUNTER@
        game.phase = 'lead'
        # ---- Game._phase_lead, with Game._legal_options
@HELD_LEAD@
        if len(held) > 1:
            options = sum(itemgetter(*held)(lead_table), ())
        else:
            options = sum((lead_table[held[0]],), ())
        game.decision = Decision(leader, 'lead', LEAD_PROMPT, options)
'''

# A card off the Faction led with a `trumps` rule: Game._answer_follow's test, as it is.
_TRUMPS = '''
                        if faction in TRUMP_RULES:
                            void = not any(faction_of[c] == led for c in game.held(seat))
                            ctx = Ctx(game, seat, {}, trick=tuple(c for _, c, _ in trick.plays), led=led,
                                      leader=trick.leader, card=card, void=void, side=trick.side)
                            trump = bool(TRUMP_RULES[faction](ctx))
'''

# The events Game records on the trick path (a game with an event log): the same dicts, keys in the same order.
_LOG = {
    "LOG_DECISION": '''
            game.log.append({"event": "decision", "round": game.round_no, "actor": d.actor, "decision": d.kind,
                             "answer": options[index].label})''',
    "LOG_PLAY": '''
                game.log.append({"event": "play", "round": game.round_no, "seat": seat, "card": LABEL[card],
                                 "side": trick.side, "trump": trump})''',
    "LOG_WIN": '''
                game.log.append({"event": "win", "round": game.round_no, "seat": winner, "led": trick.led,
                                 "blocked": blocked, "cards": [LABEL[c] for _, c, _ in plays]})''',
    "LOG_POWER": '''
                    game.log.append({"event": "power", "round": game.round_no, "power": hook[1], "variant": hook[2],
                                     "seat": winner})''',
    "LOG_ENCOUNTER": '''
        game.log.append({"event": "encounter", "round": game.round_no,
                         "card": LABEL[encounter] if encounter is not None else None, "leader": leader,
                         "named": named})''',
}


# Game._legal_options: `held`, the cards `seat` may play with `led` led (None: any), in its hand's order.
_HELD = '''
held = zones[{hands}[{seat}]]
received = zones[{transfers}[{seat}]]
if received:
    held = held + received
if {led} is not None:
    rule = PLAYABLE.get({led})
    if rule is None:
        rule = IN_FORCE.playable_for({led}, tables.cards_of)
    legal = list(filter(rule[0].__contains__, held))
    if len(legal) != len(held) and not rule[1].isdisjoint(legal):
        held = legal
'''


def _held(indent: int, seat: str, led: str, tables) -> str:
    """_HELD for the generator's own variables `seat` and `led`, indented to its place in the loop."""
    code = _HELD.format(seat=seat, led=led, hands=_str_tuple(tables.hand_keys),
                        transfers=_str_tuple(tables.transfer_keys))
    return "\n".join(" " * indent + line for line in code.strip("\n").splitlines())


#: What the generated loop names of the kernel's game module, which imports this one: filled in by it
#: (kernel.game, at its end) with Decision, PHASES, ANSWERS, LEAD_PROMPT, STOP_OPTION, UNANSWERED, _follow_prompt.
KERNEL: dict[str, Any] = {}


def _namespace() -> dict[str, Any]:
    return {
        "__builtins__": {},
        "len": len, "type": type, "int": int, "list": list, "filter": filter, "sum": sum, "tuple": tuple,
        "bool": bool, "any": any, "itemgetter": itemgetter,
        "Trick": Trick, "Frame": vm.Frame, "Ctx": vm.Ctx,
        "run": vm.run, "ended": vm.ended, "answer": vm.answer, "STOP": vm.STOP, "pick": pick,
        **KERNEL,
    }


def source_for(game) -> tuple[str, dict[str, Any]] | None:
    """(the source of the loop, its namespace) for the game's set-up and powers in force, or None: use the kernel's."""
    in_force, setup, tables = game._in_force, game.setup, game.tables
    if (in_force.restricted or in_force.ruled or in_force.play_hooks or in_force.trick_hooks or in_force.after_keys
            or in_force.start_keys or in_force.bid_keys or in_force.game_end_keys or in_force.names_side
            or setup.game_counts_as or in_force.enter_keys
            or game.dummy_rule):  # a dummy hand: the kernel's loop asks its decisions of its controller
        return None
    # The rules of every Faction a card may have, with the variants in force (Game.rules_of).
    never_leads, blocks, trump_rules = set(), set(), {}
    try:
        for faction in set(tables.faction):
            rules = setup.rules(faction, game.variant_of(faction))
            if rules.never_leads:
                never_leads.add(faction)
            if rules.blocks_led_power:
                blocks.add(faction)
            if rules.trumps is not None:
                trump_rules[faction] = rules.trumps
    except Exception:  # a card whose Faction has no power: the kernel's loop says what happens
        return None
    n = setup.n
    if type(n) is not int or n < 1:
        return None
    trumps = bool(trump_rules)
    held_keys = tables.held_keys
    # Game._phase_start_trick's test: the first hand or Transfer zone that holds cards
    any_held = "".join(f"{'if' if i == 0 else 'elif'} zones[{_str(key)}]:\n            pass\n        "
                       for i, key in enumerate(held_keys))
    any_held = "        " + any_held.rstrip()
    encounter = ("        reserve = zones['reserve']\n"
                 "        if reserve:\n"
                 "            encounter = reserve.pop(0)\n"
                 "            zones['encounter'].append(encounter)\n"
                 "            game.loc[encounter] = 'encounter'") if setup.encounter else "        pass"
    literals = {
        "HELD_FOLLOW": _held(20, "seat", "led", tables),
        "HELD_LEAD": _held(8, "leader", "named", tables),
        "TRUMPS": _TRUMPS.strip("\n") if trumps else "",
        "ANY_HELD": any_held,
        "ENCOUNTER": encounter,
        "NEVER_LEADS": _strs(never_leads),
        "ALWAYS": _strs(in_force.always_playable),
        "BLOCKS": _strs(blocks),
        "NEXT": _int_tuple(tuple((seat + 1) % n for seat in range(n))),
        "HAND_KEYS": _str_tuple(tables.hand_keys),
        "TRANSFER_KEYS": _str_tuple(tables.transfer_keys),
        "NCARDS": _int(len(game.cards)),
        **{name: (code.strip("\n") if game.record else "") for name, code in _LOG.items()},
    }
    # one pass: a literal put in is never read again for a placeholder
    source = _PLACEHOLDER.sub(lambda m: literals[m.group(1)], _TEMPLATE)
    namespace = _namespace()
    namespace.update({"IN_FORCE": in_force, "PLAYABLE": in_force.playable, "WIN_HOOKS": in_force.win_hooks,
                      "PROGRAMS": setup.programs, "OPTIONS_OF": tables.options_of, "TRUMP_RULES": trump_rules,
                      "LABEL": tables.label})
    return source, namespace


def loop_for(game) -> Callable | None:
    """The generated loop for the game's set-up and powers in force (made once, kept on its tables), or None."""
    tables = game.tables
    cache = tables.__dict__.get("fast_paths")
    if cache is None:
        cache = tables.fast_paths = {}
    in_force = game._in_force
    key = (in_force, game.record)
    found = cache.get(key, _MISSING)
    if found is _MISSING:
        made = source_for(game)
        if made is None:
            found = None
        else:
            source, namespace = made
            exec(compile(source, "<generated trick loop>", "exec"), namespace)
            found = namespace["play"]
        cache[key] = found
    return found
