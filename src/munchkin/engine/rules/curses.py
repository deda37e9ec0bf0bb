"""Curses: their target is hit at once, unless someone answers first (B15, H11; digest
§2.5 for the curses that stay to strike later)."""

from __future__ import annotations

from munchkin.engine.rules.effects import queue_effects
from munchkin.engine.rules.items import discard
from munchkin.engine.rules.responses import wait_for_answers
from munchkin.engine.state import GameState, Pending


def curse_hits(g: GameState, target: int, inst: int, caster: int | None) -> None:
    """`caster` played the curse; none when it was drawn face up (B15, H11). Whoever holds a
    card that cancels curses may answer first."""
    if caster is not None:
        _doom(g, target, inst, caster)
    if not wait_for_answers(g, Pending("curse", caster, inst, other=target)):
        curse_takes_effect(g, target, inst, caster)


def _doom(g: GameState, target: int, inst: int, caster: int) -> None:
    """A curse played on someone else also hits each player under a `doom` curse, which then
    goes, even if the curse is cancelled for its target or does nothing to them; lasting
    effects stay with the target alone (digest §2.5, §4.31)."""
    for seat, q in enumerate(g.players):
        doom = next((src for kind, _, src in q.lasting if kind == "doom"), None)
        if seat == target or doom is None or q.dead:
            continue
        q.lasting = [entry for entry in q.lasting if entry[2] != doom]
        if doom in q.curses:
            q.curses.remove(doom)
            discard(g, doom)
        queue_effects(g, seat, [e for e in g.defs[inst].effects if not e.lasting], inst, caster)


def curse_takes_effect(g: GameState, target: int, inst: int, caster: int | None) -> None:
    """The curse hits its target; a lasting one stays in front of them (B15)."""
    card = g.defs[inst]
    if any(e.lasting for e in card.effects):
        g.players[target].curses.append(inst)
    else:
        discard(g, inst)
    queue_effects(g, target, card.effects, inst, caster)
