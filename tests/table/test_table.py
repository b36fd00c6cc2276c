"""The table layer: narration, the count broken down, and sessions (start, save, resume, take back)."""

from __future__ import annotations

import random
import re

import pytest

from conftest import ENV
from happydayz.kernel.game import Game
from happydayz.kernel.setup import prepare
from happydayz.table.breakdown import breakdown, breakdown_lines
from happydayz.table.narration import Narrator, narrate
from happydayz.table.powers import find_in_play, power_label, powers_in_play
from happydayz.table.session import TableSession, bot_names, card_order

EFFECTS = ("move", "score", "next_leader", "next_lead")
SCENARIOS = ["woodstock-fever/1", "woodstock-fever/2", "woodstock-fever/5", "american-dream/6", "american-dream/8",
             "american-dream/2"]


def random_game(scenario: str, seed: int, players: int = 4, express: bool = True, viewer: int | None = None):
    setup, _ = prepare(ENV, scenario, players, express)
    game = Game(setup, seed)
    narrator = Narrator(game, viewer)
    lines = narrator.new_lines()
    rng = random.Random(seed)
    while game.decision is not None:
        game.apply(rng.randrange(len(game.decision.options)))
        lines += narrator.new_lines()
    return game, lines


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_effect_is_told_naming_its_power_and_variant(scenario):
    for seed in range(3):
        game, lines = random_game(scenario, seed)
        events = [e for e in game.log if e["event"] in EFFECTS]
        # scores in a row from one power's run for one Community are told as one line
        events = [e for i, e in enumerate(events) if not (i and e["event"] == "score" == events[i - 1]["event"]
                  and all(e.get(k) == events[i - 1].get(k) for k in ("power", "variant", "card", "by", "seat")))]
        told = [line for line in lines if line.event in EFFECTS]
        assert len(told) == len(events)
        for event, line in zip(events, told):
            label = power_label(game, event["power"], event["variant"], event.get("card"))
            assert line.text.startswith(label + ": "), (line.text, label)
            assert line.power == event["power"] and line.variant == event["variant"]


def test_titled_variants_are_named_by_their_title():
    game, lines = random_game("woodstock-fever/5", 3)
    assert any(line.text.startswith("Hippies (ALL EQUAL): ") for line in lines)
    assert power_label(game, "Hippies", "positive") == "Hippies (ALL EQUAL)"
    assert power_label(game, "Hippies", "basic") == "Hippies"


def test_each_card_dealt_out_is_a_line_of_its_own():
    for seed in range(6):
        game, lines = random_game("woodstock-fever/1", seed)
        for event, line in zip([e for e in game.log if e["event"] == "move"], [l for l in lines if l.event == "move"]):
            for card in event["cards"]:
                assert card in line.text  # a spectator is told every card
            source, dest = event["from"][0], event["to"]
            if len(event["cards"]) == 1 and source != dest and source.startswith("expedition") and \
                    dest.startswith("expedition"):  # told from the Community whose power acts
                giver, taker = int(source.split(":")[1]), int(dest.split(":")[1])
                if event["by"] == giver:
                    assert f"Community {giver} gives {event['cards'][0]}" in line.text, line.text
                elif event["by"] == taker:
                    assert f"Community {taker} takes {event['cards'][0]}" in line.text, line.text


def test_a_hand_out_is_told_from_the_community_whose_power_acts():
    """Soldiers and the Zombies give from the winner's own zone (as the Hippies give the trick): never 'takes'."""
    game, lines = random_game("woodstock-fever/1", 2)
    soldiers = [line.text for line in lines if line.power == "Soldiers" and line.event == "move"]
    zombies = [line.text for line in lines if line.power == "Zombies" and line.event == "move"]
    assert soldiers and zombies
    assert all(re.match(r"Soldiers: Community \d gives ", text) for text in soldiers), soldiers
    assert all(re.match(r"Zombies: (Community \d gives |\S+ \d+ \S+ stays in )", text) for text in zombies), zombies
    assert not any(" takes " in text for text in soldiers + zombies)


