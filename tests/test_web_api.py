"""The lobby over HTTP: creating, joining, getting ready and starting games; refusals; what
is kept in the database; the page and the `serve` command."""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from typer.testing import CliRunner, Result

from munchkin.store import Store, StoreError
from munchkin.web.app import create_app
from munchkin.web.cli import register
from munchkin.web.config import WebConfig

DATA = Path(__file__).parent / "data" / "saves"


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(WebConfig(db_url=db, response_seconds=0, seed=5))) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"name": "Ann", **body})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_creating_a_game_gives_the_first_seat_and_a_secret_token(client: TestClient) -> None:
    ann = create(client, seats=3, bots=["bot:heuristic"], sets=["base", "horses"], response_seconds=7)
    assert ann["seat"] == 0 and ann["player"] == "Ann" and len(ann["code"]) == 6
    assert len(ann["token"]) >= 43, "at least 256 bits of randomness, URL-safe"
    table = client.get(f"/api/games/{ann['code'].lower()}").json()
    assert table == {
        "code": ann["code"],
        "sets": ["base", "horses"],
        "response_seconds": 7,
        "options": {},
        "status": "open",
        "seats": [
            {"kind": "human", "name": "Ann", "sex": "female", "ready": False, "taken": True},
            {"kind": "human", "name": None, "sex": "female", "ready": False, "taken": False},
            {"kind": "bot:heuristic", "name": None, "sex": "female", "ready": False, "taken": False},
        ],
    }


def test_join_ready_and_start(client: TestClient) -> None:
    ann = create(client, seats=3, bots=["bot:random"])
    code = ann["code"]
    bob = client.post(f"/api/games/{code}/join", json={"name": " Bob ", "sex": "male"}).json()
    assert (bob["seat"], bob["player"]) == (1, "Bob") and bob["token"] != ann["token"]
    refusals = [
        (client.post(f"/api/games/{code}/join", json={"name": "Cid"}), 409, "every seat"),
        (client.post(f"/api/games/{code}/start", json={"token": ann["token"]}), 409, "not everyone is ready"),
        (client.post(f"/api/games/{code}/start", json={"token": bob["token"]}), 409, "only the player who"),
        (client.post(f"/api/games/{code}/ready", json={"token": "z" * 43}), 403, "holds no seat"),
    ]
    for response, status, words in refusals:
        assert response.status_code == status and words in response.json()["error"]
    for seat in (ann, bob):
        assert client.post(f"/api/games/{code}/ready", json={"token": seat["token"]}).status_code == 200
    started = client.post(f"/api/games/{code}/start", json={"token": ann["token"]})
    assert started.status_code == 200 and started.json()["status"] == "playing"
    assert started.json()["seats"][2]["name"] == "Cid", "the bot got a name the humans left free"
    late = client.post(f"/api/games/{code}/join", json={"name": "Dee"})
    assert late.status_code == 409 and "already started" in late.json()["error"]


