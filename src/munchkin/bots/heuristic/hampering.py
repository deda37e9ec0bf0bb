"""Others' fights: the bot takes over a fight it would win (a fight passed to itself), stops
anyone about to win the game with everything it has, and turns a fight of the leader close to
winning when that is worth the cards, or at least denies it the levels (B14-B16)."""

from __future__ import annotations

from munchkin.bots.heuristic.fight_words import (
    fight_value,
    fight_word,
    illusion_change,
    rewards,
    win_chance,
    wins_alone,
)
from munchkin.bots.heuristic.fights import Use, cheapest_cover
from munchkin.bots.heuristic.harms import levels_lost, weakening
from munchkin.bots.heuristic.seats import Seat, monster_strength
from munchkin.bots.heuristic.situation import Fight, Situation
from munchkin.bots.heuristic.values import LEVEL_VALUE, TREASURE_VALUE, TROUBLE_MARGIN, words
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action

AIMED_ONE_SHOTS = ("steal_level", "hireling_dies")
"""One-shots played on a player that weaken a fighter (B3, H10)."""
PASS_RISK = 0.25
"""The highest chance, for the player a fight is passed to, of winning it."""


def others_fight(s: Situation) -> Action | None:
    """Take over a fight the bot would win, hamper one it is not in, or pass."""
    fight = s.fight_window()
    if fight is None or s.me in fight.fighters:
        return None
    return _take_over(s, fight) or _hamper(s, fight) or s.legal("pass")[0]


def _take_over(s: Situation, fight: Fight) -> Action | None:
    """Pass the fight to the bot itself when it would win it clearly alone, for more than the
    card is worth and without giving a helper anything (B16)."""
    if not wins_alone(fight, s.me, TROUBLE_MARGIN) and not (
        s.me.level + fight.levels >= s.me.win_level and wins_alone(fight, s.me)
    ):
        return None
    plays = [a for a in s.legal("play", target=s.me.name) if fight_word(s.card(a.arg)) == "pass_fight"]
    best = s.best(plays, lambda a: -s.value(a.arg))
    return best if best is not None and fight_value(fight, s.me) > s.value(best.arg) else None


def _hamper(s: Situation, fight: Fight) -> Action | None:
    """Stop anyone about to win the game with everything; turn a fight of the leader close
    to winning when the cards for it are worth less than what the fight would bring, else
    send its monster away when that is cheaper than the levels it would bring."""
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
        return _deny(s, fight)
    return max(plan, key=lambda u: u.points).action


def _deny(s: Situation, fight: Fight) -> Action | None:
    """Send away the monster whose levels (and treasures, unless the card leaves them) are
    worth most, when that is more than the card (B7, B16)."""

    def denied(a: Action) -> float:
        index = fight.index(a.on)
        if index is None:
            return 0.0
        levels, treasures = rewards(fight.monsters[index])
        kept = any(e.arg == "treasures" for e in s.card(a.arg).effects)
        return levels * LEVEL_VALUE + (0 if kept else treasures * TREASURE_VALUE) - s.value(a.arg)

    sends = [a for a in s.legal("play") if fight_word(s.card(a.arg)) == "send_away"]
    best = s.best(sends, denied)
    return best if best is not None and denied(best) > 0 else None


def _hampers(s: Situation, fight: Fight) -> list[Use]:
    """Cards against the munchkins: monster enhancers and one-shots for the monsters, a
    Wandering Monster, a twin, a stronger monster for a weaker one, the fight passed to a
    player who loses it, a monster sent away with the levels that would win the game,
    backstabs, curses and level thefts on the fighters (B14, B15, B16)."""
    uses = [Use(a, 2, s.value(a.arg)) for a in s.legal("backstab")]
    winners = fight.game_winners()
    fighters = {f.name: f for f in fight.fighters}
    for a in s.legal("play"):
        card = s.card(a.arg)
        word = fight_word(card)
        if word is not None:
            use = _fight_card_use(s, fight, a, word)
            if use is not None:
                uses.append(use)
        elif a.on is not None and card.type in ("monster_enhancer", "one_shot") and card.bonus > 0:
            uses.append(Use(a, card.bonus, s.value(a.arg)))
        elif card.type == "wandering_monster":
            points = monster_strength(s.card(a.on), fight.fighters)
            uses.append(Use(a, points, s.value(a.arg) + s.value(a.on)))
        elif _weakens(card) and a.target in fighters:
            victim = fighters[a.target or ""]
            level_after = victim.level - levels_lost(card.effects, victim) + fight.gain(victim)
            stops = winners == [victim] and level_after < victim.win_level
            uses.append(Use(a, weakening(card.effects, victim), s.value(a.arg), stops))
    return uses


def _weakens(card: CardDef) -> bool:
    """Curses, traps and one-shots played on a fighter (a level stolen, a hireling fired)."""
    return card.type in ("curse", "trap") or (
        card.type == "one_shot" and bool(words(card) & {*AIMED_ONE_SHOTS})
    )


def _fight_card_use(s: Situation, fight: Fight, a: Action, word: str) -> Use | None:
    """A fight card against the munchkins: a twin of a monster (its strength again), a
    stronger monster from the hand in place of one, the fight passed to a player who loses
    it (all its points), a monster sent away with the levels the win needs (B16)."""
    if word == "twin" and (index := fight.index(a.on)) is not None:
        return Use(a, fight.powers[index], s.value(a.arg))
    if word == "illusion":
        return Use(a, illusion_change(s, fight, a), s.value(a.arg) + s.value(a.on))
    if word == "pass_fight" and a.target not in [f.name for f in fight.fighters]:
        return _pass_use(s, fight, a, s.seats[a.target or ""])
    if word == "send_away" and (index := fight.index(a.on)) is not None:
        levels_after = fight.levels - rewards(fight.monsters[index])[0]
        stops = bool(fight.game_winners()) and fight.fighter.level + levels_after < fight.fighter.win_level
        return Use(a, 0, s.value(a.arg), stops_win=stops and not _elf_still_wins(fight))
    return None


def _pass_use(s: Situation, fight: Fight, a: Action, target: Seat) -> Use | None:
    """The fight passed on (B16): to a player who likely loses it; and when it would win
    someone the game, to anyone it would not win the game, the bot itself too, whether they
    win it or not (what they may gain from it counted in its cost)."""
    winners = fight.game_winners()
    wins_game = target is not s.me and target.level + fight.levels >= target.win_level
    if not winners or wins_game:
        if target is s.me or win_chance(fight, target) > PASS_RISK:
            return None
        return Use(a, fight.to_lose, s.value(a.arg), stops_win=bool(winners))
    chance = win_chance(fight, target)
    if target is s.me:
        cost = s.value(a.arg) - chance * fight_value(fight, s.me) + (1 - chance) * s.run_loss()
    else:
        cost = s.value(a.arg) + chance * s.spite(target) * fight_value(fight, target)
    return Use(a, fight.to_lose, cost, stops_win=True)


def _elf_still_wins(fight: Fight) -> bool:
    """An Elf helper still wins with the monsters left after one is sent away (B2, B14)."""
    helper = fight.helper
    return (
        helper is not None
        and "elf" in helper.races
        and helper.level + len(fight.monsters) - 1 >= helper.win_level
    )
