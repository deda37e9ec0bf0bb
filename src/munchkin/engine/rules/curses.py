"""Curses: their target is hit at once, unless someone answers first (B15, H11; digest
§2.5 for the curses that stay to strike later)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.effects import change_hireling_sex, queue_effects
from munchkin.engine.rules.items import discard, reconcile_use
from munchkin.engine.rules.responses import wait_for_answers
from munchkin.engine.state import GameState, Pending


def curse_hits(
    g: GameState, target: int, inst: int, caster: int | None, ev: list[Event], hireling: int | None = None
) -> None:
    """`caster` played the curse; none when it was drawn face up (B15, H11); `hireling`: a
    sex change played on one of the target's hirelings (H15). Whoever holds a card that
    cancels curses may answer first."""
    if caster is not None:
        _doom(g, target, inst, caster)
    on = -1 if hireling is None else hireling
    if not wait_for_answers(g, Pending("curse", caster, inst, other=target, value=on)):
        curse_takes_effect(g, target, inst, caster, ev, hireling)


def _doom(g: GameState, target: int, inst: int, caster: int) -> None:
    """A curse played on someone else also hits each player under a `doom` curse, even if it
    is cancelled for its target or does nothing to them; then the doom goes. A lasting
    effect stays with the doomed player on the doom card itself (digest §2.5, §4.31)."""
    effects = g.cards[inst].effects
    for seat, q in enumerate(g.players):
        doom = next((src for kind, _, src in q.lasting if kind == "doom"), None)
        if seat == target or doom is None or q.dead:
            continue
        q.lasting = [entry for entry in q.lasting if entry[2] != doom]
        q.lasting += [(e.kind, int(e.arg), doom) for e in effects if e.lasting]
        if doom in q.curses and not any(e.lasting for e in effects):
            q.curses.remove(doom)
            discard(g, doom)
        queue_effects(g, seat, [e for e in effects if not e.lasting], inst, caster)


def curse_takes_effect(
    g: GameState, target: int, inst: int, caster: int | None, ev: list[Event], hireling: int | None = None
) -> None:
    """The curse hits its target, or the sex of the target's hireling it was played on; a
    lasting one stays in front of them (B15, H15)."""
    card = g.cards[inst]
    if any(e.lasting for e in card.effects):
        g.players[target].curses.append(inst)
    else:
        discard(g, inst)
    effects = list(card.effects)
    if hireling is not None:  # gone from play meanwhile, it has no sex left to change (H3)
        if hireling in g.players[target].hirelings:
            change_hireling_sex(g, hireling, ev, card.id)
            reconcile_use(g, target, ev)
        effects = [e for e in effects if e.kind != "change_sex"]
    queue_effects(g, target, effects, inst, caster)
