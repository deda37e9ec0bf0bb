"""What a saved game is: the tables (SQLAlchemy) and the plain records read from them.

A game is saved as its setup (format version, card sets, seed, seats, table options,
created time) and the ordered list of its decisions, each with a fingerprint of the
state after it; the game row also keeps how the game stands (status, winners, turn,
decision count, fingerprint after the last decision) so that listing needs no replay.
A fingerprint here is the SHA-256 of the engine's canonical `Game.fingerprint()`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeGuard, get_args

from sqlalchemy import BigInteger, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from munchkin.cards.schema import Sex
from munchkin.engine.actions import Action
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions

FORMAT_VERSION = 2
"""The save format this program writes, and the only one it reads. Format 2 added the table
options and several winners (issue 11); format 1 games followed older rules and do not
replay by these."""
NAME_LENGTH = 64
"""Longest player name a save holds."""
SEED_RANGE = range(-(2**63), 2**63)
"""The seeds a save holds (a 64-bit integer column)."""
SEXES = tuple(sorted(get_args(Sex)))
"""A player's sex, as the cards name it."""
PLAYING, WON = "playing", "won"
"""A game's status: still played, or won by one player or several."""


class Base(DeclarativeBase):
    """The munchkin tables; every name starts with `munchkin_`."""


class MetaRow(Base):
    """Facts about the database itself: `format_version`."""

    __tablename__ = "munchkin_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class GameRow(Base):
    """One game: its setup and how it stands after its last saved decision."""

    __tablename__ = "munchkin_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    format_version: Mapped[int]
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sets: Mapped[str] = mapped_column(Text)  # JSON list of card set names
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[str] = mapped_column(Text)  # JSON list of {name, sex, kind}
    options: Mapped[str] = mapped_column(Text)  # JSON of the table options not at their defaults
    status: Mapped[str] = mapped_column(String(16))
    winners: Mapped[str] = mapped_column(Text)  # JSON list of names: several win together (B2)
    turn: Mapped[int]
    decisions: Mapped[int]
    fingerprint: Mapped[str] = mapped_column(String(64))


class DecisionRow(Base):
    """One decision of a game, numbered from 1, with the state's fingerprint after it."""

    __tablename__ = "munchkin_decisions"

    game_id: Mapped[int] = mapped_column(ForeignKey(GameRow.id, ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    player: Mapped[str] = mapped_column(String(NAME_LENGTH))
    action: Mapped[str] = mapped_column(Text)  # JSON of `action_to_dict`
    fingerprint: Mapped[str] = mapped_column(String(64))


@dataclass(frozen=True)
class Seat:
    """A place at the table: who sits there and what decides for them (`human`, `bot:random`...)."""

    name: str
    sex: str
    kind: str = "human"


def seats_problem(seats: Sequence[Seat]) -> str | None:
    """What makes these seats unfit for a game, in one line (names must be unique, of 1 to
    `NAME_LENGTH` printable characters, sexes in `SEXES`); None if nothing."""
    names = [seat.name for seat in seats]
    unprintable = next((name for name in names if not name.isprintable()), None)
    if unprintable is not None:  # names are printed on terminals and in logs
        return f"a player's name is printable text, without control characters: {unprintable[:80]!r}"
    if len(set(names)) != len(names):
        return f"every seat needs its own name: {', '.join(names)}"
    bad_name = next((name for name in names if not 0 < len(name) <= NAME_LENGTH), None)
    if bad_name is not None:
        return f"a player's name has 1 to {NAME_LENGTH} characters: {bad_name[:80]!r}"
    bad_sex = next((seat for seat in seats if seat.sex not in SEXES), None)
    if bad_sex is not None:
        return f"seat {bad_sex.name}: sex {bad_sex.sex[:80]!r} ({' or '.join(SEXES)})"
    return None


def is_integer(value: object) -> TypeGuard[int]:
    """Whether a value read from a column is an integer (not a bool, not a float)."""
    return isinstance(value, int) and not isinstance(value, bool)


def valid_seed(seed: object) -> bool:
    """Whether `seed` is a game seed a save holds: an integer in `SEED_RANGE`."""
    return is_integer(seed) and seed in SEED_RANGE


@dataclass(frozen=True)
class Setup:
    """Everything a game starts from: card sets, seed, seats and the table's options."""

    sets: tuple[str, ...]
    seed: int
    seats: tuple[Seat, ...]
    created: datetime
    format_version: int = FORMAT_VERSION
    options: TableOptions = DEFAULT_OPTIONS


@dataclass(frozen=True)
class Progress:
    """How a game stands after a decision."""

    status: str  # PLAYING or WON
    winners: tuple[str, ...]  # several when one fight took them to the win level together (B2)
    turn: int
    fingerprint: str

    @property
    def winner(self) -> str | None:
        """The first winner, or None."""
        return self.winners[0] if self.winners else None


@dataclass(frozen=True)
class Decision:
    """One saved decision and the fingerprint of the state after it."""

    player: str
    action: Action
    fingerprint: str


@dataclass(frozen=True)
class GameInfo:
    """A saved game without its decisions: what `munchkin games` lists."""

    id: int
    setup: Setup
    progress: Progress
    decisions: int


@dataclass(frozen=True)
class SavedGame:
    """A saved game with its decisions, checked for form (not yet replayed)."""

    info: GameInfo
    decisions: tuple[Decision, ...]
    where: str
    """Names the game in messages: `games.sqlite3: game 3`."""
