"""What the server builds once and shares (issue 15): the views of one moment, and the JSON
of the values several connections are sent. Shared or not, every player sees the same."""

from __future__ import annotations

import json
from typing import Any

from munchkin.bots.random_bot import RandomBot
from munchkin.session import HUMAN, Seat, Session
from munchkin.views import public_part, view
from munchkin.web.protocol import Fragments, encode

NAMES = ("Ann", "Bob", "Cid", "Dee")


def played(seed: int, decisions: int) -> list[tuple[Session, str]]:
    """A game of four humans played at random: after each decision, the session and who decided
    (the session moves on: read it at once)."""
    session = Session.start([Seat(name, "male", HUMAN) for name in NAMES], ["base"], seed)
    bot = RandomBot(seed)
    out = []
    while not session.over and session.decision_count < decisions:
        player = session.waiting_humans()[0]
        session.apply(player, bot.pick(player, session.view(player).legal))
        out.append((session, player))
    return out


def test_the_views_of_one_moment_share_their_public_part_and_are_as_if_built_alone() -> None:
    before: dict[str, Any] | None = None
    for session, _ in played(5, 300):
        game = session._run.game
        views = {name: session.view(name).data for name in NAMES}
        for name, data in views.items():
            assert data == view(game, name).data
            assert list(data) == list(view(game, name).data)  # the keys in the same order
        first = views[NAMES[0]]
        for key in public_part(game):
            assert all(views[name][key] is first[key] for name in NAMES), key
        if before is not None:  # unchanged values are the objects of the moment before
            assert all(first[k] is before[k] for k in public_part(game) if first[k] == before[k])
        before = first


def test_fragments_encode_game_messages_exactly_as_json_does() -> None:
    fragments = Fragments(kept=7)  # forgotten often, to be encoded again
    sent: dict[str, dict[str, Any]] = {name: {} for name in NAMES}
    for session, _ in played(9, 120):
        for name in NAMES:
            data = session.view(name).data
            changed = {k: v for k, v in data.items() if sent[name].get(k) != v}
            sent[name] = data
            message = {
                "type": "game",
                "seq": 1,
                "advice": {"why_not": {}, "warnings": {}, "combat": None},
                "labels": ["Pass", "Kick open the door"],
                "full": False,
                "view": changed,
                "log": ["Ann passes."],
            }
            text = fragments.message(message)
            assert text == encode(message) == json.dumps(message, separators=(",", ":"))
            assert fragments.message(message) == text  # the second time from what was kept
