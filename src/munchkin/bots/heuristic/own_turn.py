"""The bot's own turn outside fights: grow stronger (races, classes, kept cards, steeds and
items, loot boxes, curse removers), curse the leader, sell, then take the turn's next step
(B1, B3, B4, B14, B17, H1, S5, S9)."""

from __future__ import annotations

from munchkin.bots.heuristic.curses import curse, steal_level
from munchkin.bots.heuristic.equipment import arrange_items, play_steeds_and_items
from munchkin.bots.heuristic.fights import beats
from munchkin.bots.heuristic.seats import usable
from munchkin.bots.heuristic.selling import sell
from munchkin.bots.heuristic.situation import Rule, Situation
from munchkin.bots.heuristic.values import hireling_gain, hireling_worth, trait_score
from munchkin.engine.actions import Action


def play_anytime(s: Situation) -> Action | None:
    """Go Up a Level, hirelings and a borrowed level are played as soon as they may be (B3,
    H1); Go Up a Level for another player never (it only helps an opponent)."""
    plays = s.legal("play", target=None, on=None)
    mine = next((a for a in plays if s.card(a.arg).type in ("go_up_a_level", "hireling")), None)
    return mine or steal_level(s)


def own_turn(s: Situation) -> Action | None:
    """Grow stronger, then take the turn's next step."""
    steps: tuple[Rule, ...] = (
        _fight_face_up_steed,
        _play_traits,
        _play_kept_cards,
        _make_room_for_hireling,
        play_steeds_and_items,
        arrange_items,
        _play_utilities,
        curse,
        sell,
        _next_step,
    )
    return next((action for step in steps if (action := step(s)) is not None), None)


def _fight_face_up_steed(s: Situation) -> Action | None:
    """Fight a steed drawn face up as a monster when it is clearly beaten (S9)."""
    return next((a for a in s.legal("monstrify") if beats(s, s.card(a.arg))), None)


def _play_traits(s: Situation) -> Action | None:
    """A race or class for an empty place, or one clearly better than the one it replaces (R8)."""
    held = [c for c, _ in s.me.in_play()] + s.hand
    best: tuple[float, Action] | None = None
    for a in s.legal("play", target=None, on=None):
        card = s.card(a.arg)
        if card.type not in ("race", "class"):
            continue
        zone = s.me.cards("races" if card.type == "race" else "classes")
        boosts = s.me.cards("boosts")
        places = 1 + sum(b.extra_races if card.type == "race" else b.extra_classes for b in boosts)
        replaced = trait_score(zone[0], held) + 0.5 if len(zone) >= places else 0.0
        gain = trait_score(card, held) - replaced
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, a)
    return best[1] if best else None


def _play_kept_cards(s: Situation) -> Action | None:
    """Cards that stay in play: Half-Breed, Super Munchkin, race and class enhancers, steed
    enhancers, and a Cheat! on the best card the bot could not use without it (B14, B17, S5)."""
    plays = s.legal("play")
    kept = [a for a in plays if s.card(a.arg).type in ("other", "steed_enhancer", "item_enhancer")]
    if kept:
        return kept[0]
    cheats = [a for a in plays if s.card(a.arg).type == "cheat" and _cheat_gain(s, a) >= 2]
    return s.best(cheats, lambda a: _cheat_gain(s, a))


def _make_room_for_hireling(s: Situation) -> Action | None:
    """With no room for another hireling and one in the hand worth a point more than the
    weakest in play with what it carries, that one goes (its items with it, H1, H3, H11);
    the better one is played next (`play_anytime`)."""
    if s.me.hireling_room() or not s.me.hirelings():
        return None
    if max((hireling_gain(c, s.me) for c in s.hand if c.type == "hireling"), default=0.0) < 1.0:
        return None
    weakest, _ = min(s.me.hirelings(), key=lambda entry: hireling_worth(*entry))
    return next(iter(s.legal("discard", arg=weakest.id)), None)


def _cheat_gain(s: Situation, action: Action) -> int:
    """The bonus a Cheat! unlocks: a carried item the bot may not use, or a hand card it
    could not play without one (B17)."""
    target = s.card(action.on)
    carried = any(c.id == target.id for c in s.me.cards("carried"))
    if carried and not usable(target, s.me):
        return target.bonus
    blocked = s.in_hand(target.id) and not s.legal("play", arg=target.id, on=None)
    return target.bonus if blocked else 0


def _play_utilities(s: Situation) -> Action | None:
    """Loot boxes at once, a curse remover when cursed, Divine Intervention for a Cleric
    when no other Cleric would win by it."""
    for a in s.legal("play", target=None, on=None):
        card = s.card(a.arg)
        kinds = {e.kind for e in card.effects}
        if "draw_treasures" in kinds or ("remove_curse" in kinds and s.me.table["lasting"]):
            return a
        if card.type == "divine_intervention" and "cleric" in s.me.classes:
            rivals = [o for o in s.opponents if "cleric" in o.classes and o.level >= o.win_level - 1]
            if not rivals:
                return a
    return None


def _next_step(s: Situation) -> Action | None:
    """Kick the door; keep a face-up card not played; fight a monster from the hand that is
    clearly beaten, else loot; end the turn; end the setup (B1, B4)."""
    step = s.legal("kick_door", arg=None) or s.legal("keep")
    if step:
        return step[0]
    trouble = [a for a in s.legal("look_for_trouble") if beats(s, s.card(a.arg))]
    if trouble:
        return s.best(trouble, lambda a: s.card(a.arg).levels + 0.5 * s.card(a.arg).treasures)
    return next((s.legal(verb)[0] for verb in ("loot_room", "end_turn", "pass") if s.legal(verb)), None)
