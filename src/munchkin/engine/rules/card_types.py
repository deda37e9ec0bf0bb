"""What playing a card does, by its type: when each type may be played, its checks and its
effect (B3, B11, B14-B17, H1, S2, S5, S8). The verb itself, with its options, is in play.py.
"""

from __future__ import annotations

from collections.abc import Callable

from munchkin.engine.actions import Action
from munchkin.engine.card import Card
from munchkin.engine.events import Event
from munchkin.engine.rules.character import class_slots, gain_levels, hirelings_allowed, race_slots, win_level
from munchkin.engine.rules.combat import enter_monster
from munchkin.engine.rules.curses import curse_hits
from munchkin.engine.rules.decks import act_when_drawn
from munchkin.engine.rules.effects import change_hireling_sex, queue_effects
from munchkin.engine.rules.items import (
    can_use,
    cheated,
    check_placeable,
    discard,
    place_new_item,
    reconcile_use,
    require_fits,
)
from munchkin.engine.state import GameState, PlayerState
from munchkin.engine.timing import in_fight, own_turn, own_turn_calm, require_own_turn_calm
from munchkin.engine.verbs import refuse, seat_of

CHEATABLE = ("item", "steed", "hireling")


def source_card(g: GameState, seat: int, card_id: str | None) -> int | None:
    """The instance played: from the hand, or the door just drawn face up (B4)."""
    if card_id is None:
        return None
    face_up = g.face_up
    if g.phase == "face_up" and seat == g.active and face_up is not None and g.cards[face_up].id == card_id:
        return face_up
    return g.find(g.players[seat].hand, card_id)


def _target(g: GameState, seat: int, a: Action) -> int:
    if a.target is None:
        return seat
    return seat_of(g, a.target, "B15")


def _monster_in_fight(g: GameState, card_id: str | None) -> int | None:
    if g.combat is None or card_id is None:
        return None
    return g.find(g.combat.monsters, card_id)


def attachable(g: GameState, p: PlayerState) -> list[int]:
    """What a player's item and steed enhancers and Cheat! may go on: items and steeds in
    play, hirelings, and the items the hirelings carry, which are the owner's (B17, S5, H8)."""
    carried_by_hirelings = [i for h in p.hirelings for i in g.carrying.get(h, ())]
    return p.equipped + p.carried + p.steeds + p.hirelings + carried_by_hirelings


def _own_in_play(g: GameState, seat: int, card_id: str | None, kinds: tuple[str, ...]) -> int | None:
    if card_id is None:
        return None
    inst = g.find(attachable(g, g.players[seat]), card_id)
    return inst if inst is not None and g.cards[inst].type in kinds else None


# -- checks per type -----------------------------------------------------------------


def _check_race_class(g: GameState, seat: int, inst: int, a: Action) -> None:
    card = g.cards[inst]
    zone = g.players[seat].races if card.type == "race" else g.players[seat].classes
    if g.find(zone, card.id) is not None:
        raise refuse("B14", f"you already are {card.name}")


def _check_boost(g: GameState, seat: int, inst: int, a: Action) -> None:
    card = g.cards[inst]
    playable = card.extra_races or card.extra_classes or card.extra_hirelings or card.enhances
    if not bool(playable):
        raise refuse("B4", f"{card.name} cannot be played")
    if not own_turn(g, seat):
        raise refuse("B14", f"{card.name} is played on your own turn")
    boosts = [g.cards[b] for b in g.players[seat].boosts]
    if card.extra_races or card.extra_classes:  # one Half-Breed, one Super Munchkin (B14)
        same = any(
            (b.extra_races and card.extra_races) or (b.extra_classes and card.extra_classes) for b in boosts
        )
        if same:
            raise refuse("B14", f"you already have {card.name}: it allows one second race or class")
    if card.enhances and _enhanced_trait(g, seat, a.on, card.enhances) is None:
        raise refuse("B14", f"name one of your {card.enhances} cards with on:")


def _enhanced_trait(g: GameState, seat: int, card_id: str | None, kind: str) -> int | None:
    p = g.players[seat]
    return g.find(p.races if kind == "race" else p.classes, card_id or "")


def _check_item(g: GameState, seat: int, inst: int, a: Action) -> None:
    require_fits(check_placeable(g, g.players[seat], inst))


