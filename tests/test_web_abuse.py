"""The online server attacked on loopback as a hostile client would (issue 14), one test or
more per attack: it must stay available to everyone else. Attackers and players connect from
different loopback addresses (127.0.0.2, 127.0.0.3...), so that per-address limits apply as
they would on a network. Every loop is bounded in count and in time."""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from munchkin.engine.actions import Action
from munchkin.session import Seat, Session
from munchkin.store import Store
from munchkin.web import room as room_module
from munchkin.web.config import WebConfig
from munchkin.web.guard import address_key
from munchkin.web.lobby import name_key
from munchkin.web.protocol import Refusal
from munchkin.web.room import Room
from munchkin.web.server import background
from positions import reach

TIMEOUT = 10.0
ATTACKER, OTHER, PLAYER, FRIEND = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
LOOSE = WebConfig(
    response_seconds=0,
    takeover_seconds=600,
    seed=11,
    bot_moves_per_second=0,
    away_bot_moves_per_second=0,
    lookup_burst=1000,
    request_burst=1000,
)
"""Limits out of the way but for those a test tightens."""


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    """No test here may hang: each has its own deadline, this is the last resort."""
    started = time.monotonic()
    yield
    assert time.monotonic() - started < 60


def serving(tmp_path: Path, **settings: Any) -> Any:
    return background(WebConfig(**{**vars(LOOSE), "db_url": str(tmp_path / "games.sqlite3"), **settings}))


def request(
    address: str,
    method: str,
    path: str,
    body: Any = None,
    source: str = PLAYER,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    """One HTTP request from `source`: status, headers, and the JSON body (or the text)."""
    host, port = address.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT, source_address=(source, 0))
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    try:
        conn.request(method, path, data, sent)
        response = conn.getresponse()
        text = response.read().decode()
        try:
            payload: Any = json.loads(text)
        except json.JSONDecodeError:
            payload = text
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload
    finally:
        conn.close()


def create(address: str, source: str = PLAYER, **body: Any) -> tuple[int, Any]:
    status, _, data = request(address, "POST", "/api/games", {"name": "Ann", **body}, source)
    return status, data


def table(
    address: str, humans: list[str], bots: list[str], source: str = PLAYER, start: bool = True
) -> list[Any]:
    """A table with everyone ready, started unless told not to: the humans' seats."""
    status, host = create(address, source, name=humans[0], seats=len(humans) + len(bots), bots=bots)
    assert status == 201, host
    code = host["code"]
    seats = [host] + [
        request(address, "POST", f"/api/games/{code}/join", {"name": n}, source)[2] for n in humans[1:]
    ]
    for seat in seats:
        assert (
            request(address, "POST", f"/api/games/{code}/ready", {"token": seat["token"]}, source)[0] == 200
        )
    if start:
        assert (
            request(address, "POST", f"/api/games/{code}/start", {"token": host["token"]}, source)[0] == 200
        )
    return seats


async def socket_to(
    address: str, code: str, token: str | None = None, source: str = PLAYER
) -> ClientConnection:
    ws = await connect(f"ws://{address}/ws/{code}", local_addr=(source, 0), open_timeout=TIMEOUT)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def next_message(ws: ClientConnection, kind: str | None = None) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        if kind is None or message["type"] == kind:
            return message


async def closed(ws: ClientConnection) -> tuple[int, str]:
    """The close code and reason once the server closes the connection."""
    with pytest.raises(ConnectionClosed) as done:
        for _ in range(1000):
            await asyncio.wait_for(ws.recv(), TIMEOUT)
    assert done.value.rcvd is not None
    return done.value.rcvd.code, done.value.rcvd.reason


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 40))


def raw(address: str, source: str) -> socket.socket:
    host, port = address.split(":")
    sock = socket.create_connection((host, int(port)), timeout=TIMEOUT, source_address=(source, 0))
    return sock


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    for _ in range(100):
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk
    return data


