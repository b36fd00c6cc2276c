"""Every American Dream power, in each variant, from a set position.

Expected zones and populations are worked out by hand from the American Dream
rulebook ("Details on Powers"), RULINGS.md and POWERS.md; the arithmetic is in
the comments. Zombie losses: values 1-10 lose 3, 11-16 lose 6, 17-20 lose 9.
Every human card is worth +1, a Mini-van 0. Populations start at 66; express
games end after one round, and a position where nobody holds a card is counted
at once. Seats are 0..n-1; clockwise = next seat; "left neighbour" = next seat.
"""

from __future__ import annotations

import pytest

from conftest import answer, labels, last_count, make_game, options, ordered, position
from happydayz.base.errors import GameRuleError

BOX = "american-dream"


def deltas(g):
    return last_count(g)["deltas"]


def expeditions(g):
    return [labels(g, "expedition", s) for s in range(g.n)]


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


# =============================================================== Bikers (end of round)

def _bikers(variant, exps, populations=None):
    g = make_game([("Bikers", variant), "Survivalists", "Cheerleaders"], box=BOX)
    position(g, expeditions=exps, populations=populations)
    assert g.over  # nobody holds a card: counted at once
    return g


def _b(*values):
    return [f"Bikers {v}" for v in values]


def test_bikers_basic_under_7_count_double_7_or_more_lose_one_each():
    g = _bikers("basic", {0: _b(1, 2, 3, 4, 5, 6), 1: _b(7, 8, 9, 10, 11, 12, 13)})
    # seat 0: 6 Bikers < 7 -> 6 x 2 = +12; seat 1: 7 Bikers -> 7 x -1 = -7
    assert deltas(g) == [12, -7, 0]
    assert g.population == [78, 59, 66]


def test_bikers_basic_with_other_cards():
    g = _bikers("basic", {0: _b(1, 2) + ["Survivalists 3", "Zombies 11"],
                          2: _b(3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)})
    # seat 0: 2 x 2 + 1 - 6 = -1; seat 2: 11 Bikers -> -11
    assert deltas(g) == [-1, 0, -11]
    assert g.population == [65, 66, 55]


def test_bikers_positive_martial_law_strict_most_loses_others_gain():
    g = _bikers("positive", {0: _b(1, 2, 3, 4, 5, 6, 7, 8), 1: _b(9, 10, 11, 12, 13)})
    # seat 0 has strictly the most (8 >= 7): -8; seat 1 (5): 5 x 2 = +10
    assert deltas(g) == [-8, 10, 0]
    assert g.population == [58, 76, 66]


def test_bikers_positive_martial_law_tied_most_gain():
    # With 13 Bikers two Communities cannot both reach 7; tied for the most,
    # both gain: 6 x 2 = +12 each.
    g = _bikers("positive", {0: _b(1, 2, 3, 4, 5, 6), 1: _b(7, 8, 9, 10, 11, 12), 2: _b(13)})
    assert deltas(g) == [12, 12, 2]


def test_bikers_negative_rumble_threshold_5():
    g = _bikers("negative", {0: _b(1, 2, 3, 4, 5), 1: _b(6, 7, 8, 9), 2: _b(10, 11, 12, 13)})
    # seat 0: 5 Bikers >= 5 -> -5; seats 1 and 2: 4 < 5 -> 4 x 2 = +8
    assert deltas(g) == [-5, 8, 8]
    assert g.population == [61, 74, 74]


def test_bikers_population_never_below_zero():
    g = _bikers("basic", {0: _b(1, 2, 3, 4, 5, 6, 7) + ["Zombies 20"]}, populations=[10, 66, 66])
    # 10 - 7 - 9 = -6 -> 0
    assert deltas(g) == [-16, 0, 0]
    assert g.population == [0, 66, 66]


# =============================================================== the Horde

def _horde(exps, added=("Horde",)):
    g = make_game(["Governors", "Survivalists", "Bikers"], added=added, box=BOX)
    position(g, expeditions=exps)
    assert g.over
    return g


HORDE_EXP = {0: ["Zombies 1", "Zombies 2"], 1: ["Zombies 11", "Zombies 12"], 2: ["Zombies 20"]}


def test_horde_most_zombie_cards_ties_included_lose_5():
    g = _horde(HORDE_EXP)
    # cards, not losses: seats 0 and 1 have 2 Zombie cards (tied most), seat 2 one
    # seat 0: -3 - 3 - 5 = -11; seat 1: -6 - 6 - 5 = -17; seat 2: -9
    assert deltas(g) == [-11, -17, -9]
    assert g.population == [55, 49, 57]


def test_without_the_horde_no_extra_loss():
    g = _horde(HORDE_EXP, added=())
    assert deltas(g) == [-6, -12, -9]


def test_horde_single_most():
    g = _horde({0: ["Zombies 1"], 1: ["Zombies 2", "Zombies 3", "Zombies 4", "Survivalists 1"], 2: []})
    # seat 1: 1 - 9 - 5 = -13; seat 0: -3
    assert deltas(g) == [-3, -13, 0]


def test_horde_nobody_has_zombies():
    g = _horde({0: ["Survivalists 1"]})
    assert deltas(g) == [1, 0, 0]


# =============================================================== Patient Zero
# The promo cards of the American Dream Factions are in the Woodstock Fever
# box; each replaces the 7 of its Faction and is worth +1 like it.