def _check_steed(g: GameState, seat: int, inst: int, a: Action) -> None:
    from munchkin.engine.rules.items import steeds_allowed

    p = g.players[seat]
    if not can_use(g, p, inst):  # an unusable steed is an ordinary Big item (S8)
        require_fits(check_placeable(g, p, inst))
        return
    counted = [s for s in p.steeds if not cheated(g, s)]
    if len(counted) >= steeds_allowed(g, p):
        raise refuse("S2", "you already have a steed")


def _check_hireling(g: GameState, seat: int, inst: int, a: Action) -> None:
    p = g.players[seat]
    counted = [h for h in p.hirelings if not cheated(g, h)]
    if len(counted) >= hirelings_allowed(g, p):
        raise refuse("H1", "you already have a hireling in play")


def _check_curse(g: GameState, seat: int, inst: int, a: Action) -> None:
    if not (g.first_door_kicked or g.options.curses_before_first_door):
        raise refuse("B15", "no curse before the game's first door is kicked open")
    target = _target(g, seat, a)
    if g.players[target].dead:
        raise refuse("B15", "the dead cannot be cursed")
    if a.on is not None:  # a sex change may be used on a hireling (H15)
        on_hireling = g.find(g.players[target].hirelings, a.on) is not None
        if not on_hireling:
            raise refuse("H15", f"{a.on} is not a hireling of {g.players[target].name}")
        sex_change = "change_sex" in g.cards[inst].kinds
        if not sex_change:
            raise refuse("H15", f"{g.cards[inst].name} does nothing to a hireling")


def _check_one_shot(g: GameState, seat: int, inst: int, a: Action) -> None:
    card = g.cards[inst]
    if card.uses == "run_away":
        c = g.combat
        running = c is not None and c.stage == "run" and c.runners[:1] == [seat] and not g.tasks
        if not running:
            raise refuse("B9", f"{card.name} is used when you run away, before rolling")
        return
    if in_fight(g) and (card.bonus or card.uses == "combat"):
        if not (a.on is None or _monster_in_fight(g, a.on) is not None):
            raise refuse("B16", f"{a.on} is not in the fight")
        return
    if not (card.uses == "any" and bool(card.effects)):
        raise refuse("B16", f"{card.name} is used in a fight")
    target = _target(g, seat, a)
    if not aimed(card) and target != seat:
        raise refuse("B16", f"{card.name} is played on yourself")
    if "steal_level" in card.kinds:
        _check_steal_level(g, seat, target)
    if a.on is not None:
        if _own_in_play(g, seat, a.on, ("hireling",)) is None:
            raise refuse("H15", f"{a.on} is not a hireling of yours")
        if "change_sex" not in card.kinds:
            raise refuse("H15", f"{card.name} does nothing to a hireling")


AIMED_WORDS = ("steal_level", "hireling_dies", "steal_hireling")
"""Effects of one-shots played on another player, named with `target:`."""


def aimed(card: Card) -> bool:
    """Cards played on a player other than oneself: level thieves, hireling killers, and Go
    Up a Level cards for another player."""
    return card.on_other or (card.type == "one_shot" and any(kind in AIMED_WORDS for kind in card.kinds))


def _check_steal_level(g: GameState, seat: int, target: int) -> None:
    """A level is stolen from another player, never below 1, never for the winning level (B3)."""
    if target == seat:
        raise refuse("B3", "steal a level from another player: name them with target:")
    if g.players[target].level <= 1:
        raise refuse("B3", "a level is never stolen below level 1")
    if g.players[seat].level + 1 >= win_level(g):
        raise refuse("B3", "a stolen level is never the winning level")


def _check_go_up(g: GameState, seat: int, inst: int, a: Action) -> None:
    card = g.cards[inst]
    if card.on_other:
        target = seat_of(g, a.target, "B3")
        if not (target != seat and not g.players[target].dead):
            raise refuse("B3", f"{card.name} is played on another player")
    else:
        target = seat
        if a.target not in (None, g.players[seat].name):
            raise refuse("B3", "Go Up a Level is played on yourself")
    if card.unless_highest:  # judged on the player who would go up
        others = [q.level for i, q in enumerate(g.players) if i != target]
        if g.players[target].level >= max(others):
            raise refuse("B3", f"{card.name} is not for the highest-level player")
    if g.players[target].level + card.levels >= win_level(g):
        raise refuse("B3", "Go Up a Level never gives the winning level")


