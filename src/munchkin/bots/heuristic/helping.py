"""Help in fights (B8): whom the bot asks, and when it agrees to help."""

from __future__ import annotations

from munchkin.bots.heuristic.seats import Seat
from munchkin.bots.heuristic.situation import Fight, Situation
from munchkin.engine.actions import Action

HELP_MARGIN = 1
"""How much the munchkins must then win by for the bot to agree to help."""


def may_ask(s: Situation, other: Seat, monsters: int) -> bool:
    """Whether the bot would ask `other` to help against so many monsters: not the leader
    close to winning, nor an Elf the fight would make win (B8, B14)."""
    too_close = other is s.leader and other.level >= other.win_level - 2
    makes_win = "elf" in other.races and other.level + monsters >= other.win_level
    return not (too_close or makes_win)


def help_to_ask(s: Situation, fight: Fight) -> Action | None:
    """Whom to ask, not yet asked in this fight: whoever adds the most, not the leader
    (unless nobody else may and the leader is far from winning), nor an Elf it would make
    win; for the fewest treasures a rational helper accepts: one, none for an Elf, who
    gains a level (B8)."""
    asked = s.memory.asked_now(s.data["turn"])
    candidates = []
    for other in s.opponents:
        if other.name in asked or not may_ask(s, other, len(fight.monsters)):
            continue
        elf = "elf" in other.races
        action = s.legal("ask_help", arg=other.name, reward=min(0 if elf else 1, fight.treasures))
        if action:
            candidates.append((other is s.leader, -fight.lead_with(other), other.name, action[0]))
    return min(candidates)[3] if candidates else None


def answer_help_request(s: Situation) -> Action | None:
    """Help when the fight is then won, for an Elf's level or for a bribe, when the fighter
    stays behind the bot and far from winning (B8)."""
    if not s.legal("accept_help"):
        return None
    fight = s.fight
    assert fight is not None
    elf_levels = len(fight.monsters) if "elf" in s.me.races else 0
    wins = fight.lead_with(s.me) >= HELP_MARGIN
    i_win = s.me.level + elf_levels >= s.me.win_level
    paid = fight.reward > 0 or elf_levels > 0
    worth_it = paid and not s.dangerous(fight.fighter, fight.levels)
    return s.legal("accept_help" if wins and (i_win or worth_it) else "decline_help")[0]
