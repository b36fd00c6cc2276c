"""The two pages in a real Chromium against the real server: a whole express game played by clicks, the
narration of a power's effect, save and resume, take-back, and the playground's diagnostics at their line.

The screenshots in docs/table/ are taken here (docs/table.md shows them).
"""

from __future__ import annotations

import json
import time

import pytest

from pathlib import Path
from happydayz.authoring.checking import check_paths
from happydayz.data.environment import Environment

from .conftest import new_power_file

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "table"
SCENARIO = "woodstock-fever/5"  # Hippies play their ALL EQUAL variant: a power whose effect the narration names


def start(page, server, seed: int, seat: int = 0, bots: str = "greedy") -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.select_option("#scenario", SCENARIO)
    page.select_option("#players", "4")
    page.select_option("#seat", str(seat))
    for other in range(4):
        if other != seat:
            page.select_option(f"#bots select[data-seat='{other}']", bots)
    page.select_option("#mode", "express")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#game:not(.hidden)")


class answered:
    """Wait, around a click, for the answer to reach the server and the page to draw what came back."""

    def __init__(self, page) -> None:
        self.page = page

    def __enter__(self):
        self.waiting = self.page.expect_response(lambda r: "/answer" in r.url and r.request.method == "POST")
        self.waiting.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.waiting.__exit__(*exc)
        if exc[0] is None:
            self.page.wait_for_function("() => !busy")


def click_once(page) -> bool:
    """Answer the pending decision by clicking, as a person would: False when the game is over."""
    if page.is_visible("#result"):
        return False
    choices = page.locator("#choices .choice")
    if choices.count():
        with answered(page):
            choices.first.click()
    elif page.is_visible("#sides"):
        with answered(page):
            page.click("#side-plus")
    else:
        legal = page.locator(".card.legal")
        assert legal.count(), "no legal card to click and no choice offered"
        if page.evaluate("() => game.decision.kind") == "lead":
            legal.first.click()
            page.wait_for_selector("#sides:not(.hidden)")
        else:
            with answered(page):
                legal.first.click()
    return True


def test_a_whole_express_game_by_clicks(page, server):
    start(page, server, seed=3)
    # only the legal cards can be clicked: the others are drawn disabled
    assert page.locator("#hand .card").count() == 12
    assert page.locator("#hand .card.legal").count() == 12  # the Transfer: any card
    shot = False
    for _ in range(400):
        if not click_once(page):
            break
        if not shot and page.locator("#trick .card").count() >= 2 and page.locator("#narration li.move").count():
            page.screenshot(path=str(SHOTS / "play.png"), full_page=True)
            shot = True
    result = page.inner_text("#result")
    assert result.startswith("Game over:") and "Final populations" in result
    lines = page.locator("#narration li").all_inner_texts()
    # a power's effect is told with its power and variant
    gifts = [line for line in lines if line.startswith("Hippies (ALL EQUAL): ") and "Expedition zone" in line]
    assert gifts, lines
    # each card a trick of the always-in-play threat hands out is told on its own line
    assert any(" gives " in line and line.split(": ")[0] not in ("Hippies (ALL EQUAL)",) for line in lines), lines
    assert lines[-1].startswith("Game over.")
    # the count, broken down for every Community
    rows = page.locator("#breakdown table tr[data-seat]")
    assert rows.count() == 4
    header = page.locator("#breakdown table th").all_inner_texts()
    assert "Survivor cards" in header and any(h.endswith("losses") for h in header)
    # the powers in play with their card text
    assert "choose any Community, yourself included" in page.inner_text("#powers")
    assert shot
    page.screenshot(path=str(SHOTS / "play-over.png"), full_page=True)


