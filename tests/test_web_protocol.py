"""The game WebSocket against a real server on 127.0.0.1: seats and tokens, refusals, timers,
stand-in bots, a restart, and no hidden card in any message of a whole game."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import urllib.request
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnected, WebSocketState
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.actions import action_from_dict, action_to_dict
from munchkin.engine.game import Game
from munchkin.session import Session
from munchkin.store import Store
from munchkin.store.store import load_cards, new_game
from munchkin.views import event_for, view
from munchkin.web.config import WebConfig
from munchkin.web.protocol import public_view
from munchkin.web.room import Room, Snapshot, timeout_action
from munchkin.web.server import background
from munchkin.web.ws import game_socket
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

SEED = 11
FAST = WebConfig(
    response_seconds=0,
    takeover_seconds=600,
    seed=SEED,
    messages_per_second=1000,
    message_burst=1000,
    lookup_burst=1000,
    bot_moves_per_second=0,
    away_bot_moves_per_second=0,
)
"""Out-of-turn windows close at once; humans stay themselves; every game dealt alike; bots
move as fast as they can."""
TIMEOUT = 20.0


# ------------------------------------------------------------------ helpers


def post(address: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://{address}/api{path}", json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        data: dict[str, Any] = json.load(response)
        return data


def open_table(address: str, humans: list[str], bots: list[str], start: bool = True) -> list[dict[str, Any]]:
    """A game with everyone ready, started unless told not to: the humans' seats (code, seat,
    player, token). A human not connected when a window opens passes at once."""
    seats = len(humans) + len(bots)
    host = post(address, "/games", {"name": humans[0], "seats": seats, "bots": bots})
    granted = [host] + [post(address, f"/games/{host['code']}/join", {"name": name}) for name in humans[1:]]
    for seat in granted:
        post(address, f"/games/{host['code']}/ready", {"token": seat["token"]})
    if start:
        begin(address, host)
    return granted


def begin(address: str, host: dict[str, Any]) -> None:
    post(address, f"/games/{host['code']}/start", {"token": host["token"]})


@dataclass
class Client:
    """One WebSocket client: every message it got, and the game as it knows it."""

    ws: ClientConnection
    token: str | None
    seat: str | None = None
    seq: int = -1
    deadline: float | None = None
    view: dict[str, Any] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    async def open(cls, address: str, code: str, token: str | None = None) -> Client:
        ws = await connect(f"ws://{address}/ws/{code}")
        client = cls(ws, token)
        await client.send({"type": "hello", "token": token})
        client.seat = (await client.receive("welcome"))["seat"]
        return client

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def act(self, action: dict[str, Any], **extra: Any) -> None:
        await self.send({"type": "act", "token": self.token, "action": action, "seq": self.seq, **extra})

    async def receive(self, kind: str | None = None) -> dict[str, Any]:
        """The next message (of this kind), keeping track of the game."""
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
            self.messages.append(message)
            if message["type"] == "game":
                self.view = message["view"] if message["full"] else {**self.view, **message["view"]}
                self.seq, self.deadline = message["seq"], message["deadline"]
            if kind is None or message["type"] == kind:
                return message

    async def answer(self, ref: int) -> dict[str, Any]:
        """The game message that acknowledges action `ref`, or its refusal."""
        while True:
            message = await self.receive()
            if message.get("acked") == ref or (message["type"] == "refused" and message["ref"] == ref):
                return message

    async def until(self, done: Any) -> dict[str, Any]:
        """Messages until `done(self)` holds after a game message."""
        while True:
            message = await self.receive()
            if message["type"] == "game" and done(self):
                return message

    async def play_to_end(self) -> None:
        """Decide whenever asked, the same way in every run (the choice depends on seat and seq)."""
        while self.view.get("winner") is None:
            message = await self.receive()
            if message["type"] == "game" and self.view.get("deciding") and self.view["legal"]:
                await self.act(action_to_dict(choice(self.seat or "", self.seq, self.view["legal"])))

    async def closed(self) -> int:
        """The close code once the server closes the connection."""
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await self.receive()
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code


def choice(seat: str, seq: int, legal: list[dict[str, Any]]) -> Any:
    return RandomBot(zlib.crc32(f"{seat}/{seq}".encode())).pick(seat, [action_from_dict(a) for a in legal])


def run(coroutine: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def serving(tmp_path: Path, **settings: Any) -> Any:
    """A server with the FAST settings but these, on a database in `tmp_path`."""
    return background(WebConfig(**{**vars(FAST), "db_url": str(tmp_path / "games.sqlite3"), **settings}))


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    with serving(tmp_path) as where:
        yield where


# ------------------------------------------------------------------ seats and tokens


def test_a_player_gets_their_own_view_and_a_spectator_no_hand(address: str) -> None:
    ann, bob = open_table(address, ["Ann", "Bob"], ["bot:random"])

    async def scenario() -> None:
        mine = await Client.open(address, ann["code"], ann["token"])
        watcher = await Client.open(address, ann["code"])
        await mine.receive("game")
        await watcher.receive("game")
        assert mine.seat == "Ann" and watcher.seat is None
        assert mine.view["player"] == "Ann" and "hand" in mine.view and "legal" in mine.view
        assert not PRIVATE & set(watcher.view), "a spectator sees nothing of any player's own"
        assert all("hand" not in player for player in watcher.view["players"])
        await watcher.send({"type": "act", "token": bob["token"], "action": {"verb": "pass"}})
        assert (await watcher.receive("refused"))["code"] == "spectator"

    run(scenario())


PRIVATE = {"hand", "legal", "player", "deciding", "hand_limit", "run_away_modifier"}


def test_tokens_are_checked_on_every_action_and_misuse_is_logged(
    address: str, caplog: pytest.LogCaptureFixture
) -> None:
    ann, bob = open_table(address, ["Ann", "Bob"], [])
    caplog.set_level(logging.WARNING, "munchkin.web")

    async def scenario() -> None:
        mine = await Client.open(address, ann["code"], ann["token"])
        await mine.receive("game")
        legal = mine.view["legal"][0]
        for token, extra, code in (
            (bob["token"], {}, "not_your_seat"),
            (ann["token"], {"player": "Bob"}, "not_your_seat"),
            ("x" * 43, {}, "bad_token"),
        ):
            await mine.send({"type": "act", "token": token, "action": legal, **extra})
            assert (await mine.receive("refused"))["code"] == code
        intruder = await connect(f"ws://{address}/ws/{ann['code']}")
        await intruder.send(json.dumps({"type": "hello", "token": "y" * 43}))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(intruder.recv(), TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len([w for w in warnings if "another seat" in w]) == 2
    assert len([w for w in warnings if "holds no seat" in w]) == 2
    assert not any(ann["token"] in w or bob["token"] in w for w in warnings), "tokens are never logged"


def test_bad_messages_are_refused_in_one_line(address: str) -> None:
    (ann,) = open_table(address, ["Ann"], ["bot:random"])

    async def scenario() -> None:
        mine = await Client.open(address, ann["code"], ann["token"])
        await mine.receive("game")
        act = {"type": "act", "token": ann["token"]}
        sent = [
            ("not json", "bad_json"),
            (json.dumps([1, 2]), "bad_message"),
            (json.dumps({"type": "shout"}), "bad_message"),
            (json.dumps(act), "bad_message"),
            (json.dumps({**act, "action": {"verb": "fly"}}), "bad_action"),
            (json.dumps({**act, "action": {"verb": "end_turn"}}), "rules"),
            (json.dumps({**act, "action": {"verb": "pass"}, "seq": 10**6}), "stale"),
            (json.dumps({"type": "hello", "token": None}), "bad_message"),
        ]
        seq = mine.seq
        for raw, code in sent:
            await mine.ws.send(raw)
            refusal = await mine.receive("refused")
            assert refusal["code"] == code and "\n" not in refusal["message"], raw
        assert mine.seq == seq, "nothing refused changed the game"
        await mine.ws.send(b"\x00binary")
        assert (await mine.receive("refused"))["code"] == "bad_message"
        await mine.ws.send(json.dumps({"type": "act", "token": ann["token"], "action": {"verb": "x" * 5000}}))
        assert await mine.closed() == 1009

    run(scenario())


def test_a_flood_is_refused_then_cut_off(tmp_path: Path) -> None:
    with serving(tmp_path, messages_per_second=1, message_burst=3) as address:
        (ann,) = open_table(address, ["Ann"], ["bot:random"])

        async def scenario() -> None:
            mine = await Client.open(address, ann["code"], ann["token"])
            stale = {"type": "act", "token": ann["token"], "action": {"verb": "pass"}, "seq": 10**6}
            for _ in range(4):
                await mine.send(stale)
            codes = [(await mine.receive("refused"))["code"] for _ in range(4)]
            assert codes == ["stale", "stale", "rate", "rate"]
            for _ in range(20):
                await mine.send(stale)
            assert await mine.closed() == 1008

        run(scenario())


def test_unknown_games_are_closed_at_once(address: str) -> None:
    async def scenario() -> None:
        ws = await connect(f"ws://{address}/ws/ZZZZZZ")
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    run(scenario())


# ------------------------------------------------------------------ timers


def test_setup_is_not_timed_and_a_response_window_closes_at_its_deadline(tmp_path: Path) -> None:
    with serving(tmp_path, response_seconds=0.6) as address:
        (ann,) = open_table(address, ["Ann"], ["bot:random", "bot:random"], start=False)

        async def scenario() -> None:
            mine = await Client.open(address, ann["code"], ann["token"])
            begin(address, ann)
            first = await mine.until(lambda c: c.view["deciding"])
            assert mine.view["phase"] == "setup" and first["deadline"] is None, (
                "no timer before the first turn"
            )
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(mine.until(lambda c: c.view["phase"] != "setup"), 1.0)
            await mine.act({"verb": "pass"})
            while not (mine.view["deciding"] and mine.deadline is not None):  # her own turns: play them
                message = await mine.receive()
                if message["type"] == "game" and mine.view["deciding"] and mine.deadline is None:
                    await mine.act(action_to_dict(choice("Ann", mine.seq, mine.view["legal"])))
            assert 0 < mine.deadline <= 0.6
            started, seen = time.monotonic(), mine.seq
            await mine.until(lambda c: c.seq > seen)
            assert time.monotonic() - started >= 0.3, "the window stayed open until its deadline"

        run(scenario())


def test_a_player_answers_within_the_window(tmp_path: Path) -> None:
    with serving(tmp_path, response_seconds=30) as address:
        (ann,) = open_table(address, ["Ann"], ["bot:random"], start=False)

        async def scenario() -> None:
            mine = await Client.open(address, ann["code"], ann["token"])
            begin(address, ann)
            await mine.until(lambda c: c.view["deciding"])
            assert mine.view["phase"] == "setup" and mine.deadline is None
            for ref in range(1, 10):  # a bot's move just before her click makes it stale: again
                play = next(a for a in mine.view["legal"] if a["verb"] == "play")
                name = next(card["name"] for card in mine.view["hand"] if card["id"] == play["arg"])
                await mine.act(play, ref=ref)
                answer = await mine.answer(ref)
                if answer["type"] == "game":
                    break
                assert answer["code"] == "stale"
            assert f"Ann plays {name}." in answer["log"]

        run(scenario())


def test_a_bot_plays_for_a_player_who_left_until_they_are_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("munchkin.web.room.STANDIN_SECONDS", 0.0)  # not at a person's pace: at once
    with serving(tmp_path, takeover_seconds=0.2) as address:
        (ann,) = open_table(address, ["Ann"], ["bot:random"])

        async def scenario() -> None:
            mine = await Client.open(address, ann["code"], ann["token"])
            await mine.receive("game")
            await mine.ws.close()
            watcher = await Client.open(address, ann["code"])
            last = await watcher.until(lambda c: c.view["winner"] is not None)
            ann_seat = next(s for s in last["seats"] if s["name"] == "Ann")
            assert ann_seat == {"name": "Ann", "kind": "human", "present": False, "standin": True}
            back = await Client.open(address, ann["code"], ann["token"])
            message = await back.receive("game")
            assert {"name": "Ann", "kind": "human", "present": True, "standin": False} in message["seats"]
            assert back.view["winner"] == watcher.view["winner"]

        run(scenario())


def test_a_timed_out_player_passes_or_declines() -> None:
    actions = [action_from_dict(a) for a in ({"verb": "discard", "arg": "x"}, {"verb": "accept_help"})]
    decline = action_from_dict({"verb": "decline_help"})
    assert timeout_action([*actions, decline]) == decline
    assert timeout_action([*actions, action_from_dict({"verb": "pass"}), decline]).verb == "pass"
    assert timeout_action(actions) == actions[0]


# ------------------------------------------------------------------ persistence


def test_a_game_survives_a_restart_and_players_get_their_seats_back(tmp_path: Path, db_url: str) -> None:
    with serving(tmp_path, db_url=db_url) as address:
        (ann,) = open_table(address, ["Ann"], ["bot:random", "bot:random"])

        async def first_half() -> tuple[int, dict[str, Any], int]:
            mine = await Client.open(address, ann["code"], ann["token"])
            while mine.seq < 40 or not mine.view["deciding"] or mine.deadline is not None:
                message = await mine.receive()
                if message["type"] == "game" and mine.view["deciding"] and mine.seq < 40:
                    await mine.act(action_to_dict(choice("Ann", mine.seq, mine.view["legal"])))
            lines = sum(len(m.get("log", [])) for m in mine.messages)
            await mine.ws.close()
            return mine.seq, mine.view, lines

        _, before, lines = run(first_half())
    with serving(tmp_path, db_url=db_url) as address:

        async def second_half() -> None:
            mine = await Client.open(address, ann["code"], ann["token"])
            message = await mine.receive("game")
            assert message["full"] and mine.view == before, (
                "the same view (its seq is the new server's count)"
            )
            assert len(message["log"]) == min(lines, 300), "the log so far comes back too"
            await mine.act(action_to_dict(choice("Ann", mine.seq, mine.view["legal"])))
            await mine.until(lambda c: c.seq > mine_seq)

        mine_seq = 1
        run(second_half())


# ------------------------------------------------------------------ nothing hidden is ever sent


@dataclass
class Knowledge:
    """For each player (None: a spectator), the first decision after which each card id was
    visible to them: in their hand or face up between decisions, or named in an event as
    everyone sees it (a treasure drawn face up and handed to a helper is never face up between
    decisions); and each player's hand after every decision."""

    first_seen: dict[str | None, dict[str, int]]
    hands: dict[str, list[list[str]]]
    names: dict[str, str]

    @classmethod
    def of(cls, setup: Any, decisions: Any) -> Knowledge:
        players = [seat.name for seat in setup.seats]
        names = {c.id: c.name for c in load_cards(setup.sets)}
        first_seen: dict[str | None, dict[str, int]] = {p: {} for p in [*players, None]}
        hands: dict[str, list[list[str]]] = {p: [] for p in players}

        def record(game: Game, number: int, public: set[str]) -> None:
            for player, seen in first_seen.items():
                for card in visible(game, player) | public:
                    seen.setdefault(card, number)
            for seat, player in enumerate(players):
                hands[player].append(sorted(game.state.ids(game.state.players[seat].hand)))

        game = new_game(setup)
        record(game, 0, set())
        for number, decision in enumerate(decisions, 1):
            events = game.apply(decision.player, decision.action)
            said = {text for event in events for text in strings(event_for(event, "").data)}
            record(game, number, said & set(names))
        return cls(first_seen, hands, names)

    def leaks(self, player: str | None, message: dict[str, Any], seq: int) -> list[str]:
        """Cards in `message` that `player` could not have seen after `seq` decisions (by id or by name)."""
        seen = {card for card, at in self.first_seen[player].items() if at <= seq}
        texts = list(strings(message))
        found = [f"id {text}" for text in texts if text in self.names and text not in seen]
        known_names = [self.names[card] for card in seen]
        for card, name in self.names.items():
            pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            if card not in seen and not any(name in other for other in known_names):
                found += [f"name {name}" for text in texts if pattern.search(text)]
        if player is not None and "hand" in message.get("view", {}):
            hand = sorted(card["id"] for card in message["view"]["hand"])
            if hand != self.hands[player][seq]:
                found.append(f"a hand that is not {player}'s")
        return found


