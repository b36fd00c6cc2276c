"""Every Woodstock Fever power, in each variant, from a set position.

Expected zones and populations are worked out by hand from the rulebook,
RULINGS.md and POWERS.md; the arithmetic is in the comments. Zombie losses:
values 1-10 lose 3, 11-16 lose 6, 17-20 lose 9. Populations start at 66.
Seats are 0..n-1; clockwise = next seat; "left neighbour" = next seat.
"""

from __future__ import annotations

import pytest

from conftest import answer, labels, last_count, make_game, options, ordered, position


def deltas(g):
    return last_count(g)["deltas"]


# =============================================================== Hippies

def _hippie_trick(variant, leader_side="+"):
    g = make_game([("Hippies", variant), "Soldiers", "Dogs"])
    position(g, hands={0: ["Hippies 9"], 1: ["Hippies 5"], 2: ["Hippies 2"]},
             reserve=["Zombies 18"], active=0)
    answer(g, f"Hippies 9 on {leader_side}@0", "Hippies 5@1", "Hippies 2@2")
    return g


def test_hippies_basic_gives_the_trick_keeps_the_encounter():
    g = _hippie_trick("basic")  # + side: the 9 wins, seat 0
    assert g.decision.actor == 0
    assert options(g) == ["Community 1", "Community 2"]  # not yourself
    answer(g, "Community 2@0")
    assert labels(g, "expedition", 0) == ["Zombies 18"]  # the Encounter card stays
    assert labels(g, "expedition", 1) == []
    assert labels(g, "expedition", 2) == ["Hippies 2", "Hippies 5", "Hippies 9"]
    # the round is over (no cards left): seat 0: -9; seat 2: +3
    assert deltas(g) == [-9, 0, 3]
    assert g.population == [57, 66, 69]


def test_hippies_positive_all_equal_may_give_to_self():
    g = _hippie_trick("positive")
    assert options(g) == ["Community 0", "Community 1", "Community 2"]
    answer(g, "Community 0@0")
    assert labels(g, "expedition", 0) == ["Hippies 2", "Hippies 5", "Hippies 9", "Zombies 18"]
    assert labels(g, "expedition", 1) == labels(g, "expedition", 2) == []
    assert deltas(g) == [3 - 9, 0, 0]


def test_hippies_positive_all_equal_may_give_to_another():
    g = _hippie_trick("positive")
    answer(g, "Community 1@0")
    assert labels(g, "expedition", 0) == ["Zombies 18"]
    assert labels(g, "expedition", 1) == ["Hippies 2", "Hippies 5", "Hippies 9"]


def test_hippies_negative_bad_trip_gives_trick_and_encounter_to_left_neighbour():
    g = _hippie_trick("negative", "-")  # - side: the 2 wins, seat 2; its left neighbour is seat 0
    assert g.decision is None and g.over  # no choice; the round ends
    assert labels(g, "expedition", 0) == ["Hippies 2", "Hippies 5", "Hippies 9", "Zombies 18"]
    assert labels(g, "expedition", 1) == labels(g, "expedition", 2) == []
    assert deltas(g) == [3 - 9, 0, 0]


# =============================================================== Soldiers

PRE = ["Zombies 17", "Mini-van", "Hippies 4"]  # seat 0's Expedition zone before the trick
TRICK = ["Soldiers 1", "Soldiers 10", "Soldiers 3"]


def _soldier_trick(variant):
    g = make_game([("Soldiers", variant), "Hippies", "Dogs"])
    position(g, hands={0: ["Soldiers 10"], 1: ["Soldiers 3"], 2: ["Soldiers 1"]},
             expeditions={0: PRE}, reserve=["Dogs 6"], active=0)
    answer(g, "Soldiers 10 on +@0", "Soldiers 3@1", "Soldiers 1@2")
    return g


