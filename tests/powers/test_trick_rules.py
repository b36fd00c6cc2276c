"""The powers that change how a trick is played or won, from a set position:
the Mini-van (played instead of following, never wins, carried into the next
round), the Zombies' distribution of a Zombie trick, and the Police Officers'
cut.

Expected zones and populations are worked out by hand from the rulebooks (the
Woodstock Fever rulebook and the American Dream rulebook's "Details on
Powers"), RULINGS.md and POWERS.md; the arithmetic is in the comments.
Zombie losses: values 1-10 lose 3, 11-16 lose 6, 17-20 lose 9. Every human
card is worth +1, a Mini-van 0. Populations start at 66; express games end
after one round, and a position where nobody holds a card is counted at once.
Seats are 0..n-1; clockwise = next seat; "left neighbour" = next seat.
"""

from __future__ import annotations

import pytest

from conftest import answer, deltas, labels, make_game, options, position

# The box of the Police Officers section; the others use make_game's
# default box.
BOX = "american-dream"


def expeditions(g):
    return [labels(g, "expedition", s) for s in range(g.n)]


# =============================================================== Mini-van

def test_minivan_may_be_played_when_able_to_follow_and_never_wins():
    g = make_game(["Scientists", "Hippies", "Soldiers"])
    position(g, hands={0: ["Scientists 5"], 1: ["Scientists 9", "Mini-van"], 2: ["Scientists 2"]},
             reserve=["Hippies 1"], active=0)
    answer(g, "Scientists 5 on +@0")
    assert sorted(options(g)) == ["Mini-van", "Scientists 9"]
    answer(g, "Mini-van@1", "Scientists 2@2")
    # the Mini-van has no value: the 5 wins on the + side
    assert labels(g, "expedition", 0) == ["Hippies 1", "Mini-van", "Scientists 2", "Scientists 5"]
    assert g.decision.actor == 1  # seat 0 has no card left: the lead passes clockwise
    face_up = g.observe(2)["expedition_face_up"]
    assert [c["label"] for c in face_up[0]] == ["Mini-van"]


def test_minivan_lead_next_card_sets_the_faction():
    g = make_game(["Scientists", "Hippies", "Soldiers"])
    position(g, hands={0: ["Mini-van"], 1: ["Scientists 3"], 2: ["Scientists 8", "Hippies 13"]},
             reserve=["Hippies 1"], active=0)
    answer(g, "Mini-van on +@0", "Scientists 3@1")
    assert options(g) == ["Scientists 8"]  # Scientists led: seat 2 must follow
    answer(g, "Scientists 8@2")
    assert labels(g, "expedition", 2) == ["Hippies 1", "Mini-van", "Scientists 3", "Scientists 8"]


def test_minivan_only_minivans_leader_wins():
    g = make_game([("Hippies", "negative"), "Scientists", "Soldiers"])
    position(g, hands={0: ["Mini-van"], 1: ["Mini-van"], 2: ["Mini-van"]}, reserve=["Zombies 20"], active=1)
    answer(g, "Mini-van on -@1", "Mini-van@2", "Mini-van@0")
    assert labels(g, "expedition", 1) == ["Mini-van", "Mini-van", "Mini-van", "Zombies 20"]
    assert deltas(g) == [0, -9, 0]


def test_minivan_carried_into_the_next_round_one_card_fewer():
    g = make_game(["Scientists", "Hippies", "Soldiers"], express=False)
    position(g, hands={0: ["Scientists 5"], 1: ["Scientists 9", "Mini-van"], 2: ["Scientists 2"]},
             round_no=1, active=0)
    van = g.zone("hand", 1)[1]
    assert g.label(van) == "Mini-van"
    answer(g, "Scientists 5 on +@0", "Mini-van@1", "Scientists 2@2")
    answer(g, "Scientists 9 on +@1")  # the last card
    # round 1: seat 0: +2; seat 1: +1; seat 2: 0 (lost the most: it may change a Faction)
    assert deltas(g) == [2, 1, 0]
    assert g.decision.kind == "faction_change" and g.decision.actor == 2
    answer(g, "keep the Factions in play@2")
    # round 2 is dealt: 14 cards each with 3 players, seat 0 owns 1 Mini-van -> 13 + the Mini-van
    assert g.round_no == 2 and g.decision.kind == "transfer"
    assert van in g.zone("hand", 0)
    assert [len(g.zone("hand", s)) for s in range(3)] == [14, 14, 14]
    assert len(g.reserve) == 62 - 42
    for seat in range(3):
        assert g.zone("expedition", seat) == []


