"""Statistics of simulated games: a small dict per game, collected where the game is played,
and their aggregation into the report's figures.

A per-game record holds plain data only (it crosses process and machine boundaries):
`turns`, `decisions`, `winners` (seats: several when one fight took them to the win level
together, B2; none for a game abandoned), `bots` (kind by seat), `levels` (every seat's
level when each turn started), `plays` (card id -> times played by each seat), `monsters`
(card id -> fought, killed, escaped, caught, kills) and `hirelings_steeds` (counters).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.engine.rules.character import is_race
from munchkin.match import MatchResult

Record = dict[str, Any]
Z95 = 1.959963984540054
MONSTER_FIGURES = ("fought", "killed", "escaped", "caught", "kills")
HIRELING_STEED_FIGURES = (
    "hirelings_played",
    "hirelings_sacrificed",
    "hirelings_killed",
    "hirelings_turned",
    "steeds_played",
    "steeds_fought",
    "steed_fights_won",
    "steed_fights_lost",
    "centaurs_with_two_steeds",
)
CURVE_MIN_SHARE = 0.1
"""Level curves stop at the last turn that at least this share of the games reached."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # p inside despite rounding


def rate(successes: int, trials: int) -> dict[str, Any]:
    """A proportion with its counts and Wilson 95% interval."""
    low, high = wilson(successes, trials)
    return {
        "wins": successes,
        "games": trials,
        "rate": successes / trials if trials else 0.0,
        "ci95": [low, high],
    }


# -- one game ------------------------------------------------------------------------


class GameRecorder:
    """Follows one game through `play_match`'s `on_event` and `after_decision` hooks."""

    def __init__(self, cards: Sequence[CardDef], names: Sequence[str]) -> None:
        self.types = {card.id: card.type for card in cards}
        self.seats = {name: seat for seat, name in enumerate(names)}
        self.plays: dict[str, list[int]] = {}
        self.monsters: dict[str, Counter[str]] = {}
        self.counts: Counter[str] = Counter()
        self.fight: list[str] = []  # ids of the monsters in the fight on now
        self.levels: list[list[int]] = []
        self.centaurs: set[int] = set()

    def on_event(self, event: Event) -> None:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event.data)

    def after_decision(self, game: Game, player: str, action: Action) -> None:
        """Steeds fought (S9), the levels at each new turn, Centaurs riding two steeds (S2)."""
        g = game.state
        if action.verb == "monstrify":
            self.counts["steeds_fought"] += 1
        while len(self.levels) < g.turn:
            self.levels.append([p.level for p in g.players])
        for seat, p in enumerate(g.players):
            if len(p.steeds) >= 2 and is_race(g, p, "centaur"):
                self.centaurs.add(seat)

    def record(self, result: MatchResult, bots: Sequence[str]) -> Record:
        """The game as a small dict of plain data."""
        counts = {name: self.counts[name] for name in HIRELING_STEED_FIGURES}
        counts["centaurs_with_two_steeds"] = len(self.centaurs)
        return {
            "turns": result.turns,
            "decisions": len(result.decisions),
            "winners": [self.seats[name] for name in result.winners],
            "bots": list(bots),
            "levels": self.levels,
            "plays": self.plays,
            "monsters": {card: [c[f] for f in MONSTER_FIGURES] for card, c in self.monsters.items()},
            "hirelings_steeds": counts,
        }

    # -- event handlers --

    def _monster(self, card: str) -> Counter[str]:
        return self.monsters.setdefault(card, Counter())

    def _played(self, data: dict[str, Any]) -> None:
        card = data["card"]
        self.plays.setdefault(card, [0] * len(self.seats))[self.seats[data["player"]]] += 1
        if self.types[card] in ("hireling", "steed"):
            self.counts[f"{self.types[card]}s_played"] += 1

    def _entered(self, data: dict[str, Any]) -> None:
        self.fight.append(data["card"])
        self._monster(data["card"])["fought"] += 1

    def _left(self, data: dict[str, Any]) -> None:
        """A monster left the fight without being killed (charmed, sent away: B7, B14)."""
        if data["card"] in self.fight:
            self.fight.remove(data["card"])

    def _resolved(self, data: dict[str, Any]) -> None:
        if data["won"]:
            for card in self.fight:
                self._monster(card)["killed"] += 1
        if any(self.types[card] == "steed" for card in self.fight):
            self.counts["steed_fights_won" if data["won"] else "steed_fights_lost"] += 1

    def _over(self, data: dict[str, Any]) -> None:
        self.fight.clear()

    def _escaped(self, data: dict[str, Any]) -> None:
        if data["card"] is not None:  # None: the helper escapes with a sacrifice (H4)
            self._monster(data["card"])["escaped"] += 1

    def _caught(self, data: dict[str, Any]) -> None:
        self._monster(data["card"])["caught"] += 1

    def _died(self, data: dict[str, Any]) -> None:
        if self.types.get(data["source"]) == "monster":
            self._monster(data["source"])["kills"] += 1


Handler = Callable[[GameRecorder, dict[str, Any]], None]


