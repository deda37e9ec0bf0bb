"""Load the online server: 200 WebSocket clients in 50 games on loopback (not run in CI).

Starts `munchkin serve`'s server in a child process, fills `--games` tables of `--seats`
human seats, and lets every client decide as soon as it is asked, or `--think-ms` later:
a seeded random choice among its legal actions, weighted like the random bot. A finished
game is replaced by a new one. After `--seconds`, prints the actions taken per second and
the latency of an action: from sending it to receiving the first update that holds it
(`acked`); and the CPU seconds the server and the clients used.

    .venv/bin/python scripts/web_load.py [--games 50] [--seats 4] [--seconds 30] [--think-ms 0] [--json]

With `--abuse`, the server runs with its default limits, and while `--games` games of
humans play from 127.0.0.3 (two bots at each table), another address, 127.0.0.2, floods it
at the rates its limits allow: spectators of every game (issue 14, point 1), game creation
(point 2), connections that send nothing or half a request (point 3) and games of bots played
by heuristic bots and its own seat at full speed (point 5). The figure that matters is the
players' acknowledgement latency (target: p99 under 100 ms); what the flood got through and
what was refused is counted too.

    .venv/bin/python scripts/web_load.py --abuse [--games 2] [--seconds 30] [--think-ms 20] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import resource
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.actions import action_from_dict, action_to_dict
from munchkin.web.config import WebConfig
from munchkin.web.server import run_server

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
ATTACKER, PLAYERS = "127.0.0.2", "127.0.0.3"


@dataclass
class Figures:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    games_done: int = 0
    messages: int = 0
    server_cpu: float | None = None


def call(
    base: str, path: str, body: dict[str, Any] | None = None, source: str | None = None
) -> tuple[int, Any]:
    """An HTTP request to the API (a POST with `body`) from `source`: the status and the JSON."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(
        host, int(port), timeout=30, source_address=(source, 0) if source else None
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        conn.request(
            "GET" if body is None else "POST", f"/api{path}", data, {"Content-Type": "application/json"}
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def post(base: str, path: str, body: dict[str, Any], source: str | None = None) -> dict[str, Any]:
    status, data = call(base, path, body, source)
    if status >= 400:
        raise RuntimeError(f"{path}: {status} {data}")
    result: dict[str, Any] = data
    return result


def open_table(base: str, seats: int, bots: int = 0, source: str | None = None) -> list[dict[str, Any]]:
    """A table of `seats` seats, `bots` of them heuristic bots, every human ready (not
    started): the humans' seats."""
    body = {"name": NAMES[0], "seats": seats, "bots": ["bot:heuristic"] * bots}
    host = post(base, "/games", body, source)
    code = host["code"]
    granted = [host] + [
        post(base, f"/games/{code}/join", {"name": n}, source) for n in NAMES[1 : seats - bots]
    ]
    for seat in granted:
        post(base, f"/games/{code}/ready", {"token": seat["token"]}, source)
    return granted


class Player:
    """One client: decides when asked, one action in flight at a time."""

    def __init__(
        self, ws: ClientConnection, seat: dict[str, Any], figures: Figures, seed: int, think: float
    ) -> None:
        self.ws, self.seat, self.figures, self.think = ws, seat, figures, think
        self.bot = RandomBot(seed)
        self.view: dict[str, Any] = {}
        self.seq = 0
        self.sent: tuple[int, float, int] | None = None  # (ref, when, seq)
        self.refs = 0

    async def play(self, until: float) -> bool:
        """Play until the game is over (True) or the time is up (False)."""
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(self.ws.recv(), max(0.01, until - time.monotonic()))
            except TimeoutError:
                return False
            self.figures.messages += 1
            message = json.loads(raw)
            if message["type"] == "game":
                self._update(message)
                if self.view.get("winners"):  # one or several (B2): the game is over
                    return True
                if self.sent is None and self.view.get("deciding") and self.view.get("legal"):
                    await self._act()
            elif message["type"] == "refused" and self.sent and message["ref"] == self.sent[0]:
                self.figures.refused += 1  # the game moved on: decide again on a newer view
                seq, self.sent = self.sent[2], None
                if self.seq != seq and self.view.get("deciding") and self.view.get("legal"):
                    await self._act()
        return False

    def _update(self, message: dict[str, Any]) -> None:
        self.view = message["view"] if message["full"] else {**self.view, **message["view"]}
        self.seq = message["seq"]
        if self.sent and message["acked"] == self.sent[0]:
            self.figures.latencies.append(time.perf_counter() - self.sent[1])
            self.sent = None

    async def _act(self) -> None:
        if self.think:
            await asyncio.sleep(self.think)
        action = self.bot.pick(self.seat["player"], [action_from_dict(a) for a in self.view["legal"]])
        self.refs += 1
        self.sent = (self.refs, time.perf_counter(), self.seq)
        message = {"type": "act", "token": self.seat["token"], "action": action_to_dict(action)}
        await self.ws.send(json.dumps({**message, "seq": self.seq, "ref": self.refs}))


async def table_worker(
    base: str, number: int, args: argparse.Namespace, until: float, figures: Figures
) -> None:
    """Keep one table busy: a game, and a new one whenever it ends."""
    host = base.replace("http://", "ws://")
    round_ = 0
    while time.monotonic() < until:
        granted = await asyncio.to_thread(open_table, base, args.seats)
        code = granted[0]["code"]
        sockets = [await connect(f"{host}/ws/{code}", max_size=2**22) for _ in granted]
        for ws, seat in zip(sockets, granted, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        await asyncio.to_thread(post, base, f"/games/{code}/start", {"token": granted[0]["token"]})
        players = [
            Player(ws, seat, figures, number * 1000 + round_ * 10 + i, args.think_ms / 1000)
            for i, (ws, seat) in enumerate(zip(sockets, granted, strict=True))
        ]
        done = await asyncio.gather(*(player.play(until) for player in players))
        figures.games_done += any(done)
        for ws in sockets:
            await ws.close()
        round_ += 1


# ------------------------------------------------------------------ --abuse


@dataclass
class Flood:
    """What the flooding address got through, and what was refused."""

    spectators: int = 0
    spectators_refused: int = 0
    created: int = 0
    create_refused: int = 0
    silent_opened: int = 0
    silent_refused: int = 0
    silent_timed_out: int = 0
    bot_games: int = 0
    bot_games_refused: int = 0
    bot_game_actions: int = 0


async def players_worker(
    base: str, number: int, args: argparse.Namespace, until: float, figures: Figures, codes: list[str]
) -> None:
    """One table of the players' address: its humans play, one heuristic bot with them; a new
    game when it ends. Its code is shown to the flood (`codes`), as a shared link would be."""
    host = base.replace("http://", "ws://")
    round_ = 0
    while time.monotonic() < until:
        granted = await asyncio.to_thread(open_table, base, args.seats, 1, PLAYERS)
        code = granted[0]["code"]
        codes.append(code)
        sockets = [
            await connect(f"{host}/ws/{code}", max_size=2**22, local_addr=(PLAYERS, 0)) for _ in granted
        ]
        for ws, seat in zip(sockets, granted, strict=True):
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        await asyncio.to_thread(post, base, f"/games/{code}/start", {"token": granted[0]["token"]}, PLAYERS)
        players = [
            Player(ws, seat, figures, number * 1000 + round_ * 10 + i, args.think_ms / 1000)
            for i, (ws, seat) in enumerate(zip(sockets, granted, strict=True))
        ]
        done = await asyncio.gather(*(player.play(until) for player in players))
        figures.games_done += any(done)
        codes.remove(code)
        for ws in sockets:
            await ws.close()
        round_ += 1


async def drain(ws: ClientConnection, until: float) -> None:
    """Read what the server sends until the time is up or it closes."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while time.monotonic() < until:
            await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic()))


async def flood_spectators(base: str, until: float, codes: list[str], flood: Flood) -> None:
    """Watch every game of the players as often as the lookups allow (two a second)."""
    host = base.replace("http://", "ws://")
    readers = []
    while time.monotonic() < until:
        for code in list(codes):
            try:
                ws = await connect(f"{host}/ws/{code}", local_addr=(ATTACKER, 0), open_timeout=5)
                await ws.send(json.dumps({"type": "hello", "token": None}))
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
                flood.spectators += welcome["type"] == "welcome"
                readers.append(asyncio.create_task(drain(ws, until)))
            except (WebSocketException, OSError, TimeoutError, json.JSONDecodeError):
                flood.spectators_refused += 1
            await asyncio.sleep(0.5)
        await asyncio.sleep(0.1)
    await asyncio.gather(*readers, return_exceptions=True)


async def flood_creation(base: str, until: float, flood: Flood) -> None:
    """Create games at the lobby's allowed rate (five requests a second)."""
    while time.monotonic() < until:
        status, _ = await asyncio.to_thread(call, base, "/games", {"name": "Mal", "seats": 6}, ATTACKER)
        if status == 201:
            flood.created += 1
        else:
            flood.create_refused += 1
        await asyncio.sleep(0.2)


async def flood_silent(base: str, until: float, flood: Flood, number: int) -> None:
    """Hold a connection that sends nothing (even slots) or half its headers (odd ones),
    opening another each time the server closes it."""
    host, port = base.removeprefix("http://").split(":")
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(host, int(port), local_addr=(ATTACKER, 0))
        except OSError:
            flood.silent_refused += 1
            await asyncio.sleep(0.5)
            continue
        flood.silent_opened += 1
        if number % 2:
            writer.write(b"GET /api/options HTTP/1.1\r\nHost: x\r\n")
        try:
            answer = await asyncio.wait_for(reader.read(4096), max(0.01, until - time.monotonic()))
            if answer.startswith((b"HTTP/1.1 429", b"HTTP/1.1 503")):
                flood.silent_refused += 1
                await asyncio.sleep(0.5)
            else:
                flood.silent_timed_out += 1
        except (TimeoutError, OSError):
            pass
        writer.close()


async def flood_bot_games(base: str, until: float, flood: Flood, figures: Figures) -> None:
    """Games of one human seat and five heuristic bots, its seat played at once on every
    question, as many as the limit allows (a new one each time one ends or is refused)."""
    host = base.replace("http://", "ws://")
    round_ = 0
    while time.monotonic() < until:
        body = {"name": "Mal", "seats": 6, "bots": ["bot:heuristic"] * 5}
        status, seat = await asyncio.to_thread(call, base, "/games", body, ATTACKER)
        if status != 201:
            flood.bot_games_refused += 1
            await asyncio.sleep(2)
            continue
        code = seat["code"]
        await asyncio.to_thread(call, base, f"/games/{code}/ready", {"token": seat["token"]}, ATTACKER)
        try:
            ws = await connect(f"{host}/ws/{code}", max_size=2**22, local_addr=(ATTACKER, 0))
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        except (WebSocketException, OSError):
            flood.bot_games_refused += 1
            await asyncio.sleep(2)
            continue
        status, _ = await asyncio.to_thread(
            call, base, f"/games/{code}/start", {"token": seat["token"]}, ATTACKER
        )
        flood.bot_games += status == 200
        player = Player(ws, seat, figures, 7_000_000 + round_, 0.0)
        with contextlib.suppress(ConnectionClosed):
            await player.play(until)
        await ws.close()
        round_ += 1


def measure_abuse(base: str, args: argparse.Namespace) -> tuple[Figures, float, Flood, Figures]:
    """The players' games under the flood: their figures, the seconds, the flood's counts, and
    the figures of the flood's own seats in its bot games."""
    figures, flood, flooded = Figures(), Flood(), Figures()
    started = time.monotonic()
    until = started + args.seconds
    codes: list[str] = []

    async def everything() -> None:
        await asyncio.gather(
            *(players_worker(base, n, args, until, figures, codes) for n in range(args.games)),
            flood_spectators(base, until, codes, flood),
            flood_creation(base, until, flood),
            *(flood_silent(base, until, flood, n) for n in range(30)),
            *(flood_bot_games(base, until, flood, flooded) for _ in range(2)),
        )

    asyncio.run(everything())
    return figures, time.monotonic() - started, flood, flooded


def wait_for_server(base: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/options", timeout=1).close()
            return
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 7))
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think-ms", type=float, default=0.0, help="pause before each action")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--url", help="load this running server instead (its rate limits apply)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--abuse", action="store_true", help="players' games under a flood from another address (issue 14)"
    )
    args = parser.parse_args()
    if args.abuse:
        main_abuse(args)
        return
    if args.url:
        wait_for_server(args.url)
        report(*measure(args.url, args), args)
        return
    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as tmp:
        config = WebConfig(
            db_url=str(Path(tmp) / "load.sqlite3"),
            messages_per_second=1000,
            message_burst=1000,
            requests_per_second=10_000,
            request_burst=10_000,
            lookup_burst=10_000,
            lookups_per_second=10_000,
            max_connections_per_address=100_000,
            max_open_tables_per_address=100_000,
            max_bot_games_per_address=100_000,
        )
        server = multiprocessing.get_context("spawn").Process(
            target=run_server, args=(config, "127.0.0.1", args.port, "warning"), daemon=True
        )
        server.start()
        try:
            wait_for_server(base)
            figures, elapsed = measure(base, args)
        finally:
            server.terminate()
            server.join(10)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    figures.server_cpu = children.ru_utime + children.ru_stime
    report(figures, elapsed, args)