@pytest.mark.parametrize("given", ["Zombies 17", "Hippies 4", "Mini-van", "Dogs 6", "Soldiers 3"])
def test_soldiers_basic_give_any_card_of_the_expedition(given):
    # a Zombie, a human, a Mini-van, the Encounter card or a card of the trick
    g = _soldier_trick("basic")
    assert sorted(options(g)) == sorted(PRE + TRICK + ["Dogs 6"])
    answer(g, f"{given}@0")
    assert options(g) == ["Community 1", "Community 2"]
    answer(g, "Community 2@0")
    assert labels(g, "expedition", 2) == [given]
    assert labels(g, "expedition", 0) == sorted(c for c in PRE + TRICK + ["Dogs 6"] if c != given)
    assert labels(g, "expedition", 1) == []


def test_soldiers_basic_count_after_giving_a_zombie():
    g = _soldier_trick("basic")
    answer(g, "Zombies 17", "Community 1")
    # seat 0: Mini-van 0, Hippies 4, 3 Soldiers, Dogs 6 = +5; seat 1: Zombies 17 = -9
    assert deltas(g) == [5, -9, 0]


def test_soldiers_positive_reinforcements_two_cards_two_communities():
    g = _soldier_trick("positive")
    assert "stop choosing" in options(g)
    answer(g, "Zombies 17@0")
    assert "Zombies 17" not in options(g)
    answer(g, "Mini-van@0")
    answer(g, "Community 1@0", "Community 2@0")  # Zombies 17 to 1, Mini-van to 2
    assert labels(g, "expedition", 1) == ["Zombies 17"]
    assert labels(g, "expedition", 2) == ["Mini-van"]
    assert labels(g, "expedition", 0) == sorted(["Hippies 4", "Dogs 6"] + TRICK)


def test_soldiers_positive_reinforcements_both_to_one_community():
    g = _soldier_trick("positive")
    answer(g, "Zombies 17", "Hippies 4", "Community 2", "Community 2")
    assert labels(g, "expedition", 2) == ["Hippies 4", "Zombies 17"]


def test_soldiers_positive_reinforcements_up_to_stop_after_one():
    g = _soldier_trick("positive")
    answer(g, "Zombies 17@0", "stop choosing@0", "Community 1@0")
    assert labels(g, "expedition", 1) == ["Zombies 17"]
    assert g.over  # nothing more was asked
    assert len(g.zone("expedition", 0)) == 6


def test_soldiers_positive_reinforcements_may_give_none():
    g = _soldier_trick("positive")
    answer(g, "stop choosing@0")
    assert g.over
    assert labels(g, "expedition", 0) == sorted(PRE + TRICK + ["Dogs 6"])


def test_soldiers_negative_weakness_only_cards_of_the_trick():
    g = _soldier_trick("negative")
    # not the Encounter card (Dogs 6), not the cards won before
    assert sorted(options(g)) == sorted(TRICK)
    answer(g, "Soldiers 3@0", "Community 2@0")
    assert labels(g, "expedition", 2) == ["Soldiers 3"]
    assert labels(g, "expedition", 0) == sorted(PRE + ["Dogs 6", "Soldiers 1", "Soldiers 10"])


def test_soldiers_negative_weakness_zombie_from_the_trick():
    g = make_game([("Soldiers", "negative"), "Hippies", "Dogs"])
    position(g, hands={0: ["Soldiers 10"], 1: ["Zombies 20"], 2: ["Soldiers 1"]},
             reserve=["Zombies 19"], active=0)
    answer(g, "Soldiers 10 on +", "Zombies 20", "Soldiers 1")
    assert sorted(options(g)) == ["Soldiers 1", "Soldiers 10", "Zombies 20"]  # not the Encounter Zombies 19
    answer(g, "Zombies 20", "Community 1")
    assert labels(g, "expedition", 0) == ["Soldiers 1", "Soldiers 10", "Zombies 19"]
    assert labels(g, "expedition", 1) == ["Zombies 20"]
    assert deltas(g) == [2 - 9, -9, 0]


# =============================================================== Dogs

DOG_HANDS = {0: ["Dogs 8"], 1: ["Dogs 2"], 2: ["Dogs 1"]}
DOG_TRICK = ["Dogs 1", "Dogs 2", "Dogs 8"]


