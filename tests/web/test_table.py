"""The table in a real Chromium against the real server (`happydayz serve`): every screen size, the trick as a
table shows it, one address per game and per seat, the moves as they happen, readable cards, the keyboard, an
accessibility scan, errors as the command line shows them, and the web defects of issue 31.

The screenshots of each screen size in docs/table/ are taken here (docs/table.md shows them).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest

from happydayz.data.boxes import default_scenario
from happydayz.data.environment import Environment
from happydayz.kernel.savegame import read_save
from happydayz.table.session import TableSession

from .conftest import Server, new_power_file

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "table"
SCENARIO = "woodstock-fever/5"
SIZES = [(360, 640), (390, 844), (800, 600), (1024, 768), (1400, 900), (1920, 1080)]


def new_game(page, server, seed: int = 3, seat: int = 0, people: tuple[int, ...] = (), pace: bool = False,
             players: int = 4) -> str:
    """Set up a game on the first page, as a person does; the address of the seat it moved to."""
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.select_option("#scenario", SCENARIO)
    page.select_option("#players", str(players))
    page.select_option("#seat", str(seat))
    for other in range(players):
        if other != seat:
            page.select_option(f"#bots select[data-seat='{other}']", "person" if other in people else "greedy")
    page.fill("#seed", str(seed))
    page.set_checked("#pace", pace)
    page.click("#start")
    page.wait_for_url(re.compile(r"/game/[0-9a-f]{32}/seat/\d$"))
    wait_for_decision(page)
    return page.url


def wait_for_decision(page) -> None:
    page.wait_for_function("() => game && !busy && (game.decision || game.over)")


def answer_once(page) -> None:
    """Answer the pending decision with the first card or option offered (a lead on its first side)."""
    wait_for_decision(page)
    before = page.evaluate("() => game.answers")
    legal = page.locator("#mine .card.legal")
    if legal.count():
        legal.first.click()
        if page.is_visible("#sides"):
            page.click("#sides button:not(:disabled)")
    else:
        page.locator("#choices .choice").first.click()
    page.wait_for_function(f"() => game.answers > {before} && !busy")


def play_until(page, condition: str, most: int = 60) -> None:
    for _ in range(most):
        wait_for_decision(page)
        if page.evaluate(f"() => {condition}"):
            return
        answer_once(page)
    raise AssertionError(f"never reached: {condition}")


def boxes(page) -> dict:
    return page.evaluate("""() => {
      const box = (node) => { const r = node.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
      return { seats: [...document.querySelectorAll('#seats .seat')].map(box), table: box(document.getElementById('table')),
               prompt: box(document.getElementById('decision')), hand: box(document.querySelector('.hand-cards')),
               labels: [...document.querySelectorAll('#trick .card')].map(box),
               width: document.documentElement.scrollWidth, viewport: [innerWidth, innerHeight] }; }""")


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def inside(box, viewport) -> bool:
    return box[0] >= -0.5 and box[1] >= -0.5 and box[2] <= viewport[0] + 0.5 and box[3] <= viewport[1] + 0.5


def check_fits(page, where: str) -> None:
    found = boxes(page)
    width, height = found["viewport"]
    assert found["width"] <= width, f"{where}: the page scrolls sideways ({found['width']} > {width})"
    assert inside(found["prompt"], found["viewport"]), f"{where}: the prompt is out of view: {found['prompt']}"
    assert inside(found["hand"], found["viewport"]), f"{where}: the hand is out of view: {found['hand']}"
    parts = {"table": found["table"], "prompt": found["prompt"], "hand": found["hand"]}
    parts.update({f"seat {i}": box for i, box in enumerate(found["seats"])})
    names = sorted(parts)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(parts[a], parts[b]), f"{where}: {a} {parts[a]} overlaps {b} {parts[b]}"
    for i, a in enumerate(found["labels"]):  # the trick's cards, each with who played it
        for b in found["labels"][i + 1:]:
            assert not overlap(a, b), f"{where}: two cards of the trick overlap: {a} {b}"


def test_every_screen_fits_the_table(page, server):
    new_game(page, server, seed=3)
    for width, height in SIZES:  # the Transfer: a full hand
        page.set_viewport_size({"width": width, "height": height})
        check_fits(page, f"{width}x{height} at the Transfer")
    page.set_viewport_size({"width": 1400, "height": 900})
    play_until(page, "game.decision.kind === 'follow' && game.trick.plays.length >= 2")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        check_fits(page, f"{width}x{height} at a follow")
        # full Faction names on every card, none cut
        cut = page.evaluate("() => [...document.querySelectorAll('.card .name, .card .who')]"
                            ".filter(n => n.scrollWidth > n.clientWidth + 1).map(n => n.textContent)")
        assert cut == [], f"{width}x{height}: names cut on cards: {cut}"
        page.screenshot(path=str(SHOTS / f"table-{width}x{height}.png"))


def test_the_set_up_page_and_the_playground_never_scroll_sideways(page, server):
    for path, ready in (("/", "#scenario option"), ("/playground", "#bundled option")):
        page.goto(server.url + path)
        page.wait_for_selector(ready, state="attached")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, (path, width)
    page.set_viewport_size({"width": 1400, "height": 1000})


def test_the_trick_marks_the_card_the_kernel_says_is_winning_and_the_last_trick_can_be_reviewed(page, server):
    new_game(page, server, seed=5)
    play_until(page, "game.decision.kind === 'follow' && game.trick.plays.length >= 2")
    winning = page.evaluate("() => game.trick.winning")
    marked = page.locator("#trick .card.winning")
    assert marked.count() == 1 and marked.get_attribute("data-seat") == str(winning)
    assert "winning" in marked.locator(".who").inner_text()
    # the view's `winning` is the kernel's own reading of the trick (Game.winning_play)
    key = page.evaluate("() => game.id")
    saved = read_save(server.mods / "games" / f"{key}.json", scenario_folder=server.mods)
    session = TableSession.from_record(saved, Environment(power_dirs=[server.mods]), play_bots=False)
    assert session.game.winning_play()[0] == winning
    # once the trick is won, it can be reviewed, its winner marked as the narration tells it
    play_until(page, "game.last_trick !== null")
    won = page.evaluate("() => game.last_trick.winner")
    page.click("#last summary")
    assert page.locator("#last-trick .card.winning").get_attribute("data-seat") == str(won)
    lines = page.locator("#narration li").all_inner_texts()
    assert any(line.startswith(f"Trick won by Community {won}") for line in lines)


def test_a_paced_game_shows_who_the_table_waits_for(page, server):
    new_game(page, server, seed=7, pace=True)
    # what the page shows, looked at every 50 ms: the prompt, and how many cards are lit
    page.evaluate("""() => { window.seen = []; setInterval(() => window.seen.push([
        document.getElementById('prompt').textContent, document.querySelectorAll('#mine .card.legal').length]), 50); }""")
    for _ in range(3):  # the Transfer's two cards, then the bots play one at a time
        answer_once(page)
    seen = page.evaluate("() => window.seen")
    waiting = [lit for prompt, lit in seen if prompt.startswith("Waiting for Community") and "bot)" in prompt]
    assert len(waiting) >= 5, seen[:40]  # paced: several looks while the bots play
    assert set(waiting) == {0}  # no card lit while others play


def test_one_address_per_game_and_seat_reload_second_tab_spectator_and_live_moves(page, browser, server):
    url = new_game(page, server, seed=9, people=(2,))
    key = url.split("/game/")[1].split("/")[0]
    friend = browser.new_page()
    watcher = browser.new_page()
    try:
        friend.goto(f"{server.url}/game/{key}/seat/2")
        friend.wait_for_function("() => game && game.seat === 2")
        watcher.goto(f"{server.url}/game/{key}")
        watcher.wait_for_function("() => game && game.spectator")
        # a spectator sees no hand and no decision, only what every Community sees
        assert watcher.evaluate("() => game.hand.length") == 0
        assert watcher.evaluate("() => game.decision") is None
        assert not watcher.is_visible("#hand")
        # a seat a bot plays has no address to play it from
        assert httpx.get(f"{server.url}/api/games/{key}?seat=1").status_code == 403
        # my answer reaches the other pages as it happens (server-sent events), without a reload
        answers = page.evaluate("() => game.answers")
        answer_once(page)
        friend.wait_for_function(f"() => game.answers > {answers}")
        watcher.wait_for_function(f"() => game.answers > {answers}")
        # the friend answers at their own seat when their turn comes (the Transfer: after mine), and I see it
        for _ in range(10):
            if friend.evaluate("() => game.decision !== null"):
                break
            answer_once(page)
            page.wait_for_function("() => game.decision !== null || (game.waiting_for && !game.waiting_for.bot)")
            friend.wait_for_function(f"() => game.answers === {page.evaluate('() => game.answers')}")
        friend.wait_for_function("() => game.decision !== null && !busy")
        answers = friend.evaluate("() => game.answers")
        answer_once(friend)
        page.wait_for_function(f"() => game.answers > {answers}")
        # a reload rejoins the same game at the same seat
        state = page.evaluate("() => [game.id, game.seat, game.answers, game.hand.map(c => c.label)]")
        page.reload()
        page.wait_for_function("() => game !== null")
        assert page.evaluate("() => [game.id, game.seat, game.answers, game.hand.map(c => c.label)]") == state
        # the game is in the mods folder after each move, and replays to the same place
        saved = read_save(server.mods / "games" / f"{key}.json", scenario_folder=server.mods)
        assert len(saved["answers"]) == state[2] and saved["people"] == [0, 2]
    finally:
        friend.close()
        watcher.close()


def test_a_game_survives_a_restart_of_the_server(tmp_path):
    mods = tmp_path / "mods"
    mods.mkdir()
    first = Server(mods)
    try:
        made = httpx.post(first.url + "/api/games", json={"scenario": SCENARIO, "players": 3, "seed": 4,
                                                          "bots": "greedy"}).json()
        key = made["id"]
        view = made
        for _ in range(5):
            view = httpx.post(f"{first.url}/api/games/{key}/answer",
                              json={"index": view["decision"]["options"][0]["index"]}, timeout=60).json()
    finally:
        first.stop()
    second = Server(mods)
    try:
        again = httpx.get(f"{second.url}/api/games/{key}", timeout=60).json()
        assert again["answers"] == view["answers"] and again["hand"] == view["hand"]
        assert again["decision"] == view["decision"]
    finally:
        second.stop()


def test_cards_are_played_from_the_keyboard(page, server):
    new_game(page, server, seed=11)
    answers = page.evaluate("() => game.answers")
    for _ in range(60):  # Tab to the first card that can be played
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#mine .card.legal')"):
            break
    else:
        raise AssertionError("no card of the hand can be reached with Tab")
    label = page.evaluate("() => document.activeElement.dataset.label")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => game.answers > {answers} && !busy")
    assert any(label in line for line in page.locator("#narration li").all_inner_texts()) or \
        page.evaluate(f"() => game.passing.some(p => p.label === {json.dumps(label)})")
    # a lead: the card, then its side, all from the keyboard
    play_until(page, "game.decision.kind === 'lead'")
    page.locator("#mine .card.legal").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.closest('#sides') !== null")
    answers = page.evaluate("() => game.answers")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => game.answers > {answers}")


def test_cards_show_each_factions_colour_and_icon_from_the_box_file_and_a_generated_one_otherwise(page, server):
    new_game(page, server, seed=3)
    styles = page.evaluate("() => game.styles")
    env = Environment()
    factions = env.library.all_factions()
    for name, style in styles.items():  # straight from the box file
        assert style == {"colour": factions[name].colour, "icon": factions[name].icon}
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#hand .card')].map(c =>
        [c.querySelector('.name').textContent, getComputedStyle(c.querySelector('.faction')).backgroundColor]))""")
    assert len(set(shown.values())) == len(shown), shown  # one colour per Faction
    always = [name for name in styles if factions[name].always and factions[name].cards[0].survivors < 0]
    humans = [name for name in styles if not factions[name].always]

    def rgb(hex_colour):
        return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    for threat in always:  # the threat is far from every human Faction's colour
        for human in humans:
            distance = sum((a - b) ** 2 for a, b in zip(rgb(styles[threat]["colour"]), rgb(styles[human]["colour"])))
            assert distance > 100 ** 2, (threat, human)
    # a Faction whose box gives no colour: the Okabe-Ito palette, by its place
    generated = page.evaluate("() => { setStyles({A: {colour: null, icon: null}, B: {colour: null, icon: null}}); "
                              "return [styleOf('A').colour, styleOf('B').colour]; }")
    assert generated == ["#e69f00", "#56b4e9"]