@pytest.mark.parametrize(
    "length", [b"Content-Length: 5\r\n", b""], ids=["with a false length", "with no length"]
)
def test_a_body_sent_in_chunks_is_refused_before_it_is_read(tmp_path: Path, length: bytes) -> None:
    """An attacker's chunked body passed the size limit (it read only Content-Length) and a
    256 MiB one was parsed whole."""
    with serving(tmp_path) as address:
        sock = raw(address, ATTACKER)
        try:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + b"Content-Type: application/json\r\n"
                + length
                + b"Transfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b'{"name": "Ann", "x": "' + b"a" * 60_000 + b'"}'
            sock.settimeout(1.0)
            try:  # refused at once, or (before the fix) reading the body on
                answer = sock.recv(4096)
            except TimeoutError:
                sock.settimeout(TIMEOUT)
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n0\r\n\r\n")
                answer = answer_of(sock)
        finally:
            sock.close()
        status = answer.split(b"\r\n", 1)[0]
        assert status in (b"HTTP/1.1 400 Bad Request", b"HTTP/1.1 411 Length Required"), answer[:300]
        assert b"Extra inputs" not in answer, "the body was never parsed"


# ------------------------------------------------------------------ 1. spectators and connections


def test_a_flood_of_spectators_never_locks_a_seat_out(tmp_path: Path) -> None:
    with serving(tmp_path, max_spectators_per_game=3, max_spectators_per_address=2) as address:
        ann, bob = table(address, ["Ann", "Bob"], ["bot:random"])
        code = ann["code"]

        async def attack() -> None:
            watching = [await socket_to(address, code, source=ATTACKER) for _ in range(2)]
            for ws in watching:
                assert (await next_message(ws, "welcome"))["seat"] is None
            third = await socket_to(address, code, source=ATTACKER)
            assert (await closed(third))[0] == 1013, "two spectators from one address"
            other = await socket_to(address, code, source=OTHER)
            await next_message(other, "welcome")
            full = await socket_to(address, code, source=FRIEND)
            code_, reason = await closed(full)
            assert code_ == 1013 and "spectators" in reason, "the game's spectator seats are full"
            for token, name in ((ann["token"], "Ann"), (bob["token"], "Bob")):
                mine = await socket_to(
                    address, code, token, source=ATTACKER
                )  # even from the flooding address
                assert (await next_message(mine, "welcome"))["seat"] == name
                assert (await next_message(mine, "game"))["view"]["player"] == name

        run(attack())


def test_a_seat_opened_in_too_many_tabs_closes_its_oldest(tmp_path: Path) -> None:
    with serving(tmp_path, max_connections_per_seat=2) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"])

        async def tabs() -> None:
            opened = []
            for _ in range(3):
                ws = await socket_to(address, ann["code"], ann["token"])
                await next_message(ws, "game")
                opened.append(ws)
            assert (await closed(opened[0]))[0] == 4409, "the oldest tab gives way"
            await opened[2].send(json.dumps({"type": "act", "token": ann["token"], "action": {"verb": "x"}}))
            assert (await next_message(opened[2], "refused"))["code"] == "bad_action", "the newest plays"

        run(tabs())


def test_connections_are_capped_per_address_for_http_and_websocket(tmp_path: Path) -> None:
    with serving(tmp_path, max_connections_per_address=4, request_seconds=5) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"])
        held = [raw(address, ATTACKER) for _ in range(4)]  # silent: they only hold their slots
        try:
            time.sleep(0.2)
            status, headers, body = request(address, "GET", "/api/options", source=ATTACKER)
            assert status == 429 and "too many connections" in body["error"]
            assert headers["content-type"] == "application/json"

            async def websocket() -> None:
                with pytest.raises(InvalidStatus) as refused:
                    await socket_to(address, ann["code"], source=ATTACKER)
                assert refused.value.response.status_code == 429
                ws = await socket_to(address, ann["code"], ann["token"], source=PLAYER)
                assert (await next_message(ws, "welcome"))["seat"] == "Ann"

            run(websocket())
            assert request(address, "GET", "/api/options", source=OTHER)[0] == 200, (
                "other addresses are served"
            )
        finally:
            for sock in held:
                sock.close()
        for _ in range(100):  # the slots come back once the connections close
            if request(address, "GET", "/api/options", source=ATTACKER)[0] == 200:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the address never got its connections back")