def test_a_name_is_taken_once_per_table(client: TestClient) -> None:
    ann = create(client, seats=3)
    again = client.post(f"/api/games/{ann['code']}/join", json={"name": "ann"})
    assert again.status_code == 409 and "taken" in again.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "<b>Ann</b>"}, "name: 1 to 24 letters"),
        ({"name": ""}, "name: 1 to 24 letters"),
        ({"name": "A" * 25}, "name: 1 to 24 letters"),
        ({"name": "Ann", "sex": "robot"}, "sex"),
        ({"name": "Ann", "sets": ["horses"]}, "add the base set"),
        ({"name": "Ann", "sets": ["base", "base"]}, "distinct sets"),
        ({"name": "Ann", "sets": ["pirates"]}, "distinct sets among base, horses"),
        ({"name": "Ann", "seats": 7}, "seats"),
        ({"name": "Ann", "seats": 2, "bots": ["bot:random", "bot:random"]}, "at least one human"),
        ({"name": "Ann", "bots": ["bot:genius"]}, "bots.0"),
        ({"name": "Ann", "response_seconds": -1}, "response_seconds"),
        ({"name": "Ann", "admin": True}, "admin"),
        ({"name": "Ann", "options": {"win_level": 1}}, "options: 'win_level': Input should be greater"),
        ({"name": "Ann", "options": {"winlevel": 5}}, "options: 'winlevel': unknown option"),
        ({"name": "Ann", "options": {"loot_ties": "coin"}}, "options: 'loot_ties'"),
        ({"name": "Ann", "options": ["win_level"]}, "options: Input should be a valid dictionary"),
    ],
)
def test_bad_games_are_refused_in_one_line(client: TestClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert words in response.json()["error"] and "\n" not in response.json()["error"]


def test_bad_requests_are_refused_before_they_are_read(client: TestClient) -> None:
    big = client.post("/api/games", content=b'{"name": "' + b"a" * 5000 + b'"}')
    assert big.status_code == 413
    unsized = client.post("/api/games", content=iter([b'{"name": "Ann"}']))
    assert unsized.status_code == 411
    garbage = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert garbage.status_code == 422 and garbage.json()["error"] == "the body is not valid JSON"
    assert client.get("/api/games/ZZZZZZ").status_code == 404
    assert client.get("/api/games/bad!code").status_code == 422
    assert client.get("/api/cards", params={"sets": "pirates"}).status_code == 404


def test_lobby_requests_are_rate_limited(db: str) -> None:
    config = WebConfig(db_url=db, requests_per_second=0.01, request_burst=3)
    with TestClient(create_app(config)) as client:
        answers = [client.post("/api/games", json={"name": "Ann"}).status_code for _ in range(5)]
        assert answers == [201, 201, 201, 429, 429]
        assert client.get("/api/games/ZZZZZZ").status_code == 404, "reading is not limited"


def test_only_hashes_of_tokens_are_kept_and_tables_survive_a_restart(db: str) -> None:
    config = WebConfig(db_url=db)
    with TestClient(create_app(config)) as client:
        ann = create(client, seats=2)
        bob = client.post(f"/api/games/{ann['code']}/join", json={"name": "Bob"}).json()
    raw = b"".join(path.read_bytes() for path in Path(db).parent.glob("games.sqlite3*"))
    assert ann["token"].encode() not in raw and bob["token"].encode() not in raw
    with sqlite3.connect(db) as conn:
        kept = {row[0] for row in conn.execute("SELECT token_hash FROM munchkin_web_seats")}
    assert kept == {hashlib.sha256(seat["token"].encode()).hexdigest() for seat in (ann, bob)}
    with TestClient(create_app(config)) as client:
        assert client.get(f"/api/games/{ann['code']}").json()["seats"][1]["name"] == "Bob"
        ready = client.post(f"/api/games/{ann['code']}/ready", json={"token": bob["token"]})
        assert ready.status_code == 200, "the token still holds its seat after a restart"


def test_a_started_game_is_saved_in_the_store(client: TestClient, db: str) -> None:
    ann = create(client, seats=2, bots=["bot:random"])
    client.post(f"/api/games/{ann['code']}/ready", json={"token": ann["token"]})
    client.post(f"/api/games/{ann['code']}/start", json={"token": ann["token"]})
    with Store(db) as store:
        (game,) = store.games()
    assert [(s.name, s.kind) for s in game.setup.seats] == [("Ann", "human"), ("Bob", "bot:random")]
    assert game.setup.seed == 5


def test_table_options_are_chosen_kept_and_played_by(client: TestClient, db: str) -> None:
    """The creator's options: on the lobby table, through a restart of the lobby, and in
    the saved game's setup, so a replay plays by them (B1, B2)."""
    chosen = {"win_level": 5, "door_cards": 3, "treasure_cards": 2, "halfling_reroll": False}
    ann = create(client, seats=2, bots=["bot:random"], options=chosen)
    assert client.get(f"/api/games/{ann['code']}").json()["options"] == chosen
    client.post(f"/api/games/{ann['code']}/ready", json={"token": ann["token"]})
    client.post(f"/api/games/{ann['code']}/start", json={"token": ann["token"]})
    with Store(db) as store:
        (game,) = store.games()
    assert game.setup.options.changed() == chosen
    with TestClient(create_app(WebConfig(db_url=db))) as again:
        assert again.get(f"/api/games/{ann['code']}").json()["options"] == chosen


def test_the_table_options_are_offered_with_their_descriptions(client: TestClient) -> None:
    offered = {o["name"]: o for o in client.get("/api/options").json()["table_options"]}
    assert list(offered)[:3] == ["win_level", "door_cards", "treasure_cards"]
    assert offered["win_level"] == {
        "name": "win_level",
        "description": "The level that wins the game (B2).",
        "default": 10,
        "type": "integer",
        "minimum": 2,
        "maximum": 20,
    }
    assert (
        offered["loot_ties"]["choices"] == ["dice", "seat"]
        and offered["halfling_reroll"]["type"] == "boolean"
    )
    assert all(o["description"] for o in offered.values())


def test_the_create_form_asks_for_the_main_table_options(client: TestClient) -> None:
    page = client.get("/").text
    for name in ("win_level", "door_cards", "treasure_cards"):
        assert f'name="option:{name}"' in page


def test_a_database_failure_is_a_clear_refusal(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_table: object) -> None:
        raise StoreError("games.sqlite3: disk I/O error")

    monkeypatch.setattr(client.app.state.hub.db, "save", broken)  # type: ignore[attr-defined]
    response = client.post("/api/games", json={"name": "Ann"})
    assert response.status_code == 503 and "cannot save games" in response.json()["error"]


def test_the_client_and_the_card_data_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<main" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("app.js", "table.js", "cards.js", "dom.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    cards = client.get("/api/cards", params={"sets": "base,horses"}).json()
    troll = next(card for card in cards if card["type"] == "monster")
    assert {"id", "name", "type", "level", "treasures", "deck"} <= set(troll)
    assert client.get("/api/options").json()["sets"] == ["base", "horses"]


def serve(*args: str) -> Result:
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # two commands, so that `serve` is named on the command line
    return CliRunner().invoke(app, ["serve", *args])


def test_serve_refuses_a_database_it_cannot_use_in_one_line() -> None:
    result = serve("--db", str(DATA / "not_sqlite.sqlite3"))
    assert result.exit_code == 2
    assert result.output.strip().startswith("error: ") and "not an SQLite database" in result.output


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "munchkin.web.server", raising=False)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = serve()
    assert result.exit_code == 2 and "pip install -e '.[web]'" in result.output