def _dog_trick(variant, victim_cards=("Zombies 19",), hands=None, reserve=("Hippies 13", "Soldiers 12")):
    g = make_game([("Dogs", variant), "Hippies", "Soldiers"])
    expeditions = {1: list(victim_cards)} if victim_cards else {}
    position(g, hands=hands or DOG_HANDS, expeditions=expeditions, reserve=list(reserve), active=0)
    answer(g, "Dogs 8 on +@0", "Dogs 2@1", "Dogs 1@2")
    return g


def test_dogs_basic_removes_a_card_and_keeps_the_encounter():
    g = _dog_trick("basic")
    # only an opponent whose Expedition zone holds cards may be chosen
    assert options(g) == ["Community 1"]
    answer(g, "Community 1@0")
    assert labels(g, "expedition", 1) == []
    assert ordered(g, "reserve") == ["Soldiers 12", "Zombies 19"]  # under the Reserve
    assert options(g) == ["Community 0", "Community 1", "Community 2"]
    answer(g, "Community 0@0")  # keep the Encounter card
    assert labels(g, "expedition", 0) == sorted(DOG_TRICK + ["Hippies 13"])


def test_dogs_basic_may_give_the_encounter_away():
    g = _dog_trick("basic")
    answer(g, "Community 1@0", "Community 2@0")
    assert labels(g, "expedition", 2) == ["Hippies 13"]
    assert labels(g, "expedition", 0) == DOG_TRICK
    # seat 0: 3 Dogs = +3; seat 2: +1; the removed Zombie is not counted
    assert deltas(g) == [3, 0, 1]


def test_dogs_basic_blind_removal_is_one_random_card_to_the_bottom():
    victim = ["Zombies 19", "Zombies 18", "Hippies 1", "Soldiers 5"]
    for seed in range(5):
        g = make_game([("Dogs", "basic"), "Hippies", "Soldiers"], seed=seed)
        position(g, hands=DOG_HANDS, expeditions={1: victim, 2: ["Hippies 2"]},
                 reserve=["Hippies 13", "Soldiers 12"], active=0)
        answer(g, "Dogs 8 on +", "Dogs 2", "Dogs 1")
        assert options(g) == ["Community 1", "Community 2"]
        answer(g, "Community 1")
        left = labels(g, "expedition", 1)
        assert len(left) == 3 and set(left) < set(victim)
        removed = (set(victim) - set(left)).pop()
        assert ordered(g, "reserve") == ["Soldiers 12", removed]
        assert labels(g, "expedition", 2) == ["Hippies 2"]


def test_dogs_basic_no_opponent_card_to_remove():
    g = _dog_trick("basic", victim_cards=())
    # no victim can be chosen: straight to the Encounter card
    assert options(g) == ["Community 0", "Community 1", "Community 2"]
    answer(g, "Community 0")
    assert labels(g, "expedition", 0) == sorted(DOG_TRICK + ["Hippies 13"])
    assert ordered(g, "reserve") == ["Soldiers 12"]


def test_dogs_positive_training_removed_card_is_the_next_encounter():
    hands = {0: ["Dogs 8", "Hippies 3"], 1: ["Dogs 2", "Hippies 4"], 2: ["Dogs 1", "Hippies 5"]}
    g = _dog_trick("positive", hands=hands)
    answer(g, "Community 1@0")
    assert ordered(g, "reserve") == ["Zombies 19", "Soldiers 12"]  # on top of the Reserve
    answer(g, "Community 0@0")
    # the next trick: seat 0 leads, and the Encounter card is the removed one
    assert g.decision.kind == "lead" and g.decision.actor == 0
    assert ordered(g, "encounter") == ["Zombies 19"]
    assert ordered(g, "reserve") == ["Soldiers 12"]
    assert labels(g, "expedition", 1) == []


