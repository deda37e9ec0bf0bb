"""Others' fights: the bot stops anyone about to win the game with everything it has, and
turns a fight of the leader close to winning when that is worth the cards (B14-B16)."""

from __future__ import annotations

from munchkin.bots.heuristic.fights import Use, cheapest_cover
from munchkin.bots.heuristic.harms import levels_lost, weakening
from munchkin.bots.heuristic.seats import monster_strength
from munchkin.bots.heuristic.situation import Fight, Situation
from munchkin.bots.heuristic.values import LEVEL_VALUE, TREASURE_VALUE
from munchkin.engine.actions import Action


def others_fight(s: Situation) -> Action | None:
    """Hamper a fight the bot is not in, or pass."""
    fight = s.fight_window()
    if fight is None or s.me in fight.fighters:
        return None
    return _hamper(s, fight) or s.legal("pass")[0]


def _hamper(s: Situation, fight: Fight) -> Action | None:
    """Stop anyone about to win the game with everything; turn a fight of the leader close
    to winning when the cards for it are worth less than what the fight would bring."""
    if not fight.munchkins_win:
        return None
    uses = _hampers(s, fight)
    if fight.game_winner() is not None:
        best = max(uses, key=lambda u: (u.stops_win, u.points, -u.cost), default=None)
        return best.action if best and (best.points > 0 or best.stops_win) else None
    if not any(s.dangerous(seat, fight.gain(seat)) for seat in fight.fighters):
        return None
    plan = cheapest_cover(uses, fight.to_lose)
    budget = fight.levels * LEVEL_VALUE + fight.treasures * TREASURE_VALUE
    if plan is None or sum(u.cost for u in plan) > budget:
        return None
    return max(plan, key=lambda u: u.points).action


def _hampers(s: Situation, fight: Fight) -> list[Use]:
    """Cards against the munchkins: monster enhancers and one-shots for the monsters, a
    Wandering Monster, backstabs and curses on the fighters (B14, B15, B16)."""
    uses = [Use(a, 2, s.value(a.arg)) for a in s.legal("backstab")]
    winners = fight.game_winners()
    fighters = {f.name: f for f in fight.fighters}
    for a in s.legal("play"):
        card = s.card(a.arg)
        if a.on is not None and card.type in ("monster_enhancer", "one_shot") and card.bonus > 0:
            uses.append(Use(a, card.bonus, s.value(a.arg)))
        elif card.type == "wandering_monster":
            points = monster_strength(s.card(a.on), fight.fighters)
            uses.append(Use(a, points, s.value(a.arg) + s.value(a.on)))
        elif card.type in ("curse", "trap") and a.target in fighters:
            victim = fighters[a.target or ""]
            level_after = victim.level - levels_lost(card.effects, victim) + fight.gain(victim)
            stops = winners == [victim] and level_after < victim.win_level
            uses.append(Use(a, weakening(card.effects, victim), s.value(a.arg), stops))
    return uses
