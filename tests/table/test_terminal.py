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
    assert re.search(r"^\S+: Community \d( \(you\))? gives \S+ \d+ \(\u2212\d+\) to ", out, re.M)  # a hand-out
    # the count broken down for every Community
    rows = re.findall(r"^  Community \d( \(you\))?: Survivor cards [+\u2212\u00b1]?\d+, \S+ losses", out, re.M)
    assert len(rows) == 4
    assert "Game over" in out


def test_the_hand_is_sorted_and_the_transfer_shows_what_is_left(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "woodstock-fever/1", "--express", "--seed", "3",
                       stdin="1\n")
    hands = re.findall(r"^Your hand: (.*)$", out, re.M)
    assert len(hands) == 2
    first = [re.sub(r" \([+\u2212]\d+\)$", "", card) for card in hands[0].split(", ")]  # without the Survivors
    order = ["Mini-van", "Zombies", "Hippies", "Soldiers", "Dogs"]  # the Factions' rank in play
    keys = [(order.index(c.rsplit(" ", 1)[0] if c[-1].isdigit() else c), int(c.rsplit(" ", 1)[1]) if c[-1].isdigit()
             else 0) for c in first]
    assert keys == sorted(keys)
    chosen = hands[0].split(", ")[0]  # option 1 is the first card of the sorted hand
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


# ------------------------------------------------------------------ what a player reads at the table

from rich.console import Console  # noqa: E402

from conftest import ENV  # noqa: E402
from happydayz.cli.play import Session  # noqa: E402
from happydayz.table.labels import card_name, option_text  # noqa: E402
from happydayz.table.session import TableSession  # noqa: E402


def _until(session: TableSession, wanted, limit: int = 400):
    """Answer the person's decisions with their last option until `wanted(decision)` holds (or the game ends)."""
    for _ in range(limit):
        decision = session.game.decision
        if decision is None:
            return None
        if wanted(decision):
            return decision
        session.answer(len(decision.options) - 1)
    return None


def _screen(session: TableSession, stdin: str = "", width: int = 80, terminal: bool = False) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=terminal, color_system=None, highlight=False)
    shown = Session(session, console, io.StringIO(stdin))
    shown.show(session.game.decision)
    shown.ask(session.game.decision)
    return out.getvalue()


def test_hands_and_card_options_show_their_survivors():
    session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, 3, True)
    screen = _screen(session, "quit\n")
    hand = re.search(r"^Your hand: (.*)$", screen, re.M).group(1).split(", ")
    assert "Zombies 13 (\u22126)" in hand and "Hippies 1 (+1)" in hand and "Mini-van" in hand
    assert "   4. Zombies 13 (\u22126)" in screen


def test_a_forced_move_asks_without_a_range_of_one():
    for seed in range(30):
        session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, seed, True)
        if _until(session, lambda d: d.actor == 0 and len(d.options) == 1) is not None:
            break
    else:
        raise AssertionError("no forced move in 30 games")
    screen = _screen(session, "quit\n")
    assert "Your choice (1, help, save PATH, quit):" in screen and "(1-1" not in screen


def test_the_person_is_marked_you_among_the_communities_to_choose():
    for seed in range(40):
        session = TableSession.start(ENV, "woodstock-fever/5", 4, 0, seed, True)  # Hippies (ALL EQUAL): everyone
        decision = _until(session, lambda d: d.actor == 0 and d.kind == "choose" and
                          any(o == session.game.tables.seat[0] for o in d.options))
        if decision is not None:
            break
    else:
        raise AssertionError("no choice of a Community among everyone in 40 games")
    mine = next(i for i, o in enumerate(decision.options) if o.value == 0)
    assert option_text(session.game, decision, mine, 0) == "Community 0 (you)"
    assert re.search(r"^ +\d+\. Community 0 \(you\)$", _screen(session, "quit\n"), re.M)
    assert session.decision_record()["options"][0]["label"].startswith("Community")
    assert "Community 0 (you)" in [o["label"] for o in session.decision_record()["options"]]


