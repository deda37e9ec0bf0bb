"""Two people play in real browsers (Debian's Chromium, driven by Playwright): one creates a
game with two bot seats and table rules of their own, the other joins it from the shared
link on a phone-sized screen, and they play at least three full turns by clicking the
action buttons (once with the keyboard). The host frees a seat someone took, and its holder is back
to watching; then the host closes the game, and both are back on the home page.

Screenshots (the lobby, the table) go to docs/ when MUNCHKIN_WRITE_SCREENSHOTS=1, else to a
temporary folder; tests/test_web_player.py draws the fight, on a desktop and on a phone.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from munchkin.web.config import WebConfig
from munchkin.web.server import background

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DOCS = Path(__file__).resolve().parent.parent / "docs"
PREFERRED = re.compile(
    r"^(Kick open the door|Fight!|Run away|Loot the room|End your turn|Pass|Refuse to help|"
    r"Decline|Choose|Keep)"
)
"""What the players click, best first: the game goes on without anyone giving much away."""
TURNS = 5
"""Turn 5 starts once all four seats, Ann's and Bob's included, have played a full turn."""
STEP_MS = 10_000
CLICK_MS = 2_000


@pytest.fixture
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        reason = f"browser test skipped: {CHROMIUM} is missing (install it with .ci/chromium.sh)"
        warnings.warn(reason, stacklevel=1)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return DOCS if os.environ.get("MUNCHKIN_WRITE_SCREENSHOTS") == "1" else tmp_path


def turn(page: Page) -> int:
    title = page.locator("#table-title").text_content() or ""
    found = re.search(r"turn (\d+)", title)
    return int(found.group(1)) if found else 0


def step(page: Page, keyboard: bool) -> bool:
    """Click this player's best visible action, if they have one; wait for the answer. False
    if there was none, or the game moved on before the click."""
    labels = [  # not the buttons that open a dialog (a trade, a help request)
        label
        for label in page.locator("#action-list button:visible:enabled").all_text_contents()
        if "…" not in label
    ]
    if not labels:
        return False
    best = next((label for label in labels if PREFERRED.match(label)), labels[0])
    button = page.locator("#action-list").get_by_role("button", name=best, exact=True).first
    try:
        if keyboard:
            button.focus(timeout=CLICK_MS)
            expect(button).to_be_focused()
            page.keyboard.press("Enter")
        else:
            button.click(timeout=CLICK_MS)
    except PlaywrightTimeoutError:
        return False
    expect(page.locator("#action-list button[disabled]")).to_have_count(0, timeout=STEP_MS)
    return True


def test_two_people_create_join_and_play_three_turns_in_the_browser(
    tmp_path: Path, browser: Browser, shots: Path
) -> None:
    config = WebConfig(db_url=str(tmp_path / "games.sqlite3"), response_seconds=0, seed=3)
    with background(config) as address:
        ann = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        bob = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
        ann.goto(f"http://{address}/")
        create = ann.get_by_role("form", name="Create a game")
        create.get_by_label("Your name").fill("Ann")
        create.get_by_label("Bot seats").fill("2")
        create.get_by_label("Bots play").select_option("bot:random")
        create.get_by_label("Seconds to answer out of turn").fill("0")
        create.get_by_label("Level that wins").fill("8")
        create.get_by_text("More table rules").click()
        create.get_by_label("hand limit").fill("6")
        create.get_by_role("button", name="Create game").click()
        expect(ann.get_by_role("heading", name=re.compile(r"^Game [A-Z0-9]{6}$"))).to_be_visible()
        expect(ann.get_by_role("heading", name=re.compile(r"^Game [A-Z0-9]{6}$"))).to_be_focused()
        expect(ann.get_by_text("Table rules: win level 8, hand limit 6.")).to_be_visible()
        expect(ann.get_by_text("Card sets: the base game.")).to_be_visible()
        expect(ann.get_by_text("Out-of-turn answers: 0 seconds each")).to_be_visible()
        link = ann.get_by_label("Invite friends with this link").input_value()

        bob.goto(link)
        expect(bob.get_by_text("Table rules: win level 8, hand limit 6.")).to_be_visible()
        join = bob.get_by_role("form", name="Join this game")
        join.get_by_label("Your name").fill("Bob")
        join.get_by_label("Your character").select_option("male")
        join.get_by_role("button", name="Join").click()
        bob.get_by_role("button", name="I'm ready").click()
        expect(ann.get_by_text("Seat 2: Bob (ready)")).to_be_visible()
        ann.get_by_role("button", name="I'm ready").click()
        ann.screenshot(path=shots / "web-lobby.png", full_page=True)
        ann.get_by_role("button", name="Start the game").click()

        for page in (ann, bob):
            expect(page.get_by_role("region", name="Your actions")).to_be_visible()
            log = page.get_by_role("log", include_hidden=True)  # on a phone, a tab of its own
            expect(log).to_be_attached()
        clicks = 0
        while turn(ann) < TURNS:
            moved = [step(page, keyboard=clicks == 3) for page in (ann, bob)]
            clicks += sum(moved)
            if not any(moved):
                ann.wait_for_timeout(50)  # the bots are playing
            assert clicks < 400, "the game does not move on"
        ann.screenshot(path=shots / "web-table.png", full_page=True)

        assert clicks >= 6, "Ann and Bob both played their turns by clicking"
        log = ann.get_by_role("log").inner_text()
        assert "-- Turn 4:" in log and "Ann kicks open the door" in log and "Bob kicks open the door" in log
        assert "Bob" in bob.locator("#player-list").inner_text()
        assert bob.get_by_role("button", name=re.compile(r", (item|monster|race|class|curse)")).count() > 0
        assert ann.evaluate("document.documentElement.scrollWidth") <= 1280
        assert bob.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"


def open_two_seat_lobby(ann: Page, address: str) -> None:
    """Ann creates a game of two human seats and waits in its lobby."""
    ann.goto(f"http://{address}/")
    create = ann.get_by_role("form", name="Create a game")
    create.get_by_label("Your name").fill("Ann")
    create.get_by_label("Seats", exact=True).fill("2")
    create.get_by_label("Bot seats").fill("0")
    create.get_by_role("button", name="Create game").click()
    expect(ann.get_by_role("heading", name=re.compile(r"^Game [A-Z0-9]{6}$"))).to_be_visible()


def test_the_host_frees_a_seat_and_its_holder_is_back_to_watching_then_closes_the_game(
    tmp_path: Path, browser: Browser
) -> None:
    config = WebConfig(db_url=str(tmp_path / "games.sqlite3"), response_seconds=0, seed=3)
    with background(config) as address:
        ann = browser.new_context().new_page()
        sly = browser.new_context().new_page()
        open_two_seat_lobby(ann, address)
        link = ann.get_by_label("Invite friends with this link").input_value()
        sly.goto(link)
        join = sly.get_by_role("form", name="Join this game")
        join.get_by_label("Your name").fill("Sly")
        join.get_by_role("button", name="Join").click()
        expect(ann.get_by_text("Seat 2: Sly (not ready yet)")).to_be_visible()
        expect(ann.locator("#lobby-note")).to_contain_text("Waiting: not ready yet: Ann, Sly.")
        ann.get_by_role("button", name="Free seat 2").click()
        expect(ann.get_by_text("Seat 2: free")).to_be_visible()
        expect(ann.locator("#lobby-note")).to_contain_text(
            "Waiting: seat 2 is free: send the link to a friend"
        )
        expect(sly.get_by_role("form", name="Join this game")).to_be_visible(timeout=STEP_MS)
        expect(sly.locator("#status")).to_have_text(
            "The host freed your seat: you are watching now; join again to play."
        )
        expect(sly.get_by_role("button", name="I'm ready")).to_be_hidden()

        ann.on("dialog", lambda dialog: dialog.accept())  # "Close this game for everyone?"
        ann.get_by_role("button", name="Close this game").click()
        expect(sly.locator("#status")).to_have_text("The host closed this game.", timeout=STEP_MS)
        expect(sly.get_by_role("form", name="Create a game")).to_be_visible()
        expect(ann.get_by_role("form", name="Create a game")).to_be_visible(timeout=STEP_MS)


def test_a_refused_join_is_forgotten_once_a_join_works_and_a_short_code_is_refused_saying_why(
    tmp_path: Path, browser: Browser
) -> None:
    config = WebConfig(db_url=str(tmp_path / "games.sqlite3"), response_seconds=0, seed=3)
    with background(config) as address:
        ann = browser.new_context().new_page()
        bob = browser.new_context().new_page()
        open_two_seat_lobby(ann, address)
        bob.goto(ann.get_by_label("Invite friends with this link").input_value())
        join = bob.get_by_role("form", name="Join this game")
        join.get_by_label("Your name").fill("ann")
        join.get_by_role("button", name="Join").click()
        expect(bob.locator("#status")).to_contain_text("Could not join")
        join.get_by_label("Your name").fill("Bob")
        join.get_by_role("button", name="Join").click()
        expect(ann.get_by_text("Seat 2: Bob (not ready yet)")).to_be_visible()
        expect(bob.locator("#status")).to_have_text("", timeout=2000)  # not the refusal of before

        bob.goto(f"http://{address}/")
        find = bob.get_by_role("form", name="Join or watch a game")
        find.get_by_label("Game code").fill("abc")
        find.get_by_role("button", name="Go to the game").click()
        expect(find).to_be_visible()
        assert bob.evaluate("location.hash") in ("", "#/")
        why = find.get_by_label("Game code").evaluate("(el) => el.validationMessage")
        assert "6 letters" in why, why
        bob.goto(f"http://{address}/#/game/abc")
        expect(bob.locator("#status")).to_contain_text("6 letters")
