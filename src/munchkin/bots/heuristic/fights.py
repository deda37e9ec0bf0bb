"""The bot's own fights: win them by the cheapest means (class powers, one-shots, a monster
weakened, a helper bribed with the fewest treasures), add a Wandering Monster or a twin to a
fight won comfortably, or give up and run (B6-B9, B14, B16)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from munchkin.bots.heuristic.fight_words import (
    fight_value,
    fight_word,
    illusion_change,
    lost_reward,
    replaced,
    rewards,
    win_chance,
)
from munchkin.bots.heuristic.harms import run_loss
from munchkin.bots.heuristic.helping import help_to_ask, may_ask
from munchkin.bots.heuristic.seats import Seat, holds, monster_strength, strength
from munchkin.bots.heuristic.situation import Fight, Situation
from munchkin.bots.heuristic.values import GAME_VALUE, LEVEL_VALUE, TREASURE_VALUE, TROUBLE_MARGIN
from munchkin.cards.schema import CardDef
from munchkin.engine.actions import Action

RESERVE_SHARE = 0.5
"""The part of its combat one-shots the bot counts on when it chooses to fight."""
HELP_OVERHEAD = 0.5
"""What asking for help costs beyond the bribe: the helper sees the treasures."""
HELP_SHARE = 0.5
"""The part of the strongest helper's strength the bot counts on when it chooses to fight."""
MAX_POWER_CARDS = 3
"""Cards per power and fight unless the table chose another number (`power_discards`, B14)."""


@dataclass(frozen=True)
class Use:
    """One way to spend a card (or a favour) for points in a fight."""

    action: Action
    points: int
    cost: float
    stops_win: bool = False
    helps: bool = False
    """It brings a helper (only one may help)."""


def cheapest_cover(uses: Iterable[Use], need: int) -> list[Use] | None:
    """Uses that add up to `need` points at a low cost (greedy by cost per point, then the
    dearest that are not needed dropped), or None when all of them together fall short."""
    chosen: list[Use] = []
    for use in sorted((u for u in uses if u.points > 0), key=lambda u: (u.cost / u.points, -u.points)):
        if sum(u.points for u in chosen) >= need:
            break
        chosen.append(use)
    if sum(u.points for u in chosen) < need:
        return None
    for use in sorted(chosen, key=lambda u: -u.cost):
        if sum(u.points for u in chosen) - use.points >= need:
            chosen.remove(use)
    return chosen


def beats(s: Situation, monster: CardDef) -> bool:
    """Whether the bot is clearly stronger than a monster, counting on part of its combat
    one-shots and of the strongest helper it would ask; on all of them, and no margin, for
    the fight that wins the game. A monster that will not fight the bot is not worth it, one
    the bot defeats at once always is (docs/card-format.md)."""
    if monster.ignores is not None and holds(monster.ignores, s.me):
        return False
    if monster.defeated_by is not None and holds(monster.defeated_by, s.me):
        return True
    levels = 1 if monster.type == "steed" else monster.levels
    all_in = s.me.level + levels >= s.me.win_level
    reserve = sum(c.bonus for c in s.hand if c.type == "one_shot" and c.uses == "combat")
    share, margin = (1.0, 0) if all_in else (RESERVE_SHARE, TROUBLE_MARGIN)
    helpers = [strength(o) for o in s.opponents if may_ask(s, o, 1)] if not monster.no_help else []
    helped = HELP_SHARE * max(helpers, default=0)
    return strength(s.me) + share * reserve + helped >= monster_strength(monster, [s.me]) + margin


