"""The effect vocabulary of card-format.md: Bad Stuff, curses, one-shots (B9, B10, B15, H13).

Effects run as queued tasks, so one that needs the victim's choice can stop
for a prompt and the rest follow once it is answered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from munchkin.cards.schema import Condition, Effect
from munchkin.engine.events import Event
from munchkin.engine.rules.character import classes, full_traits, gain_levels, half_traits, lose_levels, races
from munchkin.engine.rules.death import kill
from munchkin.engine.rules.items import (
    WORN_SLOTS,
    discard,
    handed_items,
    reconcile_use,
    remove_from_play,
    used_by_hirelings,
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


Word = Callable[[GameState, int, Effect, int, "int | None", list[Event]], None]
WORDS: dict[str, Word] = {}
"""Effect words carried out by other modules (player_effects.py), by effect kind."""


def register_word(kind: str) -> Callable[[Word], Word]:
    """Carry out effects of this kind with the decorated function."""

    def wrap(fn: Word) -> Word:
        WORDS[kind] = fn
        return fn

    return wrap


def immunities(g: GameState, seat: int) -> frozenset[str]:
    """Effect words of curses that do not affect the player: `immune_to` of the items and
    steeds in use, the hirelings in play and the items they use for their owner (digest
    §2.5, H8)."""
    p = g.players[seat]
    cards = [*p.equipped, *used_by_hirelings(g, p), *p.steeds, *p.hirelings]
    return frozenset(word for i in cards for word in g.cards[i].immune_to)


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
    kind, arg, src = effect.kind, effect.arg, g.cards[source].id
    if g.cards[source].type in ("curse", "trap") and kind in immunities(g, seat):
        ev.append(Event("immune", {"player": p.name, "card": src, "effect": kind}))
        return
    if kind in WORDS:
        WORDS[kind](g, seat, effect, source, caster, ev)
    elif kind == "lose_levels":
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
    elif kind in ("lose_class", "lose_race"):  # every class (race) card in play goes
        for inst in list(p.classes if kind == "lose_class" else p.races):
            lose_card(g, seat, inst, ev, src)
    elif effect.lasting:
        p.lasting.append((kind, int(arg), source))
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
    """`lose: SLOT`: the victim loses one such card of theirs, by their choice; for a worn
    slot or hands, one in use (the headgear "you are wearing") (B15, H8, H17)."""
    p = g.players[seat]
    if what == "hand_cards":
        for inst in p.hand:
            discard(g, inst)
        ev.append(Event("hand_lost", {"player": p.name, "count": len(p.hand)}))
        p.hand.clear()
        return
    if what == "hireling":
        for h in list(p.hirelings):  # with several in play, all are lost (H17)
            lose_card(g, seat, h, ev, g.cards[source].id)
        return
    pool = g.items_in_play(p) if what in ("big", "steed", "item") else g.items_in_use(p)
    if what == "item" and g.cards[source].type not in ("monster", "steed"):
        pool = handed_items(g, seat)  # a hireling of gold value is an Item (H5), spared by Bad Stuff (H13)
    candidates = [i for i in pool if _is_kind(g, i, what)]
    if candidates:
        _choose_or_do(g, seat, candidates, "lose_card", source, ev)


def _is_kind(g: GameState, inst: int, what: str) -> bool:
    card = g.cards[inst]
    if what in WORN_SLOTS or what == "hands":
        return card.takes(what)
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
            hireling_killed(g, prompt.player, hireling, ev, g.cards[source].id)
        elif caster is not None and caster != prompt.player and not g.players[caster].dead:
            hireling_turned(g, prompt.player, caster, hireling, ev)
        else:
            lose_card(g, prompt.player, hireling, ev, g.cards[source].id)
        return
    inst = next(
        i for i in [*g.items_in_play(p), *p.hirelings, *p.races, *p.classes] if g.cards[i].id == option
    )
    lose_card(g, prompt.player, inst, ev, g.cards[source].id)


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
                "card": g.cards[hireling].id,
                "source": source,
                "items": [g.cards[i].id for i in items],
            },
        )
    )
    part_with(g, seat, hireling, ev)


def hireling_turned(g: GameState, seat: int, new_master: int, hireling: int, ev: list[Event]) -> None:
    """A hireling changes loyalty and goes to its new master with what it carries (H11)."""
    p, q = g.players[seat], g.players[new_master]
    p.hirelings.remove(hireling)
    q.hirelings.append(hireling)
    ev.append(Event("hireling_turned", {"player": p.name, "card": g.cards[hireling].id, "to": q.name}))
    reconcile_use(g, seat, ev)
    reconcile_use(g, new_master, ev)


def change_hireling_sex(g: GameState, hireling: int, ev: list[Event], source: str) -> None:
    """A sex change works on a hireling too; a hireling of no sex stays so (H15, R22)."""
    sex = g.card_sex.get(hireling, g.cards[hireling].sex)
    if sex in ("male", "female"):
        g.card_sex[hireling] = "female" if sex == "male" else "male"
        ev.append(
            Event(
                "sex_changed",
                {"player": g.cards[hireling].name, "sex": g.card_sex[hireling], "source": source},
            )
        )


def lose_card(g: GameState, seat: int, inst: int, ev: list[Event], source: str) -> None:
    """A card in play is lost to the discard pile, with what it carries (H11)."""
    ev.append(
        Event("card_lost", {"player": g.players[seat].name, "card": g.cards[inst].id, "source": source})
    )
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
