"""The modder's constructs played out: lasting state, the hooks of every event, choices, trick rules.

Each test writes a small power for a custom Faction (Jesters, cards 1 to 13),
lays out a position by hand and checks what the rules say must follow.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import ENV, answer, deltas, labels, options, position
from happydayz.base.errors import HappyError
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare

SCENARIO = """\
title: Jesters
box: woodstock-fever
factions: [{{faction: Jesters, variant: {variant}}}, Scientists, Children]
custom_factions:
  - name: Jesters
    power: jesters.power
    cards:
      - {{values: "1-13", survivors: 1}}
"""


def jesters(tmp_path, body: str, variant: str = "basic", players: int = 3, express: bool = True,
            seed: int = 0) -> Game:
    """A game whose first Faction, Jesters, has the power `body` (the lines inside `power Jesters { ... }`)."""
    text = "power Jesters {\n  for faction Jesters\n" + textwrap.indent(textwrap.dedent(body), "  ") + "}\n"
    (tmp_path / "jesters.power").write_text(text, encoding="utf-8")
    scenario = tmp_path / "jesters.scenario.yaml"
    scenario.write_text(SCENARIO.format(variant=variant), encoding="utf-8")
    setup, _ = prepare(ENV, str(scenario), players, express=express)
    return Game(setup, seed)


def state_of(game: Game, name: str, seat=None):
    spec = next(s for s in game.setup.state_specs.values() if s.name == name)
    return game.state.get((spec.key, seat), spec.default)


# ------------------------------------------------------------------ state


def test_a_counter_per_community_lasts_across_tricks_and_is_public(tmp_path):
    game = jesters(tmp_path, """
        counter wins per community
        on win {
          add 1 to wins
          if wins >= 2 { gain 10 }
        }
    """)
    position(game, hands={0: ["Jesters 9", "Jesters 8"], 1: ["Jesters 1", "Jesters 2"], 2: ["Scientists 1", "Scientists 2"]},
             reserve=[], active=0)
    answer(game, "Jesters 9 on +", "Jesters 1", "Scientists 1", "Jesters 8 on +", "Jesters 2", "Scientists 2")
    assert state_of(game, "wins", 0) == 2 and state_of(game, "wins", 1) == 0
    # 4 cards of 1 Survivor each... seat 0 took 6 cards (Scientists 1 Survivor too) and the bonus of the second win
    assert deltas(game)[0] == 6 + 10
    seen_by_2 = game.observe(2)["state"]
    assert {"power": "Jesters", "name": "wins", "seat": 0, "value": 2} in seen_by_2


def test_a_secret_counter_is_seen_by_its_owner_only(tmp_path):
    game = jesters(tmp_path, """
        counter hoard per community secret
        on win { add 3 to hoard }
    """)
    position(game, hands={0: ["Jesters 9"], 1: ["Jesters 1"], 2: ["Scientists 1"]}, reserve=[], active=0)
    answer(game, "Jesters 9 on +", "Jesters 1", "Scientists 1")
    assert game.observe(0)["state"] == [{"power": "Jesters", "name": "hoard", "seat": 0, "value": 3}]
    assert game.observe(1)["state"] == []
    assert any(e["event"] == "state" and e["name"] == "hoard" and e["value"] == 3 for e in game.log)


def test_a_round_counter_starts_again_each_round_and_a_game_counter_does_not(tmp_path):
    game = jesters(tmp_path, """
        counter this_round for round
        counter all_game
        at start of round {
          add 1 to this_round
          add 1 to all_game
        }
    """, express=False, seed=3)
    # three Communities run the start-of-round hook in each round
    assert state_of(game, "this_round") == 3 and state_of(game, "all_game") == 3
    game.play(lambda d: 0, round_only=True)
    game.play(lambda d: 0, round_only=True)
    assert game.round_no == 2
    assert state_of(game, "this_round") == 3 and state_of(game, "all_game") == 6


def test_a_copy_keeps_its_own_state(tmp_path):
    game = jesters(tmp_path, """
        counter n
        on win { add 1 to n }
    """)
    position(game, hands={0: ["Jesters 9"], 1: ["Jesters 1"], 2: ["Scientists 1"]}, reserve=[], active=0)
    other = game.copy()
    answer(game, "Jesters 9 on +", "Jesters 1", "Scientists 1")
    assert state_of(game, "n") == 1 and state_of(other, "n") == 0


# ------------------------------------------------------------------ hooks and what they see


def test_on_play_sees_the_card_and_who_played_it_and_declare_makes_it_count_as_the_faction_led(tmp_path):
    game = jesters(tmp_path, """
        on play {
          if led is not Jesters { declare played as led }
        }
    """)
    position(game, hands={0: ["Scientists 5"], 1: ["Jesters 13"], 2: ["Scientists 9"]}, reserve=[], active=0)
    answer(game, "Scientists 5 on +", "Jesters 13", "Scientists 9")
    # Community 1 had no Scientists; its Jester declared itself a Scientist and, at 13, beats Scientists 9
    assert labels(game, "expedition", 1) == sorted(["Scientists 5", "Scientists 9", "Jesters 13"])


def test_on_trick_runs_for_each_card_of_the_faction_whatever_was_led_and_after_trick_for_the_winner(tmp_path):
    game = jesters(tmp_path, """
        counter seen per community
        on trick { add 1 to seen }
        after trick { gain tricks(winner) for winner }
    """)
    position(game, hands={0: ["Scientists 5", "Scientists 6"], 1: ["Jesters 3", "Jesters 4"], 2: ["Jesters 9", "Jesters 1"]},
             reserve=[], active=0)
    answer(game, "Scientists 5 on +", "Jesters 3", "Jesters 9")
    assert [state_of(game, "seen", s) for s in range(3)] == [0, 1, 1]
    answer(game, "Scientists 6 on +", "Jesters 4", "Jesters 1")
    assert [state_of(game, "seen", s) for s in range(3)] == [0, 2, 2]
    # seat 0 won both tricks: after trick gave it 1, then 2; the cards: 6 Survivors (each card 1, Jesters 1)
    assert deltas(game)[0] == 6 + 1 + 2


def test_at_end_of_game_gains_change_the_final_populations_and_the_winner(tmp_path):
    game = jesters(tmp_path, """
        at end of game {
          if self is left of left { gain 50 }
        }
    """)
    position(game, hands={0: ["Scientists 5"], 1: ["Scientists 4"], 2: ["Scientists 3"]}, reserve=[], active=0,
             populations=[10, 10, 10])
    answer(game, "Scientists 5 on +", "Scientists 4", "Scientists 3")
    # with 3 Communities, left of left of self is the right neighbour, never self: nobody gains
    assert game.population == [13, 10, 10] and game.winners == [0]


def test_at_end_of_game_gain_for_one_community(tmp_path):
    game = jesters(tmp_path, """
        at end of game {
          if population(self) == min(population(left), population(right), population(self)) { gain 5 }
        }
    """)
    position(game, hands={0: ["Scientists 5"], 1: ["Scientists 4"], 2: ["Scientists 3"]}, reserve=[], active=0,
             populations=[10, 12, 10])
    answer(game, "Scientists 5 on +", "Scientists 4", "Scientists 3")
    # after the count: 13, 12, 10; seat 2 has the fewest and gains 5 at the end of the game
    assert game.population == [13, 12, 15] and game.winners == [2]
    assert any(e["event"] == "game_end_powers" for e in game.log)


# ------------------------------------------------------------------ choices


def test_a_choice_between_courses_offers_their_words_and_runs_the_one_chosen(tmp_path):
    game = jesters(tmp_path, """
        on win {
          choose "Take 4 Survivors" { gain 4 } or "Give 2 to your left neighbour" { gain 2 for left }
        }
    """)
    position(game, hands={0: ["Jesters 9"], 1: ["Jesters 1"], 2: ["Scientists 1"]}, reserve=[], active=0)
    answer(game, "Jesters 9 on +", "Jesters 1", "Scientists 1")
    assert options(game) == ["Take 4 Survivors", "Give 2 to your left neighbour"]
    assert game.decision.prompt == "Jesters: choose “Take 4 Survivors” or “Give 2 to your left neighbour”"
    answer(game, "Give 2 to your left neighbour@0")
    assert deltas(game) == [3, 2, 0]


def test_a_number_and_a_side_are_chosen_like_any_option(tmp_path):
    game = jesters(tmp_path, """
        counter bid per community
        at start of round {
          choose n from numbers(0, 2) { set bid = n }
        }
        on lead {
          choose s from sides { set side = s }
        }
    """)
    assert options(game) == ["0", "1", "2"]
    answer(game, "2@0", "0@1", "1@2")
    assert [state_of(game, "bid", s) for s in range(3)] == [2, 0, 1]
    position(game, hands={0: ["Jesters 9"], 1: ["Jesters 1"], 2: ["Scientists 1"]}, reserve=[], active=0)
    answer(game, "Jesters 9 on +")
    assert options(game) == ["+ side", "- side"]
    answer(game, "- side", "Jesters 1", "Scientists 1")
    # on the - side the lowest Jester wins
    assert labels(game, "expedition", 1) == sorted(["Scientists 1", "Jesters 1", "Jesters 9"])


# ------------------------------------------------------------------ trick rules


@pytest.mark.parametrize("rule, winner", [
    ("rule wins when value of played == 1", 1),       # the 1 wins whatever was led
    ("rule never wins when value of played > 10", 2),  # the 13 cannot win: the 9 does
])
def test_rules_that_say_who_wins(tmp_path, rule, winner):
    game = jesters(tmp_path, rule + "\n")
    position(game, hands={0: ["Jesters 13"], 1: ["Jesters 1"], 2: ["Jesters 9"]}, reserve=[], active=0)
    answer(game, "Jesters 13 on +", "Jesters 1", "Jesters 9")
    assert len(game.zone("expedition", winner)) == 3


def test_a_wild_card_may_always_be_played_and_counts_as_the_faction_led(tmp_path):
    game = jesters(tmp_path, "rule wild\n")
    position(game, hands={0: ["Scientists 5"], 1: ["Jesters 12", "Scientists 2"], 2: ["Scientists 9"]}, reserve=[], active=0)
    answer(game, "Scientists 5 on +")
    assert sorted(options(game)) == sorted(["Scientists 2", "Jesters 12"])  # the wild card is offered beside the Hippie
    answer(game, "Jesters 12", "Scientists 9")
    assert labels(game, "expedition", 1) == sorted(["Scientists 5", "Scientists 9", "Jesters 12"])


def test_beats_takes_the_trick_from_the_faction_it_names(tmp_path):
    game = jesters(tmp_path, "rule beats Scientists\n")
    position(game, hands={0: ["Scientists 5"], 1: ["Jesters 1"], 2: ["Scientists 9"]}, reserve=[], active=0)
    answer(game, "Scientists 5 on +", "Jesters 1", "Scientists 9")
    assert labels(game, "expedition", 1) == sorted(["Scientists 5", "Scientists 9", "Jesters 1"])


def test_leads_only_when_and_only_leads_narrow_the_options_but_never_to_nothing(tmp_path):
    game = jesters(tmp_path, """
        mark broken for round
        rule leads only when broken
        on play { set broken = true }
    """)
    position(game, hands={0: ["Jesters 5", "Scientists 3"], 1: ["Jesters 7", "Scientists 4"], 2: ["Jesters 2"]},
             reserve=[], active=0)
    assert options(game) == ["Scientists 3 on +", "Scientists 3 on -"]  # Jesters may not lead yet
    answer(game, "Scientists 3 on +", "Scientists 4", "Jesters 2")  # Jesters played: now broken
    assert sorted(options(game)) == sorted(["Jesters 7 on +", "Jesters 7 on -"])


def test_a_card_that_must_be_played_is_the_only_option(tmp_path):
    game = jesters(tmp_path, "rule must be played when value of played == 13\n")
    position(game, hands={0: ["Scientists 5"], 1: ["Jesters 13", "Scientists 2"], 2: ["Scientists 9"]}, reserve=[], active=0)
    answer(game, "Scientists 5 on +")
    assert options(game) == ["Jesters 13"]


def test_end_trick_stops_the_trick_before_the_others_play(tmp_path):
    game = jesters(tmp_path, """
        on play {
          if value of played == 1 { end trick }
        }
    """)
    position(game, hands={0: ["Jesters 9", "Scientists 1"], 1: ["Jesters 1", "Scientists 2"], 2: ["Jesters 12", "Scientists 3"]},
             reserve=[], active=0)
    answer(game, "Jesters 9 on +", "Jesters 1")
    # Community 2 never played: the trick holds two cards and Jesters 9 took it
    assert labels(game, "expedition", 0) == sorted(["Jesters 1", "Jesters 9"])
    assert labels(game, "hand", 2) == sorted(["Scientists 3", "Jesters 12"])


def test_end_round_ends_the_round_after_the_trick(tmp_path):
    game = jesters(tmp_path, "on win { end round }\n")
    position(game, hands={0: ["Jesters 9", "Scientists 1"], 1: ["Jesters 1", "Scientists 2"], 2: ["Scientists 7", "Scientists 3"]},
             reserve=[], active=0)
    answer(game, "Jesters 9 on +", "Jesters 1", "Scientists 7")
    assert game.over and deltas(game) == [3, 0, 0]


def test_two_power_files_of_one_name_cannot_both_keep_state(tmp_path):
    for name, faction in (("reds.power", "Reds"), ("blues.power", "Blues")):
        (tmp_path / name).write_text(f"power Shared {{\n  for faction {faction}\n  counter n\n"
                                     "  on win { add 1 to n }\n}\n", encoding="utf-8")
    (tmp_path / "s.yaml").write_text(
        "title: Shared\nbox: woodstock-fever\nfactions: [Reds, Blues, Hippies]\ncustom_factions:\n"
        "  - {name: Reds, power: reds.power}\n  - {name: Blues, power: blues.power}\n", encoding="utf-8")
    with pytest.raises(HappyError) as err:
        prepare(ENV, str(tmp_path / "s.yaml"), 3)
    assert err.value.diagnostics[0].message == (
        "the power files reds.power and blues.power are both named 'Shared' and both keep 'n': give the powers "
        "different names, so that each keeps its own")


def test_a_logged_game_with_state_choices_and_trick_rules_replays_event_for_event(tmp_path):
    from happydayz.cli import main
    from happydayz.kernel.replaylog import verify
    jesters(tmp_path, """
        counter bid per community secret
        mark broken for round
        rule wild
        rule leads only when broken
        at start of round { choose n from numbers(0, 2) { set bid = n } }
        on play {
          set broken = true
          choose f from factions { declare played as f }
        }
        on lead { choose s from sides { set side = s } }
        at end of round { if tricks(self) == bid { gain 4 } }
    """)
    log = tmp_path / "games.jsonl"
    assert main(["simulate", "--scenario", str(tmp_path / "jesters.scenario.yaml"), "--players", "3", "--games", "2",
                 "--seed", "5", "--log", str(log), "--json", str(tmp_path / "r.json")]) == 0
    for index in (0, 1):
        game, differences = verify(log, index, ENV)
        assert differences == []
        assert any(e["event"] == "state" for e in game.log) and any(e["event"] == "declare" for e in game.log)
