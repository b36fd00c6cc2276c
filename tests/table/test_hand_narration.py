"""The table's narration of a hand described in a file: who deals, and a Transfer into the hand kept secret."""

from __future__ import annotations

from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.table.narration import narrate

from conftest import ENV, ROOT

MODS = ROOT / "tests" / "games" / "mods"


def _setup(name: str):
    return prepare(ENV, MODS / f"{name}.scenario.yaml", express=True)[0]


def test_the_narration_hides_a_card_passed_into_a_hand_from_everyone_but_its_giver_and_receiver():
    game = Game(_setup("hand_into_hand"), 1)
    while game.decision.kind == "transfer":
        game.apply(0)
    passed = next(e for e in game.log if e["event"] == "transfer")["passes"]
    lines = [line.text for line in narrate(game, viewer=0) if line.event == "transfer"]
    by_1 = next(p for p in passed if p["from"] == 1)  # seat 1 passes to seat 0, its right neighbour
    by_2 = next(p for p in passed if p["from"] == 2)  # seat 2 to seat 1: seat 0 is neither
    assert any(line.startswith(f"Community 1 passes {by_1['card']} (") and line.endswith(") to your hand.")
               for line in lines)
    assert "Community 2 passes a card to Community 1's hand." in lines


def test_the_narration_says_who_deals():
    game = Game(_setup("hand_rotating"), 0)
    assert [line.text for line in narrate(game, viewer=1) if line.event == "dealer"] == ["Round 1: Community 0 deals."]
