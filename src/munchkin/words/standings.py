"""The end of a game in words: who won and how, the standings table, and the one-line
summaries of a game (its winners, the table options it was played with)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from munchkin.words.names import namer


def how_won(events: Sequence[Any], names: Mapping[str, str]) -> list[str]:
    """How each winner reached the winning level, from the game's events: "Ann reached
    level 10 on turn 31 by killing Tollbooth Troll, helped by Bob." (B2)"""
    n, out = namer(names), []
    for index, event in enumerate(events):
        if event.kind != "game_won":
            continue
        player, level, source = event.data["player"], None, None
        monsters: list[str] = []
        fighter = helper = None
        turn = None
        for back in reversed(events[:index]):
            d = back.data
            if back.kind == "level_up" and d["player"] == player and level is None:
                level, source = d["level"], d["source"]
            elif back.kind == "combat_resolved" and fighter is None:
                fighter = d["player"]
            elif back.kind == "monster_entered":
                monsters.insert(0, n(d["card"]))
            elif back.kind == "help_accepted" and helper is None:
                helper = d["player"]
            elif back.kind == "turn_started":
                turn = d["turn"]
                break
        killed = " and ".join(dict.fromkeys(monsters)) or "the monsters"
        when = f" on turn {turn}" if turn is not None else ""
        if source == "elf helper" and fighter:
            out.append(f"{player} reached level {level}{when} helping {fighter} kill {killed}, as an Elf.")
        else:
            helped = f", helped by {helper}" if helper and helper != player else ""
            out.append(f"{player} reached level {level}{when} by killing {killed}{helped}.")
    return out


def standings(data: Mapping[str, Any], events: Sequence[Any], names: Mapping[str, str]) -> dict[str, Any]:
    """The end of a game as a table: each player's place, level, race and class, fights won
    and deaths (winners first, then by level), the turns played, and how the winners won."""
    winners = list(data["winners"])
    fights: dict[str, int] = {}
    deaths: dict[str, int] = {}
    for event in events:
        if event.kind == "combat_resolved" and event.data["won"]:
            fights[event.data["player"]] = fights.get(event.data["player"], 0) + 1
        elif event.kind == "died":
            deaths[event.data["player"]] = deaths.get(event.data["player"], 0) + 1
    tables = sorted(data["players"], key=lambda t: (t["name"] not in winners, -t["level"]))
    rows, place, last = [], 0, None
    for number, table in enumerate(tables, 1):
        key = (table["name"] in winners, table["level"])
        if key != last:
            place, last = number, key
        traits = [c["name"] for c in table["races"] + table["classes"]]
        rows.append(
            {
                "place": place,
                "name": table["name"],
                "level": table["level"],
                "won": table["name"] in winners,
                "traits": ", ".join(traits) or "Human, no class",
                "fights_won": fights.get(table["name"], 0),
                "deaths": deaths.get(table["name"], 0),
            }
        )
    return {
        "winners": winners,
        "title": f"Game over: {winners_text(winners)}.",
        "turns": data["turn"],
        "how": how_won(events, names),
        "rows": rows,
    }


def standings_lines(end: Mapping[str, Any]) -> list[str]:
    """The standings as lines of text (the terminal's end screen), in columns as wide as
    their longest entry."""
    lines = [end["title"], f"{end['turns']} turns played.", *end["how"], ""]
    rows = end["rows"]
    name = max((len(row["name"]) for row in rows), default=0)
    traits = max((len(row["traits"]) for row in rows), default=0)
    for row in rows:
        mark = "winner" if row["won"] else f"#{row['place']}"
        lines.append(
            f"{mark:>6}  {row['name']:<{name}}  level {row['level']:>2}  {row['traits']:<{traits}}  "
            f"fights won {row['fights_won']}, deaths {row['deaths']}"
        )
    return lines


def winners_text(winners: Sequence[str]) -> str:
    """`Ann wins`, or `Ann and Bob win` when one fight took several to the win level (B2)."""
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return f"{', '.join(winners[:-1])} and {winners[-1]} win together"


def winners_line(winners: Sequence[str]) -> str:
    """`Winner: Ann`, `Winners: Ann and Bob (together)` (B2), or `Winner: nobody`, for the
    one-line summaries of the command line."""
    if len(winners) > 1:
        return f"Winners: {', '.join(winners[:-1])} and {winners[-1]} (together)"
    return f"Winner: {winners[0] if winners else 'nobody'}"


def options_text(changed: Mapping[str, Any]) -> str:
    """The table options that differ from the rules' defaults, as `NAME=VALUE` words (the
    way `--option` takes them), or "standard rules"."""
    if not changed:
        return "standard rules"
    words = (
        f"{name}={str(value).lower() if isinstance(value, bool) else value}"
        for name, value in changed.items()
    )
    return "options " + ", ".join(words)