# ------------------------------------------------------------------ 2. game creation


def test_one_address_has_only_a_few_games_waiting_to_start(tmp_path: Path) -> None:
    with serving(tmp_path, max_open_tables_per_address=2) as address:
        answers = [create(address, ATTACKER)[0] for _ in range(4)]
        assert answers == [201, 201, 429, 429]
        assert "waiting to start" in create(address, ATTACKER)[1]["error"]
        assert create(address, OTHER)[0] == 201, "another address still creates games"


def test_one_address_cannot_fill_the_server_with_started_games(tmp_path: Path) -> None:
    """An attacker started all-human games (neither waiting nor bot-heavy) until the server's
    cap refused every other address."""
    with serving(tmp_path, max_tables=5, max_live_tables_per_address=2) as address:
        for _ in range(2):
            table(address, ["Ann", "Bob"], [], source=ATTACKER)
        status, refused = create(address, ATTACKER)
        assert status == 429 and "not finished" in refused["error"], refused
        assert create(address, OTHER)[0] == 201, "another address still creates games"


def test_tables_not_started_expire_even_after_a_restart_and_finished_games_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("munchkin.web.room.STANDIN_SECONDS", 0.0)  # the stand-in plays at once
    settings = {"table_idle_seconds": 1.0, "finished_keep_seconds": 0.3, "takeover_seconds": 0}
    with serving(tmp_path, **settings) as address:
        _, idle = create(address, ATTACKER)
    with serving(tmp_path, **settings) as address:  # the table is still there after the restart...
        assert request(address, "GET", f"/api/games/{idle['code']}")[0] == 200
        (ann,) = table(address, ["Ann"], ["bot:random"])  # ...and a game nobody watches: a stand-in plays it
        started = time.monotonic()
        while request(address, "GET", f"/api/games/{idle['code']}")[0] != 404:  # ...until it expires
            assert time.monotonic() - started < 10, "the idle table never expired"
            time.sleep(0.1)
        while request(address, "GET", f"/api/games/{ann['code']}")[0] != 404:
            assert time.monotonic() - started < 20, "the finished game never left the lobby"
            time.sleep(0.1)
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM munchkin_web_tables").fetchone()[0] == 0
    with Store(str(tmp_path / "games.sqlite3")) as store:
        (game,) = store.games()
        assert game.progress.status == "won", "the finished game's saved record stays"


# ------------------------------------------------------------------ 3. idle and half-open connections


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"GET /api/options HTTP/1.1\r\nHost: x\r\n",
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{",
    ],
    ids=["silent", "half the headers", "half the body"],
)
def test_idle_and_half_sent_requests_are_timed_out(tmp_path: Path, sent: bytes) -> None:
    with serving(tmp_path, request_seconds=0.5) as address:
        sock = raw(address, ATTACKER)
        try:
            sock.sendall(sent)
            started = time.monotonic()
            answer = answer_of(sock)
            assert 0.3 < time.monotonic() - started < 5
            if answer:
                assert (
                    answer.startswith(b"HTTP/1.1 408") and b'{"error": "the request took too long' in answer
                )
        finally:
            sock.close()


def test_websockets_count_toward_the_server_cap_and_are_refused_cleanly_above_it(tmp_path: Path) -> None:
    with serving(tmp_path, max_connections=3) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"])

        async def fill() -> None:
            sockets = [
                await socket_to(address, ann["code"], source=source) for source in (ATTACKER, OTHER, FRIEND)
            ]
            for ws in sockets:
                await next_message(ws, "welcome")
            status, _, body = await asyncio.to_thread(request, address, "GET", "/api/options")
            assert status == 503 and body == {"error": "the server is busy; try again in a moment"}
            with pytest.raises(InvalidStatus) as refused:
                await socket_to(address, ann["code"], ann["token"])
            assert refused.value.response.status_code == 503
            await sockets[0].close()
            for _ in range(100):
                if (await asyncio.to_thread(request, address, "GET", "/api/options"))[0] == 200:
                    return
                await asyncio.sleep(0.05)
            pytest.fail("a freed slot was never given again")

        run(fill())


