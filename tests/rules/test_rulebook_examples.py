"""The worked examples of the rulebooks, replayed card by card.

One section per rulebook; each names the seats after the players of its
examples (the note under the section's banner). Populations start at 66.
Zombie losses: values 1-10 lose 3, 11-16 lose 6, 17-20 lose 9.
"""

from __future__ import annotations

from conftest import answer, labels, last_count, make_game, options, ordered, position


# =============================================================== Woodstock Fever rulebook
#
# Seats: Nessy = 0, Benoit = 1, Tatiana = 2 (clockwise = increasing seat).

NESSY, BENOIT, TATIANA = 0, 1, 2


def test_example_trick_hippies_on_minus_side():
    # Nessy leads the 9 Hippie on the - side; Benoit has no Hippie and gets rid
    # of a Zombie; Tatiana plays the 3 Hippie, the lowest Hippie: she wins the
    # three cards and the Encounter card, the 3 Soldier.
    g = make_game(["Hippies", "Soldiers", "Dogs"])
    position(g, hands={NESSY: ["Hippies 9", "Dogs 1"], BENOIT: ["Zombies 4", "Dogs 2"],
                       TATIANA: ["Hippies 3", "Dogs 3"]},
             reserve=["Soldiers 3", "Dogs 13"], active=NESSY)
    assert ordered(g, "encounter") == ["Soldiers 3"]
    answer(g, "Hippies 9 on -@0")
    # Benoit has no Hippie: any card may be played, a Zombie included
    assert sorted(options(g)) == ["Dogs 2", "Zombies 4"]
    answer(g, "Zombies 4@1")
    # Tatiana has a Hippie: she must follow
    assert options(g) == ["Hippies 3"]
    answer(g, "Hippies 3@2")
    # the trick and the Encounter card are in Tatiana's Expedition zone before her power runs
    assert labels(g, "expedition", TATIANA) == ["Hippies 3", "Hippies 9", "Soldiers 3", "Zombies 4"]
    assert labels(g, "expedition", NESSY) == labels(g, "expedition", BENOIT) == []
    assert g.zones["table"] == [] and g.zones["encounter"] == []
    # the Hippies power (basic): Tatiana gives the trick away, keeps the Encounter card
    assert g.decision.actor == TATIANA
    assert options(g) == ["Community 0", "Community 1"]
    answer(g, "Community 1@2")
    assert labels(g, "expedition", TATIANA) == ["Soldiers 3"]
    assert labels(g, "expedition", BENOIT) == ["Hippies 3", "Hippies 9", "Zombies 4"]
    assert labels(g, "expedition", NESSY) == []
    # Tatiana won: she is the active Community and leads the next trick
    assert g.decision.kind == "lead" and g.decision.actor == TATIANA
    assert ordered(g, "encounter") == ["Dogs 13"]


def test_example_zombie_trick():
    # Nessy leads the 1 Zombie on the + side; Benoit plays the 15 Zombie;
    # Tatiana, without Zombies, plays the 1 Hippie. Benoit wins: he takes the
    # Hippie and the Encounter card (the 20 Zombie), then the Zombies of the
    # trick are handed out from him clockwise, greatest loss first:
    # 15 (-6) to Benoit, 1 (-3) to the next Community, none left for Nessy.
    # (The rulebook's text names a fourth player, Jessica, as taking the 1
    # Zombie; with the three players of the trick, the next one is Tatiana.)
    g = make_game(["Hippies", "Soldiers", "Dogs"])
    position(g, hands={NESSY: ["Zombies 1", "Dogs 1"], BENOIT: ["Zombies 15", "Dogs 2"],
                       TATIANA: ["Hippies 1", "Dogs 3"]},
             reserve=["Zombies 20"], active=NESSY)
    answer(g, "Zombies 1 on +@0")
    assert sorted(options(g)) == ["Zombies 15"]  # Benoit must follow Zombies
    answer(g, "Zombies 15@1")
    assert sorted(options(g)) == ["Dogs 3", "Hippies 1"]  # Tatiana has none: any card
    answer(g, "Hippies 1@2")
    # the Zombies power needs no decision: the next trick is led by Benoit
    assert g.decision.kind == "lead" and g.decision.actor == BENOIT
    assert labels(g, "expedition", BENOIT) == ["Hippies 1", "Zombies 15", "Zombies 20"]
    assert labels(g, "expedition", TATIANA) == ["Zombies 1"]
    assert labels(g, "expedition", NESSY) == []
    assert g.reserve == [] and g.zones["encounter"] == []