@pytest.mark.parametrize("home", [0, 1, 2])
def test_dogs_negative_stray_dog_into_any_expedition_including_own(home):
    g = _dog_trick("negative")
    answer(g, "Community 1@0")
    assert options(g) == ["Community 0", "Community 1", "Community 2"]
    answer(g, f"Community {home}@0")
    answer(g, "Community 0@0")  # keep the Encounter card
    expected = {0: DOG_TRICK + ["Hippies 13"], 1: [], 2: []}
    expected[home] = expected[home] + ["Zombies 19"]
    for seat in range(3):
        assert labels(g, "expedition", seat) == sorted(expected[seat])
    assert ordered(g, "reserve") == ["Soldiers 12"]  # nothing went under the Reserve


def test_dogs_negative_stray_dog_then_give_encounter():
    g = _dog_trick("negative")
    answer(g, "Community 1", "Community 2", "Community 1")
    assert labels(g, "expedition", 2) == ["Zombies 19"]
    assert labels(g, "expedition", 1) == ["Hippies 13"]
    # seat 0: +3; seat 1: +1; seat 2: -9
    assert deltas(g) == [3, 1, -9]


# =============================================================== Preachers

def pile(g):
    """The Reserve as the power left it: the next trick has already turned its top card."""
    return ordered(g, "encounter") + ordered(g, "reserve")


def _preacher_trick(variant, extra_hand=("Hippies 5",), transfer=("Dogs 2",),
                    reserve=("Zombies 20", "Hippies 11", "Dogs 9")):
    g = make_game([("Preachers", variant), "Hippies", "Dogs"])
    position(g, hands={0: ["Preachers 10", *extra_hand], 1: ["Preachers 4"], 2: ["Preachers 3"]},
             transfers={0: list(transfer)} if transfer else {}, reserve=list(reserve), active=0)
    answer(g, "Preachers 10 on +@0", "Preachers 4@1", "Preachers 3@2")
    return g


def test_preachers_basic_encounter_first_and_may_put_back_the_card_drawn():
    g = _preacher_trick("basic")
    # the Encounter card is already in the Expedition zone when the power runs
    assert labels(g, "expedition", 0) == ["Preachers 10", "Preachers 3", "Preachers 4", "Zombies 20"]
    # the top card of the Reserve (Hippies 11) was drawn into the hand
    assert labels(g, "hand", 0) == ["Hippies 11", "Hippies 5"]
    assert sorted(options(g)) == ["Dogs 2", "Hippies 11", "Hippies 5"]  # Transfer zone included
    answer(g, "Hippies 11@0")
    assert pile(g) == ["Dogs 9", "Hippies 11"]
    assert labels(g, "hand", 0) == ["Hippies 5"]
    assert labels(g, "transfer", 0) == ["Dogs 2"]


def test_preachers_basic_put_a_transfer_card_under():
    g = _preacher_trick("basic")
    answer(g, "Dogs 2@0")
    assert pile(g) == ["Dogs 9", "Dogs 2"]
    assert labels(g, "hand", 0) == ["Hippies 11", "Hippies 5"]
    assert labels(g, "transfer", 0) == []


def test_preachers_positive_revelation_reorders_the_top_two():
    g = _preacher_trick("positive", reserve=("Zombies 20", "Hippies 11", "Dogs 9", "Hippies 1"))
    assert sorted(options(g)) == ["Dogs 9", "Hippies 11"]  # the top 2 of the Reserve
    answer(g, "Dogs 9@0", "Hippies 11@0")  # first chosen goes back on top
    # Reserve now Dogs 9, Hippies 11, Hippies 1; Dogs 9 is drawn
    assert labels(g, "hand", 0) == ["Dogs 9", "Hippies 5"]
    assert ordered(g, "reserve") == ["Hippies 11", "Hippies 1"]
    answer(g, "Hippies 5@0")
    assert pile(g) == ["Hippies 11", "Hippies 1", "Hippies 5"]
    assert labels(g, "hand", 0) == ["Dogs 9"]


def test_preachers_positive_revelation_keep_the_order():
    g = _preacher_trick("positive", reserve=("Zombies 20", "Hippies 11", "Dogs 9", "Hippies 1"))
    answer(g, "Hippies 11@0", "Dogs 9@0")
    assert labels(g, "hand", 0) == ["Hippies 11", "Hippies 5"]
    answer(g, "Hippies 11@0")
    assert pile(g) == ["Dogs 9", "Hippies 1", "Hippies 11"]