def _count(name: str) -> Handler:
    def count(recorder: GameRecorder, data: dict[str, Any]) -> None:
        recorder.counts[name] += 1

    return count


_HANDLERS: dict[str, Handler] = {
    "card_played": GameRecorder._played,
    "monster_entered": GameRecorder._entered,
    "monster_left": GameRecorder._left,
    "combat_resolved": GameRecorder._resolved,
    "combat_over": GameRecorder._over,
    "escaped": GameRecorder._escaped,
    "caught": GameRecorder._caught,
    "died": GameRecorder._died,
    "hireling_sacrificed": _count("hirelings_sacrificed"),
    "hireling_killed": _count("hirelings_killed"),
    "hireling_turned": _count("hirelings_turned"),
}


# -- many games ----------------------------------------------------------------------


def aggregate(records: Sequence[Record], cards: Sequence[CardDef], players: int) -> dict[str, Any]:
    """The report's figures from the per-game records, in their order."""
    return {
        "games": len(records),
        "finished": sum(1 for r in records if r["winners"]),
        "shared_wins": sum(1 for r in records if len(r["winners"]) > 1),
        "win_rate_by_seat": win_rate_by_seat(records, players),
        "win_rate_by_bot": win_rate_by_bot(records),
        "length": {key: summary(r[key] for r in records) for key in ("turns", "decisions")},
        "level_curves": level_curves(records),
        "cards": card_table(records, cards),
        "monsters": monster_table(records, cards),
        "hirelings_steeds": {
            name: sum(r["hirelings_steeds"][name] for r in records) for name in HIRELING_STEED_FIGURES
        },
    }


def win_rate_by_seat(records: Sequence[Record], players: int) -> list[dict[str, Any]]:
    """Each seat's wins among all games; a shared win is a win for each of its winners (B2),
    so the rates may add up to more than 1; an unfinished game is a loss for every seat."""
    return [
        {"seat": seat, **rate(sum(1 for r in records if seat in r["winners"]), len(records))}
        for seat in range(players)
    ]


def win_rate_by_bot(records: Sequence[Record]) -> dict[str, dict[str, Any]]:
    """Each bot kind's wins among the seats it held; a shared win counts for each winner."""
    seats: Counter[str] = Counter(kind for r in records for kind in r["bots"])
    wins: Counter[str] = Counter(r["bots"][seat] for r in records for seat in r["winners"])
    return {kind: rate(wins[kind], seats[kind]) for kind in sorted(seats)}


def summary(values: Iterable[int]) -> dict[str, Any]:
    """Mean, median, extremes and the values themselves (for histograms)."""
    data = list(values)
    return {
        "mean": statistics.fmean(data) if data else 0.0,
        "median": statistics.median(data) if data else 0,
        "min": min(data, default=0),
        "max": max(data, default=0),
        "values": data,
    }


def level_curves(records: Sequence[Record]) -> dict[str, list[float]]:
    """Mean level of each bot kind when each turn started, over the games still going then,
    up to the last turn that `CURVE_MIN_SHARE` of the games reached."""
    sums: dict[str, list[float]] = {}
    counts: dict[str, list[int]] = {}
    for r in records:
        for turn, levels in enumerate(r["levels"]):
            for kind, level in zip(r["bots"], levels, strict=True):
                kind_sums, kind_counts = sums.setdefault(kind, []), counts.setdefault(kind, [])
                if turn == len(kind_sums):
                    kind_sums.append(0.0)
                    kind_counts.append(0)
                kind_sums[turn] += level
                kind_counts[turn] += 1
    lengths = sorted((len(r["levels"]) for r in records), reverse=True)
    last = lengths[max(0, math.ceil(CURVE_MIN_SHARE * len(lengths)) - 1)] if lengths else 0
    return {
        kind: [s / n for s, n in zip(sums[kind][:last], counts[kind][:last], strict=True)]
        for kind in sorted(sums)
    }


def card_table(records: Sequence[Record], cards: Sequence[CardDef]) -> dict[str, dict[str, Any]]:
    """For every card: times played, and the win rate of the players who played it."""
    table = {}
    for card in cards:
        played = [(r, seat) for r in records for seat, n in enumerate(r["plays"].get(card.id, ())) if n]
        wins = sum(1 for r, seat in played if seat in r["winners"])
        table[card.id] = {
            "name": card.name,
            "type": card.type,
            "plays": sum(sum(r["plays"].get(card.id, ())) for r in records),
            "players": rate(wins, len(played)),
        }
    return table


def monster_table(records: Sequence[Record], cards: Sequence[CardDef]) -> dict[str, dict[str, Any]]:
    """For every monster (and steed fought as one): fought, killed, escaped, caught, and how
    many characters it killed."""
    table = {}
    for card in cards:
        if card.type not in ("monster", "steed"):
            continue
        zero = [0] * len(MONSTER_FIGURES)
        totals = [sum(col) for col in zip(*(r["monsters"].get(card.id, zero) for r in records), strict=True)]
        table[card.id] = {
            "name": card.name,
            "type": card.type,
            **dict(zip(MONSTER_FIGURES, totals or zero, strict=True)),
        }
    return table