def _check_monster_enhancer(g: GameState, seat: int, inst: int, a: Action) -> None:
    if not in_fight(g):
        raise refuse("B16", "monster enhancers are played in a fight")
    if _monster_in_fight(g, a.on) is None:
        raise refuse("B16", "name a monster of the fight with on:")


def _check_steed_enhancer(g: GameState, seat: int, inst: int, a: Action) -> None:
    if _own_in_play(g, seat, a.on, ("steed",)) is None:
        raise refuse("S5", "name one of your steeds with on:")


def _check_item_enhancer(g: GameState, seat: int, inst: int, a: Action) -> None:
    if _own_in_play(g, seat, a.on, ("item",)) is None:
        raise refuse("S5", "name one of your items with on:")


def _check_cheat(g: GameState, seat: int, inst: int, a: Action) -> None:
    if a.on is None:
        raise refuse("B17", "a Cheat! is attached to a card: name it with on:")
    if _own_in_play(g, seat, a.on, CHEATABLE) is not None:
        require_own_turn_calm(g, seat, "B17", "a Cheat! is attached")
        return
    in_hand = g.find(g.players[seat].hand, a.on or "")
    if not (in_hand is not None and g.cards[in_hand].type in CHEATABLE):
        raise refuse("B17", f"{a.on} is not an item, steed or hireling of yours")
    if g.cards[in_hand or 0].type != "hireling":
        require_own_turn_calm(g, seat, "B17", "a Cheat! is attached")


def _check_wandering(g: GameState, seat: int, inst: int, a: Action) -> None:
    if not in_fight(g):
        raise refuse("B16", "a Wandering Monster is played in a fight")
    monster = g.find(g.players[seat].hand, a.on or "")
    if not (monster is not None and g.cards[monster].type == "monster"):
        raise refuse("B16", "name a monster in your hand with on:")


def _check_divine(g: GameState, seat: int, inst: int, a: Action) -> None:
    """Divine Intervention acts as it is drawn and never stays in a hand; one a position put
    there may be played at any time, with the same effect (B16)."""


def _check_unplayable(g: GameState, seat: int, inst: int, a: Action) -> None:
    raise refuse("B4", f"{g.cards[inst].name} cannot be played; a monster is fought (look_for_trouble)")


Gate = Callable[[GameState, int], bool]
WHEN: dict[str, tuple[Gate, str, str]] = {
    "race": (own_turn, "B14", "a race is played on your own turn"),
    "class": (own_turn, "B14", "a class is played on your own turn"),
    "item": (own_turn_calm, "B11", "items are played only on your own turn, outside combat"),
    "steed": (own_turn_calm, "S8", "steeds are played only on your own turn, outside combat"),
    "steed_enhancer": (
        own_turn_calm,
        "S5",
        "steed enhancers are played only on your own turn, outside combat",
    ),
    "item_enhancer": (
        own_turn_calm,
        "B11",
        "item enhancers are played only on your own turn, outside combat",
    ),
}
"""Card types played only at set times of one's own turn (B11, B14, S5, S8): the gate, its
rule, and the refusal. The other types' timing depends on the card and is in their checks."""


def in_time(g: GameState, seat: int, kind: str) -> bool:
    when = WHEN.get(kind)
    return when is None or when[0](g, seat)


TypeCheck = Callable[[GameState, int, int, Action], None]
CHECKS: dict[str, TypeCheck] = {
    "race": _check_race_class,
    "class": _check_race_class,
    "other": _check_boost,
    "item": _check_item,
    "steed": _check_steed,
    "hireling": _check_hireling,
    "curse": _check_curse,
    "trap": _check_curse,
    "one_shot": _check_one_shot,
    "go_up_a_level": _check_go_up,
    "monster_enhancer": _check_monster_enhancer,
    "steed_enhancer": _check_steed_enhancer,
    "item_enhancer": _check_item_enhancer,
    "cheat": _check_cheat,
    "wandering_monster": _check_wandering,
    "divine_intervention": _check_divine,
    "monster": _check_unplayable,
}


