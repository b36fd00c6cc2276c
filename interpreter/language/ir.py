"""The compiled form of a power as JSON: the stable interface for other tools.

The export mirrors what the VM runs: for each variant its rules and, for each
hook, the flat instruction list with absolute jump targets; expressions appear
as typed trees. Its schema is boxes/schema/ir.schema.json.

What issue 14 added to the language (lasting state, the hooks beyond `on win`
and `at end of round`, the trick rules, a choice of courses) appears only in a
power that uses it, so the export of a power written without it is unchanged.
"""

from __future__ import annotations

import dataclasses
import json

from happydayz.language import ast
from happydayz.language.compiler import (ASK, CHOOSE, EACH_INIT, EACH_NEXT, EFFECT, JUMP, JUMP_UNLESS, LET, MODE,
                                         OPCODE_NAMES, CompiledPower, Program)
from happydayz.language.visitor import Visitor
from happydayz.base.resources import data_dir

FORMAT = "happydayz-ir/1"
RULE_FLAGS = ("always_playable", "never_leads", "face_up", "carried_over", "blocks_led_power")
# The rules of issue 14, each exported only when the variant has it: `true` for a rule without a
# condition, else its condition (for `beats`, the Factions beaten) as a typed tree.
TRICK_RULES = ("wins", "never_wins", "wild", "beats", "leads_only_when", "only_leads", "must_be_played",
               "bids_only_when", "always_playable_when", "never_leads_when", "must_beat", "must_trump")
# Every hook's key in the export, by the compiler's short name; `on_win` and `end_of_round` are always
# there (null when the variant has no such hook), the others only when written.
HOOK_KEYS = {"win": "on_win", "end": "end_of_round", "play": "on_play", "lead": "on_lead", "trick": "on_trick",
             "after_trick": "after_trick", "start": "start_of_round", "after_transfer": "after_transfer",
             "game_end": "end_of_game", "enter_expedition": "on_enter_expedition", "enter_hand": "on_enter_hand"}
ALWAYS_EXPORTED_HOOKS = ("win", "end")


def power_ir(power: CompiledPower) -> dict:
    export = _Export(power.types)
    out = {
        "format": FORMAT,
        "name": power.name,
        "binding": power.binding,
        "faction": power.faction,
        "file": power.file.name,
        "variants": {kind: _variant(export, v) for kind, v in power.variants.items()},
    }
    if power.state:
        out["state"] = {name: {"kind": spec.kind, "per_community": spec.per_community, "lifetime": spec.lifetime,
                               "visibility": spec.visibility, "key": spec.key,
                               **({"option": spec.option} if spec.option is not None else {}),
                               **({"holds": spec.holds} if spec.holds is not None else {}),
                               **({"shared": spec.shared} if spec.shared else {})}
                        for name, spec in power.state.items()}
    return out


def _variant(export: _Export, v) -> dict:
    rules = {flag: getattr(v, flag) for flag in RULE_FLAGS}
    rules["trumps_when"] = export.visit(v.trumps_source) if v.trumps_source is not None else None
    for kind in TRICK_RULES:
        if kind in v.sources:
            rules[kind] = export.visit(v.sources[kind])
        elif getattr(v, kind):
            rules[kind] = True
    if v.counts_as_source:  # (only where used: the IR of every other power is unchanged)
        rules["counts_as"] = [{"faction": export.visit(r.counts_as), "ranked": export.visit(r.ranked),
                               "when": export.visit(r.condition)} for r in v.counts_as_source]
    hooks = {HOOK_KEYS[name]: _program(export, v.hooks.get(name)) for name in ALWAYS_EXPORTED_HOOKS}
    hooks.update((HOOK_KEYS[name], _program(export, program)) for name, program in v.hooks.items()
                 if name not in ALWAYS_EXPORTED_HOOKS)
    return {
        "title": v.title,
        "rules": rules,
        "hooks": hooks,
    }


def _program(export: _Export, program: Program | None) -> list | None:
    if program is None:
        return None
    return [_instruction(export, pc, ins) for pc, ins in enumerate(program.instructions)]


def _instruction(export: _Export, pc: int, ins: tuple) -> dict:
    op = ins[0]
    node = ins[-1]
    out: dict = {"pc": pc, "op": OPCODE_NAMES[op]}
    if node is not None:
        out["line"] = node.span.line
    if op == LET:
        out.update(name=ins[1], value=export.visit(node.value))
    elif op == JUMP:
        out.update(to=ins[1])
    elif op == JUMP_UNLESS:
        out.update(condition=export.visit(node.condition), to=ins[2])
    elif op == EACH_INIT:
        if isinstance(node, ast.Repeat):
            out.update(slot=ins[1], times=node.count)
        else:
            out.update(slot=ins[1], source=export.visit(node.source))
    elif op == EACH_NEXT:
        out.update(slot=ins[1], name=ins[2], done=ins[3])
    elif op == CHOOSE:
        spec = ins[1]
        out.update(name=spec.name, mode=spec.mode, count=spec.count, element=spec.element,
                   source=export.visit(node.source),
                   chooser=export.visit(node.chooser) if node.chooser is not None else None,
                   prompt=spec.prompt, empty=ins[2])
    elif op == ASK:
        out.update(prompt=ins[1], chooser=export.visit(node.chooser) if node.chooser is not None else None, no=ins[3])
    elif op == MODE:
        out.update(options=list(ins[1]), chooser=export.visit(node.chooser) if node.chooser is not None else None,
                   to=list(ins[3]), prompt=ins[4])
    elif op == EFFECT:
        out.update(statement=export.visit(node))
    return out


class _Export(Visitor):
    """A node as a typed tree: its class, its type (for an expression) and its fields."""

    def __init__(self, types: dict[int, str]):
        self.types = types  # id(expression) -> type, as the checker found it

    def fields(self, node: ast.Node) -> dict:
        out: dict = {"node": type(node).__name__}
        t = self.types.get(id(node))
        if t is not None:
            out["type"] = t
        for f in dataclasses.fields(node):
            if f.name != "span":
                out[f.name] = self.value(getattr(node, f.name))
        return out

    def value(self, value):
        if isinstance(value, ast.Node):
            return self.handler("visit", value)(value)
        if isinstance(value, tuple):
            return [self.value(v) for v in value]
        return value

    # What an instruction refers to: expressions, and effect statements with their destinations and sort keys.
    visit_IntLit = visit_FactionLit = visit_NameRef = visit_BareAttr = visit_AttrOf = visit_ZoneRef = fields
    visit_Neighbour = visit_Call = visit_Comprehension = visit_ListLit = visit_Arith = visit_Neg = fields
    visit_Logic = visit_Not = visit_Compare = visit_Where = visit_Except = visit_Otherwise = visit_WithExtreme = fields
    visit_StateOf = fields
    visit_Move = visit_Draw = visit_Deal = visit_Score = visit_NextLeader = visit_NextLead = fields
    visit_SetState = visit_AddState = visit_Declare = visit_SetSide = visit_End = visit_NextSide = visit_NobodyTakes = fields
    visit_SetVar = fields  # `set points = 3`: an effect when it sets a counter or mark
    visit_Dest = visit_SortKey = fields


def schema() -> dict:
    return json.loads((data_dir("boxes") / "schema" / "ir.schema.json").read_text(encoding="utf-8"))


def dumps(power: CompiledPower) -> str:
    return json.dumps(power_ir(power), indent=2)
