"""The compiled form of a power as JSON: the stable interface for other tools.

The export mirrors what the VM runs: for each variant its rules and, for each
hook, the flat instruction list with absolute jump targets; expressions appear
as typed trees. Its schema is boxes/schema/ir.schema.json.
"""

from __future__ import annotations

import dataclasses
import json

from happydayz.language import ast
from happydayz.language.compiler import (ASK, CHOOSE, EACH_INIT, EACH_NEXT, EFFECT, JUMP, JUMP_UNLESS, LET, OPCODE_NAMES, SIMUL_BEGIN,
                       SIMUL_END, CompiledPower, Program)
from happydayz.base.resources import data_dir

FORMAT = "happydayz-ir/1"
RULE_FLAGS = ("always_playable", "never_leads", "face_up", "carried_over", "blocks_led_power")


def power_ir(power: CompiledPower) -> dict:
    return {
        "format": FORMAT,
        "name": power.name,
        "binding": power.binding,
        "faction": power.faction,
        "file": power.file.name,
        "variants": {kind: _variant(power, v) for kind, v in power.variants.items()},
    }


def _variant(power: CompiledPower, v) -> dict:
    rules = {flag: getattr(v, flag) for flag in RULE_FLAGS}
    rules["trumps_when"] = _expr(power, v.trumps_source) if v.trumps_source is not None else None
    return {
        "title": v.title,
        "rules": rules,
        "hooks": {
            "on_win": _program(power, v.on_win),
            "end_of_round": _program(power, v.end_of_round),
        },
    }


def _program(power: CompiledPower, program: Program | None) -> list | None:
    if program is None:
        return None
    return [_instruction(power, pc, ins) for pc, ins in enumerate(program.instructions)]


def _instruction(power: CompiledPower, pc: int, ins: tuple) -> dict:
    op = ins[0]
    node = ins[-1]
    out: dict = {"pc": pc, "op": OPCODE_NAMES[op]}
    if node is not None:
        out["line"] = node.span.line
    if op == LET:
        out.update(name=ins[1], value=_expr(power, node.value))
    elif op == JUMP:
        out.update(to=ins[1])
    elif op == JUMP_UNLESS:
        out.update(condition=_expr(power, node.condition), to=ins[2])
    elif op == EACH_INIT:
        if isinstance(node, ast.Repeat):
            out.update(slot=ins[1], times=node.count)
        else:
            out.update(slot=ins[1], source=_expr(power, node.source))
    elif op == EACH_NEXT:
        out.update(slot=ins[1], name=ins[2], done=ins[3])
    elif op == CHOOSE:
        spec = ins[1]
        out.update(name=spec.name, mode=spec.mode, count=spec.count, element=spec.element,
                   source=_expr(power, node.source),
                   chooser=_expr(power, node.chooser) if node.chooser is not None else None,
                   prompt=spec.prompt, empty=ins[2])
    elif op == ASK:
        out.update(prompt=ins[1], chooser=_expr(power, node.chooser) if node.chooser is not None else None, no=ins[3])
    elif op == EFFECT:
        out.update(statement=_node(power, node))
    elif op in (SIMUL_BEGIN, SIMUL_END):
        pass
    return out


def _expr(power: CompiledPower, node: ast.Node) -> dict:
    return _node(power, node)


def _node(power: CompiledPower, node) -> dict:
    out: dict = {"node": type(node).__name__}
    t = power.types.get(id(node))
    if t is not None:
        out["type"] = t
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        out[f.name] = _value(power, getattr(node, f.name))
    return out


def _value(power: CompiledPower, value):
    if isinstance(value, ast.Node):
        return _node(power, value)
    if isinstance(value, tuple):
        return [_value(power, v) for v in value]
    return value


def schema() -> dict:
    return json.loads((data_dir("boxes") / "schema" / "ir.schema.json").read_text(encoding="utf-8"))


def dumps(power: CompiledPower) -> str:
    return json.dumps(power_ir(power), indent=2)