def _do_race_class(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    is_race_card = g.cards[inst].type == "race"
    zone = p.races if is_race_card else p.classes
    slots = race_slots(g, p) if is_race_card else class_slots(g, p)
    while len(zone) >= slots:  # a new race or class replaces the old one (B14)
        discard(g, zone.pop(0))
    zone.append(inst)
    reconcile_use(g, seat, ev)


def _do_boost(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    """Half-Breed and the like stay in play; a race or class enhancer goes on its card."""
    enhances = g.cards[inst].enhances
    if enhances:
        trait = _enhanced_trait(g, seat, a.on, enhances)
        assert trait is not None
        g.attached.setdefault(trait, []).append(inst)
    else:
        g.players[seat].boosts.append(inst)


def _do_item(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    place_new_item(g, g.players[seat], inst)


def _do_steed(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    if can_use(g, p, inst):
        p.steeds.append(inst)
    else:
        p.carried.append(inst)


def _do_hireling(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    g.players[seat].hirelings.append(inst)


def _do_curse(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    """A curse hits its target at once; a lasting one stays in front of them (B15)."""
    target = _target(g, seat, a)
    hireling = g.find(g.players[target].hirelings, a.on) if a.on is not None else None
    curse_hits(g, target, inst, seat, ev, hireling)


def _do_one_shot(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    card = g.cards[inst]
    c = g.combat
    if c is not None and c.stage == "run" and card.uses == "run_away":
        c.played.append((inst, 0))
        if card.run_away:
            c.mods.append((seat, card.run_away, inst, "run bonus"))
        queue_effects(g, seat, card.effects, inst)
    elif c is not None and in_fight(g) and (card.bonus or card.uses == "combat"):
        c.played.append((inst, 1 if a.on else 0))
        queue_effects(g, seat, card.effects, inst)
    else:
        discard(g, inst)
        hireling = _own_in_play(g, seat, a.on, ("hireling",))
        if hireling is None:
            queue_effects(g, _target(g, seat, a), card.effects, inst, seat)
            return
        for effect in card.effects:  # a sex change may be used on a hireling (H15)
            if effect.kind == "change_sex":
                change_hireling_sex(g, hireling, ev, card.id)
            else:
                queue_effects(g, seat, [effect], inst, seat)


def _do_go_up(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    discard(g, inst)
    target = g.index(a.target) if g.cards[inst].on_other and a.target else seat
    gain_levels(g, target, g.cards[inst].levels, ev, g.cards[inst].id, may_win=False)


def _do_attach(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    """Monster, steed and item enhancers stay with what they enhance (B16, S5)."""
    target = (
        _monster_in_fight(g, a.on)
        if g.cards[inst].type == "monster_enhancer"
        else _own_in_play(g, seat, a.on, ("steed", "item"))
    )
    assert target is not None
    g.attached.setdefault(target, []).append(inst)


def _do_cheat(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    """Attach a Cheat!; a card still in the hand is played together with it (B17)."""
    p = g.players[seat]
    target = _own_in_play(g, seat, a.on, CHEATABLE)
    if target is None:
        target = g.find(p.hand, a.on or "")
        assert target is not None
        p.hand.remove(target)
        g.attached.setdefault(target, []).append(inst)
        kind = g.cards[target].type
        zone = {"item": p.equipped, "steed": p.steeds, "hireling": p.hirelings}[kind]
        zone.append(target)
    else:
        g.attached.setdefault(target, []).append(inst)
        if target in p.carried and g.cards[target].type in ("item", "steed"):
            p.carried.remove(target)
            (p.steeds if g.cards[target].type == "steed" else p.equipped).append(target)
    reconcile_use(g, seat, ev)


def _do_wandering(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    monster = g.find(p.hand, a.on or "")
    assert monster is not None
    p.hand.remove(monster)
    discard(g, inst)
    enter_monster(g, monster, ev)


def _do_divine(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    act_when_drawn(g, inst, ev)


TypeDo = Callable[[GameState, int, int, Action, list[Event]], None]
DOES: dict[str, TypeDo] = {
    "race": _do_race_class,
    "class": _do_race_class,
    "other": _do_boost,
    "item": _do_item,
    "steed": _do_steed,
    "hireling": _do_hireling,
    "curse": _do_curse,
    "trap": _do_curse,
    "one_shot": _do_one_shot,
    "go_up_a_level": _do_go_up,
    "monster_enhancer": _do_attach,
    "steed_enhancer": _do_attach,
    "item_enhancer": _do_attach,
    "cheat": _do_cheat,
    "wandering_monster": _do_wandering,
    "divine_intervention": _do_divine,
}