PZ_BIKERS = "Bikers 7 (Patient Zero)"
PZ_NURSES = "Nurses 7 (Patient Zero)"
PZ_POLICE = "Police Officers 7 (Patient Zero)"


def _pz(factions, exps):
    g = make_game(factions, patient_zero=True, box="woodstock-fever")
    position(g, expeditions=exps)
    assert g.over
    return g


def test_patient_zero_replaces_the_7():
    g = make_game(["Bikers", "Nurses", "Police Officers"], patient_zero=True, box="woodstock-fever")
    with pytest.raises(GameRuleError):
        position(g, expeditions={0: ["Bikers 7"]})
    g = make_game(["Bikers", "Nurses", "Police Officers"], patient_zero=True, box="woodstock-fever", seed=3)
    held = [g.label(c) for s in range(3) for c in g.zone("hand", s) + g.zone("transfer", s)]
    every = held + [g.label(c) for c in g.reserve]
    for promo in (PZ_BIKERS, PZ_NURSES, PZ_POLICE):
        assert every.count(promo) == 1
    for plain in ("Bikers 7", "Nurses 7", "Police Officers 7"):
        assert plain not in every
    assert len(every) == 62


BIKER_FACTIONS = ["Bikers", "Survivalists", "Cheerleaders"]


def test_patient_zero_bikers_with_3_other_bikers_gains_4():
    g = _pz(BIKER_FACTIONS, {0: [PZ_BIKERS] + _b(1, 2, 3)})
    # 4 Bikers < 7: 4 x 2 = 8; Patient Zero: 3 other Bikers -> +4; 8 + 4 = 12
    assert deltas(g) == [12, 0, 0]
    assert g.population == [78, 66, 66]


def test_patient_zero_bikers_with_2_other_bikers_loses_4():
    g = _pz(BIKER_FACTIONS, {0: [PZ_BIKERS] + _b(1, 2)})
    # 3 Bikers: 3 x 2 = 6; Patient Zero: -4; 6 - 4 = 2
    assert deltas(g) == [2, 0, 0]


def test_patient_zero_bikers_counts_as_a_biker_for_the_threshold():
    g = _pz(BIKER_FACTIONS, {0: [PZ_BIKERS] + _b(1, 2, 3, 4, 5, 6)})
    # 7 Bikers: -7; Patient Zero: 6 other Bikers -> +4; -7 + 4 = -3
    assert deltas(g) == [-3, 0, 0]


def test_patient_zero_bikers_only_its_holder():
    g = _pz(BIKER_FACTIONS, {0: _b(1, 2, 3), 1: [PZ_BIKERS]})
    # seat 0: 3 x 2 = 6 (no Patient Zero); seat 1: 1 x 2 - 4 = -2
    assert deltas(g) == [6, -2, 0]


NURSE_FACTIONS = ["Nurses", "Survivalists", "Cheerleaders"]


@pytest.mark.parametrize("others, delta", [
    (0, 1 - 6),       # the card +1, -6
    (1, 2 - 4),       # 2 Nurses, -(6 - 2)
    (2, 3 - 2),       # 3 Nurses, -(6 - 4)
    (3, 4 - 0),       # 4 Nurses, -(6 - 6)
    (4, 5 - 0),       # 5 Nurses, -max(0, 6 - 8): never a gain
])
def test_patient_zero_nurses(others, delta):
    g = _pz(NURSE_FACTIONS, {0: [PZ_NURSES] + [f"Nurses {v}" for v in range(1, others + 1)]})
    assert deltas(g) == [delta, 0, 0]
    assert g.population == [66 + delta, 66, 66]


POLICE_FACTIONS = ["Police Officers", "Survivalists", "Cheerleaders"]


def test_patient_zero_police_officers_fewest_zombies_tied_gains_3():
    g = _pz(POLICE_FACTIONS, {0: [PZ_POLICE, "Zombies 1"], 1: ["Zombies 2"], 2: ["Zombies 3"]})
    # 1 Zombie card each: seat 0 is among the fewest -> +3; 1 - 3 + 3 = 1
    assert deltas(g) == [1, -3, -3]
    assert g.population == [67, 63, 63]


def test_patient_zero_police_officers_no_zombies_anywhere():
    g = _pz(POLICE_FACTIONS, {0: [PZ_POLICE]})
    # 0 Zombies each: tied fewest -> 1 + 3 = 4
    assert deltas(g) == [4, 0, 0]


def test_patient_zero_police_officers_not_the_fewest_loses_3():
    g = _pz(POLICE_FACTIONS, {0: [PZ_POLICE, "Zombies 1"], 2: ["Zombies 2"]})
    # seat 1 has 0 Zombies, seat 0 has 1: not the fewest -> 1 - 3 - 3 = -5
    assert deltas(g) == [-5, 0, -3]


def test_patient_zero_police_officers_counts_zombie_cards_not_losses():
    g = _pz(POLICE_FACTIONS, {0: [PZ_POLICE, "Zombies 20"], 1: ["Zombies 1", "Zombies 2"],
                              2: ["Zombies 3", "Zombies 4"]})
    # seat 0 has 1 Zombie card (-9), the others 2 each: fewest -> 1 - 9 + 3 = -5
    assert deltas(g) == [-5, -6, -6]
