"""The effect vocabulary of card-format.md: Bad Stuff, curses, one-shots (B9, B10, B15, H13).

Effects run as queued tasks, so one that needs the victim's choice can stop
for a prompt and the rest follow once it is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from munchkin.cards.schema import Condition, Effect
from munchkin.engine.events import Event
from munchkin.engine.rules.character import classes, full_traits, gain_levels, half_traits, lose_levels, races
from munchkin.engine.rules.items import (
    WORN_SLOTS,
    can_use,
    discard,
    receive_problem,
    reconcile_use,
    remove_from_play,
)
from munchkin.engine.state import GameState, PlayerState, Prompt

Hook = Callable[[GameState, int, int, list[Event]], None]
HOOKS: dict[str, Hook] = {}
"""Named effects implemented in code, for cards the vocabulary cannot express."""


def register_hook(name: str) -> Callable[[Hook], Hook]:
    """Register a named effect hook (`effect_hook:` in a card file)."""

    def wrap(fn: Hook) -> Hook:
        HOOKS[name] = fn
        return fn

    return wrap


def queue_effects(
    g: GameState, seat: int, effects: Sequence[Effect], source: int, caster: int | None = None
) -> None:
    """Queue effects on a player, ahead of any task already waiting. `caster` is the player
    who played the card (none for a monster's Bad Stuff)."""
    g.tasks[0:0] = [("effect", seat, e, source, caster) for e in effects]


def condition_holds(g: GameState, p: PlayerState, cond: Condition, strict: bool = False) -> bool:
    """A conditional effect's test: the character's own traits, never a hireling's (H14);
    `strict`: leaving out a race or class held alone beside Half-Breed or Super Munchkin."""
    race_ids, class_ids = full_traits(g, p) if strict else (races(g, p), classes(g, p))
    return (
        bool(race_ids.intersection(cond.race))
        or bool(class_ids.intersection(cond.class_))
        or (cond.sex is not None and p.sex == cond.sex)
        or (cond.level_at_least is not None and p.level >= cond.level_at_least)
    )


def _conditional(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    """The branch that applies. When only a race or class held alone beside Half-Breed or
    Super Munchkin makes the test hold, its owner, who has its advantages and none of its
    disadvantages, chooses whether it counts (B14)."""
    p, arg = g.players[seat], effect.arg
    if condition_holds(g, p, arg.if_) and not condition_holds(g, p, arg.if_, strict=True):
        half = "/".join(sorted(half_traits(g, p) & (set(arg.if_.race) | set(arg.if_.class_))))
        options = (f"as {half}", f"not as {half}")
        g.prompt = Prompt(seat, "half_trait", options, (source, caster, effect))
        return
    branch = arg.then if condition_holds(g, p, arg.if_) else arg.else_
    queue_effects(g, seat, branch, source, caster)


def answer_half_trait(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """The owner's choice of branch for a half race or class (B14)."""
    source, caster, effect = prompt.data
    assert isinstance(source, int) and (caster is None or isinstance(caster, int))
    assert isinstance(effect, Effect)
    branch = effect.arg.then if option == prompt.options[0] else effect.arg.else_
    queue_effects(g, prompt.player, branch, source, caster)


def apply_effect(
    g: GameState, seat: int, effect: Effect, source: int, caster: int | None, ev: list[Event]
) -> None:
    """Apply one effect to a player; may leave a prompt open for the victim's choice."""
    p = g.players[seat]
    if p.dead:
        return
    kind, arg, src = effect.kind, effect.arg, g.defs[source].id
    if kind == "lose_levels":
        lose_levels(g, seat, arg, ev, src)
    elif kind == "gain_levels":
        gain_levels(g, seat, arg, ev, src, may_win=False)
    elif kind == "die":
        kill(g, seat, ev, src)
    elif kind == "lose":
        _lose(g, seat, arg, source, ev)
    elif kind in ("hireling_dies", "steal_hireling") and p.hirelings:
        prompt_kind = "kill_hireling" if kind == "hireling_dies" else "turn_hireling"
        _choose_or_do(g, seat, p.hirelings, prompt_kind, source, ev, caster)
    elif kind == "change_sex":
        p.sex = "female" if p.sex == "male" else "male"
        ev.append(Event("sex_changed", {"player": p.name, "sex": p.sex, "source": src}))
        reconcile_use(g, seat, ev)
    elif kind in ("lose_class", "lose_race"):
        zone = p.classes if kind == "lose_class" else p.races
        if zone:
            _choose_or_do(g, seat, zone, "lose_card", source, ev)
    elif kind in ("run_away", "combat"):
        p.lasting.append((kind, arg, source))
        ev.append(Event("lasting_penalty", {"player": p.name, "kind": kind, "amount": arg, "source": src}))
    elif kind == "escape":
        if g.combat is not None and seat not in g.combat.escaped:
            g.combat.escaped.append(seat)
    elif kind == "draw_treasures":
        from munchkin.engine.rules.decks import draw_to_hand

        draw_to_hand(g, seat, "treasure", arg, ev)
    elif kind == "remove_curse":
        if p.curses:
            _choose_or_do(g, seat, p.curses, "remove_curse", source, ev)
    elif kind == "conditional":
        _conditional(g, seat, effect, source, caster, ev)


def _lose(g: GameState, seat: int, what: str, source: int, ev: list[Event]) -> None:
    """`lose: SLOT`: the victim loses one such card of theirs, by their choice (B15, H8, H17)."""
    p = g.players[seat]
    if what == "hand_cards":
        for inst in p.hand:
            discard(g, inst)
        ev.append(Event("hand_lost", {"player": p.name, "count": len(p.hand)}))
        p.hand.clear()
        return
    if what == "hireling":
        for h in list(p.hirelings):  # with several in play, all are lost (H17)
            lose_card(g, seat, h, ev, g.defs[source].id)
        return
    candidates = [i for i in g.items_in_play(p) if _is_kind(g, i, what)]
    if candidates:
        _choose_or_do(g, seat, candidates, "lose_card", source, ev)


def _is_kind(g: GameState, inst: int, what: str) -> bool:
    card = g.defs[inst]
    if what in WORN_SLOTS or what == "hands":
        return card.slot == what
    if what == "big":
        return card.big
    if what == "steed":
        return card.type == "steed"
    return card.is_item  # "item": any


def _choose_or_do(
    g: GameState,
    seat: int,
    candidates: list[int],
    kind: str,
    source: int,
    ev: list[Event],
    caster: int | None = None,
) -> None:
    """Ask the victim which card, unless there is only one answer (scenario-format.md)."""
    options = tuple(g.distinct_ids(candidates))
    prompt = Prompt(seat, kind, options, (source, caster))
    if len(options) == 1:
        finish_choice(g, prompt, options[0], ev)
    else:
        g.prompt = prompt


def finish_choice(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """Carry out the victim's answer: which card is lost, killed, turned or freed."""
    p = g.players[prompt.player]
    source, caster = prompt.data
    assert isinstance(source, int) and (caster is None or isinstance(caster, int))
    if prompt.kind == "remove_curse":
        inst = g.find(p.curses, option)
        assert inst is not None
        p.curses.remove(inst)
        p.lasting = [entry for entry in p.lasting if entry[2] != inst]
        discard(g, inst)
        ev.append(Event("curse_removed", {"player": p.name, "card": option}))
        return
    if prompt.kind in ("kill_hireling", "turn_hireling"):
        hireling = g.find(p.hirelings, option)
        assert hireling is not None
        if prompt.kind == "kill_hireling":
            hireling_killed(g, prompt.player, hireling, ev, g.defs[source].id)
        elif caster is not None and caster != prompt.player and not g.players[caster].dead:
            hireling_turned(g, prompt.player, caster, hireling, ev)
        else:
            lose_card(g, prompt.player, hireling, ev, g.defs[source].id)
        return
    inst = next(i for i in [*g.items_in_play(p), *p.races, *p.classes] if g.defs[i].id == option)
    lose_card(g, prompt.player, inst, ev, g.defs[source].id)


def hireling_killed(g: GameState, seat: int, hireling: int, ev: list[Event], source: str) -> None:
    """A killed hireling's owner loots the body: its items become carried items (H10)."""
    p = g.players[seat]
    items = g.carrying.pop(hireling, [])
    p.carried.extend(items)
    ev.append(
        Event(
            "hireling_killed",
            {
                "player": p.name,
                "card": g.defs[hireling].id,
                "source": source,
                "items": [g.defs[i].id for i in items],
            },
        )
    )
    part_with(g, seat, hireling, ev)


def hireling_turned(g: GameState, seat: int, new_master: int, hireling: int, ev: list[Event]) -> None:
    """A hireling changes loyalty and goes to its new master with what it carries (H11)."""
    p, q = g.players[seat], g.players[new_master]
    p.hirelings.remove(hireling)
    q.hirelings.append(hireling)
    ev.append(Event("hireling_turned", {"player": p.name, "card": g.defs[hireling].id, "to": q.name}))
    reconcile_use(g, seat, ev)
    reconcile_use(g, new_master, ev)


def change_hireling_sex(g: GameState, hireling: int, ev: list[Event], source: str) -> None:
    """A sex change works on a hireling too; a hireling of no sex stays so (H15, R22)."""
    sex = g.card_sex.get(hireling, g.defs[hireling].sex)
    if sex in ("male", "female"):
        g.card_sex[hireling] = "female" if sex == "male" else "male"
        ev.append(
            Event(
                "sex_changed",
                {"player": g.defs[hireling].name, "sex": g.card_sex[hireling], "source": source},
            )
        )


def lose_card(g: GameState, seat: int, inst: int, ev: list[Event], source: str) -> None:
    """A card in play is lost to the discard pile, with what it carries (H11)."""
    ev.append(Event("card_lost", {"player": g.players[seat].name, "card": g.defs[inst].id, "source": source}))
    part_with(g, seat, inst, ev)


def part_with(g: GameState, seat: int, inst: int, ev: list[Event]) -> None:
    """A card leaves play for the discard pile, what it carries with it, and its owner's
    items are brought back within the limits (H6, H11)."""
    p = g.players[seat]
    remove_from_play(g, p, inst)
    for carried in g.carrying.pop(inst, ()):
        discard(g, carried)
    discard(g, inst)
    reconcile_use(g, seat, ev)


def kill(g: GameState, seat: int, ev: list[Event], source: str) -> None:
    """Death: the hand and everything in play go to the body, which the others loot (B10).
    Items a hireling carries and cards attached to others (a Cheat!) are laid out as cards
    of their own; a steed keeps its steed enhancers."""
    p = g.players[seat]
    in_play = g.items_in_play(p) + p.hirelings
    laid_out: list[int] = []
    for inst in in_play:
        kept: list[int] = []
        for attached in g.attached.pop(inst, ()):
            steed_gear = g.defs[inst].type == "steed" and g.defs[attached].type == "steed_enhancer"
            (kept if steed_gear else laid_out).append(attached)
        if kept:
            g.attached[inst] = kept
    for h in p.hirelings:
        g.carrying.pop(h, None)
        g.card_sex.pop(h, None)
    body = p.hand + in_play + laid_out
    for zone in (p.hand, p.equipped, p.carried, p.steeds, p.hirelings):
        zone.clear()
    g.body.extend(body)
    p.dead = True
    ev.append(Event("died", {"player": p.name, "source": source}))
    looters = [i for i, q in enumerate(g.players) if i != seat and not q.dead]
    order = looting_order(g, seat, looters, ev) if g.body else looters
    g.tasks[0:0] = [*(("loot", looter) for looter in order), ("discard_body",)]


def looting_order(g: GameState, dead: int, looters: list[int], ev: list[Event]) -> list[int]:
    """Highest level first; players tied in level roll the game's dice, highest first, again
    among those who tie again (B10), or follow the seats from the dead player's left when the
    table chose so."""
    n = len(g.players)
    by_seat = sorted(looters, key=lambda i: (i - dead) % n)
    order: list[int] = []
    for level in sorted({g.players[i].level for i in looters}, reverse=True):
        tied = [i for i in by_seat if g.players[i].level == level]
        order += _roll_off(g, tied, ev) if g.options.loot_ties == "dice" else tied
    return order


def _roll_off(g: GameState, tied: list[int], ev: list[Event]) -> list[int]:
    """Players in the order of a die each, highest first; a tie rolls again (B10)."""
    if len(tied) < 2:
        return tied
    rolls: dict[int, list[int]] = {}
    for seat in tied:
        roll = g.dice.d6()
        ev.append(
            Event(
                "die_rolled",
                {"player": g.players[seat].name, "purpose": "looting order", "roll": roll, "modifier": 0},
            )
        )
        rolls.setdefault(roll, []).append(seat)
    return [seat for roll in sorted(rolls, reverse=True) for seat in _roll_off(g, rolls[roll], ev)]


def loot_task(g: GameState, looter: int, ev: list[Event]) -> None:
    """Each other player, in the looting order, takes one card of the body (B10)."""
    if not g.body:
        return
    options = tuple(g.distinct_ids(g.body))
    if len(options) == 1:
        take_loot(g, looter, options[0], ev)
    else:
        g.prompt = Prompt(looter, "loot", options)


def take_loot(g: GameState, looter: int, card_id: str, ev: list[Event]) -> None:
    """A looted card goes to the hand; a steed the looter may ride goes into play with its
    steed enhancers (B10, S5), else to the hand, and its enhancers are discarded."""
    inst = g.find(g.body, card_id)
    assert inst is not None
    g.body.remove(inst)
    q = g.players[looter]
    if (
        g.defs[inst].type == "steed"
        and can_use(g, q, inst)
        and receive_problem(g, looter, [inst], []) is None
    ):
        q.steeds.append(inst)
    else:
        for attached in g.attached.pop(inst, ()):
            discard(g, attached)
        q.hand.append(inst)
    ev.append(Event("looted", {"player": q.name, "card": card_id}))


def discard_body(g: GameState) -> None:
    """What nobody looted is discarded (B10)."""
    for inst in g.body:
        discard(g, inst)
    g.body.clear()