def test_leading_offers_both_sides_and_the_trick_shows_who_played(page, server):
    start(page, server, seed=5)
    for _ in range(100):
        if page.evaluate("() => game.decision && game.decision.kind") == "lead":
            break
        click_once(page)
    legal = page.locator(".card.legal")
    label = legal.first.get_attribute("data-label")
    legal.first.click()
    assert page.is_visible("#side-plus") and page.is_visible("#side-minus")
    with answered(page):
        page.click("#side-minus")
    lines = page.locator("#narration li").all_inner_texts()
    assert any(line.startswith(f"Community 0 (you) leads {label}") and "on the - side" in line for line in lines)
    # at a follow, the trick shows who played each card
    for _ in range(100):
        if page.evaluate("() => game.decision && game.decision.kind") == "follow":
            break
        click_once(page)
    plays = page.evaluate("() => game.trick.plays.map(p => [p.seat, p.label])")
    shown = page.locator("#trick .card")
    assert shown.count() == len(plays) >= 1
    for i, (seat, card) in enumerate(plays):
        assert shown.nth(i).get_attribute("data-label") == card
        assert shown.nth(i).locator(".who").inner_text().startswith(f"Community {seat}")


def test_save_resume_and_take_back(page, server):
    start(page, server, seed=11, seat=1, bots="random")
    for _ in range(6):
        click_once(page)
    if page.is_visible("#sides"):
        with answered(page):
            page.click("#side-plus")
    before = page.evaluate("() => ({hand: game.hand.map(c => c.label), answers: game.answers, "
                           "lines: game.narration.length})")
    page.fill("#save-name", "browser-test")
    page.click("#save")
    page.wait_for_function("() => document.getElementById('save-message').textContent.startsWith('Saved')")
    saved = json.loads((server.mods / "saves" / "browser-test.json").read_text(encoding="utf-8"))
    assert saved["seat"] == 1 and saved["bots"][0] == "random" and len(saved["answers"]) == before["answers"]

    page.click("#new-game")
    page.wait_for_selector("#setup:not(.hidden)")
    page.select_option("#save-list", "browser-test")
    page.click("#resume")
    page.wait_for_function(f"() => game && game.answers === {before['answers']} && "
                           "!document.getElementById('game').classList.contains('hidden')")
    after = page.evaluate("() => ({hand: game.hand.map(c => c.label), answers: game.answers, "
                          "lines: game.narration.length})")
    assert after == before

    # take back: the game as it was before my last answer
    with page.expect_response(lambda r: r.url.endswith("/takeback")):
        page.click("#takeback")
    # the page shows the answer's view once it has handled it (the response may come first)
    page.wait_for_function(f"() => game && game.answers < {before['answers']}", timeout=15000)
    back = page.evaluate("() => game.answers")
    assert back < before["answers"]
    assert page.evaluate("() => game.decision !== null && game.decision !== undefined")


BROKEN = """power Lanterns {
  for faction Lanterns

  on win {
    gain count(expedition of winer)
  }
}
"""


def test_playground_shows_a_diagnostic_at_its_line(page, server, tmp_path):
    new_power_file(page, server, "lanterns.power")
    assert (server.mods / "lanterns.power").is_file()
    page.wait_for_selector("#card-text:not(:empty)")
    assert "Lanterns" in page.inner_text("#card-text")
    page.fill("#editor", BROKEN)  # typed: each change is checked
    page.wait_for_selector(".diagnostic.error")
    # the same diagnostics as `happydayz check` gives for the file
    copy = tmp_path / "lanterns.power"
    copy.write_text(BROKEN, encoding="utf-8")
    expected = [d.record() for d in check_paths([copy], Environment(power_dirs=[server.mods]))]
    errors = [d for d in expected if d["severity"] == "error"]
    assert errors
    shown = page.locator(".diagnostic.error").first
    assert shown.get_attribute("data-line") == str(errors[0]["line"])
    assert shown.get_attribute("data-column") == str(errors[0]["column"])
    assert shown.get_attribute("data-code") == errors[0]["code"]
    assert f"lanterns.power:{errors[0]['line']}:{errors[0]['column']}:" in shown.inner_text()
    assert page.locator(f"#gutter span.bad[data-line='{errors[0]['line']}']").count() == 1
    # fixed again: no error, the card text is back
    page.screenshot(path=str(SHOTS / "playground-diagnostic.png"), full_page=True)
    page.fill("#editor", BROKEN.replace("expedition of winer", "expedition"))
    page.wait_for_function("() => document.getElementById('summary').textContent.startsWith('0 error')")
    assert "Survivor" in page.inner_text("#card-text")
    # a file outside the mods folder cannot be opened
    page.evaluate("() => openFile('../../../etc/passwd')")
    page.wait_for_function("() => document.getElementById('message').textContent.includes('mods folder')")