def axe_problems(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # the axe-core engine, run in the page
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}" for v in found
            if v["impact"] in ("serious", "critical")]


def test_no_serious_accessibility_problem_on_the_three_pages(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    assert axe_problems(page) == [], "set-up page"
    new_game(page, server, seed=3)
    play_until(page, "game.decision.kind === 'follow' && game.trick.plays.length >= 1")
    page.click("#last summary") if page.is_visible("#last summary") else None
    assert axe_problems(page) == [], "play page"
    page.goto(server.url + "/playground")
    page.wait_for_selector("#bundled option", state="attached")
    page.select_option("#bundled", "hippies")
    page.click("#copy")
    page.wait_for_selector("#card-text:not(:empty)")
    assert axe_problems(page) == [], "playground"


def test_buttons_keep_their_contrast_on_hover(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.hover("#start")
    colours = page.evaluate("() => { const s = getComputedStyle(document.getElementById('start')); "
                            "return [s.color, s.backgroundColor]; }")

    def luminance(css):
        values = [int(v) / 255 for v in re.findall(r"\d+", css)[:3]]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    light, dark = sorted((luminance(c) for c in colours), reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5, colours


# ------------------------------------------------------------------ the web defects of issue 31

def test_the_players_offered_are_those_the_scenarios_box_deals(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    page.select_option("#scenario", SCENARIO)
    env = Environment()
    box = env.library.boxes[next(s for s in env.library.scenarios() if s.id == SCENARIO).box]
    offered = page.locator("#players option").all_inner_texts()
    assert [int(n) for n in offered] == sorted(box.deal)


def test_the_set_up_page_starts_on_the_scenario_the_terminal_plays(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    assert page.input_value("#scenario") == default_scenario(Environment().library)


def test_a_new_mods_scenario_is_offered_without_a_reload(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#scenario option", state="attached")
    (server.mods / "fresh.yaml").write_text("title: Fresh\nbox: woodstock-fever\nfactions: [Hippies, Dogs, Soldiers]\n",
                                           encoding="utf-8")
    page.evaluate("() => window.dispatchEvent(new Event('focus'))")  # back from the playground's tab
    page.wait_for_selector("#scenario option[value='mods:fresh.yaml']", state="attached")


def test_saving_a_power_with_errors_says_so(page, server):
    new_power_file(page, server, "broken_save.power")
    page.fill("#editor", "power Broken {\n  for faction Broken\n  on win { gain count(expedition of winer) }\n}\n")
    page.click("#save-file")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('Saved')")
    assert page.inner_text("#message").startswith("Saved broken_save.power with 1 error")


def test_leaving_the_playground_with_unsaved_text_asks_first(page, browser, server):
    editor = browser.new_page()
    new_power_file(editor, server, "unsaved.power")
    editor.click("#editor")
    editor.keyboard.type("// more\n")
    asked = []
    editor.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    editor.close(run_before_unload=True)
    editor.wait_for_timeout(500) if not editor.is_closed() else None
    assert asked == ["beforeunload"]
    if not editor.is_closed():
        editor.close()


def test_two_tabs_saving_under_one_name_do_not_silently_overwrite(server):
    with httpx.Client(base_url=server.url, timeout=60) as http:
        first = http.post("/api/games", json={"scenario": SCENARIO, "seed": 1}).json()["id"]
        second = http.post("/api/games", json={"scenario": SCENARIO, "seed": 2}).json()["id"]
        assert http.post(f"/api/games/{first}/save", json={"name": "shared"}).status_code == 200
        refused = http.post(f"/api/games/{second}/save", json={"name": "shared"})
        assert refused.status_code == 409 and "exists already" in refused.json()["error"]
        assert json.loads((server.mods / "saves" / "shared.json").read_text())["seed"] == 1
        assert http.post(f"/api/games/{second}/save", json={"name": "shared", "overwrite": True}).status_code == 200
        assert json.loads((server.mods / "saves" / "shared.json").read_text())["seed"] == 2
        # the playground's files: a save from a stale copy is refused
        made = http.put("/api/files/twice.power", json={"text": "a", "base": None}).json()
        assert http.put("/api/files/twice.power", json={"text": "b", "base": made["sha"]}).status_code == 200
        stale = http.put("/api/files/twice.power", json={"text": "c", "base": made["sha"]})
        assert stale.status_code == 409
        assert (server.mods / "twice.power").read_text() == "b"


def test_errors_on_the_play_page_are_shown_as_the_command_line_shows_them(page, server):
    saves = server.mods / "saves"
    saves.mkdir(exist_ok=True)
    (saves / "bad-seed.json").write_text('{\n  "format": "happydayz-save/1",\n  "scenario": "woodstock-fever/1",\n'
                                         '  "options": {"players": 3, "express": true},\n  "answers": [],\n'
                                         '  "seed": "seven"\n}\n', encoding="utf-8")
    page.goto(server.url + "/")
    page.wait_for_selector("#save-list option[value='bad-seed']", state="attached")
    page.select_option("#save-list", "bad-seed")
    page.click("#resume")
    page.wait_for_selector("#setup-error:not([hidden])")
    lines = page.inner_text("#setup-error").split("\n")
    head = re.match(r"saves/bad-seed\.json:(\d+):(\d+): error", lines[0])
    assert head, lines
    column = int(head.group(2))
    source, caret = lines[1], lines[2]
    assert '"seed"' in source
    assert caret.index("^") == source.index('"seed"') == 4 + column - 1  # under the column, in monospace
    assert page.evaluate("() => getComputedStyle(document.getElementById('setup-error')).whiteSpace") == "pre"
    assert str(server.mods) not in page.inner_text("#setup-error")
    # the playground's check names the file as the modder does, never a temporary copy
    result = httpx.post(server.url + "/api/check", json={"path": "scen.yaml", "text": "title: x\nbox: nowhere\n"
                                                         "factions: [Hippies]\n"}).json()
    assert result["diagnostics"] and all(d["file"] == "scen.yaml" for d in result["diagnostics"])
    assert "happydayz-check" not in json.dumps(result) and "/tmp" not in json.dumps(result)


def test_the_live_line_is_behind_the_guard_and_bounded(server):
    from happydayz.web.tables import MAX_WATCHERS
    with httpx.Client(base_url=server.url, timeout=30) as http:
        key = http.post("/api/games", json={"scenario": SCENARIO, "seed": 1}).json()["id"]
        events = f"/api/games/{key}/events"
        assert http.get(events, headers={"Host": "evil.example:80"}).status_code == 403
        assert http.get(events, headers={"Origin": "http://evil.example"}).status_code == 403
        assert http.get(events + "?seat=1").status_code == 403  # a bot's seat
        opened = []
        try:
            for _ in range(MAX_WATCHERS):
                stream = http.stream("GET", events + "?seat=spectator")
                response = stream.__enter__()
                assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
                opened.append(stream)
            refused = http.get(events + "?seat=spectator")
            assert refused.status_code == 429 and "watching" in refused.json()["error"]
        finally:
            for stream in opened:
                stream.__exit__(None, None, None)
        # the pages gone, their places are free again
        for _ in range(50):
            with http.stream("GET", events + "?seat=spectator") as again:
                if again.status_code == 200:
                    break
            time.sleep(0.2)
        assert again.status_code == 200
