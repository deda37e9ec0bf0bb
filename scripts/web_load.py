"""Load the online server: 200 WebSocket clients in 50 games on loopback (not run in CI).

Starts `munchkin serve`'s server in a child process, fills `--games` tables of `--seats`
human seats, and lets every client decide as soon as it is asked, or `--think-ms` later:
a seeded random choice among its legal actions, weighted like the random bot. A finished
game is replaced by a new one. After `--seconds`, prints the actions taken per second and
the latency of an action: from sending it to receiving the first update that holds it
(`acked`); and the CPU seconds the server and the clients used.

    .venv/bin/python scripts/web_load.py [--games 50] [--seats 4] [--seconds 30] [--think-ms 0] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.actions import action_from_dict, action_to_dict
from munchkin.web.config import WebConfig
from munchkin.web.server import run_server

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")


@dataclass
class Figures:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    refused: int = 0
    games_done: int = 0
    messages: int = 0
    server_cpu: float | None = None


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        data: dict[str, Any] = json.load(response)
        return data


def open_table(base: str, seats: int) -> list[dict[str, Any]]:
    """A table of human seats, everyone ready (not started): the seats."""
    host = post(base, "/games", {"name": NAMES[0], "seats": seats})
    granted = [host] + [post(base, f"/games/{host['code']}/join", {"name": n}) for n in NAMES[1:seats]]
    for seat in granted:
        post(base, f"/games/{host['code']}/ready", {"token": seat["token"]})
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
    args = parser.parse_args()
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
