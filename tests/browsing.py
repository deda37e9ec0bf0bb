"""Browser tests' tools: Debian's Chromium driven by Playwright, and games prepared in a
database (a position of `positions`, with its lobby table) that a page opens as Ann's seat."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from munchkin.session import Session
from munchkin.store import Store
from munchkin.web.config import WebConfig
from munchkin.web.db import LobbyDb
from munchkin.web.lobby import OVER, PLAYING, SeatSlot, Table
from munchkin.web.server import background
from munchkin.web.tokens import new_token, token_hash

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
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium, or the test skipped saying how to install it."""
    if not CHROMIUM.exists():
        reason = f"browser test skipped: {CHROMIUM} is missing (install it with .ci/chromium.sh)"
        warnings.warn(reason, stacklevel=1)
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


class Prepared:
    """Games saved in one database, each at a lobby table whose human seat `token` holds."""

    def __init__(self, db: Path) -> None:
        self.db, self.token, self.games = db, new_token(), 0
        self.store = Store(str(db))

    def table(self, make: Callable[[Store], Session], code: str) -> Session:
        """Save the game `make` plays (on this store) at table `code` (letters of the code alphabet)."""
        session = make(self.store)
        slots = [
            SeatSlot(s.kind, s.name, s.sex, token_hash(self.token) if s.kind == "human" else None, True)
            for s in session.seats
        ]
        status = OVER if session.over else PLAYING
        table = Table(
            code, tuple(session.sets), 300.0, slots, status, session.game_id, options=session.options
        )
        LobbyDb(self.store.engine).save(table)
        return session

    @contextmanager
    def serving(self, **settings: object) -> Iterator[str]:
        self.store.close()
        config = WebConfig(db_url=str(self.db), response_seconds=300, takeover_seconds=600, **settings)  # type: ignore[arg-type]
        with background(config) as address:
            yield address


def open_seat(
    browser: Browser,
    address: str,
    code: str,
    token: str | None,
    viewport: dict[str, int] = DESKTOP,
    shown: str = "#table",
) -> Page:
    """A page at game `code` as the seat `token` holds (None: a spectator), with its own storage,
    once it shows the section `shown`; header messages clear within half a second."""
    page = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 500).new_page()
    page.add_init_script("window.munchkinSayMs = 500;")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://{address}/")
    if token is not None:
        seat = {"code": code, "seat": 0, "player": "Ann", "token": token}
        page.evaluate(
            "(seat) => localStorage.setItem('munchkin.seat.' + seat.code, JSON.stringify(seat))", seat
        )
    page.goto(f"http://{address}/#/game/{code}")
    page.wait_for_selector(f"{shown}:not([hidden])")
    page.errors = errors  # type: ignore[attr-defined]
    return page
