"""The decision vocabulary of scenario-format.md as one small frozen type.

Cards are named by card id (the same id names every copy), players by name.
"""

from __future__ import annotations

from dataclasses import dataclass

VERBS = (
    "kick_door",
    "loot_room",
    "look_for_trouble",
    "end_turn",
    "pass",
    "play",
    "keep",
    "monstrify",
    "equip",
    "unequip",
    "discard",
    "sell",
    "trade",
    "accept_trade",
    "decline_trade",
    "ask_help",
    "accept_help",
    "decline_help",
    "resolve_combat",
    "run_away",
    "sacrifice_hireling",
    "choose",
    # extensions: class powers (B14)
    "berserk",
    "turn_undead",
    "flight",
    "charm",
    "backstab",
    "steal",
)


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. `arg` is the verb's argument (a card id, a player, an option)."""

    verb: str
    arg: str | None = None
    target: str | None = None
    on: str | None = None
    hireling: str | None = None
    cards: tuple[str, ...] = ()
    give: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    reward: int = 0
    helper_escapes: bool = False

    def __str__(self) -> str:
        parts = [self.verb] + ([self.arg] if self.arg else [])
        for key in ("target", "on", "hireling"):
            if getattr(self, key):
                parts.append(f"{key}={getattr(self, key)}")
        for key in ("cards", "give", "take"):
            if getattr(self, key):
                parts.append(f"{key}={','.join(getattr(self, key))}")
        if self.reward:
            parts.append(f"reward={self.reward}")
        if self.helper_escapes:
            parts.append("helper_escapes")
        return " ".join(parts)