# =============================================================== Zombies

def test_zombies_distribution_greatest_loss_first_ties_higher_value():
    g = make_game(["Hippies", "Soldiers", "Dogs"], players=5)
    position(g, hands={0: ["Zombies 3"], 1: ["Zombies 12"], 2: ["Zombies 5"], 3: ["Zombies 18"],
                       4: ["Zombies 11"]}, reserve=["Hippies 13"], active=0)
    answer(g, "Zombies 3 on -@0", "Zombies 12@1", "Zombies 5@2", "Zombies 18@3", "Zombies 11@4")
    # the 3 wins on the - side: seat 0 takes the Encounter, then clockwise from
    # seat 0: 18 (-9), 12 (-6, higher than 11), 11 (-6), 5 (-3, higher than 3), 3
    assert labels(g, "expedition", 0) == ["Hippies 13", "Zombies 18"]
    assert labels(g, "expedition", 1) == ["Zombies 12"]
    assert labels(g, "expedition", 2) == ["Zombies 11"]
    assert labels(g, "expedition", 3) == ["Zombies 5"]
    assert labels(g, "expedition", 4) == ["Zombies 3"]
    assert deltas(g) == [1 - 9, -6, -6, -3, -3]


def test_zombies_distribution_clockwise_from_the_winner_wraps():
    g = make_game(["Hippies", "Soldiers", "Dogs"], players=4)
    position(g, hands={0: ["Zombies 9"], 1: ["Zombies 2"], 2: ["Zombies 17"], 3: ["Zombies 16"]},
             reserve=["Zombies 20"], active=0)
    answer(g, "Zombies 9 on +", "Zombies 2", "Zombies 17", "Zombies 16")
    # seat 2 wins; it keeps the Encounter Zombie 20, then 17 -> seat 2, 16 -> seat 3,
    # 9 -> seat 0, 2 -> seat 1 (equal loss: higher value first)
    assert labels(g, "expedition", 2) == ["Zombies 17", "Zombies 20"]
    assert labels(g, "expedition", 3) == ["Zombies 16"]
    assert labels(g, "expedition", 0) == ["Zombies 9"]
    assert labels(g, "expedition", 1) == ["Zombies 2"]
    assert deltas(g) == [-3, -3, -18, -6]


def test_zombies_fewer_zombies_than_communities():
    g = make_game(["Hippies", "Soldiers", "Dogs"], players=4)
    position(g, hands={0: ["Zombies 4"], 1: ["Hippies 2"], 2: ["Zombies 14"], 3: ["Soldiers 9"]},
             reserve=[], active=0)
    answer(g, "Zombies 4 on -", "Hippies 2", "Zombies 14", "Soldiers 9")
    # the 4 wins on the - side (seat 0): it takes the humans and the 14; seat 1 the 4
    assert labels(g, "expedition", 0) == ["Hippies 2", "Soldiers 9", "Zombies 14"]
    assert labels(g, "expedition", 1) == ["Zombies 4"]
    assert labels(g, "expedition", 2) == labels(g, "expedition", 3) == []


def test_zombies_trick_minivan_goes_to_the_winner():
    g = make_game(["Hippies", "Soldiers", "Dogs"])
    position(g, hands={0: ["Zombies 10"], 1: ["Zombies 3", "Mini-van"], 2: ["Zombies 12"]},
             reserve=["Dogs 1"], active=0)
    answer(g, "Zombies 10 on +@0")
    assert sorted(options(g)) == ["Mini-van", "Zombies 3"]  # a Mini-van instead of following
    answer(g, "Mini-van@1", "Zombies 12@2")
    # the 12 wins: seat 2 takes the Mini-van and the Encounter card, then 12 (-6) itself, 10 -> seat 0
    assert labels(g, "expedition", 2) == ["Dogs 1", "Mini-van", "Zombies 12"]
    assert labels(g, "expedition", 0) == ["Zombies 10"]
    assert labels(g, "expedition", 1) == []
    # seat 1 still holds the 3: it is the only one with cards and leads the last trick
    assert g.decision.actor == 1 and options(g) == ["Zombies 3 on +", "Zombies 3 on -"]