def visible(game: Game, player: str | None) -> set[str]:
    """Card ids `player` may see now: every card but the decks and the others' hands."""
    g = game.state
    hidden = set(g.door_deck) | set(g.treasure_deck)
    for p in g.players:
        if p.name != player:
            hidden |= set(p.hand)
    return {g.defs[i].id for i in range(len(g.defs)) if i not in hidden}


def strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from strings(value)


def test_no_message_of_a_whole_game_holds_a_card_its_receiver_may_not_see(tmp_path: Path) -> None:
    with serving(tmp_path) as address:
        ann, bob = open_table(address, ["Ann", "Bob"], ["bot:random", "bot:heuristic"])

        async def game() -> list[Client]:
            clients = [
                await Client.open(address, ann["code"], ann["token"]),
                await Client.open(address, ann["code"], bob["token"]),
                await Client.open(address, ann["code"]),
            ]
            await asyncio.gather(*(client.play_to_end() for client in clients))
            return clients

        clients = run(game())
    with Store(str(tmp_path / "games.sqlite3")) as store:
        saved = store.load(store.games()[0].id)
    knowledge = Knowledge.of(saved.info.setup, saved.decisions)
    checked = 0
    for client in clients:
        at = dict(zip(map(id, games_of(client)), decisions_seen(saved, client), strict=True))
        number = 0
        for message in client.messages:
            number = at.get(id(message), number)  # other messages: as of the last game message
            assert knowledge.leaks(client.seat, message, number) == [], (client.seat, message)
            checked += message["type"] == "game"
    assert saved.info.progress.status == "won" and checked > 100
    never_seen = set(knowledge.names) - set(knowledge.first_seen["Ann"])
    assert never_seen, "some cards stayed hidden from Ann, so the check could have failed"
    hidden = sorted(never_seen)[0]
    planted = {"type": "game", "log": [f"Bob plays {knowledge.names[hidden]}."], "view": {}}
    assert knowledge.leaks("Ann", planted, 0) and knowledge.leaks("Ann", {"arg": hidden}, 0)