def test_preachers_negative_doubt_only_card_is_the_one_drawn():
    g = _preacher_trick("negative", extra_hand=(), transfer=())
    # nothing else held: the random card can only be the one drawn
    assert g.over
    assert ordered(g, "reserve") == ["Dogs 9", "Hippies 11"]
    assert labels(g, "hand", 0) == []
    assert labels(g, "expedition", 0) == ["Preachers 10", "Preachers 3", "Preachers 4", "Zombies 20"]


def test_preachers_negative_doubt_random_card_of_the_hand():
    for seed in range(6):
        g = make_game([("Preachers", "negative"), "Hippies", "Dogs"], seed=seed)
        position(g, hands={0: ["Preachers 10", "Hippies 5"], 1: ["Preachers 4", "Hippies 6"],
                           2: ["Preachers 3", "Hippies 7"]},
                 transfers={0: ["Dogs 2"]}, reserve=["Zombies 20", "Hippies 11", "Dogs 9"], active=0)
        answer(g, "Preachers 10 on +", "Preachers 4", "Preachers 3")
        # no decision: the next trick is led by seat 0
        assert g.decision.kind == "lead" and g.decision.actor == 0
        held = labels(g, "hand", 0) + labels(g, "transfer", 0)
        assert len(held) == 2
        # the Encounter card of the new trick was Dogs 9; the card put under is last
        reserve = ordered(g, "reserve")
        assert len(reserve) == 1
        assert sorted(held + reserve) == ["Dogs 2", "Hippies 11", "Hippies 5"]
        assert ordered(g, "encounter") == ["Dogs 9"]


# =============================================================== Scientists

SCI_FACTIONS = lambda v: [("Scientists", v), "Hippies", "Soldiers"]  # noqa: E731

STRICT = {  # seat 0 has strictly the most Scientists
    0: ["Scientists 1", "Scientists 2", "Zombies 1", "Zombies 11"],
    1: ["Scientists 3", "Zombies 2"],
    2: ["Zombies 12"],
}
TIED = {  # seats 0 and 1 tie for the most Scientists
    0: ["Scientists 1", "Zombies 1"],
    1: ["Scientists 2", "Zombies 2"],
    2: ["Zombies 3"],
}


def _count(factions, expeditions, added=(), players=3, populations=None, **kw):
    g = make_game(factions, players=players, added=added, **kw)
    position(g, expeditions=expeditions, populations=populations)
    assert g.over
    return g


def test_scientists_basic_strictly_most_gets_two_reductions():
    g = _count(SCI_FACTIONS("basic"), STRICT)
    # seat 0: +2 -3 -6 +2 (first) +2 (strictly most) = -3
    # seat 1: +1 -3 +1 = -1
    # seat 2: -6 (no Scientist: no reduction)
    assert deltas(g) == [-3, -1, -6]
    assert g.population == [63, 65, 60]


def test_scientists_basic_tie_no_second_reduction():
    g = _count(SCI_FACTIONS("basic"), TIED)
    # seats 0, 1: +1 -3 +1 = -1 each; seat 2: -3
    assert deltas(g) == [-1, -1, -3]


def test_scientists_positive_peer_review_tie_gets_second_reduction():
    g = _count(SCI_FACTIONS("positive"), TIED)
    # seats 0, 1: +1 -3 +1 +1 = 0; seat 2: -3
    assert deltas(g) == [0, 0, -3]


def test_scientists_positive_peer_review_strictly_most():
    g = _count(SCI_FACTIONS("positive"), STRICT)
    assert deltas(g) == [-3, -1, -6]


def test_scientists_negative_lab_accident_strictly_most_only():
    g = _count(SCI_FACTIONS("negative"), STRICT)
    # seat 0: +2 -9 +2 (1 per Zombie) = -5; seat 1: +1 -3 = -2 (no reduction); seat 2: -6
    assert deltas(g) == [-5, -2, -6]


def test_scientists_negative_lab_accident_tie_no_reduction():
    g = _count(SCI_FACTIONS("negative"), TIED)
    assert deltas(g) == [-2, -2, -3]


