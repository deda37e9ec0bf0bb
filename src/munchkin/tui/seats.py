"""Seats of a terminal game, as written on the command line or the new-game screen:
`human:NAME[:SEX]`, or a bot, `bot:KIND` (a level, `bot:easy`, `bot:medium`, `bot:hard`, or
`bot:random`, `bot:heuristic`, `bot:search`), in turn order."""

from __future__ import annotations

from munchkin.bots.registry import SEAT_PREFIX, seat_kind
from munchkin.match import NAMES, SEXES
from munchkin.session import BOT_KINDS, HUMAN, Seat

SEX_CHOICES = ("female", "male")
MAX_BOTS = len(NAMES) - 1
SEAT_HINT = f"{HUMAN}:NAME[:SEX] (SEX: {' or '.join(SEX_CHOICES)}), {', '.join(BOT_KINDS)}"
"""Every kind of seat, as the new-game screen lists them."""


class SeatError(ValueError):
    """A --players list that does not describe a table."""


def parse_seats(players: str, name: str, sex: str, bots: int | str) -> list[Seat]:
    """The seats in turn order: from `--players` (`human:NAME[:SEX]`, `bot:KIND`), else one
    human and the `bots` (see `bot_seats`). Bots take the default names the humans left free."""
    if sex not in SEX_CHOICES:
        raise SeatError(f"--sex {sex}: a character is {' or '.join(SEX_CHOICES)}")
    specs = [p.strip() for p in players.split(",") if p.strip()] or [
        f"{HUMAN}:{name}:{sex}",
        *bot_seats(bots),
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


def bot_seats(bots: int | str) -> list[str]:
    """`--bots`: a number of heuristic bots (`3`), or their kinds, comma separated
    (`hard,medium`, `bot:hard,easy`)."""
    text = str(bots).strip()
    if text.isdigit():
        if not 1 <= int(text) <= MAX_BOTS:
            raise SeatError(f"--bots {text}: 1 to {MAX_BOTS} bots")
        return [seat_kind("heuristic")] * int(text)
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    if not kinds:
        raise SeatError(f"--bots {text!r}: a number of bots, or their kinds ({', '.join(BOT_KINDS)})")
    return [k if k.startswith(SEAT_PREFIX) else seat_kind(k) for k in kinds]


def _human(spec: str, sex: str) -> Seat:
    """`human:NAME` (of the --sex given) or `human:NAME:SEX`."""
    _, name, *rest = spec.split(":")
    their_sex = rest[0] if rest else sex
    if not name or len(rest) > 1 or their_sex not in SEX_CHOICES:
        raise SeatError(f"seat '{spec}': write {HUMAN}:NAME or {HUMAN}:NAME:SEX ({' or '.join(SEX_CHOICES)})")
    return Seat(name, their_sex, HUMAN)