def test_a_spectator_view_is_the_same_whoever_it_is_made_from() -> None:
    cards = load_cards(("base",))
    game = Game.new(cards, [("Ann", "female"), ("Bob", "male"), ("Cid", "male")], seed=3)
    bots = {name: RandomBot(i) for i, name in enumerate(game.players)}
    compared = 0
    for _ in range(300):
        if game.over:
            break
        views = [public_view(view(game, p).to_dict()) for p in game.players]
        assert all(v == views[0] for v in views)
        compared += 1
        player = game.waiting_for()[0]
        game.apply(player, bots[player].choose(view(game, player)))
    assert compared > 100


def test_several_winners_are_told_to_players_and_spectators(tmp_path: Path) -> None:
    """A game two players (or more) won together: every message names all of them (B2)."""
    seed = shared_win_seed()
    session = Session.start(RANDOM_BOTS, ["base"], seed, options=LOW_WIN)
    session.run_to_end()
    winners = session.winners
    assert len(winners) > 1
    together = f"{', '.join(winners[:-1])} and {winners[-1]} win together"

    async def snapshots() -> tuple[Snapshot, Snapshot]:
        room = Room(session, [], [], 1.0, 1.0, lambda _room: None)
        for seat in (None, winners[0]):
            room.listen_now(Watching(seat))
        return room.snapshot(None, {}), room.snapshot(winners[0], {})

    spectator, player = run(snapshots())
    assert spectator.fields["situation"] == f"Game over: {together}."
    assert player.fields["situation"].startswith(f"Game over: {together} after ")
    assert spectator.view["winners"] == player.view["winners"] == winners
    assert spectator.view["options"]["win_level"] == LOW_WIN.win_level


