"""Curses and traps played from the hand on the bot's own turn (B5, B15)."""

from __future__ import annotations

from munchkin.bots.heuristic.harms import harm
from munchkin.bots.heuristic.situation import Situation
from munchkin.engine.actions import Action


def curse(s: Situation) -> Action | None:
    """Curse the leader where it hurts; with too many cards at the end of the turn, whoever
    it hurts most rather than give the curse away (B5, B15)."""
    over_limit = s.data["phase"] == "end" and len(s.hand) > s.data["hand_limit"]

    def score(a: Action) -> float:
        victim = s.seats[a.target or ""]
        weight = 1.0 if victim is s.leader else 0.5 if over_limit and victim is not s.me else 0.0
        return weight * harm(s.card(a.arg).effects, victim, victim.hand_count)

    curses = [a for a in s.legal("play") if s.card(a.arg).type in ("curse", "trap") and score(a) > 0]
    return s.best(curses, score)
