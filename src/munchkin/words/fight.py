"""The fight in words: who is winning and by how much, each runner's escape chances, and a
breakdown of a strength one part a line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from munchkin.words.names import namer


def verdict(combat: Mapping[str, Any] | None, me: str | None) -> str:
    """Where the fight stands, for `me` (None: a spectator): "You are losing by 4 (5 more
    to win)." Ties go to the monsters unless a Warrior fights or helps (B6, B14)."""
    if combat is None:
        return ""
    margin, wins, helper = combat["margin"], combat["wins"], combat["helper"]
    if me is not None and me in (combat["fighter"], helper):
        who = "You are"
    else:
        who = f"{combat['fighter']} and {helper} are" if helper else f"{combat['fighter']} is"
    if wins:
        return (
            f"{who} winning by {margin}." if margin > 0 else f"{who} winning: tied, and a Warrior wins ties."
        )
    if margin == 0:
        return f"{who} losing: tied, and the monsters win ties (1 more to win)."
    return f"{who} losing by {-margin} ({1 - margin} more to win)."


def losing(advice: Mapping[str, Any] | None, me: str) -> bool:
    """Whether `me` fights, or helps, on the losing side of the fight now."""
    combat = (advice or {}).get("combat")
    if not combat:
        return False
    return me in (combat["fighter"], combat["helper"]) and not combat["wins"]


def escape_line(entry: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One runner's chance against one monster on one die (B9), with the modifier's parts if
    it has any: "Troll: 3 in 6 (a roll of 4 or more; run away 1 = 1 Elf (B14))"; "Troll: 2 in
    6 (a roll of 5 or more)". The browser's `escapeLine` (table.js) reads the same."""
    name = namer(names)(entry["monster"])
    if entry.get("automatic") == "escapes":
        return f"{name}: escaped at once, no roll"
    if entry.get("automatic") == "caught":
        return f"{name}: nobody escapes it by running"
    need = entry["needs"] - entry["modifier"]
    roll = (
        "every roll escapes" if need <= 1 else "even a 6 fails" if need > 6 else f"a roll of {need} or more"
    )
    parts = entry["explain"].partition(" = ")[2]
    return f"{name}: {entry['faces']} in 6 ({roll}{'' if parts in ('', '0') else '; ' + entry['explain']})"


def escape_lines(advice: Mapping[str, Any] | None, me: str | None, names: Mapping[str, str]) -> list[str]:
    """Each runner's escape chances, `me` first, as lines ("If you run: ...")."""
    combat = (advice or {}).get("combat")
    if not combat:
        return []
    runners = sorted(combat["run"], key=lambda name: name != me)
    out = []
    for runner in runners:
        who = "you" if runner == me else runner
        out.append(f"If {who} must run away, per monster:")
        out += [f"  {escape_line(entry, names)}" for entry in combat["run"][runner]]
    return out


DOUBLED = re.compile(r"\b([a-z]+) (?=(?i:\1)\b)")
"""A kind word said twice by a part of a breakdown: "curse Curse! Wet Noodle Arms"."""


def breakdown_lines(explain: str) -> list[str]:
    """A breakdown string ("munchkins 7 = 3 Ann's level (B6) + 4 ...") as one part a line, a
    kind word its card's name repeats said once ("- 2 Curse! Wet Noodle Arms")."""
    head, _, parts = DOUBLED.sub("", explain).partition(" = ")
    if not parts:
        return [explain]
    terms = re.split(r" (?=[+-] \d)", parts)
    return [head, *(f"  {t if t[0] in '+-' else '+ ' + t}" for t in terms)]
