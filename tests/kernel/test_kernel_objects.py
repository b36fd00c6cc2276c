"""The trick loop makes decisions, tricks and hook frames without calling their classes.

These tests check that what it makes is whole and equal to what the class call
makes, so that a field added to one of them and forgotten in the fast path fails
here rather than in the middle of a game.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from happydayz.language import vm
from happydayz.kernel.game import Decision, Game, Trick

from conftest import prepare


def _fields(obj) -> dict:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}  # AttributeError if one is unset


@pytest.mark.parametrize("scenario", ["woodstock-fever/1", "american-dream/1"])
def test_every_decision_and_trick_is_whole(scenario):
    setup = prepare(scenario, players=4, express=True)[0]
    game = Game(setup, 11, record=False)
    rng = random.Random(5)
    kinds = set()
    while game.decision is not None:
        d = game.decision
        kinds.add(d.kind)
        made = Decision(d.actor, d.kind, d.prompt, d.options)
        assert made == d and hash(made) == hash(d) and repr(made) == repr(d)
        if game.trick is not None:
            assert Trick(**_fields(game.trick)) == game.trick
        game.apply(rng.randrange(len(d.options)))
    assert {"transfer", "lead", "follow", "choose"} <= kinds


def test_a_follow_prompt_names_the_faction_led_and_the_side():
    setup = prepare("woodstock-fever/1", players=4, express=True)[0]
    game = Game(setup, 3, record=False)
    while game.decision.kind != "follow":
        game.apply(0)
    trick = game.trick
    assert game.decision.prompt == f"Play a card ({trick.led} led, {trick.side} side)"


def test_a_hook_frame_is_the_frame_the_class_makes():
    key = ("some.power", "basic", "win")
    assert vm.frame(key, 2) == vm.Frame(key, 2)
    assert vm.frame(key, 1, 7, (3, 4), (5,), "Dogs", 0) == vm.Frame(key, 1, 7, (3, 4), (5,), "Dogs", 0)
    assert _fields(vm.frame(key, 0))["env"] == {}


def test_a_pending_power_choice_names_its_power_and_variant():
    setup = prepare("woodstock-fever/2", players=4, express=True)[0]
    game = Game(setup, 3, record=False)
    rng = random.Random(1)
    asked = set()
    while game.decision is not None:
        power = game.asking_power()
        if game.decision.kind in ("choose", "ask"):
            asked.add(power)
        else:
            assert power is None
        game.apply(rng.randrange(len(game.decision.options)))
    assert asked == {("Soldiers", "positive", "REINFORCEMENTS"), ("Dogs", "positive", "TRAINING")}