def measure(base: str, args: argparse.Namespace) -> tuple[Figures, float]:
    """Run the tables for the time asked; what the clients measured, and the seconds it took."""
    figures = Figures()
    started = time.monotonic()
    until = started + args.seconds

    async def everything() -> None:
        await asyncio.gather(*(table_worker(base, n, args, until, figures) for n in range(args.games)))

    asyncio.run(everything())
    return figures, time.monotonic() - started


def main_abuse(args: argparse.Namespace) -> None:
    """`--abuse`: a server of default limits, its players and a flood; the report."""
    if "--games" not in sys.argv:
        args.games = 2
    base = f"http://127.0.0.1:{args.port}"
    with tempfile.TemporaryDirectory() as tmp:
        config = WebConfig(db_url=str(Path(tmp) / "load.sqlite3"))
        server = multiprocessing.get_context("spawn").Process(
            target=run_server, args=(config, "127.0.0.1", args.port, "error"), daemon=True
        )
        server.start()
        try:
            wait_for_server(base)
            figures, elapsed, flood, flooded = measure_abuse(base, args)
        finally:
            server.terminate()
            server.join(10)
    lat = figures.latencies
    result = {
        "players": args.games * (args.seats - 1),
        "think_ms": args.think_ms,
        "seconds": round(elapsed, 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 1) if lat else None,
        "p99_ms": round(percentile(lat, 0.99) * 1000, 1) if lat else None,
        "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "games_finished": figures.games_done,
        **{f"flood_{key}": value for key, value in vars(flood).items()},
        "flood_bot_game_actions": len(flooded.latencies),
        "server_cpu_s": round(sum(resource.getrusage(resource.RUSAGE_CHILDREN)[:2]), 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>24}: {value}")


def report(figures: Figures, elapsed: float, args: argparse.Namespace) -> None:
    lat = figures.latencies
    result = {
        "clients": args.games * args.seats,
        "think_ms": args.think_ms,
        "games": args.games,
        "seconds": round(elapsed, 1),
        "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 1) if lat else None,
        "p99_ms": round(percentile(lat, 0.99) * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "refused_stale": figures.refused,
        "games_finished": figures.games_done,
        "messages_received": figures.messages,
        "server_cpu_s": None if figures.server_cpu is None else round(figures.server_cpu, 1),
        "clients_cpu_s": round(sum(os.times()[:2]), 1),
    }
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key:>18}: {value}")


if __name__ == "__main__":
    main()
