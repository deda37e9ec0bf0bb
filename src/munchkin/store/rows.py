"""Records in the tables' columns and back: lists and mappings as JSON text, every value read
checked, so that a damaged row is a `StoreError` naming the game and the decision."""

from __future__ import annotations

import json
from datetime import UTC
from typing import Any

from munchkin.engine.actions import ActionFormatError, action_from_dict, action_to_dict
from munchkin.engine.options import OptionsError, TableOptions, parse_options
from munchkin.store.errors import READS, StoreError, one_line
from munchkin.store.models import (
    FORMAT_VERSION,
    PLAYING,
    WON,
    Decision,
    DecisionRow,
    GameInfo,
    GameRow,
    Progress,
    Seat,
    Setup,
    is_integer,
    seats_problem,
    valid_seed,
)

# ------------------------------------------------------------------ writing


def game_row(setup: Setup, progress: Progress) -> dict[str, Any]:
    """The columns of a new game with no decisions yet."""
    return {
        "format_version": setup.format_version,
        "created": setup.created,
        "sets": json.dumps(list(setup.sets)),
        "seed": setup.seed,
        "seats": json.dumps([vars(seat) for seat in setup.seats]),
        "options": json.dumps(setup.options.changed()),
        "decisions": 0,
        **progress_row(progress),
    }


def progress_row(progress: Progress) -> dict[str, Any]:
    """The game row's columns of how a game stands (the winners as a JSON list)."""
    return {
        "status": progress.status,
        "winners": json.dumps(list(progress.winners)),
        "turn": progress.turn,
        "fingerprint": progress.fingerprint,
    }


def decision_row(game_id: int, number: int, decision: Decision) -> dict[str, Any]:
    """The columns of decision `number` (from 1) of a game."""
    return {
        "game_id": game_id,
        "number": number,
        "player": decision.player,
        "action": json.dumps(action_to_dict(decision.action)),
        "fingerprint": decision.fingerprint,
    }


# ------------------------------------------------------------------ reading


def read_game(row: GameRow, name: str) -> GameInfo:
    """A game row of the database `name`, every column checked: a bad value is a `StoreError`
    naming the game and the column."""
    where = f"{name}: game {row.id}"
    setup = _setup(row, where)
    names = {seat.name for seat in setup.seats}
    progress = Progress(
        _status(row.status, where),
        _winners(row.winners, names, where),
        _count(row.turn, where, "turn"),
        row.fingerprint,
    )
    return GameInfo(row.id, setup, progress, _count(row.decisions, where, "decisions"))


def _setup(row: GameRow, where: str) -> Setup:
    """The setup columns of the game row `where`, checked."""
    version = row.format_version
    if not is_integer(version):
        raise StoreError(f"{where}: format_version: expected an integer, got {version!r:.80}")
    if version > FORMAT_VERSION:
        raise StoreError(f"{where}: saved by a newer version (format {version}, {READS})")
    if not valid_seed(row.seed):
        raise StoreError(f"{where}: seed: expected a 64-bit integer, got {row.seed!r:.80}")
    created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
    seats = _seats(row.seats, where)
    return Setup(_sets(row.sets, where), row.seed, seats, created, version, _options(row.options, where))


def read_decision(row: DecisionRow, number: int, names: set[str], where: str) -> Decision:
    """Decision `number` of the game `where`, made by one of `names`, checked for form."""
    here = f"{where}, decision {number}"
    if row.number != number:
        raise StoreError(f"{here}: missing (the next saved is {row.number})")
    if row.player not in names:
        raise StoreError(f"{here}: unknown player {row.player!r}")
    try:
        action = action_from_dict(_json(row.action, f"{here}: action"))
    except ActionFormatError as exc:
        raise StoreError(f"{here}: {exc}") from None
    return Decision(row.player, action, row.fingerprint)


def _sets(text: str, where: str) -> tuple[str, ...]:
    data = _json(text, f"{where}: sets")
    if not isinstance(data, list) or not all(isinstance(s, str) for s in data):
        raise StoreError(f"{where}: sets: expected a list of card set names")
    return tuple(data)


def _seats(text: str, where: str) -> tuple[Seat, ...]:
    data = _json(text, f"{where}: seats")
    keys = {"name", "sex", "kind"}
    if not isinstance(data, list) or not all(
        isinstance(s, dict) and set(s) == keys and all(isinstance(v, str) for v in s.values()) for s in data
    ):
        raise StoreError(f"{where}: seats: expected a list of {{name, sex, kind}}")
    seats = tuple(Seat(**seat) for seat in data)
    problem = seats_problem(seats)
    if problem is not None:
        raise StoreError(f"{where}: seats: {problem}")
    return seats


def _options(text: str, where: str) -> TableOptions:
    """The saved table options (only those not at their defaults are saved)."""
    try:
        return parse_options(_json(text, f"{where}: options"), f"{where}: options")
    except OptionsError as exc:
        raise StoreError(str(exc)) from None


def _status(value: object, where: str) -> str:
    """The game row's status: `PLAYING` or `WON`."""
    if value not in (PLAYING, WON):
        raise StoreError(f"{where}: status: expected {PLAYING!r} or {WON!r}, got {value!r:.80}")
    return str(value)


def _count(value: object, where: str, column: str) -> int:
    """The value of a column counting something (turns, decisions): an integer, 0 or more."""
    if not is_integer(value) or value < 0:
        raise StoreError(f"{where}: {column}: expected a whole number, got {value!r:.80}")
    return value


def _winners(text: str, names: set[str], where: str) -> tuple[str, ...]:
    data = _json(text, f"{where}: winners")
    if not isinstance(data, list) or not all(isinstance(w, str) and w in names for w in data):
        raise StoreError(f"{where}: winners: expected a list of the game's players")
    return tuple(data)


def _json(text: str, where: str) -> object:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise StoreError(f"{where}: bad JSON ({one_line(exc)})") from None
    except RecursionError:
        raise StoreError(f"{where}: bad JSON (nested too deep)") from None