def test_a_half_open_websocket_is_closed_when_its_pongs_stop(tmp_path: Path) -> None:
    """A client that greets, then never answers the server's pings (as a vanished peer would)."""
    with serving(tmp_path, ping_seconds=1.0) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"], start=False)
        sock = raw(address, ATTACKER)
        try:
            sock.sendall(
                f"GET /ws/{ann['code']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            assert sock.recv(4096).startswith(b"HTTP/1.1 101")
            hello, mask = b'{"type": "hello", "token": null}', b"\x01\x02\x03\x04"
            masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(hello))
            sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)  # one text frame, then silence
            started = time.monotonic()
            answer_of(sock)  # the welcome, the lobby, pings... until the server closes
            assert time.monotonic() - started < 6, "closed after a ping went unanswered"
        finally:
            sock.close()


# ------------------------------------------------------------------ 4. a locked database


def locked(path: Path) -> sqlite3.Connection:
    """Another program holding the database's write lock (until rolled back)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    return conn


def test_a_locked_database_never_freezes_the_server(tmp_path: Path) -> None:
    with serving(tmp_path, db_busy_seconds=1.5) as address:
        lock = locked(tmp_path / "games.sqlite3")
        try:
            blocked: list[Any] = []
            writer = threading.Thread(target=lambda: blocked.append(create(address, OTHER)))
            writer.start()
            time.sleep(0.2)  # the creation now waits for the lock, in a thread of the server
            started = time.monotonic()
            assert request(address, "GET", "/api/options")[0] == 200
            assert request(address, "GET", "/api/cards?sets=base")[0] == 200
            assert time.monotonic() - started < 0.5, "the event loop kept answering"
            writer.join(TIMEOUT)
            status, body = blocked[0]
            assert status == 503 and body["error_id"] in body["error"], "refused after a bounded wait"
            assert "sqlite" not in body["error"] and "locked" not in body["error"], "no internal detail"
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert create(address, OTHER)[0] == 201


def test_a_timer_that_fails_while_the_database_is_locked_is_tried_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, "munchkin.web")
    with serving(tmp_path, db_busy_seconds=0.2, response_seconds=60, takeover_seconds=0.3) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"])

        async def scenario() -> None:
            mine = await socket_to(address, ann["code"], ann["token"])
            while not (await next_message(mine, "game"))["view"].get("deciding"):
                pass  # her own turn: once she has left, a stand-in plays it
            watcher = await socket_to(address, ann["code"], source=OTHER)
            seen = (await next_message(watcher, "game"))["seq"]
            lock = locked(tmp_path / "games.sqlite3")
            try:
                await mine.close()  # Ann leaves; her stand-in's move cannot be saved
                for _ in range(100):
                    if any("a job failed" in r.getMessage() for r in caplog.records):
                        break
                    await asyncio.sleep(0.05)
                else:
                    pytest.fail("the timer did not run")
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            for _ in range(100):  # tried again: the game goes on
                message = await next_message(watcher, "game")
                if message["seq"] > seen:
                    return
            pytest.fail("the game stalled")

        run(scenario())


def test_only_the_player_whose_move_was_not_saved_is_told_to_try_again(tmp_path: Path) -> None:
    with serving(tmp_path, db_busy_seconds=0.2, response_seconds=60) as address:
        ann, bob = table(address, ["Ann", "Bob"], [])

        async def scenario() -> None:
            mine = await socket_to(address, ann["code"], ann["token"])
            theirs = await socket_to(address, ann["code"], bob["token"], source=OTHER)
            view: dict[str, Any] = {}
            while not view.get("deciding"):
                message = await next_message(mine, "game")
                view, seq = {**view, **message["view"]}, message["seq"]
            lock = locked(tmp_path / "games.sqlite3")
            try:
                action = {
                    "type": "act",
                    "token": ann["token"],
                    "action": view["legal"][0],
                    "seq": seq,
                    "ref": 7,
                }
                await mine.send(json.dumps(action))
                refusal = await next_message(mine, "refused")
                assert refusal["code"] == "server" and refusal["ref"] == 7
                assert "try again" in refusal["message"] and refusal["message"].endswith(")")
                assert "locked" not in refusal["message"] and "sqlite" not in refusal["message"]
            finally:
                lock.execute("ROLLBACK")
                lock.close()
            await mine.send(json.dumps(action | {"ref": 8}))
            while (await next_message(mine, "game"))["acked"] != 8:
                pass
            messages = []
            with pytest.raises(TimeoutError):
                while True:
                    messages.append(json.loads(await asyncio.wait_for(theirs.recv(), 0.5)))
            assert not [m for m in messages if m["type"] == "refused"], "Bob was told nothing of it"

        run(scenario())


# ------------------------------------------------------------------ 5. bot games


def test_bot_heavy_games_are_limited_per_address_and_bots_are_paced(tmp_path: Path) -> None:
    with serving(
        tmp_path, max_bot_games_per_address=1, bot_moves_per_second=4, away_bot_moves_per_second=4
    ) as address:
        status, _ = create(address, ATTACKER, seats=3, bots=["bot:random", "bot:random"])
        assert status == 201
        status, refused = create(address, ATTACKER, seats=3, bots=["bot:random", "bot:random"])
        assert status == 429 and "as many bots as humans" in refused["error"]
        assert create(address, ATTACKER, seats=3, bots=["bot:random"])[0] == 201, (
            "more humans than bots is fine"
        )
        assert create(address, OTHER, seats=3, bots=["bot:random", "bot:random"])[0] == 201
        table(address, ["Ann", "Bob"], ["bot:random", "bot:random", "bot:random"], source=FRIEND)
        started = time.monotonic()
        time.sleep(1.5)
        with Store(str(tmp_path / "games.sqlite3")) as store:
            decisions = max(game.decisions for game in store.games())
        bot_moves = 4 + 4 * (time.monotonic() - started)  # a burst of 4, then 4 a second
        assert 0 < decisions <= 2 * bot_moves + 10, "the humans, away, pass once per bot move at most"


# ------------------------------------------------------------------ 6. a bad lobby row


def test_a_bad_lobby_row_is_skipped_with_a_one_line_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(tmp_path) as address:
        good, bad_sets, bad_date, bad_status, deep = (
            create(address, source)[1]["code"] for source in (ATTACKER, OTHER, FRIEND, PLAYER, ATTACKER)
        )
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("UPDATE munchkin_web_tables SET sets = '[not json' WHERE code = ?", (bad_sets,))
        db.execute(
            "UPDATE munchkin_web_tables SET options = ? WHERE code = ?", ("[" * 5000 + "]" * 5000, deep)
        )
        db.execute("UPDATE munchkin_web_tables SET created = 'yesterday' WHERE code = ?", (bad_date,))
        db.execute("UPDATE munchkin_web_tables SET status = 'haunted' WHERE code = ?", (bad_status,))
    caplog.set_level(logging.WARNING, "munchkin.web")
    with serving(tmp_path) as address:
        assert request(address, "GET", f"/api/games/{good}")[0] == 200
        for code in (bad_sets, bad_date, bad_status, deep):
            assert request(address, "GET", f"/api/games/{code}")[0] == 404
    warnings = [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()]
    assert len(warnings) == 4 and all("\n" not in w for w in warnings)
    for code in (bad_sets, bad_date, bad_status, deep):
        assert any(code in w for w in warnings)


# ------------------------------------------------------------------ 7, 8. close reasons and internal detail


def test_close_reasons_fit_and_tell_nothing_internal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with serving(tmp_path) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"])

        async def long_path() -> None:
            ws = await connect(f"ws://{address}/ws/{'A' * 100}")
            code, reason = await closed(ws)
            assert code == 4404 and len(reason.encode()) <= 123

        run(long_path())
        mine = run(_first_game_seq(address, ann))
    assert mine > 0
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("UPDATE munchkin_decisions SET fingerprint = ? WHERE number = 3", ("f" * 64,))
    caplog.set_level(logging.INFO, "munchkin.web")
    with serving(tmp_path) as address:

        async def broken() -> None:
            for token in (None, ann["token"]):  # a spectator and the player alike
                ws = await socket_to(address, ann["code"], token)
                await next_message(ws, "welcome")
                refusal = await next_message(ws, "refused")
                assert refusal["code"] == "server" and refusal["message"].startswith(
                    "this game cannot be resumed (error "
                )
                assert "decision" not in refusal["message"] and "sqlite" not in refusal["message"]
                code, reason = await closed(ws)
                assert code == 1011 and len(reason.encode()) <= 123

        run(broken())
    details = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any("decision 3: the replayed state is not the saved one" in d for d in details), "in the log"
    assert not [r for r in caplog.records if r.exc_info], "no traceback"


async def _first_game_seq(address: str, seat: dict[str, Any]) -> int:
    ws = await socket_to(address, seat["code"], seat["token"])
    seq: int = (await next_message(ws, "game"))["seq"]
    await ws.close()
    return seq


def test_http_errors_are_plain_sentences_with_an_error_id(tmp_path: Path) -> None:
    with serving(tmp_path, db_busy_seconds=0.3) as address:
        (ann,) = table(address, ["Ann"], ["bot:random"], start=False)
        lock = locked(tmp_path / "games.sqlite3")
        try:
            status, _, body = request(
                address, "POST", f"/api/games/{ann['code']}/start", {"token": ann["token"]}
            )
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert status == 503 and set(body) == {"error", "error_id"}
        assert body["error"] in (
            f"the game could not start; try again later (error {body['error_id']})",
            f"the server cannot save games right now; try again later (error {body['error_id']})",
        )


# ------------------------------------------------------------------ 9. seq tells nothing of a bystander


PREFERRED = ("resolve", "kick", "loot", "end_turn", "pass", "run", "decline_help", "decline_trade")


def ann_decides(legal: list[Action]) -> Action:
    """Ann's choice: from her own legal actions only, never a card played on someone."""
    for verb in PREFERRED:
        for action in legal:
            if action.verb.startswith(verb):
                return action
    return next((a for a in legal if a.verb != "play"), legal[0])