def own_fight(s: Situation) -> Action | None:
    """When winning, bring in a Wandering Monster or a twin still clearly beaten, then
    resolve; when losing, the cheapest way to win that is worth it, else a Wizard's charm
    when the hand is worth less than the run, else give up."""
    fight = s.fight_window()
    if fight is None or s.me not in fight.fighters:
        return None
    done = (s.legal("resolve_combat") or s.legal("pass"))[0]
    if fight.munchkins_win:
        return _more_monsters(s, fight) or done
    budget = _win_value(s, fight) + s.run_loss()
    plans = [(cost, action) for cost, action in _boost_plans(s, fight) if cost <= budget]
    if plans:
        action = min(plans, key=lambda plan: plan[0])[1]
        if action.verb == "ask_help":
            s.memory.asked_now(s.data["turn"]).add(action.arg or "")
        return action
    charms = s.legal("charm") if len(fight.monsters) == 1 else []
    if charms and s.hand_value < s.run_loss() + fight.treasures * TREASURE_VALUE:
        return charms[0]
    return _shift_blame(s, fight) or done


def _more_monsters(s: Situation, fight: Fight) -> Action | None:
    """A Wandering Monster with a monster from the hand, or a twin of a monster of the fight,
    for more levels and treasures, when the fight does not already win the game and is
    still won by the usual margin (B16)."""
    if s.me is not fight.fighter or fight.game_winner() is s.me:
        return None
    added: dict[Action, tuple[int, CardDef]] = {}
    for a in s.legal("play"):
        card = s.card(a.arg)
        if card.type == "wandering_monster":
            added[a] = (monster_strength(s.card(a.on), fight.fighters), s.card(a.on))
        elif fight_word(card) == "twin" and (index := fight.index(a.on)) is not None:
            added[a] = (fight.powers[index], fight.monsters[index])
    more = [a for a, (points, _) in added.items() if fight.to_lose - points > TROUBLE_MARGIN]
    return s.best(more, lambda a: _reward_score(added[a][1]))


def _reward_score(monster: CardDef) -> float:
    """What beating one more monster brings: its levels, and half as much per treasure."""
    levels, treasures = rewards(monster)
    return levels + 0.5 * treasures


def _win_value(s: Situation, fight: Fight) -> float:
    """What winning this fight brings the bot (B7); the game, alone or shared (B2). A helper
    counts the fighter's levels against it, as it cares about the fighter."""
    if s.me in fight.game_winners():
        return GAME_VALUE
    levels = fight.gain(s.me) * LEVEL_VALUE
    if s.me is fight.fighter:
        return levels + (fight.treasures - fight.reward) * TREASURE_VALUE
    return levels + fight.reward * TREASURE_VALUE - s.spite(fight.fighter) * fight.levels * LEVEL_VALUE


def _boost_plans(s: Situation, fight: Fight) -> list[tuple[float, Action]]:
    """Ways to turn the fight, each as (cost, first action): cards alone, or help with
    cards if need be."""
    uses = _boosts(s) + _fight_card_uses(s, fight)
    plans = []
    cards = cheapest_cover(uses, fight.to_win)
    if cards:
        plans.append((sum(u.cost for u in cards), max(cards, key=lambda u: u.points).action))
    ask = help_to_ask(s, fight)
    if ask is not None:
        added = fight.lead_with(s.seats[ask.arg or ""]) - fight.lead
        rest = cheapest_cover([u for u in uses if not u.helps], fight.to_win - added)
        if rest is not None:
            cost = ask.reward * TREASURE_VALUE + HELP_OVERHEAD + sum(u.cost for u in rest)
            plans.append((cost, ask))
    return plans