def test_example_count_with_scientists_tie():
    # Nessy: 4 Scientists, 3 Hippies, 2 Soldiers, 5 Zombies losing 3+3+3+6+6 = 21.
    # Benoit also has 4 Scientists: a tie, so only the first reduction (1 per Zombie).
    g = make_game(["Scientists", "Hippies", "Soldiers"])
    position(g, expeditions={
        NESSY: ["Scientists 1", "Scientists 2", "Scientists 3", "Scientists 4",
                "Hippies 1", "Hippies 2", "Hippies 3", "Soldiers 1", "Soldiers 2",
                "Zombies 1", "Zombies 2", "Zombies 3", "Zombies 11", "Zombies 12"],
        BENOIT: ["Scientists 5", "Scientists 6", "Scientists 7", "Scientists 8", "Zombies 13"],
        TATIANA: ["Scientists 9", "Zombies 4", "Zombies 5"],
    })
    assert g.over
    record = last_count(g)
    # Nessy: +4 Scientists +5 (Hippies, Soldiers) -21 Zombies +5 (one reduction per Zombie)
    #        = 4 + 5 - 16 = -7
    # Benoit: +4 -6 +1 = -1 (tied in Scientists: one reduction only)
    # Tatiana: +1 -3 -3 +2 = -3 (fewer Scientists: one reduction only)
    assert record["deltas"] == [-7, -1, -3]
    assert g.population == [66 - 7, 66 - 1, 66 - 3] == [59, 65, 63]
    assert g.winners == [BENOIT]


# ------------------------------------------------------------ setup and rounds

def _rank(g, card):
    # Mini-van > Zombies > Faction 1 > Faction 2 > Faction 3, then by value
    order = ["Mini-van", "Zombies"] + [f for f, _ in g.factions]
    spec = g.cards[card]
    return (len(order) - order.index(spec.faction), spec.value or 0)


def test_first_leader_holds_the_best_transfer_card():
    for players in (2, 3, 4, 5):
        for seed in range(4):
            g = make_game(["Hippies", "Soldiers", "Dogs"], players=players, seed=seed)
            assert [len(g.zone("hand", s)) for s in range(players)] == [{2: 16, 3: 14, 4: 12, 5: 10}[players]] * players
            assert len(g.reserve) == 62 - players * {2: 16, 3: 14, 4: 12, 5: 10}[players]
            while g.decision.kind == "transfer":
                g.apply(0)
            assert all(len(g.zone("transfer", s)) == 2 for s in range(players))
            # the best card first, then the second best, then the lowest seat
            keys = [sorted((_rank(g, c) for c in g.zone("transfer", s)), reverse=True) for s in range(players)]
            best = max(keys)
            expected = keys.index(best)
            assert g.decision.kind == "lead" and g.decision.actor == expected, (players, seed, keys)


def test_transfer_goes_to_both_neighbours():
    g = make_game(["Hippies", "Soldiers", "Dogs"], players=4, seed=3)
    passed = {}
    for seat in range(4):
        for target in ((seat + 1) % 4, (seat - 1) % 4):  # left neighbour first, then right
            d = g.decision
            assert d.kind == "transfer" and d.actor == seat and f"Community {target}" in d.prompt
            passed.setdefault(target, []).append(d.options[0].label)
            g.apply(0)
    for seat in range(4):
        assert labels(g, "transfer", seat) == sorted(passed[seat])


def test_next_round_fewest_survivors_then_lost_most_leads():
    g = make_game(["Hippies", "Soldiers", "Dogs"], express=False)
    position(g, expeditions={1: ["Zombies 1"]}, populations=[60, 63, 66])
    # seat 0: 60 (lost 0); seat 1: 63 - 3 = 60 (lost 3); seat 2: 66
    assert g.population == [60, 60, 66]
    # seat 1 lost the most: it may change a Faction
    assert g.decision.kind == "faction_change" and g.decision.actor == 1
    answer(g, "replace Hippies with Preachers@1")
    assert g.factions[0] == ["Preachers", "basic"]
    in_play = {g.cards[c].faction for name, zone in g.zones.items() if name != "out" for c in zone}
    assert in_play == {"Mini-van", "Zombies", "Preachers", "Soldiers", "Dogs"}
    while g.decision.kind == "transfer":
        g.apply(0)
    # fewest Survivors tie (60, 60): the one that lost the most this round leads
    assert g.decision.kind == "lead" and g.decision.actor == 1