QUIET = frozenset({"race", "class", "item"})
"""Cards that cannot be played in another player's fight (B11, B14): a hand of them is never
asked to respond there."""


def bystander_game(quiet: bool) -> Session:
    """Ann and Bob (human) and Cid (a bot), seed 11. With `quiet`, each card of Bob's hand that
    is not a race, class or item is swapped with the first one that is in its deck (not drawn
    before Bob's turn); so he is not asked to respond in Ann's first fight, which he is with
    the hand he was dealt."""
    seats = [Seat("Ann", "female"), Seat("Bob", "male"), Seat("Cid", "male", "bot:random")]
    session = Session.start(seats, ["base"], 11)
    state = session._run.game.state
    if quiet:
        hand = state.players[1].hand
        for k, card in enumerate(list(hand)):
            if state.defs[card].type in QUIET:
                continue
            deck = state.door_deck if state.defs[card].deck == "door" else state.treasure_deck
            j = next(i for i, other in enumerate(deck) if state.defs[other].type in QUIET)
            hand[k], deck[j] = deck[j], card
    return session


class Ann:
    """Ann's connection as the room tells it: every snapshot and sentence, as it comes."""

    seat = "Ann"

    def __init__(self) -> None:
        self.lines: list[str] = []

    def game_changed(self, lines: list[str]) -> None:
        self.lines += lines


