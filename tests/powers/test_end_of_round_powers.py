"""The powers applied at the count, at the end of a round, and the count itself,
from a set position: Scientists, Children, the Bunker, Bikers, the Horde, the
Patient Zero cards, and a population never below zero.

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

from conftest import deltas, make_game, position
from happydayz.base.errors import GameRuleError

# The box of the Bikers and Horde sections; the Patient Zero sections name
# theirs, the others use make_game's default box.
BOX = "american-dream"


# =============================================================== the count

def test_count_population_never_below_zero_and_campaign_ends():
    g = make_game(["Hippies", "Soldiers", "Dogs"], express=False)
    position(g, expeditions={0: ["Zombies 20", "Zombies 19"], 1: ["Hippies 1"], 2: []},
             populations=[10, 30, 30])
    # seat 0: 10 - 18 -> 0, not -8; a Community at 0 ends the campaign
    assert deltas(g) == [-18, 1, 0]
    assert g.population == [0, 31, 30]
    assert g.over and g.winners == [1]


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


# =============================================================== Patient Zero: Soldiers, Scientists, Children

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


# =============================================================== Patient Zero: Bikers, Nurses, Police Officers
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