def test_the_host_closes_a_game_before_the_start(tmp_path: Path) -> None:
    """A play-tester's abandoned lobbies counted against their bot games until they expired."""
    config = WebConfig(db_url=str(tmp_path / "g.sqlite3"), response_seconds=0, max_bot_games_per_address=1)
    with TestClient(create_app(config)) as client:
        ann = create(client, seats=2, bots=["bot:random"])
        code = ann["code"]
        refused = client.post("/api/games", json={"name": "Ann", "seats": 2, "bots": ["bot:random"]})
        assert refused.status_code == 429
        bob = client.post(f"/api/games/{code}/join", json={"name": "Bob"})
        assert bob.status_code == 409  # the one human seat is Ann's
        not_host = client.post(f"/api/games/{code}/close", json={"token": "z" * 43})
        assert not_host.status_code == 403 and "holds no seat" in not_host.json()["error"]
        closed = client.post(f"/api/games/{code.lower()}/close", json={"token": ann["token"]})
        assert closed.status_code == 200 and closed.json() == {"code": code, "closed": True}
        assert client.get(f"/api/games/{code}").status_code == 404
        again = client.post(f"/api/games/{code}/close", json={"token": ann["token"]})
        assert again.status_code == 404
        assert create(client, seats=2, bots=["bot:random"])["seat"] == 0, "the limit counts it no more"
    with Store(str(tmp_path / "g.sqlite3")) as store:
        assert store.games() == [], "nothing was saved for the closed table"


def test_only_the_host_closes_and_only_before_the_start(client: TestClient) -> None:
    ann = create(client, seats=2)
    code = ann["code"]
    bob = client.post(f"/api/games/{code}/join", json={"name": "Bob"}).json()
    refused = client.post(f"/api/games/{code}/close", json={"token": bob["token"]})
    assert refused.status_code == 403 and "only the player who created the game" in refused.json()["error"]
    for seat in (ann, bob):
        client.post(f"/api/games/{code}/ready", json={"token": seat["token"]})
    assert client.post(f"/api/games/{code}/start", json={"token": ann["token"]}).status_code == 200
    started = client.post(f"/api/games/{code}/close", json={"token": ann["token"]})
    assert started.status_code == 409 and "already started" in started.json()["error"]
