"""The worked examples of the American Dream rulebook, replayed card by card.

Seats: Ophélie = 0, Simon = 1, Jessica = 2 (clockwise = increasing seat, the
order in which they play in the examples). Populations start at 66. Zombie
losses: values 1-10 lose 3, 11-16 lose 6, 17-20 lose 9.
"""

from __future__ import annotations

from conftest import answer, labels, last_count, make_game, options, ordered, position

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


def test_example_zombie_trick():
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