# =============================================================== Children

KIDS = {
    0: ["Children 3", "Children 9", "Children 5"],
    1: ["Children 12"],
    2: ["Hippies 4"],
}
KIDS_TIED = {
    0: ["Children 2", "Children 10"],
    1: ["Children 4", "Children 6"],
    2: ["Children 13"],
}
KID_FACTIONS = lambda v: [("Children", v), "Hippies", "Soldiers"]  # noqa: E731


def test_children_basic_single_highest_card_and_most_bonus():
    g = _count(KID_FACTIONS("basic"), KIDS)
    # seat 0: 3 kids, not +1 each: +9 (highest) +3 (most) = 12
    # seat 1: +12 (its only card), not the most
    # seat 2: Hippies 4 = +1
    assert deltas(g) == [12, 12, 1]


def test_children_basic_tie_all_tied_benefit():
    g = _count(KID_FACTIONS("basic"), KIDS_TIED)
    # seats 0 and 1 tie with 2 Children each: seat 0: 10 + 3 = 13; seat 1: 6 + 3 = 9
    # seat 2: 1 Child: 13, no bonus
    assert deltas(g) == [13, 9, 13]


def test_children_positive_class_trip_two_highest():
    g = _count(KID_FACTIONS("positive"), KIDS)
    # seat 0: 9 + 5 + 3 = 17; seat 1: only one card: 12; seat 2: +1
    assert deltas(g) == [17, 12, 1]


def test_children_positive_class_trip_tie():
    g = _count(KID_FACTIONS("positive"), KIDS_TIED)
    # seat 0: 10 + 2 + 3 = 15; seat 1: 6 + 4 + 3 = 13; seat 2: 13
    assert deltas(g) == [15, 13, 13]


def test_children_negative_tantrum_lowest_card():
    g = _count(KID_FACTIONS("negative"), KIDS)
    # seat 0: 3 + 3 = 6; seat 1: 12; seat 2: +1
    assert deltas(g) == [6, 12, 1]


def test_children_negative_tantrum_tie():
    g = _count(KID_FACTIONS("negative"), KIDS_TIED)
    # seat 0: 2 + 3 = 5; seat 1: 4 + 3 = 7; seat 2: 13
    assert deltas(g) == [5, 7, 13]


def test_children_with_zombies():
    g = _count(KID_FACTIONS("basic"), {0: ["Children 8", "Zombies 17"], 1: ["Zombies 5"], 2: []})
    # seat 0: 8 + 3 (most) - 9 = 2; seat 1: -3
    assert deltas(g) == [2, -3, 0]


# =============================================================== Bunker

def test_bunker_sets_of_humans_of_different_factions():
    g = _count(["Scientists", "Hippies", "Soldiers"], {
        # two complete sets (+ a spare Hippie): 7 humans + 2
        0: ["Scientists 1", "Hippies 1", "Soldiers 1", "Scientists 2", "Hippies 2", "Soldiers 2", "Hippies 3"],
        # no Scientist: no set. 3 humans - 3 = 0
        1: ["Hippies 4", "Hippies 5", "Soldiers 3", "Zombies 1"],
        # one set; the Mini-van and the Zombie are not humans:
        # 3 humans + 0 - 3 + 1 (set) + 1 (Scientists: 1 Zombie, not strictly most) = 2
        2: ["Scientists 3", "Hippies 6", "Soldiers 4", "Mini-van", "Zombies 2"],
    }, added=("Bunker",))
    assert deltas(g) == [9, 0, 2]


def test_bunker_absent_no_bonus():
    g = _count(["Scientists", "Hippies", "Soldiers"],
               {0: ["Scientists 1", "Hippies 1", "Soldiers 1"], 1: [], 2: []})
    assert deltas(g) == [3, 0, 0]


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


def test_count_population_never_below_zero_and_campaign_ends():
    g = make_game(["Hippies", "Soldiers", "Dogs"], express=False)
    position(g, expeditions={0: ["Zombies 20", "Zombies 19"], 1: ["Hippies 1"], 2: []},
             populations=[10, 30, 30])
    # seat 0: 10 - 18 -> 0, not -8; a Community at 0 ends the campaign
    assert deltas(g) == [-18, 1, 0]
    assert g.population == [0, 31, 30]
    assert g.over and g.winners == [1]


