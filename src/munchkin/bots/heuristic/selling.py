"""Gold and trades: sales for levels (B12, B14) and the trades offered to the bot (B13)."""

from __future__ import annotations

from collections.abc import Sequence

from munchkin.bots.heuristic.equipment import best_layout
from munchkin.bots.heuristic.seats import usable
from munchkin.bots.heuristic.situation import Situation
from munchkin.bots.heuristic.values import GOLD_PER_LEVEL, LEVEL_VALUE, item_worth, use_worth
from munchkin.engine.actions import Action


def sell(s: Situation) -> Action | None:
    """The sale that gains most: levels (each full 1000 gold, never the winning one) for
    less than they are worth, the least useful items first; a Halfling's first sale of the
    turn counts its best item twice (B12, B14). With pooled gold (a table option) items
    are sold one by one, the most valuable first, once the turn's gold then reaches 1000."""
    if not s.legal("sell"):
        return None
    if s.options.get("sale_gold") == "pooled":
        return _sell_pooled(s)
    gains = {a: sale_levels(s, a.cards) * LEVEL_VALUE - _sale_costs(s, a.cards) for a in s.legal("sell")}
    return s.best([a for a, gain in gains.items() if gain > 0], gains.__getitem__)


def sale_levels(s: Situation, card_ids: Sequence[str]) -> int:
    """Levels a sale of these items gives the bot (B12): never the winning level."""
    double = "halfling" in s.me.races and not s.data["double_sale_used"]
    values = [s.card(c).value or 0 for c in card_ids]
    gold = _sale_gold(values, double)
    if s.options.get("sale_gold") == "pooled":
        gold += s.data["gold_this_turn"]
    return max(0, min(gold // GOLD_PER_LEVEL, s.me.win_level - 1 - s.me.level))


def _sale_costs(s: Situation, card_ids: Sequence[str]) -> float:
    return sum(_sale_cost(s, c) for c in card_ids)


def _sell_pooled(s: Situation) -> Action | None:
    """Sell what costs less than a level to lose, when this turn's gold then reaches 1000;
    the most valuable first (B12, R7)."""
    gold = s.data["gold_this_turn"]
    double = "halfling" in s.me.races and not s.data["double_sale_used"]
    goods = [(a, _sale_cost(s, a.cards[0]), s.card(a.cards[0]).value or 0) for a in s.legal("sell")]
    chosen: list[tuple[Action, float, int]] = []
    for good in sorted((g for g in goods if g[2] > 0), key=lambda g: (g[1] / g[2], -g[2])):
        if gold + _sale_gold([g[2] for g in chosen], double) >= GOLD_PER_LEVEL:
            break
        chosen.append(good)
    enough = gold + _sale_gold([g[2] for g in chosen], double) >= GOLD_PER_LEVEL
    if not enough or sum(g[1] for g in chosen) >= LEVEL_VALUE or s.me.level >= s.me.win_level - 1:
        return None
    return max(chosen, key=lambda g: g[2])[0]


def _sale_gold(values: Sequence[int], double: bool) -> int:
    return sum(values) + (max(values, default=0) if double else 0)


def _sale_cost(s: Situation, card_id: str) -> float:
    """What selling a card loses: little for a card the bot does not use, else its use."""
    card = s.card(card_id)
    if s.in_hand(card_id):
        return 0.1 if card.type in ("item", "steed") else s.value(card_id)
    used = any(c.id == card_id and in_use for c, in_use in s.me.in_play())
    if not used or (card.type == "item" and card_id not in best_layout(s.me)):
        return 0.1
    return use_worth(card) + (1.0 if card.type == "hireling" else 0.0)


def answer_offer(s: Situation) -> Action | None:
    """Accept a trade that gives more than it takes (B13)."""
    offer = s.data["offer"]
    if offer is None or offer["to"] != s.me.name:
        return None
    gets = sum(item_worth(s.card(c["id"]), usable(s.card(c["id"]), s.me)) for c in offer["give"])
    gives = sum(item_worth(s.card(c["id"]), True) for c in offer["take"])
    accept = s.legal("accept_trade")
    return accept[0] if accept and gets > gives else s.legal("decline_trade")[0]
