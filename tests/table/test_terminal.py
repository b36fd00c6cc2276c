"""The terminal game (`happydayz play`): narration, the count broken down, prompts naming the power, the
`powers`, `explain NAME`, `count` and `back` commands, a sorted hand, the Transfer showing what is left,
`--bots`; and `happydayz serve`'s usage errors."""

from __future__ import annotations

import io
import re
import sys

from happydayz.cli.app import main


def run(capsys, monkeypatch, *argv, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_narrated_game_with_bots(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "woodstock-fever/5", "--express", "--seed", "3",
                       "--bots", "greedy", stdin="1\n" * 400)
    assert code == 0
    assert "Bots: 1: greedy, 2: greedy, 3: greedy." in out
    assert re.search(r"^Hippies \(ALL EQUAL\): ", out, re.M)  # a power's effect, named with its variant
    assert re.search(r"^\S+: Community \d( \(you\))? takes \S+ \d+ \(\u2212\d+\) from ", out, re.M)  # a hand-out
    # the count broken down for every Community
    rows = re.findall(r"^  Community \d( \(you\))?: Survivor cards [+\u2212\u00b1]?\d+, \S+ losses", out, re.M)
    assert len(rows) == 4
    assert "Game over" in out


def test_the_hand_is_sorted_and_the_transfer_shows_what_is_left(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "woodstock-fever/1", "--express", "--seed", "3",
                       stdin="1\n")
    hands = re.findall(r"^Your hand: (.*)$", out, re.M)
    assert len(hands) == 2
    first = hands[0].split(", ")
    order = ["Mini-van", "Zombies", "Hippies", "Soldiers", "Dogs"]  # the Factions' rank in play
    keys = [(order.index(c.rsplit(" ", 1)[0] if c[-1].isdigit() else c), int(c.rsplit(" ", 1)[1]) if c[-1].isdigit()
             else 0) for c in first]
    assert keys == sorted(keys)
    chosen = first[0]  # option 1 is the first card of the sorted hand
    assert chosen not in hands[1].split(", ") and f"Chosen to pass: {chosen} to Community 1" in out


def test_powers_explain_and_count_during_a_game(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "woodstock-fever/5", "--express",
                       stdin="powers\nexplain hippies\nexplain nobody\nexplain\ncount\n")
    assert code == 0
    assert out.count("Positive \u2014 ALL EQUAL") == 2  # in the list of powers, then explained
    assert "No power 'nobody' is in play" in out and "Say which power" in out
    assert "Round 1 so far" in out


def test_prompts_name_the_power(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "woodstock-fever/2", "--express", "--seed", "7",
                       stdin="1\n" * 400)
    prompts = re.findall(r"^(\S[^\n]*): choose [^\n]*$", out, re.M)
    assert "Dogs (TRAINING)" in prompts and "Soldiers (REINFORCEMENTS)" in prompts, prompts


def test_take_back(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--express", "--seed", "4", stdin="back\n1\n1\nback\n")
    assert "there is no answer of yours to take back" in out
    assert "Your last answer is taken back (1 answers replayed)." in out


def test_unknown_bot_is_a_usage_error(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "play", "--express", "--bots", "gready")
    assert code == 2 and "did you mean 'greedy'" in err


def test_serve_refuses_a_bad_port(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, "serve", "--port", "70000")
    assert code == 2 and "not a port" in err