# =============================================================== Police Officers

def _police_cut(variant):
    # Seat 0 leads the Cheerleaders 10 on +; seat 1 has no Cheerleader and cuts
    # with the Police Officers 2; seat 2 must still follow Cheerleaders.
    g = make_game([("Police Officers", variant), "Cheerleaders", "Survivalists"], box=BOX)
    position(g, hands={0: ["Cheerleaders 10", "Cheerleaders 1"],
                       1: ["Police Officers 2", "Survivalists 4"],
                       2: ["Cheerleaders 13", "Police Officers 12", "Cheerleaders 5"]},
             reserve=["Survivalists 13", "Survivalists 12"], active=0)
    answer(g, "Cheerleaders 10 on +@0")
    assert sorted(options(g)) == ["Police Officers 2", "Survivalists 4"]
    answer(g, "Police Officers 2@1")
    # seat 2 holds Cheerleaders: it must follow, it may not cut
    assert sorted(options(g)) == ["Cheerleaders 13", "Cheerleaders 5"]
    answer(g, "Cheerleaders 13@2")
    # the Police Officer (2) wins over the Cheerleaders 13
    assert labels(g, "expedition", 1) == ["Cheerleaders 10", "Cheerleaders 13", "Police Officers 2",
                                          "Survivalists 13"]
    assert labels(g, "expedition", 0) == labels(g, "expedition", 2) == []
    return g


@pytest.mark.parametrize("variant", ["basic", "negative"])
def test_police_officers_cut_and_block_the_power_of_the_faction_led(variant):
    # basic and CURFEW alike on a non-Zombie trick
    g = _police_cut(variant)
    # the Cheerleaders' power is blocked: nobody passes a card
    assert g.decision.kind == "lead" and g.decision.actor == 1
    assert labels(g, "hand", 0) == ["Cheerleaders 1"]
    assert labels(g, "hand", 1) == ["Survivalists 4"]
    assert labels(g, "hand", 2) == ["Cheerleaders 5", "Police Officers 12"]


def test_police_officers_positive_armory_the_power_still_runs():
    g = _police_cut("positive")
    # the Cheerleaders' power runs for the winner, seat 1: givers from seat 1
    # clockwise; seat 1 has no Cheerleader and is not asked
    assert g.decision.actor == 2
    assert options(g) == ["Cheerleaders 5"]
    answer(g, "Cheerleaders 5@2")
    assert options(g) == ["Cheerleaders 1"]
    answer(g, "Cheerleaders 1@0")
    assert g.decision.kind == "lead" and g.decision.actor == 1
    assert labels(g, "hand", 0) == ["Cheerleaders 5"]
    assert labels(g, "hand", 1) == ["Cheerleaders 1", "Survivalists 4"]
    assert labels(g, "hand", 2) == ["Police Officers 12"]


def _police_zombie_trick(variant):
    # Seat 0 leads the Zombies 3 on +; seat 1 has no Zombie and plays the
    # Police Officers 1; seat 2 must follow with the Zombies 15. Encounter:
    # Zombies 20. Nobody holds a card afterwards: the round is counted.
    g = make_game([("Police Officers", variant), "Cheerleaders", "Survivalists"], box=BOX)
    position(g, hands={0: ["Zombies 3"], 1: ["Police Officers 1"], 2: ["Zombies 15", ]},
             reserve=["Zombies 20"], active=0)
    answer(g, "Zombies 3 on +@0", "Police Officers 1@1")
    assert options(g) == ["Zombies 15"]
    answer(g, "Zombies 15@2")
    return g


def test_police_officers_basic_cut_a_zombie_trick_the_zombies_stay():
    g = _police_zombie_trick("basic")
    assert g.over
    # the Zombies' power is blocked: every Zombie stays with the winner
    assert expeditions(g) == [[], ["Police Officers 1", "Zombies 15", "Zombies 20", "Zombies 3"], []]
    # seat 1: +1 - 6 - 9 - 3 = -17
    assert deltas(g) == [0, -17, 0]
    assert g.population == [66, 49, 66]