def test_a_power_that_scores_twice_is_one_line_with_its_total():
    for seed in range(40):
        game, lines = random_game("woodstock-fever/4", seed, viewer=0)
        scores = [e for e in game.log if e["event"] == "score" and e["power"] == "Scientists"]
        doubled = [e for i, e in enumerate(scores[1:], 1) if e["seat"] == scores[i - 1]["seat"]]
        if doubled:
            break
    else:
        raise AssertionError("no game with a Scientists' double gain")
    amount, seat = doubled[0]["amount"], doubled[0]["seat"]
    who = f"Community {seat}" + (" (you)" if seat == 0 else "")
    told = [line.text for line in lines if line.power == "Scientists" and who + " " in line.text]
    assert f"Scientists: {who} gains {amount} Survivors, then {amount} more (+{2 * amount} this round)." in told
    assert len(told) == len(set(told))  # no two lines read the same


def test_a_round_tells_the_cards_carried_over_into_the_hands():
    game, lines = random_game("woodstock-fever/1", 0, express=False)
    deals = [line.text for line in lines if line.event == "deal"]
    assert deals[0] == "Round 1: 12 cards dealt to each Community, 14 in the Reserve."
    assert deals[1] == ("Round 2: 12 cards in each Community's hand (Community 1 kept Mini-van from the last round "
                        "and was dealt 11; Community 2 kept Mini-van, Mini-van from the last round and was dealt 10); "
                        "14 in the Reserve.")
    carried = [c for c in game.history[0]["expeditions"][2] if c == "Mini-van"]
    assert len(carried) == 2


@pytest.mark.parametrize("scenario", ["american-dream/8", "woodstock-fever/5", "woodstock-fever/1"])
def test_a_community_is_not_told_what_it_may_not_see(scenario):
    """A card drawn into another hand, or picked blind out of an Expedition zone, is 'a card'."""
    hidden = 0
    for seed in range(5):
        game, lines = random_game(scenario, seed, viewer=0)
        moves = [e for e in game.log if e["event"] == "move"]
        for event, line in zip(moves, [l for l in lines if l.event == "move"]):
            secret = event["to"].startswith("hand:") and event["to"] != "hand:0" and \
                all(s in ("reserve",) for s in event["from"])
            if secret:
                hidden += 1
                assert not any(card in line.text for card in event["cards"]), line.text
                assert re.search(r"\ba card\b|\b\d+ cards\b", line.text)
    if scenario != "woodstock-fever/1":
        assert hidden


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_breakdown_adds_up_to_the_count(scenario):
    for seed in range(2):
        game, lines = random_game(scenario, seed, express=False)
        counts = breakdown(game)
        assert [c.round for c in counts] == [h["round"] for h in game.history]
        for count, record in zip(counts, game.history):
            for row in count.rows:
                assert row.survivor_cards >= 0 >= row.losses
                assert row.survivor_cards + row.losses + sum(row.powers.values()) == record["deltas"][row.seat]
                assert row.population == record["populations"][row.seat]
            assert len(breakdown_lines(count)) == game.n
        assert sum(1 for line in lines if line.event == "count") == len(game.history)


def test_the_loss_column_is_named_after_the_faction_of_the_losses():
    game, _ = random_game("woodstock-fever/1", 0)
    losers = {c.faction for c in game.cards if c.survivors < 0}
    assert breakdown(game)[0].loss_label == f"{losers.pop()} losses"


def test_a_round_in_progress_shows_the_powers_so_far():
    session = TableSession.start(ENV, "american-dream/6", 4, 0, 1, True, bots="random")
    counts = breakdown(session.game)
    assert counts and not counts[-1].counted


# ------------------------------------------------------------------ sessions

def play_some(session: TableSession, answers: int, rng: random.Random) -> None:
    for _ in range(answers):
        if session.over:
            return
        session.answer(rng.randrange(len(session.game.decision.options)))


def test_bots_per_seat():
    assert bot_names(None, 3, 0) == ["random"] * 3
    assert bot_names("greedy", 3, 1) == ["greedy"] * 3
    assert bot_names("greedy,ismcts", 3, 1) == ["greedy", "random", "ismcts"]
    assert bot_names(["random", "greedy", "greedy", "ismcts"], 4, 0) == ["random", "greedy", "greedy", "ismcts"]
    with pytest.raises(Exception, match="did you mean"):
        bot_names("gready", 4, 0)


def test_the_person_is_asked_only_their_own_decisions():
    session = TableSession.start(ENV, "woodstock-fever/1", 4, 2, 5, True, bots="greedy")
    rng = random.Random(0)
    while not session.over:
        assert session.game.decision.actor == 2 and session.my_turn
        session.answer(rng.randrange(len(session.game.decision.options)))
    assert session.game.over and session.lines[-1].event == "game_over"