# ------------------------------------------------------------------ partial views


def seen_after(setup: Any, decisions: Any, seat: str | None) -> list[dict[str, Any]]:
    """What `seat` (None: a spectator) sees after each number of decisions, 0 included, as sent whole."""
    game, seen = new_game(setup), []
    for number in range(len(decisions) + 1):
        whole = view(game, setup.seats[0].name if seat is None else seat).to_dict()
        seen.append(public_view(whole) if seat is None else whole)
        if number < len(decisions):
            game.apply(decisions[number].player, decisions[number].action)
    return seen


def games_of(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["type"] == "game"]


def decisions_seen(saved: Any, client: Client, start: int = 0) -> list[int]:
    """For each game message of `client`, the number of decisions after which its seat saw the
    view the message makes (the last of a run of decisions that left it so, from `start` on).
    A message's `seq` is its seat's own count of changes: it never goes down, and the same seq
    is the same view."""
    seen = seen_after(saved.info.setup, saved.decisions, client.seat)
    numbers, whole, number, last_seq = [], {}, start, None
    previous: dict[str, Any] = {}
    for message in games_of(client):
        whole = dict(message["view"]) if message["full"] else {**whole, **message["view"]}
        while seen[number] != whole:
            number += 1
            assert number < len(seen), f"{client.seat} was sent a view they never had: {message}"
        while number + 1 < len(seen) and seen[number + 1] == whole:
            number += 1
        if last_seq is not None:
            assert message["seq"] >= last_seq
            assert message["seq"] != last_seq or whole == previous, "the same seq is the same view"
        numbers.append(number)
        last_seq, previous = message["seq"], whole
    return numbers


