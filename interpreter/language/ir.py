"""The compiled form of a power as JSON: the stable interface for other tools.

The export mirrors what the VM runs: for each variant its rules and, for each
hook, the flat instruction list with absolute jump targets; expressions appear
as typed trees. Its schema is boxes/schema/ir.schema.json.
"""

from __future__ import annotations

import dataclasses
import json

from happydayz.language import ast
from happydayz.language.compiler import (ASK, CHOOSE, EACH_INIT, EACH_NEXT, EFFECT, JUMP, JUMP_UNLESS, LET, OPCODE_NAMES,
                                         CompiledPower, Program)
from happydayz.language.visitor import Visitor
from happydayz.base.resources import data_dir

FORMAT = "happydayz-ir/1"
RULE_FLAGS = ("always_playable", "never_leads", "face_up", "carried_over", "blocks_led_power")


def power_ir(power: CompiledPower) -> dict:
    export = _Export(power.types)
    return {
        "format": FORMAT,
        "name": power.name,
        "binding": power.binding,
        "faction": power.faction,
        "file": power.file.name,
        "variants": {kind: _variant(export, v) for kind, v in power.variants.items()},
    }


def _variant(export: _Export, v) -> dict:
    rules = {flag: getattr(v, flag) for flag in RULE_FLAGS}
    rules["trumps_when"] = export.visit(v.trumps_source) if v.trumps_source is not None else None
    return {
        "title": v.title,
        "rules": rules,
        "hooks": {
            "on_win": _program(export, v.on_win),
            "end_of_round": _program(export, v.end_of_round),
        },
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
    visit_Move = visit_Draw = visit_Deal = visit_Score = visit_NextLeader = visit_NextLead = fields
    visit_Dest = visit_SortKey = fields


def schema() -> dict:
    return json.loads((data_dir("boxes") / "schema" / "ir.schema.json").read_text(encoding="utf-8"))


def dumps(power: CompiledPower) -> str:
    return json.dumps(power_ir(power), indent=2)