def test_playground_simulates_and_shows_the_report(page, server):
    page.goto(server.url + "/playground")
    page.wait_for_selector("#bundled option", state="attached")
    page.select_option("#bundled", "hippies")
    page.click("#copy")
    page.wait_for_function("() => document.getElementById('path').textContent.startsWith('hippies')")
    page.wait_for_selector("#card-text:not(:empty)")
    assert "ALL EQUAL" in page.inner_text("#card-text")
    # a new Faction: its power file and a scenario that plays it, simulated with the power as edited
    page.fill("#new-faction", "Glowworms")
    page.click("#create-faction")
    page.wait_for_function("() => document.getElementById('path').textContent === 'glowworms.power'")
    assert page.input_value("#sim-scenario") == "mods:glowworms.yaml"
    text = page.input_value("#editor")
    page.fill("#editor", text)
    page.click("#save-file")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Saved')")
    page.fill("#sim-games", "12")
    page.click("#simulate")
    page.wait_for_selector("#report table", timeout=120_000)
    page.wait_for_selector("#report img")
    assert page.locator("#report img").count() >= 1
    assert "Glowworms" in page.inner_text("#report")
    time.sleep(0.3)
    page.screenshot(path=str(SHOTS / "playground.png"), full_page=True)


def test_the_dummys_hand_is_drawn_face_up_and_its_partner_plays_it_by_clicks(page, server):
    """bridge/1 at seat 0, the dealer: it bids 7 no trump, which nobody can outbid, so it declares and seat 2 is
    the dummy. After the opening lead the dummy's hand lies face up at seat 2, and seat 0 plays the dummy's
    cards there by clicking them; the game goes on to its end."""
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.select_option("#scenario", "bridge/1")
    page.select_option("#players", "4")
    page.select_option("#seat", "0")
    for other in (1, 2, 3):
        page.select_option(f"#bots select[data-seat='{other}']", "random")
    page.select_option("#mode", "express")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#game:not(.hidden)")
    assert page.locator(".dummy").count() == 0  # the auction: no hand is face up
    with answered(page):
        page.locator("#choices .choice", has_text="7 no trump").click()
    played_for_dummy = 0
    for _ in range(200):
        if page.is_visible("#result"):
            break
        dummy = page.evaluate("() => game.dummy")
        if dummy is not None:
            assert dummy["seat"] == 2 and dummy["controller"] == 0
            shown = page.locator("#dummy-2 .card")
            assert shown.count() == len(dummy["hand"]) and shown.count() >= 1
            legal = page.locator("#dummy-2 .card.legal")
            if legal.count():  # the dummy's decision, asked of seat 0: answered on the dummy's cards
                assert page.locator("#hand .card.legal").count() == 0
                ids = {c["id"] for c in dummy["hand"]}
                assert {o["card"] for o in page.evaluate("() => game.decision.options")} <= ids
                if page.evaluate("() => game.decision.kind") == "lead":
                    legal.first.click()
                    page.wait_for_selector("#sides:not(.hidden)")
                    with answered(page):
                        page.click("#side-plus")
                else:
                    with answered(page):
                        legal.first.click()
                played_for_dummy += 1
                continue
        click_once(page)
    assert page.inner_text("#result").startswith("Game over:")
    assert played_for_dummy >= 12  # every card of the dummy's after the opening lead