def test_each_game_message_holds_the_view_keys_that_changed_and_a_new_connection_all(tmp_path: Path) -> None:
    # the spectator is told of changes often, so that it gets many messages in a short game
    with serving(tmp_path, idle_refresh_seconds=0.01) as address:
        ann, bob = open_table(address, ["Ann", "Bob"], ["bot:random"])

        async def game() -> tuple[list[Client], dict[str, Any]]:
            clients = [
                await Client.open(address, ann["code"], ann["token"]),
                await Client.open(address, ann["code"], bob["token"]),
                await Client.open(address, ann["code"]),
            ]
            await asyncio.gather(*(client.play_to_end() for client in clients))
            back = await Client.open(address, ann["code"], bob["token"])
            return clients, await back.receive("game")

        clients, again = run(game())
    with Store(str(tmp_path / "games.sqlite3")) as store:
        saved = store.load(store.games()[0].id)
    for client in clients:
        seen = seen_after(saved.info.setup, saved.decisions, client.seat)
        messages = games_of(client)
        before: dict[str, Any] = {}
        for message, number in zip(messages, decisions_seen(saved, client), strict=True):
            now = seen[number]
            assert message["full"] == (not before), "only a connection's first view is whole"
            changed = {key: value for key, value in now.items() if key not in before or before[key] != value}
            assert message["view"] == changed
            assert changed or message["log"] or message["acked"] is not None or len(message) > 0
            if client.seat is not None:
                assert ("labels" in message) == ("legal" in message["view"]), "labels come with new actions"
            before = now
        assert client.view == before and len(messages) > (50 if client.seat else 2)
    assert again["full"] and again["view"] == seen_after(saved.info.setup, saved.decisions, "Bob")[-1], (
        "a new connection sees it all"
    )