async def what_ann_sees(quiet: bool) -> tuple[list[tuple[Any, ...]], int]:
    """Every game message Ann would get in her first turn (timing aside: no deadline), and how
    many decisions the game made."""
    session = bystander_game(quiet)
    ann = Ann()
    room = Room(session, [], [ann], 60.0, 600.0, lambda _room: None, None, (0.0, 0.0))
    room.listen_now(ann)
    room.joined("Ann")
    seen: list[tuple[Any, ...]] = []
    sent: dict[str, Any] = {}
    seq = 0  # as her connection numbers its messages (ws.Connection)
    for _ in range(200):
        await room.advance()
        await room.refresh("Ann")  # what her connection does before it sends
        snapshot = room.snapshot("Ann", sent)
        seq += bool(snapshot.changed)
        fields = {k: v for k, v in snapshot.fields.items() if k != "deadline"}
        seen.append((seq, fields, snapshot.changed, ann.lines))
        sent, ann.lines = snapshot.view, []
        if sent["turn"] > 1 and sent["active"] != "Ann":
            break
        assert "Ann" in room.waiting, "Bob is away: he passes at once; Cid is a bot"
        await room.act("Ann", ann_decides(sent["legal"]), sent)
    room.close()
    return seen, session.decision_count


def test_seq_tells_nobody_that_a_bystander_was_asked() -> None:
    """Two games that differ only in Bob's hand: Ann is sent the same messages in both, though
    Bob was asked to respond in one of them (a decision more: the game's own count differs)."""
    dealt, decided_dealt = run(what_ann_sees(quiet=False))
    quiet, decided_quiet = run(what_ann_sees(quiet=True))
    assert decided_dealt == decided_quiet + 1, "Bob answered once more with the hand he was dealt"
    assert dealt == quiet
    assert len(dealt) > 3 and dealt[-1][2].get("active", "Bob") == "Bob"