def test_police_officers_positive_armory_zombie_trick_is_dealt_out():
    g = _police_zombie_trick("positive")
    # seat 1 wins by the cut but the Zombies' power runs: it keeps the Police
    # Officer and the Encounter card (Zombies 20); the trick's Zombies are dealt
    # from seat 1 clockwise, greatest loss first: 15 (-6) to seat 1, 3 to seat 2
    assert expeditions(g) == [[], ["Police Officers 1", "Zombies 15", "Zombies 20"], ["Zombies 3"]]
    # seat 1: +1 - 9 - 6 = -14; seat 2: -3
    assert deltas(g) == [0, -14, -3]
    assert g.population == [66, 52, 63]


def test_police_officers_negative_curfew_cannot_win_a_zombie_trick():
    g = _police_zombie_trick("negative")
    # the Police Officer does not cut: the Zombies 15 wins (+ side); seat 2 takes
    # the Police Officer and the Encounter card, then the trick's Zombies are
    # dealt from seat 2: 15 to seat 2, 3 to seat 0
    assert expeditions(g) == [["Zombies 3"], [], ["Police Officers 1", "Zombies 15", "Zombies 20"]]
    # seat 2: +1 - 9 - 6 = -14; seat 0: -3
    assert deltas(g) == [-3, 0, -14]
    assert g.population == [63, 66, 52]


@pytest.mark.parametrize("variant", ["basic", "positive", "negative"])
@pytest.mark.parametrize("side, winner", [("+", 1), ("-", 2)])
def test_police_officers_several_cut_the_best_for_the_side_wins(variant, side, winner):
    # two Communities cut: + side the Police Officers 9 (seat 1), - side the 4 (seat 2)
    g = make_game([("Police Officers", variant), "Cheerleaders", "Survivalists"], box=BOX)
    position(g, hands={0: ["Cheerleaders 10"], 1: ["Police Officers 9"], 2: ["Police Officers 4"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, f"Cheerleaders 10 on {side}@0", "Police Officers 9@1", "Police Officers 4@2")
    assert g.over
    expected = [[], [], []]
    expected[winner] = ["Cheerleaders 10", "Police Officers 4", "Police Officers 9", "Survivalists 13"]
    assert expeditions(g) == expected
    # 4 humans: +4
    assert deltas(g)[winner] == 4


@pytest.mark.parametrize("variant", ["basic", "positive", "negative"])
def test_police_officers_cut_a_governors_trick(variant):
    # Governors led by seat 0; seat 2, void, cuts with the Police Officers 3.
    # Blocked (basic, CURFEW): no designation, seat 2 leads next. ARMORY: the
    # Governors' power runs for seat 2, which designates the next leader.
    g = make_game([("Police Officers", variant), "Governors", "Survivalists"], box=BOX)
    position(g, hands={0: ["Governors 4", "Survivalists 1"], 1: ["Governors 12", "Survivalists 2"],
                       2: ["Police Officers 3", "Survivalists 3"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, "Governors 4 on +@0", "Governors 12@1", "Police Officers 3@2")
    assert labels(g, "expedition", 2) == ["Governors 12", "Governors 4", "Police Officers 3", "Survivalists 13"]
    if variant == "positive":
        assert g.decision.kind == "choose" and g.decision.actor == 2
        answer(g, "Community 1@2")
        assert g.decision.kind == "lead" and g.decision.actor == 1
    else:
        assert g.decision.kind == "lead" and g.decision.actor == 2


def test_police_officers_led_is_an_ordinary_trick():
    # Police Officers led: the best Police Officer for the side wins as usual
    g = make_game(["Police Officers", "Cheerleaders", "Survivalists"], box=BOX)
    position(g, hands={0: ["Police Officers 5"], 1: ["Police Officers 9"], 2: ["Survivalists 2"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, "Police Officers 5 on -@0", "Police Officers 9@1", "Survivalists 2@2")
    assert expeditions(g) == [["Police Officers 5", "Police Officers 9", "Survivalists 13", "Survivalists 2"],
                              [], []]