def _boosts(s: Situation) -> list[Use]:
    """Each hand card's best use for the munchkins: a one-shot, a monster weakened, or
    the price of berserking or turning (B14, B16), at most 3 cards per power."""
    by_card: dict[str, list[tuple[int, Action]]] = {}
    for a in s.legal("play", target=None):
        card = s.card(a.arg)
        if a.on is None and card.type == "one_shot" and card.bonus > 0:
            by_card.setdefault(card.id, []).append((card.bonus, a))
        elif a.on is not None and card.type == "monster_enhancer" and card.bonus < 0:
            by_card.setdefault(card.id, []).append((-card.bonus, a))
    for verb, points in (("berserk", 1), ("turn_undead", 3)):
        for a in s.legal(verb):
            by_card.setdefault(a.arg or "", []).append((points, a))
    uses: list[Use] = []
    paid = {"berserk": 0, "turn_undead": 0}
    for card_id in sorted(by_card, key=s.value):
        points, action = max(by_card[card_id], key=lambda use: use[0])
        for _ in range(sum(1 for c in s.hand if c.id == card_id)):
            if paid.get(action.verb) == s.options.get("power_discards", MAX_POWER_CARDS):
                break
            if action.verb in paid:
                paid[action.verb] += 1
            uses.append(Use(action, points, s.value(card_id)))
    return uses


def _fight_card_uses(s: Situation, fight: Fight) -> list[Use]:
    """The best use of each fight card of the hand for the munchkins: the fighter's strength
    doubled (Mirror), the strongest monster sent away (its level, and its treasures unless
    the card keeps them, lost; the fight won outright when it was the only one), a monster
    replaced by a weaker one from the hand, a strong player made to help for nothing (B8,
    B16)."""
    best: dict[str, Use] = {}
    for a in s.legal("play"):
        card = s.card(a.arg)
        word = fight_word(card)
        use = None
        if word == "double_strength":
            use = Use(a, strength(s.me), s.value(a.arg))
        elif word == "send_away" and (gone := fight.index(a.on)) is not None:
            points = fight.to_win if len(fight.monsters) == 1 else fight.powers[gone]
            keeps = any(e.arg == "treasures" for e in card.effects)
            use = Use(a, points, s.value(a.arg) + lost_reward(s, fight, gone, None, keeps))
        elif word == "illusion":
            new = s.card(a.on)
            lost = lost_reward(s, fight, replaced(fight, a), new, False)
            use = Use(a, -illusion_change(s, fight, a), s.value(a.arg) + s.value(a.on) + lost)
        elif word == "force_help" and a.target != s.me.name and _may_force(s, fight, s.seats[a.target or ""]):
            helper = s.seats[a.target or ""]
            use = Use(a, fight.lead_with(helper) - fight.lead, s.value(a.arg) + HELP_OVERHEAD, helps=True)
        if use is None or use.points <= 0:
            continue
        known = best.get(card.id)
        if known is None or _better(use, known, fight.to_win):
            best[card.id] = use
    return list(best.values())


def _better(use: Use, than: Use, need: int) -> bool:
    """One use of a card beats another: enough alone and cheaper, else more points."""
    return (use.points >= need, -use.cost, use.points) > (than.points >= need, -than.cost, than.points)


def _may_force(s: Situation, fight: Fight, helper: Seat) -> bool:
    """Anyone may be made to help but an Elf the levels it gains would make dangerous (B8, B14)."""
    return "elf" not in helper.races or not s.dangerous(helper, len(fight.monsters))


def _shift_blame(s: Situation, fight: Fight) -> Action | None:
    """A fight lost with no way to win it passes to the opponent it serves worst: the chance
    that they win it, and what it would bring them, against the Bad Stuff they would risk,
    counted as the bot cares about them (the leader most); when the run would cost the bot
    more than the card and that (B16)."""
    if s.me is not fight.fighter:
        return None
    loss = s.run_loss()

    def score(a: Action) -> float:
        target = s.seats[a.target or ""]
        chance = win_chance(fight, target)
        given = fight_value(fight, target) * (1.0 + s.spite(target))
        suffered = run_loss(
            fight.monsters, target, target.table["run_away_modifier"], target.hand_count, False
        )
        return loss - s.value(a.arg) - chance * given + (1 - chance) * s.spite(target) * suffered

    passes = [
        a for a in s.legal("play") if fight_word(s.card(a.arg)) == "pass_fight" and a.target != s.me.name
    ]
    best = s.best(passes, score)
    return best if best is not None and score(best) > 0 else None