# =============================================================== Patient Zero

def test_patient_zero_replaces_the_seven_in_the_deck():
    g = make_game(["Soldiers", "Scientists", "Children"], patient_zero=True, box="american-dream")
    in_play = [c for z in ("hand", "transfer") for s in range(3) for c in g.zone(z, s)] + g.reserve
    names = sorted(g.label(c) for c in in_play)
    for faction in ("Soldiers", "Scientists", "Children"):
        mine = [n for n in names if n.startswith(faction)]
        assert len(mine) == 13
        assert f"{faction} 7" not in mine
        assert sum("Patient Zero" in n for n in mine) == 1
    assert len(names) == 62


def test_patient_zero_off_keeps_the_seven():
    g = make_game(["Soldiers", "Scientists", "Children"], patient_zero=False)
    in_play = [c for z in ("hand", "transfer") for s in range(3) for c in g.zone(z, s)] + g.reserve
    names = [g.label(c) for c in in_play]
    assert "Soldiers 7" in names and not any("Patient Zero" in n for n in names)


def test_patient_zero_soldiers():
    g = _count(["Soldiers", "Hippies", "Dogs"], {
        0: ["Soldiers 7 (Patient Zero)", "Soldiers 1", "Soldiers 2", "Zombies 1"],
        1: ["Soldiers 3"],
        2: [],
    }, patient_zero=True)
    # seat 0: 3 Soldiers +3, Zombie -3, Patient Zero: +1 per Soldier (itself included) = +3 -> 3
    # seat 1: +1 (no Patient Zero)
    assert deltas(g) == [3, 1, 0]


def test_patient_zero_soldiers_in_the_reserve_does_nothing():
    g = make_game(["Soldiers", "Hippies", "Dogs"], patient_zero=True)
    position(g, expeditions={0: ["Soldiers 1", "Soldiers 2"]}, reserve=["Soldiers 7 (Patient Zero)"])
    assert deltas(g) == [2, 0, 0]


@pytest.mark.parametrize("exp, expected", [
    # most Scientists: 2 humans + 5 = 7; seat 1: +1
    ({0: ["Scientists 7 (Patient Zero)", "Scientists 1"], 1: ["Scientists 2"], 2: []}, [7, 1, 0]),
    # tied for the most (ties included): 1 + 5 = 6
    ({0: ["Scientists 7 (Patient Zero)"], 1: ["Scientists 2"], 2: []}, [6, 1, 0]),
    # fewer Scientists: 1 - 5 = -4
    ({0: ["Scientists 7 (Patient Zero)"], 1: ["Scientists 1", "Scientists 2"], 2: []}, [-4, 2, 0]),
])
def test_patient_zero_scientists(exp, expected):
    g = _count(["Scientists", "Hippies", "Soldiers"], exp, patient_zero=True)
    assert deltas(g) == expected


def test_patient_zero_children():
    g = _count(["Children", "Hippies", "Soldiers"], {
        0: ["Children 7 (Patient Zero)", "Children 1"],
        1: ["Children 2"],
        2: [],
    }, patient_zero=True)
    # seat 0: Children power: highest value 7 + 3 (most) = 10; Patient Zero: seats 1 and 2
    #         have fewer Children: +2 * 2 = 4 -> 14
    # seat 1: Children 2, not the most -> 2
    assert deltas(g) == [14, 2, 0]


def test_patient_zero_children_ties_do_not_count():
    g = _count(["Children", "Hippies", "Soldiers"], {
        0: ["Children 7 (Patient Zero)"],
        1: ["Children 2"],
        2: ["Hippies 1"],
    }, patient_zero=True)
    # seat 0: 7 + 3 (tied most) + 2 (only seat 2 has fewer) = 12; seat 1: 2 + 3 = 5; seat 2: +1
    assert deltas(g) == [12, 5, 1]