def may_toggle_an_item(session: Session) -> bool:
    """Ann's own turn, out of a fight, with an item she may stop using."""
    data = session.view("Ann").data
    legal = session.view("Ann").legal
    return data["active"] == "Ann" and data["combat"] is None and any(a.verb == "unequip" for a in legal)


async def toggles(monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, list[str]]:
    """Ann takes an item off and puts it on again until the room refuses: the moves it took,
    the refusal, and what she may still do."""
    monkeypatch.setattr(room_module, "MOVES_PER_TURN", 10)
    session = reach(may_toggle_an_item)
    ann = Ann()
    room = Room(session, [], [ann], 60.0, 600.0, lambda _room: None, None, (0.0, 0.0))
    room.listen_now(ann)
    room.joined("Ann")
    item = next(a.arg for a in session.view("Ann").legal if a.verb == "unequip")
    moves = 0
    try:
        for verb in ("unequip", "equip") * 20:
            await room.act("Ann", Action(verb, item))
            moves += 1
    except Refusal as refused:
        legal = [a.verb for a in session.view("Ann").legal]
        onward = next(a for a in session.view("Ann").legal if a.verb not in ("equip", "unequip"))
        await room.act("Ann", onward)
        return moves, str(refused), legal
    finally:
        room.close()
    raise AssertionError("the room never refused")


def test_one_seat_cannot_grow_a_game_without_end_in_one_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """An attacker toggled an item on and off 17 times a second, each a saved decision and a
    log line, without end."""
    moves, refused, legal = run(toggles(monkeypatch))
    assert moves == 10
    assert refused == "you made 10 moves this turn: go on with it (end it, or fight)"
    assert "unequip" in legal, "the rules still allow it: the room alone refuses"


# ------------------------------------------------------------------ 10. seats, names, lookups


def test_the_host_frees_a_squatted_seat_before_the_start(tmp_path: Path) -> None:
    with serving(tmp_path) as address:
        _, host = create(address, PLAYER, seats=2)
        code = host["code"]
        squatter = request(address, "POST", f"/api/games/{code}/join", {"name": "Sly"}, ATTACKER)[2]

        async def scenario() -> None:
            ws = await socket_to(address, code, squatter["token"], source=ATTACKER)
            await next_message(ws, "welcome")
            refused = await asyncio.to_thread(
                request,
                address,
                "POST",
                f"/api/games/{code}/free",
                {"token": squatter["token"], "seat": 1},
                ATTACKER,
            )
            assert refused[0] == 403, "only the host frees seats"
            freed = await asyncio.to_thread(
                request, address, "POST", f"/api/games/{code}/free", {"token": host["token"], "seat": 1}
            )
            assert freed[0] == 200 and freed[2]["seats"][1] == {
                "kind": "human", "name": None, "sex": "female", "ready": False, "taken": False
            }  # fmt: skip
            code_, reason = await closed(ws)
            assert code_ == 1008 and "token" in reason, "the browser forgets the seat"

        run(scenario())
        ready = request(address, "POST", f"/api/games/{code}/ready", {"token": squatter["token"]}, ATTACKER)
        assert ready[0] == 403, "the squatter's token holds no seat now"
        friend = request(address, "POST", f"/api/games/{code}/join", {"name": "Bob"}, FRIEND)[2]
        for seat in (host, friend):
            request(address, "POST", f"/api/games/{code}/ready", {"token": seat["token"]})
        assert request(address, "POST", f"/api/games/{code}/start", {"token": host["token"]})[0] == 200
        late = request(address, "POST", f"/api/games/{code}/free", {"token": host["token"], "seat": 1})
        assert late[0] == 409


