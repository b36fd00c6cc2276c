"""What every player has seen this round, as Game.observe reports it.

Cards are played face up, so everyone knows which cards each Community won
(`expedition_known`) and which Faction led a Community could not follow
(`voids`). Powers move cards in plain sight, except the cards they pick at
random: nobody sees which card that was.
"""

from __future__ import annotations

import random

from conftest import answer, check_invariants, make_game, position

from happydayz.data.environment import Environment
from happydayz.kernel.determinize import sample_state
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare


def known(game, seat: int) -> list[str]:
    return sorted(c["label"] for c in game.observe(0)["expedition_known"][seat])


def test_the_cards_of_a_won_trick_are_known_where_they_went():
    g = make_game([("Hippies", "basic"), "Soldiers", "Dogs"])
    position(g, hands={0: ["Hippies 9", "Soldiers 1"], 1: ["Hippies 5", "Soldiers 2"], 2: ["Hippies 2", "Soldiers 3"]},
             expeditions={1: ["Dogs 4"]}, reserve=["Zombies 18", "Dogs 7"], active=0)
    answer(g, "Hippies 9 on +@0", "Hippies 5@1", "Hippies 2@2")
    # the trick lies in seat 0's zone until the power gives it away, in plain sight
    assert known(g, 0) == ["Hippies 2", "Hippies 5", "Hippies 9", "Zombies 18"]
    answer(g, "Community 2@0")
    assert known(g, 0) == ["Zombies 18"]
    assert known(g, 2) == ["Hippies 2", "Hippies 5", "Hippies 9"]
    assert known(g, 1) == []  # Dogs 4 was there before anyone saw it
    assert [len(c) for c in g.observe(1)["expedition_known"]] == [1, 0, 3]  # the same for every seat
    check_invariants(g)


def _dogs_trick(variant: str):
    g = make_game([("Dogs", variant), "Hippies", "Soldiers"])
    position(g, hands={0: ["Dogs 8", "Hippies 1"], 1: ["Dogs 2", "Hippies 3"], 2: ["Dogs 1", "Soldiers 4"]},
             expeditions={1: ["Zombies 19", "Hippies 12"]}, reserve=["Hippies 13", "Soldiers 12"], active=0)
    # seat 1 won the Zombie earlier in the round, in everyone's sight
    g.known = [[], [c for c in g.zone("expedition", 1) if g.label(c) == "Zombies 19"], []]
    answer(g, "Dogs 8 on +@0", "Dogs 2@1", "Dogs 1@2")
    return g


def test_a_card_picked_at_random_leaves_nobody_sure_of_the_zone():
    g = _dogs_trick("negative")  # STRAY DOG: a random card of the victim's goes to an Expedition zone
    assert known(g, 1) == ["Zombies 19"]
    answer(g, "Community 1@0", "Community 2@0", "Community 0@0")
    # which card strayed is secret: seat 1's known card may be gone, and the stray is not known in seat 2's zone
    assert known(g, 1) == []
    assert known(g, 2) == []
    assert len(g.zone("expedition", 2)) == 1
    assert known(g, 0) == ["Dogs 1", "Dogs 2", "Dogs 8", "Hippies 13"]  # the Encounter card was kept in sight
    check_invariants(g)


def test_a_known_void_holds_in_every_determinization():
    g = make_game([("Hippies", "basic"), "Soldiers", "Dogs"])
    position(g, hands={0: ["Soldiers 9", "Soldiers 1"], 1: ["Hippies 5", "Dogs 2"], 2: ["Soldiers 2", "Dogs 3"]},
             reserve=["Zombies 18", "Dogs 7"], active=0)
    answer(g, "Soldiers 9 on +@0", "Hippies 5@1", "Soldiers 2@2")
    assert g.observe(2)["voids"] == [[], ["Soldiers"], []]
    while g.decision.kind != "lead":  # the Soldiers' power, whatever it asks
        g.apply(0)
    # at the next lead, a determinization never deals a Soldier into seat 1's hand
    assert g.voids[1] == {"Soldiers"}
    for k in range(20):
        seat = g.decision.actor
        sampled = sample_state(g.setup, g.observe(seat), random.Random(k), decision=g.decision)
        assert not any(g.cards[c].faction == "Soldiers" for c in sampled.zone("hand", 1))
        assert sampled.observe(seat)["expedition_known"] == g.observe(seat)["expedition_known"]
    check_invariants(g)


def test_a_hand_that_receives_a_card_is_no_longer_known_void():
    g = make_game([("Cheerleaders", "basic"), "Bikers", "Survivalists"], box="american-dream")
    position(g, hands={0: ["Cheerleaders 9", "Cheerleaders 2"], 1: ["Bikers 5", "Bikers 3"],
                       2: ["Cheerleaders 4", "Survivalists 3"]},
             reserve=["Zombies 18", "Bikers 7"], active=0)
    answer(g, "Cheerleaders 9 on +@0", "Bikers 5@1", "Cheerleaders 4@2")
    assert g.observe(0)["voids"][1] == ["Cheerleaders"]
    # seat 0 won: each Community passes a Cheerleader (if it has one) to its left neighbour
    answer(g, "Cheerleaders 2@0")
    while g.decision is not None and g.decision.kind == "choose":
        g.apply(0)
    assert any(g.label(c) == "Cheerleaders 2" for c in g.zone("hand", 1))
    assert g.observe(0)["voids"][1] == []
    check_invariants(g)


def test_the_face_up_cards_are_those_whose_rules_say_so():
    """The observation finds face-up Expedition cards by their Faction (Game.face_up_factions, made once per set
    of powers in force): at every step of random games, for every card in a zone, it agrees with the card's own
    rules, and the observation's face-up lists are exactly the cards whose rules say face up."""
    face_up_seen = 0
    for scenario in ("american-dream/1", "woodstock-fever/1"):
        setup, _ = prepare(Environment(), scenario, players=4, express=True)
        rng = random.Random(scenario)
        for seed in range(3):
            game = Game(setup, seed)
            while game.decision is not None:
                up = game.face_up_factions()
                for key in game.expedition_keys:
                    zone = game.zones[key]
                    by_rules = [c for c in zone if game.rules_of(c).face_up]
                    assert [c for c in zone if game.tables.faction[c] in up] == by_rules
                    face_up_seen += len(by_rules)
                observed = game.observe(0)["expedition_face_up"]
                assert [[c["id"] for c in cards] for cards in observed] == [
                    [c for c in game.zones[k] if game.rules_of(c).face_up] for k in game.expedition_keys]
                game.apply(rng.randrange(len(game.decision.options)))
    assert face_up_seen > 0  # (the check met face-up cards: it can fail)