def test_a_client_that_leaves_while_refused_costs_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """A refusal to a client whose connection the sending task already found closed."""
    hub = SimpleNamespace(config=FAST, entry=lambda code: entry, seat=lambda entry, token: 0, room=_no_room)
    hub.lookups = SimpleNamespace(take=lambda address: True)
    table = SimpleNamespace(code="ABCDEF", seats=[], public=dict)
    entry = SimpleNamespace(table=table, watchers=set(), room=None, spectators=Counter())
    hub.attach = _no_room
    hub.detach = lambda *args: None

    class Gone:
        """A socket whose client left once it was greeted."""

        app = SimpleNamespace(state=SimpleNamespace(hub=hub))
        client = None
        client_state = WebSocketState.CONNECTED
        received = iter([{"type": "websocket.receive", "text": json.dumps({"type": "hello"})}] * 2)

        async def accept(self) -> None: ...

        async def receive(self) -> dict[str, Any]:
            return next(self.received)

        async def send_text(self, text: str) -> None:
            if '"welcome"' not in text:
                raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')

    run(game_socket(Gone(), "ABCDEF"))  # type: ignore[arg-type]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@dataclass(eq=False)
class Watching:
    """A listener to a room that keeps what it is told."""

    seat: str | None
    lines: list[str] = field(default_factory=list)

    def game_changed(self, lines: list[str]) -> None:
        self.lines += lines


async def _no_room(*_args: Any) -> None:
    return None