def test_addresses_are_counted_by_their_ip_an_ipv6_one_by_its_64() -> None:
    assert address_key("127.0.0.2") == "127.0.0.2" and address_key("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::5") != address_key("2001:db8:1:2::5")
    assert address_key("testclient") == "testclient"


def test_names_that_look_alike_are_one_name() -> None:
    host = "Host"
    for other in ("host", "H\u043est", "\uff28\uff4f\uff53\uff54", "HOST", "H\u03bfst", "Ho\u0455t"):
        assert name_key(other) == name_key(host), other
    assert name_key("Hast") != name_key(host) and name_key("Bob") != name_key("Rob")


def test_a_look_alike_name_is_refused_at_the_table(tmp_path: Path) -> None:
    with serving(tmp_path) as address:
        _, host = create(address, name="Host", seats=4)
        for name in ("H\u043est", "\uff28\uff4f\uff53\uff54"):
            status, _, body = request(address, "POST", f"/api/games/{host['code']}/join", {"name": name})
            assert status == 409 and "looks like it" in body["error"]


def test_game_code_lookups_are_rate_limited_over_http_and_websocket(tmp_path: Path) -> None:
    with serving(tmp_path, lookup_burst=3, lookups_per_second=0.01) as address:
        answers = [request(address, "GET", "/api/games/ZZZZZZ", source=ATTACKER)[0] for _ in range(4)]
        assert answers == [404, 404, 404, 429]

        async def websocket() -> None:
            ws = await connect(f"ws://{address}/ws/ZZZZZZ", local_addr=(ATTACKER, 0))
            assert (await closed(ws))[0] == 1013
            ws = await connect(f"ws://{address}/ws/ZZZZZZ", local_addr=(OTHER, 0))
            assert (await closed(ws))[0] == 4404, "another address looks up as before"

        run(websocket())


# ------------------------------------------------------------------ 11. headers


def test_every_page_forbids_framing_and_every_error_has_our_shape(tmp_path: Path) -> None:
    with serving(tmp_path) as address:
        for path in ("/", "/static/index.html", "/static/app.js", "/api/options"):
            status, headers, _ = request(address, "GET", path)
            assert status == 200
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
        for method, path, status in (
            ("GET", "/nowhere", 404),
            ("GET", "/static/nothing.js", 404),
            ("POST", "/api/options", 405),
            ("DELETE", "/api/games", 405),
        ):
            answer = request(address, method, path)
            assert answer[0] == status and set(answer[2]) == {"error"}, (method, path, answer)
            assert "x-frame-options" in answer[1]
        sock = raw(address, PLAYER)
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        answer = answer_of(sock)
        assert answer.startswith(b"HTTP/1.1 400") and answer.endswith(
            b'{"error": "not a valid HTTP request"}'
        )


@pytest.mark.parametrize("trusted", [(), ("127.0.0.0/8",)], ids=["no proxy", "a trusted proxy"])
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(
    tmp_path: Path, trusted: tuple[str, ...]
) -> None:
    with serving(tmp_path, trusted_proxies=trusted, request_burst=2, requests_per_second=0.01) as address:
        answers = [
            create(address, ATTACKER, headers={"X-Forwarded-For": f"10.0.0.{n}"})[0]
            if False
            else request(
                address, "POST", "/api/games", {"name": "Ann"}, ATTACKER, {"X-Forwarded-For": f"10.0.0.{n}"}
            )[0]
            for n in range(3)
        ]
    assert answers == ([201, 201, 201] if trusted else [201, 201, 429])
