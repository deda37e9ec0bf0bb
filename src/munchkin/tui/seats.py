"""Seats of a terminal game, as written on the command line or the new-game screen:
`human:NAME[:SEX]`, `bot:heuristic`, `bot:random`, in turn order."""

from __future__ import annotations

from munchkin.match import NAMES, SEXES
from munchkin.session import BOT_KINDS, HUMAN, Seat

SEX_CHOICES = ("female", "male")


class SeatError(ValueError):
    """A --players list that does not describe a table."""


def parse_seats(players: str, name: str, sex: str, bots: int) -> list[Seat]:
    """The seats in turn order: from `--players` (`human:NAME[:SEX]`, `bot:random`, `bot:heuristic`),
    else one human and `bots` heuristic bots. Bots take the default names the humans left free."""
    specs = [p.strip() for p in players.split(",") if p.strip()] or [
        f"{HUMAN}:{name}:{sex}",
        *["bot:heuristic"] * bots,
    ]
    if len(specs) > len(NAMES):
        raise SeatError(f"a game has at most {len(NAMES)} players (B1)")
    humans = {i: _human(spec, sex) for i, spec in enumerate(specs) if spec.startswith(f"{HUMAN}:")}
    taken = {seat.name for seat in humans.values()}
    free = iter([(n, s) for n, s in zip(NAMES, SEXES, strict=True) if n not in taken])
    seats = []
    for i, spec in enumerate(specs):
        if i not in humans and spec not in BOT_KINDS:
            raise SeatError(f"unknown seat '{spec}': use {HUMAN}:NAME or one of {', '.join(BOT_KINDS)}")
        seats.append(humans[i] if i in humans else Seat(*next(free), spec))
    return seats


def _human(spec: str, sex: str) -> Seat:
    """`human:NAME` (of the --sex given) or `human:NAME:SEX`."""
    _, name, *rest = spec.split(":")
    their_sex = rest[0] if rest else sex
    if not name or len(rest) > 1 or their_sex not in SEX_CHOICES:
        raise SeatError(f"seat '{spec}': write {HUMAN}:NAME or {HUMAN}:NAME:SEX ({' or '.join(SEX_CHOICES)})")
    return Seat(name, their_sex, HUMAN)
