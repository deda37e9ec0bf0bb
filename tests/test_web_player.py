"""The browser as a new player meets it (issue 13), in Debian's Chromium driven by Playwright:
games prepared at the positions the points need (`positions`), opened as Ann's seat.

Screenshots of the fight (desktop and phone) go to docs/ with MUNCHKIN_WRITE_SCREENSHOTS=1.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from browsing import DESKTOP, PHONE, Prepared, chromium, open_seat
from munchkin.cardtext import details, kind_word
from munchkin.engine.actions import Action
from munchkin.engine.options import TableOptions
from munchkin.session import Session
from munchkin.store.store import load_cards
from munchkin.web.config import WebConfig
from munchkin.web.server import background
from munchkin.words.actions import describe
from munchkin.words.fight import escape_line
from munchkin.words.prompts import prompt_kind
from munchkin.words.refusals import player_words
from positions import (
    about_to_kick_into_a_strong_monster,
    fight_with_played,
    fighting_and_losing,
    finished,
    greyed,
    may_trade,
    plays_into_her_fights,
    reach,
    replaces,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
CARDS = {card.id: card for card in load_cards(("base",))}
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return DOCS if os.environ.get("MUNCHKIN_WRITE_SCREENSHOTS") == "1" else tmp_path


def label(session: Any, action: Action) -> str:
    data = session.view("Ann").data
    return describe(action, session.names, "Ann", prompt_kind(data))


def log_text(page: Page) -> str:
    return page.locator("#log").inner_text()


def no_errors(page: Page) -> None:
    assert page.errors == []  # type: ignore[attr-defined]


# -- 1, 2: reading every card, why not ------------------------------------------------------------


def test_every_card_opens_in_full_and_a_greyed_card_says_why(tmp_path: Path, browser: Browser) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    session = prepared.table(lambda store: reach(greyed, store=store), "GREYED")
    why_not = session.view("Ann").advice["why_not"]
    with prepared.serving() as address:
        page = open_seat(browser, address, "GREYED", prepared.token)
        hand = page.locator("#hand-cards .card")
        expect(hand).to_have_count(len(session.view("Ann").data["hand"]))
        info = page.locator("#card-info")
        first = session.view("Ann").data["hand"][0]
        hand.first.hover()
        expect(info).to_be_visible()
        for line in details(CARDS[first["id"]]):
            expect(info).to_contain_text(line)
        page.mouse.move(0, 0)
        expect(info).to_be_hidden()
        hand.nth(1).focus()  # the keyboard opens a card too
        expect(info).to_contain_text(session.view("Ann").data["hand"][1]["name"])
        for card_id, why in why_not.items():
            greyed_card = page.locator(f'#hand-cards .card.unplayable[data-card="{card_id}"]').first
            words = player_words(why["message"], session.names, session.view("Ann").data)
            expect(greyed_card).to_contain_text(f"Not now: {words} ({why['rule']})")
        playable = [c["id"] for c in session.view("Ann").data["hand"] if c["id"] not in why_not]
        for card_id in playable:
            expect(page.locator(f'#hand-cards .card[data-card="{card_id}"]').first).not_to_have_class(
                re.compile("unplayable")
            )
        link = page.locator("#log .card-link").first  # a card named in the log
        name = link.inner_text()
        link.click()
        expect(info.locator("h4")).to_have_text(name)
        page.keyboard.press("Escape")
        expect(info).to_be_hidden()
        named = page.evaluate(
            """async () => {
                const { cardFace } = await import('/static/cards.js');
                const plume = { id: 'plume', name: 'Battle Plume' };
                const pan = { id: 'pan', name: 'Frying Pan' };
                const steed = { id: 'moose', name: 'Moose', type: 'steed', attached: [plume] };
                const hireling = { id: 'intern', name: 'Intern', type: 'hireling', carrying: [pan] };
                return [cardFace(steed).innerText, cardFace(hireling).innerText];
            }"""
        )
        assert "with Battle Plume" in named[0] and "carrying Frying Pan" in named[1]
        assert (
            page.get_by_role("button", name=re.compile(r", (item|monster|race|class|curse|one-shot)")).count()
            > 3
        )
        no_errors(page)


def stale(route: WebSocketRoute) -> None:
    """A tab that stops hearing from the game after its first view (a tab left behind)."""
    server = route.connect_to_server()
    seen = {"game": 0}

    def from_server(message: str | bytes) -> None:
        kind = json.loads(message).get("type")
        seen["game"] += kind == "game"
        if kind != "game" or seen["game"] == 1:
            route.send(message)

    server.on_message(from_server)
    route.on_message(server.send)


def test_a_costly_play_asks_first_and_a_refused_click_says_why(tmp_path: Path, browser: Browser) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    session = prepared.table(lambda store: reach(replaces, store=store), "SWAPPY")
    view = session.view("Ann")
    index, found = next(iter(view.advice["warnings"].items()))
    action = view.legal[int(index)]
    words = label(session, action)
    with prepared.serving() as address:
        behind = browser.new_context().new_page()
        behind.route_web_socket(re.compile(r"/ws/"), stale)
        page = open_seat(browser, address, "SWAPPY", prepared.token)
        behind.goto(f"http://{address}/")
        seat = {"code": "SWAPPY", "seat": 0, "player": "Ann", "token": prepared.token}
        behind.evaluate("(seat) => localStorage.setItem('munchkin.seat.SWAPPY', JSON.stringify(seat))", seat)
        behind.goto(f"http://{address}/#/game/SWAPPY")
        expect(behind.locator("#action-list button").first).to_be_visible()

        button = page.locator("#action-list").get_by_role("button", name=words, exact=True)
        button.click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        for consequence in found:
            expect(dialog).to_contain_text(f"{consequence['message']} ({consequence['rule']})")
        dialog.get_by_role("button", name="Think again").click()
        expect(dialog).to_be_hidden()
        played = f"Ann plays {session.names[action.arg or '']}."
        before = log_text(page).count(played)
        page.wait_for_timeout(300)
        assert log_text(page).count(played) == before, "not played"
        button.click()
        dialog.get_by_role("button", name="Yes, do it").click()
        expect(page.locator("#log li", has_text=played)).to_have_count(before + 1, timeout=WAIT_MS)

        behind.locator("#action-list").get_by_role("button", name=words, exact=True).click()
        behind.get_by_role("dialog").get_by_role("button", name="Yes, do it").click()
        expect(behind.locator("#status")).to_contain_text("Not done: the game had moved on before your click")
        no_errors(page)


# -- 3: the fight ---------------------------------------------------------------------------------


def test_the_fight_tells_who_wins_the_chances_and_keeps_the_totals_in_sight(
    tmp_path: Path, browser: Browser, shots: Path
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    losing = prepared.table(lambda store: reach(fighting_and_losing, store=store), "LQSXNG")
    played = prepared.table(
        lambda store: reach(fight_with_played, store=store, choose=plays_into_her_fights), "PLAYED"
    )
    with prepared.serving() as address:
        page = open_seat(browser, address, "LQSXNG", prepared.token)
        combat = page.locator("#combat")
        expect(combat.locator(".verdict")).to_contain_text("You are losing by")
        expect(page.locator("#situation")).to_contain_text("You are losing by")
        expect(combat).to_contain_text("If you must run away: chances per monster")
        for entry in losing.view("Ann").advice["combat"]["run"]["Ann"]:
            expect(combat.locator(".escape")).to_contain_text(losing.names[entry["monster"]])
        fight = page.locator("#action-list").get_by_role("button", name=re.compile(r"^Fight!"))
        expect(fight).to_contain_text("you lose it now, then run away")
        expect(fight).not_to_have_class(re.compile("primary"))
        page.screenshot(path=shots / "web-fight.png", full_page=True)

        phone = open_seat(browser, address, "LQSXNG", prepared.token, PHONE)
        score = phone.locator("#fight-score")
        expect(score).to_contain_text("Munchkins")
        expect(score).to_contain_text("Monsters")
        for target in ("#action-list", "#hand-cards"):
            phone.locator(target).scroll_into_view_if_needed()
            box = score.bounding_box()
            assert box is not None and box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"] + 1, (
                target
            )
        phone.evaluate("window.scrollTo(0, 0)")
        phone.screenshot(path=shots / "web-phone.png", full_page=False)

        sides = open_seat(browser, address, "PLAYED", prepared.token)
        for card in played.view("Ann").data["combat"]["played"]:
            face = sides.locator(f'#combat .card[data-card="{card["id"]}"]').first
            expect(face).to_contain_text(f"for the {card['side']}")
        for page_ in (page, phone, sides):
            no_errors(page_)


# -- 7: menus -------------------------------------------------------------------------------------


def test_trades_and_help_requests_go_through_dialogs(tmp_path: Path, browser: Browser) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    trading = prepared.table(lambda store: reach(may_trade, store=store), "TRADES")
    prepared.table(
        lambda store: reach(fighting_and_losing, store=store, options=TableOptions(help_asks=2)), "HELPME"
    )
    with prepared.serving() as address:
        page = open_seat(browser, address, "TRADES", prepared.token)
        actions = page.locator("#action-list")
        assert not actions.get_by_role("button", name=re.compile(r"^(Offer|Give) ")).count(), (
            "no wall of trades"
        )
        expect(actions.get_by_role("group", name="To do now")).to_be_visible()
        trade = next(a for a in trading.view("Ann").legal if a.verb == "trade" and a.take)
        actions.get_by_role("button", name="Trade or give…").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_label("Trade with").select_option(trade.arg)
        expect(dialog).not_to_contain_text("nothing: a gift")
        expect(dialog).to_contain_text("Take nothing to give it as a gift.")
        dialog.get_by_role("group", name="You give").get_by_label(trading.names[trade.give[0]]).check()
        dialog.get_by_role("group", name=re.compile("^You take")).get_by_label(
            trading.names[trade.take[0]]
        ).check()
        dialog.get_by_role("button", name="Offer it").click()
        offer = f"Ann offers {trade.arg} {trading.names[trade.give[0]]} for {trading.names[trade.take[0]]}."
        expect(page.locator("#log")).to_contain_text(offer, timeout=WAIT_MS)

        page = open_seat(browser, address, "HELPME", prepared.token)
        page.locator("#action-list").get_by_role("button", name=re.compile(r"^Ask for help…")).click()
        dialog = page.get_by_role("dialog")
        reward = dialog.get_by_label(re.compile(r"^Treasures promised"))
        expect(reward).to_have_value("0")
        dialog.get_by_role("button", name="One treasure more").click()
        most = int(reward.get_attribute("max") or 0)
        expect(reward).to_have_value(str(min(1, most)))
        helper = dialog.get_by_label("Whom to ask").input_value()
        dialog.get_by_role("button", name="Ask", exact=True).click()
        promised = {0: "no treasure", 1: "1 treasure"}[min(1, most)]
        asked = f"Ann asks {helper} for help, promising {promised}"
        expect(page.locator("#log")).to_contain_text(asked, timeout=WAIT_MS)
        expect(page.locator("#log")).to_contain_text(f"{helper} declines to help.", timeout=WAIT_MS)
        page.locator("#action-list").get_by_role("button", name=re.compile(r"^Ask for help…")).click()
        dialog.get_by_label("Whom to ask").select_option(helper)  # asked again: the dialog suggests more
        expect(dialog).to_contain_text(f"{helper} declined {promised} before: offer more?")
        expect(reward).to_have_value(str(min(2, most)))
        dialog.get_by_role("button", name="Cancel").click()
        no_errors(page)


# -- 6: the end -----------------------------------------------------------------------------------


def test_the_end_shows_the_standings_and_offers_another_game_to_players_and_spectators(
    tmp_path: Path, browser: Browser
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    session = prepared.table(finished, "THEEND")
    together = f"Game over: {session.winners[0]} and {session.winners[1]} win together."
    with prepared.serving() as address:
        page = open_seat(browser, address, "THEEND", prepared.token)
        watcher = open_seat(browser, address, "THEEND", None)
        for seen in (page, watcher):
            end = seen.locator("#end")
            expect(end.get_by_role("heading", name=together)).to_be_visible()
            expect(end).to_contain_text("turns played")
            rows = end.locator("tbody tr")
            expect(rows).to_have_count(len(session.seats))
            for winner in session.winners:
                expect(end.locator("tr.won", has_text=winner)).to_have_count(1)
            expect(end.get_by_role("link", name="New game")).to_be_visible()
        expect(watcher.locator("#end").get_by_role("button")).to_have_count(0)
        page.locator("#end").get_by_role("button", name="Play again with the same seats").click()
        expect(page.get_by_role("heading", name=re.compile(r"^Game [A-Z0-9]{6}$"))).to_be_visible()
        expect(page.get_by_text("Seat 1: Ann (host, you, not ready yet)")).to_be_visible()
        code = page.get_by_role("heading", name=re.compile(r"^Game ")).inner_text().split()[-1]
        follow = watcher.locator("#end").get_by_role("button", name=f"Watch their next game ({code})")
        expect(follow).to_be_visible(timeout=WAIT_MS)
        watcher.locator("#end").get_by_role("link", name="New game").click()
        expect(watcher.get_by_role("form", name="Create a game")).to_be_visible()
        no_errors(page)


# -- 4: timers and stand-ins ----------------------------------------------------------------------


def post(address: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://{address}/api{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        data: dict[str, Any] = json.load(response)
        return data


def test_setup_waits_for_you_and_a_stand_in_plays_at_a_persons_pace_and_says_what_it_did(
    tmp_path: Path, browser: Browser
) -> None:
    config = WebConfig(db_url=str(tmp_path / "g.sqlite3"), response_seconds=1, takeover_seconds=0.2, seed=3)
    with background(config) as address:
        ann = post(address, "/games", {"name": "Ann", "seats": 3, "bots": ["bot:heuristic", "bot:heuristic"]})
        code = ann["code"]
        post(address, f"/games/{code}/ready", {"token": ann["token"]})
        page = open_seat(browser, address, code, ann["token"], shown="#lobby")
        post(address, f"/games/{code}/start", {"token": ann["token"]})
        expect(page.locator("#situation")).to_contain_text("Before the first turn", timeout=WAIT_MS)
        page.wait_for_timeout(1500)  # more than the 1 s to answer out of turn
        expect(page.locator("#situation")).to_contain_text("Before the first turn")
        expect(page.locator("#deadline")).to_have_text("")
        page.locator("#action-list").get_by_role("button", name="Pass", exact=True).click()
        expect(page.locator("#tracker .current")).not_to_have_text("Before the first turn", timeout=WAIT_MS)
        page.context.close()  # Ann leaves: a stand-in plays for her
        left = time.monotonic()
        time.sleep(3.5)
        back = open_seat(browser, address, code, ann["token"])
        away = time.monotonic() - left
        report = back.locator("#standin")
        expect(report).to_contain_text("While you were away, a bot played for you")
        done = report.locator("li").count()
        assert 1 <= done <= away / 1.0 + 1, f"{done} decisions in {away:.1f} s: a person's pace"
        report.get_by_role("button", name="Got it").click()
        expect(report).to_be_hidden()
        assert back.locator("#end").is_hidden(), "a stand-in never finishes a game in seconds"
        no_errors(back)


# -- 9, 10, 11: your move, learning, the phone ----------------------------------------------------


def test_your_move_in_the_title_a_sound_the_tracker_hints_and_messages_that_clear(
    tmp_path: Path, browser: Browser
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    prepared.table(lambda store: reach(greyed, store=store), "YQURGQ")
    with prepared.serving() as address:
        page = open_seat(browser, address, "YQURGQ", prepared.token)
        expect(page).to_have_title(re.compile(r"^\(Your move\) Game YQURGQ"))
        expect(page.locator("#tracker .current")).to_have_text("Kick open the door")
        expect(page.locator("#tracker .current")).to_have_attribute("aria-current", "step")
        hints = page.locator("#hints")
        expect(hints).to_contain_text("Kick open the door: the top door card is turned face up.")
        page.get_by_label("Sound when it's your move").check()
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        expect(page.locator("body")).to_have_attribute("data-beeps", "1")
        hints.get_by_role("button", name="No more hints").click()
        expect(hints).to_be_hidden()
        page.get_by_role("button", name="Show the whole game's log").click()
        status = page.locator("#status")
        expect(status).to_contain_text("The whole log:")
        expect(status).to_have_text("", timeout=3000)  # a stale message clears
        assert "-- Turn 1: Ann --" in log_text(page)
        page.locator("#action-list").get_by_role("button", name="Kick open the door").click()
        expect(page.locator("#action-list button").first).to_be_focused(timeout=WAIT_MS)
        page.reload()
        page.wait_for_selector("#table:not([hidden])")
        expect(page.locator("#hints")).to_be_hidden()  # no more hints, for good
        no_errors(page)


def test_the_keyboard_after_kicking_into_a_losing_fight_is_not_on_the_fight(
    tmp_path: Path, browser: Browser
) -> None:
    """README: while you are losing, Fight! is not the button Enter presses (a play-tester's
    Enter after the kick took the loss and its Bad Stuff)."""
    prepared = Prepared(tmp_path / "g.sqlite3")
    prepared.table(lambda store: reach(about_to_kick_into_a_strong_monster, store=store), "KQCKED")
    with prepared.serving() as address:
        page = open_seat(browser, address, "KQCKED", prepared.token)
        kick = page.locator("#action-list").get_by_role("button", name="Kick open the door")
        kick.focus()
        page.keyboard.press("Enter")
        fight = page.locator("#action-list").get_by_role("button", name=re.compile(r"^Fight!"))
        expect(fight).to_contain_text("you lose it now", timeout=WAIT_MS)
        expect(page.locator("#action-list button:focus")).to_have_count(1)
        expect(fight).not_to_be_focused()
        no_errors(page)


def may_play_before_the_first_turn(session: Session) -> bool:
    view = session.view("Ann")
    return view.data["phase"] == "setup" and any(a.verb == "play" for a in view.legal)


def test_the_card_panel_closes_when_its_card_leaves_the_hand(tmp_path: Path, browser: Browser) -> None:
    """A play-tester's panel kept showing a card gone from the hand, with its old reason."""
    prepared = Prepared(tmp_path / "g.sqlite3")
    session = prepared.table(lambda store: reach(may_play_before_the_first_turn, store=store), "PQNNED")
    play = next(a for a in session.view("Ann").legal if a.verb == "play")
    with prepared.serving() as address:
        page = open_seat(browser, address, "PQNNED", prepared.token)
        info = page.locator("#card-info")
        page.locator(f'#hand-cards .card[data-card="{play.arg}"]').first.click()  # pinned open
        expect(info).to_be_visible()
        assert sum(c["id"] == play.arg for c in session.view("Ann").data["hand"]) == 1
        page.locator("#action-list").get_by_role("button", name=label(session, play), exact=True).click()
        expect(page.locator(f'#hand-cards .card[data-card="{play.arg}"]')).to_have_count(0)
        expect(info).to_be_hidden()
        no_errors(page)