def test_transfer_zone_cards_are_part_of_the_hand():
    g = make_game(["Hippies", "Soldiers", "Dogs"])
    position(g, hands={0: ["Hippies 9"], 1: ["Dogs 2"], 2: ["Hippies 3"]},
             transfers={0: ["Dogs 5"], 1: ["Hippies 4"]}, active=0)
    assert sorted(options(g)) == ["Dogs 5 on +", "Dogs 5 on -", "Hippies 9 on +", "Hippies 9 on -"]
    answer(g, "Hippies 9 on +@0")
    assert options(g) == ["Hippies 4"]  # the Hippie in its Transfer zone must follow
    answer(g, "Hippies 4@1")
    assert labels(g, "transfer", 1) == []


def test_faction_change_tie_in_losses_goes_to_fewest_survivors():
    g = make_game(["Hippies", "Soldiers", "Dogs"], express=False)
    position(g, expeditions={1: ["Zombies 1"], 2: ["Zombies 2"]}, populations=[60, 66, 62])
    # deltas 0, -3, -3: seats 1 and 2 lost the most; seat 2 has fewer Survivors (59 < 63)
    assert g.population == [60, 63, 59]
    assert g.decision.kind == "faction_change" and g.decision.actor == 2
    answer(g, "keep the Factions in play@2")
    assert g.factions == [["Hippies", "basic"], ["Soldiers", "basic"], ["Dogs", "basic"]]
    while g.decision.kind == "transfer":
        g.apply(0)
    assert g.decision.kind == "lead" and g.decision.actor == 2  # the fewest Survivors leads


def test_two_players_pass_both_cards_to_the_opponent():
    g = make_game(["Hippies", "Soldiers", "Dogs"], players=2, seed=1)
    passed = {0: [], 1: []}
    for seat in (0, 0, 1, 1):
        d = g.decision
        assert d.kind == "transfer" and d.actor == seat
        passed[1 - seat].append(d.options[0].label)
        g.apply(0)
    assert labels(g, "transfer", 0) == sorted(passed[0])
    assert labels(g, "transfer", 1) == sorted(passed[1])
    assert len(g.zone("hand", 0)) == len(g.zone("hand", 1)) == 14


# =============================================================== American Dream rulebook
#
# Seats: Ophélie = 0, Simon = 1, Jessica = 2 (clockwise = increasing seat, the
# order in which they play in the examples).

OPHELIE, SIMON, JESSICA = 0, 1, 2
BOX = "american-dream"


# ------------------------------------------------------------ example trick

def test_example_trick_cheerleader_on_minus_side():
    # Ophélie leads the Cheerleader 4 on the - side; Simon, who has no
    # Cheerleader, gets rid of a Zombie; Jessica plays the Cheerleader 3, the
    # lowest card of the Faction led: she wins the three cards and the
    # Encounter card, a Police Officer 1.
    g = make_game(["Cheerleaders", "Police Officers", "Survivalists"], box=BOX)
    position(g, hands={OPHELIE: ["Cheerleaders 4", "Survivalists 1"],
                       SIMON: ["Zombies 4", "Survivalists 2"],
                       JESSICA: ["Cheerleaders 3", "Cheerleaders 12", "Survivalists 3"]},
             reserve=["Police Officers 1", "Survivalists 13"], active=OPHELIE)
    # the Encounter card is turned up before the lead
    assert ordered(g, "encounter") == ["Police Officers 1"]
    assert g.decision.kind == "lead" and g.decision.actor == OPHELIE
    answer(g, "Cheerleaders 4 on -@0")
    # Simon has no Cheerleader: any card may be played, a Zombie included
    assert sorted(options(g)) == ["Survivalists 2", "Zombies 4"]
    answer(g, "Zombies 4@1")
    # Jessica holds Cheerleaders: she must follow with one of them
    assert sorted(options(g)) == ["Cheerleaders 12", "Cheerleaders 3"]
    answer(g, "Cheerleaders 3@2")
    # - side: the lowest Cheerleader wins (3 < 4); the Zombie is not of the
    # Faction led and cannot win. Jessica takes the trick + the Encounter card.
    assert labels(g, "expedition", JESSICA) == ["Cheerleaders 3", "Cheerleaders 4",
                                                "Police Officers 1", "Zombies 4"]
    assert labels(g, "expedition", OPHELIE) == labels(g, "expedition", SIMON) == []
    assert g.zones["table"] == [] and g.zones["encounter"] == []
    # the Cheerleaders power (basic) follows: each Community passes a
    # Cheerleader to its left neighbour; only Jessica still holds one, and her
    # left neighbour is Ophélie (seat 2 + 1 wraps to seat 0)
    assert g.decision.actor == JESSICA
    assert options(g) == ["Cheerleaders 12"]
    answer(g, "Cheerleaders 12@2")
    assert labels(g, "hand", OPHELIE) == ["Cheerleaders 12", "Survivalists 1"]
    assert labels(g, "hand", JESSICA) == ["Survivalists 3"]
    assert labels(g, "hand", SIMON) == ["Survivalists 2"]
    # Jessica won: she is the active Community and leads the next trick
    assert g.decision.kind == "lead" and g.decision.actor == JESSICA
    assert ordered(g, "encounter") == ["Survivalists 13"]