def test_save_and_resume_replay_the_same_game_with_the_same_bots(tmp_path):
    rng = random.Random(4)
    straight = TableSession.start(ENV, "woodstock-fever/2", 4, 1, 9, True, bots="greedy,random,greedy")
    mine: list[int] = []
    while not straight.over:
        mine.append(rng.randrange(len(straight.game.decision.options)))
        straight.answer(mine[-1])

    half = TableSession.start(ENV, "woodstock-fever/2", 4, 1, 9, True, bots="greedy,random,greedy")
    for answer in mine[:len(mine) // 2]:
        half.answer(answer)
    half.save(tmp_path / "s.json")
    resumed = TableSession.resume(tmp_path / "s.json", ENV)
    assert resumed.seat == 1 and [resumed.bot_names[s] for s in (0, 2, 3)] == ["greedy", "random", "greedy"]
    assert [l.text for l in resumed.lines] == [l.text for l in half.lines]
    for answer in mine[len(mine) // 2:]:
        resumed.answer(answer)
    assert resumed.game.log == straight.game.log


def test_take_back_is_the_game_one_answer_of_mine_earlier():
    rng = random.Random(1)
    session = TableSession.start(ENV, "american-dream/8", 4, 0, 2, True, bots="random")
    play_some(session, 7, rng)
    before = session.view()
    decision = session.game.decision
    session.answer(0)
    back = session.take_back()
    assert back.game.decision == decision and back.view()["hand"] == before["hand"]
    assert len(back.game.answers) == before["answers"] < len(session.game.answers)
    assert back.game.answers == session.game.answers[:before["answers"]]
    assert [line.record() for line in back.lines] == before["narration"]
    fresh = TableSession.start(ENV, "american-dream/8", 4, 0, 2, True, bots="random")
    with pytest.raises(Exception, match="take back"):
        fresh.take_back()


def test_the_hand_is_sorted_and_the_transfer_shows_what_is_left():
    session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, 3, True)
    key = card_order(session.game)
    hand = session.hand()
    assert hand == sorted(hand, key=key)
    first = session.decision_record()["options"][0]
    session.answer(first["index"])
    assert session.game.decision.kind == "transfer" and session.game.decision.actor == 0
    assert first["card"] not in session.hand()
    assert session.passing() == [(first["card"], session.passing()[0][1])]
    view = session.view()
    assert [c["id"] for c in view["passing"]] == [first["card"]]
    assert first["card"] not in [c["id"] for c in view["hand"]]


def test_power_choices_name_their_power():
    rng = random.Random(0)
    for seed in range(6):
        session = TableSession.start(ENV, "woodstock-fever/2", 4, 0, seed, True, bots="random")
        while not session.over:
            decision = session.game.decision
            if decision.kind in ("choose", "ask"):
                name, variant, _ = session.game.asking_power()
                prompt = decision.prompt  # named once, when the power is compiled
                assert prompt.startswith(power_label(session.game, name, variant) + ": ")
                assert ": " not in prompt[len(power_label(session.game, name, variant)) + 2:]
                assert session.decision_record()["prompt"] == prompt
                return
            session.answer(rng.randrange(len(decision.options)))
    pytest.fail("no power choice came up")


def test_the_powers_in_play_with_their_card_text():
    session = TableSession.start(ENV, "woodstock-fever/5", 4, 0, 0, True)
    powers = powers_in_play(session.game, ENV)
    labels = [p.label for p in powers]
    assert "Hippies (ALL EQUAL)" in labels and any(p.kind == "always" for p in powers)
    hippies = find_in_play(session.game, ENV, "hippies")
    assert hippies is not None and "yourself included" in hippies.text and "BAD TRIP" not in hippies.text
    assert find_in_play(session.game, ENV, "nobody") is None


def test_view_shows_no_more_than_observe():
    session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, 3, True)
    view = session.view()
    observed = session.game.observe(0)
    assert [c["id"] for c in view["hand"]] == sorted((c["id"] for c in observed["hand"]), key=card_order(session.game))
    for community, size in zip(view["communities"], observed["expedition_sizes"]):
        assert community["expedition_size"] == size
    assert "hands" not in view and "zones" not in view


def test_narrate_reads_a_whole_log():
    game, lines = random_game("woodstock-fever/1", 2)
    assert [l.text for l in narrate(game)] == [l.text for l in lines]
