"""What players ask besides the lobby (issue 13): the rules, the whole log, every card's
words, and a new game with the same seats once a game is over."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from munchkin.cardtext import details
from munchkin.session import Seat, Session
from munchkin.store.store import load_cards
from munchkin.tui.rules_help import RULES
from munchkin.web import player_api
from munchkin.web.app import create_app
from munchkin.web.config import WebConfig
from munchkin.web.lobby import OVER


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = WebConfig(db_url=str(tmp_path / "games.sqlite3"), seed=5, bot_moves_per_second=0)
    with TestClient(create_app(config)) as test_client:
        yield test_client


def started(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    ann = client.post("/api/games", json={"name": "Ann", "seats": 3, "bots": ["bot:random"]}).json()
    code = ann["code"]
    bob = client.post(f"/api/games/{code}/join", json={"name": "Bob", "sex": "male"}).json()
    for seat in (ann, bob):
        client.post(f"/api/games/{code}/ready", json={"token": seat["token"]})
    assert client.post(f"/api/games/{code}/start", json={"token": ann["token"]}).status_code == 200
    return ann, bob


def test_the_rules_and_every_cards_words_are_served(client: TestClient) -> None:
    assert client.get("/api/rules").json()["markdown"] == RULES
    cards = {card["id"]: card for card in client.get("/api/cards", params={"sets": "base"}).json()}
    for card in load_cards(("base",)):
        assert cards[card.id]["details"] == details(card)


def test_the_whole_log_is_read_as_the_seat_may_read_it(client: TestClient) -> None:
    ann, _ = started(client)
    code = ann["code"]
    mine = client.post(f"/api/games/{code}/log", json={"token": ann["token"]})
    theirs = client.post(f"/api/games/{code}/log", json={})
    assert mine.status_code == theirs.status_code == 200
    assert isinstance(mine.json()["lines"], list) and isinstance(theirs.json()["lines"], list)
    assert client.post(f"/api/games/{code}/log", json={"token": "z" * 43}).status_code == 403


def test_the_log_is_told_from_its_end_and_the_whole_log_has_a_bound(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An attacker's game of 60,000 decisions made every newcomer and every whole-log request
    tell all of it, on the server's loop."""
    ann, _ = started(client)
    code = ann["code"]
    room = client.app.state.hub.entry(code).room  # type: ignore[attr-defined]
    bots = Session.start([Seat(name, "female", "bot:random") for name in ("Ann", "Bob", "Cid")], ("base",), 5)
    while not bots.over:
        bots.step_bots()
    room.history = bots._run.events  # a whole game's events, in place of this one's few
    for seat in ("Ann", None):
        full = room.lines(seat, room.history)
        assert len(full) > 3
        for count in (1, 2, len(full) - 1, len(full), len(full) + 5):
            assert room.last_lines(seat, count) == full[-count:]
    whole = client.post(f"/api/games/{code}/log", json={"token": ann["token"]}).json()["lines"]
    assert whole == room.lines("Ann", room.history)
    monkeypatch.setattr(player_api, "WHOLE_LOG_LINES", 3)
    assert client.post(f"/api/games/{code}/log", json={"token": ann["token"]}).json()["lines"] == whole[-3:]


def test_play_again_makes_one_new_table_with_the_same_seats(client: TestClient) -> None:
    ann, bob = started(client)
    code = ann["code"]
    early = client.post(f"/api/games/{code}/again", json={"token": bob["token"]})
    assert early.status_code == 409 and "not over" in early.json()["error"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    entry = hub.entry(code)
    entry.table = replace(entry.table.copy(), status=OVER)  # as if the game had ended
    first = client.post(f"/api/games/{code}/again", json={"token": bob["token"]})
    assert first.status_code == 201 and first.json()["again"]
    again = first.json()["again"]
    second = client.post(f"/api/games/{code}/again", json={"token": ann["token"]})
    assert second.json()["again"] == again, "everyone goes on to the same new game"
    assert client.get(f"/api/games/{code}").json()["again"] == again
    new = client.get(f"/api/games/{again}").json()
    old = client.get(f"/api/games/{code}").json()
    assert new["status"] == "open" and new["options"] == old["options"] and new["sets"] == old["sets"]
    assert [(s["kind"], s["name"], s["taken"]) for s in new["seats"]] == [
        (s["kind"], s["name"], s["taken"]) for s in old["seats"]
    ]
    assert not any(s["ready"] for s in new["seats"])
    for seat in (ann, bob):  # each seat's token holds the same seat at the new table
        ready = client.post(f"/api/games/{again}/ready", json={"token": seat["token"]})
        assert ready.status_code == 200
    assert client.post(f"/api/games/{again}/start", json={"token": ann["token"]}).status_code == 200