# ------------------------------------------------------------ Zombie trick

def _zombie_trick(extra: bool):
    g = make_game(["Survivalists", "Cheerleaders", "Bikers"], box=BOX)
    hands = {OPHELIE: ["Zombies 1"], SIMON: ["Zombies 15"], JESSICA: ["Bikers 1"]}
    if extra:  # one more card each so that the round goes on
        hands = {OPHELIE: ["Zombies 1", "Survivalists 1"], SIMON: ["Zombies 15", "Survivalists 2"],
                 JESSICA: ["Bikers 1", "Survivalists 3"]}
    reserve = ["Zombies 20", "Cheerleaders 13"] if extra else ["Zombies 20"]
    position(g, hands=hands, reserve=reserve, active=OPHELIE)
    answer(g, "Zombies 1 on +@0")
    if extra:  # Simon must follow Zombies, not play his Survivalist
        assert options(g) == ["Zombies 15"]
    answer(g, "Zombies 15@1")
    # Jessica has no more Zombies: any card
    if extra:
        assert sorted(options(g)) == ["Bikers 1", "Survivalists 3"]
    answer(g, "Bikers 1@2")
    return g


def test_example_zombie_trick_round_goes_on():
    # Ophélie leads the Zombies 1 on +; Simon plays the Zombies 15; Jessica,
    # without Zombies, plays the Biker 1. Simon wins (15 > 1). He keeps the
    # Biker and the Encounter card (Zombies 20), then takes the Zombies 15
    # (-6, the greatest loss); Jessica, next clockwise, takes the Zombies 1;
    # Ophélie takes nothing: no Zombie is left.
    g = _zombie_trick(extra=True)
    assert labels(g, "expedition", SIMON) == ["Bikers 1", "Zombies 15", "Zombies 20"]
    assert labels(g, "expedition", JESSICA) == ["Zombies 1"]
    assert labels(g, "expedition", OPHELIE) == []
    assert g.zones["table"] == []
    # the Zombies power asks nothing; Simon won and leads the next trick
    assert g.decision.kind == "lead" and g.decision.actor == SIMON
    assert ordered(g, "encounter") == ["Cheerleaders 13"]


def test_example_zombie_trick_counted():
    # The same trick as the last of the round, then the count (Bikers basic):
    # Simon: Bikers 1 (1 Biker < 7: 2 Survivors) - 9 (Zombies 20) - 6 (Zombies 15) = -13
    # Jessica: Zombies 1 = -3; Ophélie: nothing = 0
    g = _zombie_trick(extra=False)
    assert g.over and g.decision is None
    assert labels(g, "expedition", SIMON) == ["Bikers 1", "Zombies 15", "Zombies 20"]
    assert labels(g, "expedition", JESSICA) == ["Zombies 1"]
    assert labels(g, "expedition", OPHELIE) == []
    assert last_count(g)["deltas"] == [0, -13, -3]
    assert g.population == [66, 53, 63]
    assert g.winners == [OPHELIE]


# ------------------------------------------------------------ example count

def test_example_count_with_bikers():
    # Ophélie: 3 Bikers, 2 Cheerleaders, 3 Survivalists and 5 Zombies losing
    # 3 + 3 + 3 + 3 + 6 = 18 in total.
    # Fewer than 7 Bikers: each counts 2 -> 3 x 2 = 6; Cheerleaders and
    # Survivalists 2 + 3 = 5; 6 + 5 - 18 = -7 -> 66 - 7 = 59.
    g = make_game(["Survivalists", "Cheerleaders", "Bikers"], box=BOX)
    position(g, expeditions={OPHELIE: [
        "Bikers 2", "Bikers 6", "Bikers 11",
        "Cheerleaders 5", "Cheerleaders 9",
        "Survivalists 1", "Survivalists 4", "Survivalists 13",
        "Zombies 1", "Zombies 5", "Zombies 7", "Zombies 10", "Zombies 14",
    ]})
    # nobody holds a card: the round is counted at once (express: one round)
    assert g.over
    assert last_count(g)["deltas"] == [-7, 0, 0]
    assert g.population == [59, 66, 66]
    assert g.winners == [SIMON, JESSICA]
