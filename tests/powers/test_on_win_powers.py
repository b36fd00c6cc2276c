"""The Faction powers that act when a trick is won, in each variant, from a set
position: Hippies, Soldiers, Dogs, Preachers, Survivalists, Cheerleaders,
Governors and Nurses. The winner has taken the trick and the Encounter card
when the power runs; the power then moves cards between Expedition zones,
hands, Transfer zones, the Reserve and the discard, or names who leads next.

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

from conftest import answer, deltas, labels, make_game, options, ordered, position

# The box of the Survivalists, Cheerleaders, Governors and Nurses sections;
# the others use make_game's default box.
BOX = "american-dream"


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


# =============================================================== Survivalists
#
# The winner first takes the trick and the Encounter card, then draws from the
# Reserve and puts cards of its hand (Transfer zone included) back.

SURV_TRICK = ["Survivalists 2", "Survivalists 5", "Survivalists 9"]


def _survivalist_trick(variant):
    g = make_game([("Survivalists", variant), "Cheerleaders", "Bikers"], box=BOX)
    position(g, hands={0: ["Survivalists 9", "Bikers 1"], 1: ["Survivalists 5"], 2: ["Survivalists 2"]},
             transfers={0: ["Cheerleaders 5"]},
             reserve=["Zombies 18", "Bikers 10", "Bikers 11", "Cheerleaders 12"], active=0)
    answer(g, "Survivalists 9 on +@0", "Survivalists 5@1", "Survivalists 2@2")  # + side: the 9 wins
    return g


def test_survivalists_basic_encounter_first_then_draw_two():
    g = _survivalist_trick("basic")
    # the Encounter card (Zombies 18) is already in the Expedition zone: it is
    # not one of the cards drawn; the 2 drawn are the next two of the Reserve
    assert labels(g, "expedition", 0) == sorted(SURV_TRICK + ["Zombies 18"])
    assert labels(g, "hand", 0) == ["Bikers 1", "Bikers 10", "Bikers 11"]
    assert ordered(g, "reserve") == ["Cheerleaders 12"]
    # any 2 held cards may go under the Reserve, Transfer zone included
    assert g.decision.actor == 0
    assert sorted(options(g)) == ["Bikers 1", "Bikers 10", "Bikers 11", "Cheerleaders 5"]


def test_survivalists_basic_may_put_a_transfer_card_under_the_reserve():
    g = _survivalist_trick("basic")
    answer(g, "Cheerleaders 5@0")
    assert sorted(options(g)) == ["Bikers 1", "Bikers 10", "Bikers 11"]
    answer(g, "Bikers 10@0")
    assert labels(g, "hand", 0) == ["Bikers 1", "Bikers 11"]
    assert labels(g, "transfer", 0) == []
    # under the Reserve: the old top (Cheerleaders 12) is the next Encounter card
    assert g.decision.kind == "lead" and g.decision.actor == 0
    assert ordered(g, "encounter") == ["Cheerleaders 12"]
    assert labels(g, "reserve") == ["Bikers 10", "Cheerleaders 5"]
    assert labels(g, "expedition", 0) == sorted(SURV_TRICK + ["Zombies 18"])


def test_survivalists_basic_may_put_back_the_cards_drawn():
    g = _survivalist_trick("basic")
    answer(g, "Bikers 10@0", "Bikers 11@0")
    assert labels(g, "hand", 0) == ["Bikers 1"]
    assert labels(g, "transfer", 0) == ["Cheerleaders 5"]
    assert ordered(g, "encounter") == ["Cheerleaders 12"]
    assert labels(g, "reserve") == ["Bikers 10", "Bikers 11"]


def test_survivalists_positive_stockpile_puts_the_cards_on_top_in_order():
    g = _survivalist_trick("positive")
    assert sorted(options(g)) == ["Bikers 1", "Bikers 10", "Bikers 11", "Cheerleaders 5"]
    answer(g, "Bikers 11@0", "Cheerleaders 5@0")
    assert labels(g, "hand", 0) == ["Bikers 1", "Bikers 10"]
    assert labels(g, "transfer", 0) == []
    # on top, first chosen on top: Bikers 11, Cheerleaders 5, then Cheerleaders 12;
    # the next trick turns up Bikers 11 as its Encounter card
    assert g.decision.kind == "lead" and g.decision.actor == 0
    assert ordered(g, "encounter") == ["Bikers 11"]
    assert ordered(g, "reserve") == ["Cheerleaders 5", "Cheerleaders 12"]


def test_survivalists_positive_stockpile_other_order():
    g = _survivalist_trick("positive")
    answer(g, "Cheerleaders 5@0", "Bikers 1@0")
    assert labels(g, "hand", 0) == ["Bikers 10", "Bikers 11"]
    assert ordered(g, "encounter") == ["Cheerleaders 5"]
    assert ordered(g, "reserve") == ["Bikers 1", "Cheerleaders 12"]


def test_survivalists_negative_paranoia_draw_one_put_two_under():
    g = _survivalist_trick("negative")
    # one card drawn (Bikers 10); Bikers 11 stays on the Reserve
    assert labels(g, "hand", 0) == ["Bikers 1", "Bikers 10"]
    assert ordered(g, "reserve") == ["Bikers 11", "Cheerleaders 12"]
    assert sorted(options(g)) == ["Bikers 1", "Bikers 10", "Cheerleaders 5"]
    answer(g, "Bikers 1@0", "Cheerleaders 5@0")
    # held: 2 before the power, +1 drawn, -2 put under = 1
    assert labels(g, "hand", 0) == ["Bikers 10"]
    assert labels(g, "transfer", 0) == []
    assert ordered(g, "encounter") == ["Bikers 11"]
    assert ordered(g, "reserve")[0] == "Cheerleaders 12"
    assert sorted(ordered(g, "reserve")[1:]) == ["Bikers 1", "Cheerleaders 5"]


# =============================================================== Cheerleaders
#
# Seat 0 leads the Cheerleaders 13 on + and wins. Afterwards seat 0 holds
# Bikers 1 in hand and Cheerleaders 1 in its Transfer zone; seat 1 holds
# Cheerleaders 2 and 3 and Bikers 2; seat 2 holds no Cheerleader (Bikers 3 in
# hand, Survivalists 2 in its Transfer zone).

CHEER_TRICK = ["Bikers 4", "Cheerleaders 13", "Cheerleaders 5", "Survivalists 13"]


def _cheer_trick(variant):
    g = make_game([("Cheerleaders", variant), "Bikers", "Survivalists"], box=BOX)
    position(g, hands={0: ["Cheerleaders 13", "Bikers 1"],
                       1: ["Cheerleaders 5", "Cheerleaders 2", "Cheerleaders 3", "Bikers 2"],
                       2: ["Bikers 4", "Bikers 3"]},
             transfers={0: ["Cheerleaders 1"], 2: ["Survivalists 2"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, "Cheerleaders 13 on +@0")
    assert sorted(options(g)) == ["Cheerleaders 2", "Cheerleaders 3", "Cheerleaders 5"]  # must follow
    answer(g, "Cheerleaders 5@1", "Bikers 4@2")
    assert labels(g, "expedition", 0) == CHEER_TRICK
    return g


def test_cheerleaders_basic_everyone_passes_a_cheerleader_left():
    g = _cheer_trick("basic")
    # every Community in turn from the winner; seat 0's only Cheerleader is in
    # its Transfer zone: it may (must) give it
    assert g.decision.actor == 0
    assert options(g) == ["Cheerleaders 1"]
    answer(g, "Cheerleaders 1@0")
    # the choices are made against the same state: seat 1 does not see the card
    # it is about to receive
    assert g.decision.actor == 1
    assert sorted(options(g)) == ["Cheerleaders 2", "Cheerleaders 3"]
    answer(g, "Cheerleaders 3@1")
    # seat 2 has no Cheerleader: it gives nothing and is not asked
    assert g.decision.kind == "lead" and g.decision.actor == 0
    # a card received from a Transfer zone goes into the receiver's hand
    assert labels(g, "hand", 0) == ["Bikers 1"]
    assert labels(g, "transfer", 0) == []
    assert labels(g, "hand", 1) == ["Bikers 2", "Cheerleaders 1", "Cheerleaders 2"]
    assert labels(g, "transfer", 1) == []
    assert labels(g, "hand", 2) == ["Bikers 3", "Cheerleaders 3"]
    assert labels(g, "transfer", 2) == ["Survivalists 2"]
    assert labels(g, "expedition", 0) == CHEER_TRICK


def test_cheerleaders_positive_secret_mission_void_gives_another_faction():
    g = _cheer_trick("positive")
    # seat 0 holds a Cheerleader: it must give it, not its Biker
    assert options(g) == ["Cheerleaders 1"]
    answer(g, "Cheerleaders 1@0")
    assert sorted(options(g)) == ["Cheerleaders 2", "Cheerleaders 3"]
    answer(g, "Cheerleaders 2@1")
    # seat 2 has none of the Faction led: it gives a card of another Faction,
    # from its hand or its Transfer zone
    assert g.decision.actor == 2
    assert sorted(options(g)) == ["Bikers 3", "Survivalists 2"]
    answer(g, "Survivalists 2@2")
    assert g.decision.kind == "lead" and g.decision.actor == 0
    # seat 2's left neighbour is seat 0: the Transfer card lands in its hand
    assert labels(g, "hand", 0) == ["Bikers 1", "Survivalists 2"]
    assert labels(g, "transfer", 0) == []
    assert labels(g, "hand", 1) == ["Bikers 2", "Cheerleaders 1", "Cheerleaders 3"]
    assert labels(g, "hand", 2) == ["Bikers 3", "Cheerleaders 2"]
    assert labels(g, "transfer", 2) == []


def _confusion_trick(seed):
    g = make_game([("Cheerleaders", "negative"), "Bikers", "Survivalists"], box=BOX, seed=seed)
    position(g, hands={0: ["Cheerleaders 13", "Bikers 1"],
                       1: ["Cheerleaders 5", "Cheerleaders 2", "Cheerleaders 3"],
                       2: ["Bikers 4"]},
             transfers={2: ["Survivalists 2", "Bikers 3"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, "Cheerleaders 13 on +@0", "Cheerleaders 5@1", "Bikers 4@2")
    return g


@pytest.mark.parametrize("seed", range(4))
def test_cheerleaders_negative_confusion_takes_from_the_right(seed):
    # after the trick: hand 0 = [Bikers 1]; hand 1 = [Cheerleaders 2, 3];
    # hand 2 = [] (Transfer zone: Survivalists 2, Bikers 3).
    g = _confusion_trick(seed)
    # seat 0 takes from its right neighbour, seat 2, whose hand is empty: it
    # chooses one of seat 2's Transfer cards
    assert g.decision.actor == 0
    assert sorted(options(g)) == ["Bikers 3", "Survivalists 2"]
    answer(g, "Bikers 3@0")
    assert g.decision.kind == "lead" and g.decision.actor == 0
    # seat 1 took seat 0's only hand card (Bikers 1) - taken before seat 0
    # received Bikers 3, all at once; seat 2 took one of seat 1's Cheerleaders
    assert labels(g, "hand", 0) == ["Bikers 3"]
    hand1, hand2 = labels(g, "hand", 1), labels(g, "hand", 2)
    assert len(hand1) == 2 and "Bikers 1" in hand1
    assert len(hand2) == 1
    assert sorted(hand1 + hand2) == ["Bikers 1", "Cheerleaders 2", "Cheerleaders 3"]
    assert labels(g, "transfer", 2) == ["Survivalists 2"]
    assert labels(g, "transfer", 0) == labels(g, "transfer", 1) == []


def test_cheerleaders_negative_confusion_nothing_to_take():
    # seat 2 holds nothing at all: seat 0 takes nothing; seat 1 takes Bikers 1
    # from seat 0 and seat 2 takes Cheerleaders 2 from seat 1 (their only cards)
    g = make_game([("Cheerleaders", "negative"), "Bikers", "Survivalists"], box=BOX)
    position(g, hands={0: ["Cheerleaders 13", "Bikers 1"], 1: ["Cheerleaders 5", "Cheerleaders 2"],
                       2: ["Bikers 4"]},
             reserve=["Survivalists 13"], active=0)
    answer(g, "Cheerleaders 13 on +@0", "Cheerleaders 5@1", "Bikers 4@2")
    assert labels(g, "hand", 0) == []
    assert labels(g, "hand", 1) == ["Bikers 1"]
    assert labels(g, "hand", 2) == ["Cheerleaders 2"]
    # the winner (seat 0) has no card left: the lead passes clockwise to seat 1
    assert g.decision.kind == "lead" and g.decision.actor == 1


# =============================================================== Governors
#
# Seat 0 wins a Governors trick (10 > 5 > 2 on +) and designates who leads next.

GOV_HANDS = {0: ["Governors 10", "Bikers 1"],
             1: ["Governors 5", "Survivalists 5", "Survivalists 6"],
             2: ["Governors 2", "Bikers 3", "Survivalists 9"]}


def _governor_trick(variant, hands=None):
    g = make_game([("Governors", variant), "Bikers", "Survivalists"], box=BOX)
    position(g, hands=hands or GOV_HANDS, reserve=["Zombies 2", "Survivalists 13", "Zombies 3"], active=0)
    answer(g, "Governors 10 on +@0", "Governors 5@1", "Governors 2@2")
    assert labels(g, "expedition", 0) == ["Governors 10", "Governors 2", "Governors 5", "Zombies 2"]
    return g


def test_governors_basic_designated_community_leads_any_faction():
    hands = {0: ["Governors 10", "Bikers 1"],
             1: ["Governors 5", "Bikers 5", "Survivalists 6"],
             2: ["Governors 2", "Bikers 9", "Survivalists 9"]}
    g = _governor_trick("basic", hands)
    assert g.decision.actor == 0
    assert options(g) == ["Community 0", "Community 1", "Community 2"]
    answer(g, "Community 1@0")
    # seat 1 leads, although seat 0 won; it chooses the Faction led freely
    assert g.decision.kind == "lead" and g.decision.actor == 1
    assert sorted(options(g)) == ["Bikers 5 on +", "Bikers 5 on -",
                                  "Survivalists 6 on +", "Survivalists 6 on -"]
    answer(g, "Bikers 5 on +@1")
    assert options(g) == ["Bikers 9"]  # seat 2 must follow Bikers
    answer(g, "Bikers 9@2", "Bikers 1@0")
    # seat 2 won (9 on +): it leads next, the designation is over
    assert labels(g, "expedition", 2) == ["Bikers 1", "Bikers 5", "Bikers 9", "Survivalists 13"]
    assert g.decision.kind == "lead" and g.decision.actor == 2


def test_governors_basic_may_designate_itself():
    g = _governor_trick("basic")
    answer(g, "Community 0@0")
    assert g.decision.kind == "lead" and g.decision.actor == 0
    assert sorted(options(g)) == ["Bikers 1 on +", "Bikers 1 on -"]


def test_governors_positive_persuasion_faction_led_stays_the_named_one():
    g = _governor_trick("positive")
    answer(g, "Community 1@0")
    # the Faction to lead is named among the Factions in play (not the Mini-van)
    assert g.decision.actor == 0
    assert sorted(options(g)) == ["Bikers", "Governors", "Survivalists", "Zombies"]
    answer(g, "Bikers@0")
    # seat 1 has no Biker: it may lead any card...
    assert g.decision.kind == "lead" and g.decision.actor == 1
    assert sorted(options(g)) == ["Survivalists 5 on +", "Survivalists 5 on -",
                                  "Survivalists 6 on +", "Survivalists 6 on -"]
    answer(g, "Survivalists 6 on +@1")
    # ...but the Faction led is still Bikers: seat 2 must play its Biker, not
    # follow the Survivalist
    assert options(g) == ["Bikers 3"]
    answer(g, "Bikers 3@2")
    assert options(g) == ["Bikers 1"]
    answer(g, "Bikers 1@0")
    # + side, Bikers led: Bikers 3 beats Bikers 1; the Survivalists 6 (higher)
    # is not of the Faction led and cannot win
    assert labels(g, "expedition", 2) == ["Bikers 1", "Bikers 3", "Survivalists 13", "Survivalists 6"]
    assert labels(g, "expedition", 1) == []
    assert g.decision.kind == "lead" and g.decision.actor == 2


def test_governors_positive_persuasion_designated_must_lead_the_named_faction_if_able():
    g = _governor_trick("positive")
    answer(g, "Community 2@0", "Bikers@0")
    assert g.decision.kind == "lead" and g.decision.actor == 2
    assert sorted(options(g)) == ["Bikers 3 on +", "Bikers 3 on -"]


def test_governors_positive_persuasion_nobody_plays_the_named_faction():
    # named Zombies, nobody has any: by ruling the leader wins the trick
    g = _governor_trick("positive")
    answer(g, "Community 1@0", "Zombies@0", "Survivalists 5 on -@1")
    assert sorted(options(g)) == ["Bikers 3", "Survivalists 9"]  # void of Zombies: any card
    answer(g, "Survivalists 9@2", "Bikers 1@0")
    assert labels(g, "expedition", 1) == ["Bikers 1", "Survivalists 13", "Survivalists 5", "Survivalists 9"]
    assert g.decision.kind == "lead" and g.decision.actor == 1


def test_governors_negative_red_tape_must_designate_another():
    g = _governor_trick("negative")
    assert options(g) == ["Community 1", "Community 2"]
    answer(g, "Community 2@0")
    assert g.decision.kind == "lead" and g.decision.actor == 2
    assert sorted(options(g)) == ["Bikers 3 on +", "Bikers 3 on -", "Survivalists 9 on +", "Survivalists 9 on -"]


# =============================================================== Nurses
#
# Seat 0 already holds Zombies 17 and Survivalists 1 in its Expedition zone.
# It leads the Nurses 10 on +; seat 1, without Nurses, plays the Zombies 12;
# seat 2 plays the Nurses 2. Seat 0 wins and takes the Encounter card
# (Zombies 5). Nobody holds a card afterwards: the round is counted.
# Before the power, seat 0 counts: S1 +1, N10 +1, N2 +1 = +3; Zombies 17 -9,
# Zombies 12 -6, Zombies 5 -3 = -18.

NURSE_PRE = ["Survivalists 1", "Zombies 17"]


def _nurse_trick(variant, second="Zombies 12"):
    g = make_game([("Nurses", variant), "Survivalists", "Cheerleaders"], box=BOX)
    position(g, hands={0: ["Nurses 10"], 1: [second], 2: ["Nurses 2"]},
             expeditions={0: NURSE_PRE}, reserve=["Zombies 5"], active=0)
    answer(g, "Nurses 10 on +@0", f"{second}@1", "Nurses 2@2")
    return g


def test_nurses_basic_may_discard_the_zombie_of_the_trick_just_won():
    g = _nurse_trick("basic")
    assert g.decision.actor == 0
    assert sorted(options(g)) == ["Zombies 12", "Zombies 17", "Zombies 5"]
    answer(g, "Zombies 12@0")
    assert labels(g, "discard") == ["Zombies 12"]
    assert labels(g, "expedition", 0) == ["Nurses 10", "Nurses 2", "Survivalists 1", "Zombies 17", "Zombies 5"]
    # +3 - 9 - 3 = -9
    assert deltas(g) == [-9, 0, 0]
    assert g.population == [57, 66, 66]


def test_nurses_basic_may_discard_a_zombie_won_before():
    g = _nurse_trick("basic")
    answer(g, "Zombies 17@0")
    assert labels(g, "discard") == ["Zombies 17"]
    # +3 - 6 - 3 = -6
    assert deltas(g) == [-6, 0, 0]


def test_nurses_basic_no_zombie_no_effect():
    g = make_game(["Nurses", "Survivalists", "Cheerleaders"], box=BOX)
    position(g, hands={0: ["Nurses 10"], 1: ["Survivalists 3"], 2: ["Nurses 2"]},
             expeditions={0: ["Survivalists 1"]}, reserve=["Cheerleaders 4"], active=0)
    answer(g, "Nurses 10 on +", "Survivalists 3", "Nurses 2")
    # nothing to choose: the power does nothing and the round is counted
    assert g.over and g.decision is None
    assert labels(g, "discard") == []
    assert labels(g, "expedition", 0) == ["Cheerleaders 4", "Nurses 10", "Nurses 2", "Survivalists 1",
                                          "Survivalists 3"]
    assert deltas(g) == [5, 0, 0]


def test_nurses_positive_triage_discards_two():
    g = _nurse_trick("positive")
    assert "stop choosing" in options(g)
    assert sorted(o for o in options(g) if o != "stop choosing") == ["Zombies 12", "Zombies 17", "Zombies 5"]
    answer(g, "Zombies 17@0", "Zombies 12@0")
    assert labels(g, "discard") == ["Zombies 12", "Zombies 17"]
    # +3 - 3 = 0
    assert deltas(g) == [0, 0, 0]


def test_nurses_positive_triage_may_stop_after_one():
    g = _nurse_trick("positive")
    answer(g, "Zombies 17@0", "stop choosing@0")
    assert labels(g, "discard") == ["Zombies 17"]
    # +3 - 6 - 3 = -6
    assert deltas(g) == [-6, 0, 0]


def test_nurses_positive_triage_may_discard_none():
    g = _nurse_trick("positive")
    answer(g, "stop choosing@0")
    assert labels(g, "discard") == []
    # +3 - 18 = -15
    assert deltas(g) == [-15, 0, 0]


def test_nurses_negative_shortage_only_a_zombie_of_the_trick():
    g = _nurse_trick("negative")
    # not the Zombies 17 won before, not the Encounter card (not part of the trick)
    assert options(g) == ["Zombies 12"]
    answer(g, "Zombies 12@0")
    assert labels(g, "discard") == ["Zombies 12"]
    # +3 - 9 - 3 = -9
    assert deltas(g) == [-9, 0, 0]


def test_nurses_negative_shortage_no_zombie_in_the_trick_no_effect():
    g = _nurse_trick("negative", second="Survivalists 3")
    assert g.over and g.decision is None
    assert labels(g, "discard") == []
    # S1, N10, S3, N2 = +4; Zombies 17 -9, Zombies 5 -3: 4 - 12 = -8
    assert deltas(g) == [-8, 0, 0]