def test_a_terminal_breaks_lines_between_words():
    session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, 3, True)
    screen = _screen(session, "quit\n", width=80, terminal=True)
    words = set(re.findall(r"[A-Za-z\u2212+()0-9-]+", "Mini-van, Zombies 2 (−3), Zombies 6 (−3), Zombies 13 (−6), "
                                                      "Hippies 12 (+1), Soldiers 8 (+1), Soldiers 12 (+1)"))
    for line in screen.splitlines():
        assert len(line) <= 80
    hand = screen[screen.index("Your hand:"):screen.index("Your Transfer zone")]
    for piece in re.split(r"[\s,]+", hand.replace("Your hand:", "")):
        assert not piece or piece in words or re.fullmatch(r"\(?[+\u2212]?\d+\)?|[A-Z][a-z-]+", piece), piece
    assert "Zombies 13 (\u22126)" in " ".join(hand.split())  # nothing cut inside a card's name
    piped = _screen(session, "quit\n", width=80, terminal=False)
    assert re.search(r"^Your hand: .{81,}$", piped, re.M)  # piped output keeps each line whole


def test_the_cards_seen_going_in_are_remembered_after_a_blind_removal():
    """The Dogs take a card at random out of an Expedition zone: the observation then knows none of that zone's
    cards for sure, but the person still sees them, as "perhaps still" there."""
    found = None
    for seed in range(60):
        session = TableSession.start(ENV, "woodstock-fever/1", 4, 0, seed, True)
        while found is None and session.my_turn:
            before = [list(cards) for cards in session.game.known]
            session.answer(len(session.game.decision.options) - 1)  # the bots play on to my next decision
            obs = session.game.observe(0)
            for seat in range(4):
                perhaps = session.memory.perhaps(obs, seat)
                if perhaps and session.my_turn:
                    found = seat, before[seat], perhaps
                    break
        if found:
            break
    assert found, "no blind removal from a known Expedition zone in 60 games"
    seat, known_before, perhaps = found
    assert set(perhaps) <= set(known_before)  # only cards seen going in, now no longer sure
    assert not set(perhaps) & set(session.game.known[seat])
    assert [c["id"] for c in session.view()["communities"][seat]["perhaps"]] == perhaps
    screen = _screen(session, "quit\n", width=400)
    assert "perhaps still: " + ", ".join(card_name(session.game, c) for c in perhaps) in screen


def test_the_terminal_draws_the_laid_dummys_hand_face_up(capsys, monkeypatch):
    """bridge/1 as seat 1 with random bots (seed 1: seat 1 declares, seat 3 is the dummy): once the opening lead
    is made every screen shows the dummy's hand (its seat, its controller, its cards); before it, none does."""
    code, out, _ = run(capsys, monkeypatch, "play", "--scenario", "bridge/1", "--express", "--seed", "1",
                       "--seat", "1", "--bots", "random", stdin="1\n" * 200)
    assert code == 0
    screens = out.split("Round 1 of 1")[1:]
    shown = [re.search(r"^Dummy \(Community (\d)( \(you\))?, played by ([^)]+)\), face up: (.*)$", s, re.M)
             for s in screens]
    assert shown[0] is None  # the auction's first call: no dummy yet
    laid = [m for m in shown if m is not None]
    assert laid, "no screen showed the dummy"
    first = laid[0]
    dummy = int(first.group(1))
    sizes = [len(m.group(4).split(", ")) for m in laid]  # its hand, face up, a card less each trick
    assert 1 <= sizes[0] <= 13 and sizes == sorted(sizes, reverse=True)
    assert all(int(m.group(1)) == dummy for m in laid)
    assert dummy == 3 and first.group(3) == "you"  # seat 1's partner: seat 1 is the declarer and plays it
    assert "You decide for the dummy, Community 3: its cards above" in out