def test_the_rules_page_is_the_terminals_rules_in_short(tmp_path: Path, browser: Browser) -> None:
    with background(WebConfig(db_url=str(tmp_path / "g.sqlite3"))) as address:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"http://{address}/")
        page.get_by_role("link", name="the rules in short").click()
        expect(page.get_by_role("heading", name="The rules in short", level=2)).to_be_visible()
        body = page.locator("#rules-body")
        expect(body.locator("ol li").first).to_contain_text("Kick open the door")
        expect(body.locator("strong", has_text="Fighting (B6-B9).")).to_be_visible()
        assert body.locator("p").count() >= 8


SMALLEST_TEXT = """() => {
  let smallest = 100, where = "";
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.getClientRects().length === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    const size = parseFloat(style.fontSize);
    if (size < smallest) { smallest = size; where = el.className || el.tagName; }
  }
  return [smallest, where];
}"""


def test_on_a_phone_no_text_is_small_the_log_is_a_tab_and_nothing_scrolls_sideways(
    tmp_path: Path, browser: Browser
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    prepared.table(lambda store: reach(fighting_and_losing, store=store), "PHQNES")
    with prepared.serving() as address:
        page = open_seat(browser, address, "PHQNES", prepared.token, PHONE)
        size, where = page.evaluate(SMALLEST_TEXT)
        assert size >= 11, f"text of {size} px in {where}"
        log, actions = page.get_by_role("log", include_hidden=True), page.locator("#actions")
        expect(log).to_be_hidden()
        page.get_by_role("tab", name="Log").click()
        expect(log).to_be_visible()
        expect(actions).to_be_hidden()
        expect(page.get_by_role("tab", name="Log")).to_have_attribute("aria-selected", "true")
        size, where = page.evaluate(SMALLEST_TEXT)
        assert size >= 11, f"text of {size} px in {where}"
        page.get_by_role("tab", name="Table").click()
        expect(actions).to_be_visible()
        page.locator("#hand-cards .card").first.click()  # a tap opens a card
        expect(page.locator("#card-info")).to_be_visible()
        size, where = page.evaluate(SMALLEST_TEXT)
        assert size >= 11, f"text of {size} px in {where}"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        no_errors(page)


# -- a play-tester's report: words and layout -------------------------------------------------------


def asked_for_charity(session: Session) -> bool:
    prompt = session.view("Ann").data["prompt"]
    return prompt is not None and prompt["player"] == "Ann" and prompt["kind"] == "charity"


def test_charity_says_where_the_card_goes_and_a_waiting_card_says_what_it_waits_for(
    tmp_path: Path, browser: Browser
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    session = prepared.table(
        lambda store: reach(asked_for_charity, store=store, options=TableOptions(hand_limit=0)), "CHARTY"
    )
    choices = [a for a in session.view("Ann").legal if a.verb == "choose"]
    with prepared.serving() as address:
        page = open_seat(browser, address, "CHARTY", prepared.token)
        actions = page.locator("#action-list")
        for action in choices:
            words = label(session, action)
            assert not words.startswith("Give away"), words
            expect(actions.get_by_role("button", name=words, exact=True)).to_be_visible()
        hints = page.locator("#hints")
        expect(hints).to_contain_text("charity")
        expect(hints).not_to_contain_text("End your turn")
        waiting = page.locator("#hand-cards .card.unplayable").first
        expect(waiting).to_contain_text("Not now: first answer")
        expect(page.locator("#hand-cards")).not_to_contain_text("another decision")
        no_errors(page)


def test_the_webs_escape_chances_read_as_the_terminals(tmp_path: Path, browser: Browser) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    losing = prepared.table(lambda store: reach(fighting_and_losing, store=store), "RUNNER")
    with prepared.serving() as address:
        page = open_seat(browser, address, "RUNNER", prepared.token)
        lines = page.locator("#combat .escape").first.locator("li")
        entries = losing.view("Ann").advice["combat"]["run"]["Ann"]
        expect(lines).to_have_text([escape_line(entry, losing.names) for entry in entries])
        bare = {"monster": "troll", "modifier": 0, "explain": "run away 0 = 0", "needs": 5, "faces": 2}
        cases = [
            bare,
            {**bare, "modifier": 4, "explain": "run away 4 = 4 Boots (B9)", "faces": 6},
            {**bare, "modifier": -2, "explain": "run away -2 = -2 Clogs (B9)", "faces": 0},
            {**bare, "faces": 6, "automatic": "escapes"},
            {**bare, "faces": 0, "automatic": "caught"},
        ]
        said = page.evaluate(
            """async (cases) => {
                const { escapeLine } = await import('/static/table.js');
                return cases.map((entry) => escapeLine(entry, new Map([['troll', 'Mega Mimic']])));
            }""",
            cases,
        )
        assert said == [escape_line(entry, {"troll": "Mega Mimic"}) for entry in cases]
        no_errors(page)


CARD_BITS = """async () => {
    const { cardFace } = await import('/static/cards.js');
    const { confirmPlay } = await import('/static/dialogs.js');
    const kinds = ['evil-twin', 'half-breed'].map(
        (id) => cardFace({ id, name: id, type: 'other' }).querySelector('.card-type').textContent);
    const wand = 'wand-of-excessive-sparkles';
    const carried = { kind: 'carried', card: wand, rule: 'B11',
        message: 'you cannot use Wand of Excessive Sparkles now: it will be carried, not in use' };
    const human = { races: [], classes: [], sex: 'female', equipped: [] };
    confirmPlay('Play Wand of Excessive Sparkles', [carried], () => {}, human);
    const unusable = document.querySelector('#dialog .warnings').textContent;
    document.getElementById('dialog').close();
    const wizard = { ...human, classes: [{ id: 'wizard', name: 'Wizard' }],
        equipped: [{ id: 'a', name: 'A', slot: 'hands' }] };
    confirmPlay('Play Wand of Excessive Sparkles', [carried], () => {}, wizard);
    const full = document.querySelector('#dialog .warnings').textContent;
    document.getElementById('dialog').close();
    return [kinds, unusable, full];
}"""
WORD_BREAKS = """async () => {
    const { cardFace } = await import('/static/cards.js');
    const list = document.createElement('ul');
    list.className = 'cards';
    document.getElementById('hand-cards').append(list);
    const broken = [];
    for (const name of ['Unpaid Torchbearer', 'Overcompensation Helmet', 'Passive-Aggressive Hat']) {
        const item = document.createElement('li');
        item.append(cardFace({ id: name, name, type: 'item' }, 'small'));
        list.append(item);
        const text = item.querySelector('.card-name').firstChild;
        let last = null;
        for (let i = 0; i < text.length; i += 1) {
            const range = document.createRange();
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            const box = range.getBoundingClientRect();
            if (box.width === 0) continue;
            const ch = text.data[i];
            if (last && box.top > last.top + 2 && /\\w/.test(last.ch) && /\\w/.test(ch)) {
                const between = text.data.slice(last.i + 1, i);
                if (!/[\\s\\u00ad]/.test(between)) broken.push(`${name} at ${i}`);
            }
            last = { top: box.top, ch, i };
        }
    }
    list.remove();
    return broken;
}"""


def test_cards_read_as_the_terminal_reads_them_and_names_break_only_with_a_hyphen(
    tmp_path: Path, browser: Browser
) -> None:
    prepared = Prepared(tmp_path / "g.sqlite3")
    prepared.table(lambda store: reach(greyed, store=store), "KXNDSS")
    with prepared.serving() as address:
        for viewport in (DESKTOP, PHONE):
            page = open_seat(browser, address, "KXNDSS", prepared.token, viewport)
            kinds, unusable, full = page.evaluate(CARD_BITS)
            assert kinds == [kind_word(CARDS["evil-twin"]), kind_word(CARDS["half-breed"])]
            assert kinds == ["one-shot", "kept in play"]
            assert "only for Wizard" in unusable, unusable
            assert "hands" in full and "only for" not in full, full
            assert page.evaluate(WORD_BREAKS) == []
            no_errors(page)


def test_the_more_table_rules_have_labels_like_the_main_ones(tmp_path: Path, browser: Browser) -> None:
    with background(WebConfig(db_url=str(tmp_path / "g.sqlite3"))) as address:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.goto(f"http://{address}/")
        page.get_by_text("More table rules").click()
        fields = page.locator("#more-option-fields > label")
        expect(fields.first).to_be_visible()
        heads = fields.evaluate_all("(labels) => labels.map((l) => l.firstChild.textContent)")
        assert len(heads) >= 5
        for head in heads:
            assert head[0].isupper() and "_" not in head, head
        assert "hand limit" in " ".join(heads).lower()
