"""Cards a player may simply discard: races and classes (B14), hirelings (H3), and a
steed before a run-away roll (S7)."""

from __future__ import annotations

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.effects import part_with
from munchkin.engine.rules.items import discard, reconcile_use
from munchkin.engine.rules.run_away import steed_run_away
from munchkin.engine.state import GameState
from munchkin.engine.timing import another_is_asked, free_to_act
from munchkin.engine.verbs import refuse, register


def _about_to_run(g: GameState, seat: int) -> bool:
    c = g.combat
    return c is not None and c.stage == "run" and c.runners[:1] == [seat] and not g.tasks


def _may_discard(g: GameState, seat: int) -> bool:
    return (free_to_act(g, seat) and g.prompt is None) or another_is_asked(g, seat)


def discardable(g: GameState, seat: int) -> list[int]:
    """The cards a player may discard now: races, classes, boosts and hirelings whenever
    free to act or while another decides (R56), a steed with a run-away penalty only just
    before a run-away roll (B14, H3, S7)."""
    if not _may_discard(g, seat):
        return []
    p = g.players[seat]
    cards = p.races + p.classes + p.boosts + p.hirelings
    if _about_to_run(g, seat):  # a steed with a run-away penalty, to avoid it (S7)
        cards += [s for s in p.steeds if steed_run_away(g, s) < 0]
    return cards


def check_discard(g: GameState, seat: int, a: Action) -> None:
    if g.find(discardable(g, seat), a.arg or "") is not None:
        return
    if not _may_discard(g, seat):
        raise refuse("B14", "wait: another decision is open")
    p = g.players[seat]
    if g.find(p.steeds, a.arg or "") is not None:
        raise refuse("S7", "only a steed with a run-away penalty is discarded, just before rolling")
    if any(g.find(q.hirelings, a.arg or "") is not None for q in g.players):
        raise refuse("H3", f"{a.arg} is not your hireling: only its owner discards it")
    if g.find(g.items_in_play(p), a.arg or "") is not None:
        raise refuse("B11", f"{a.arg} is an item: items cannot simply be discarded")
    raise refuse("B14", f"{a.arg} is not a card of yours you may discard now")


def do_discard(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    p = g.players[seat]
    inst = g.find(p.races + p.classes + p.boosts + p.hirelings + p.steeds, a.arg or "")
    assert inst is not None
    if inst in p.hirelings or inst in p.steeds:
        ev.append(Event("card_discarded", {"player": p.name, "card": a.arg}))
        part_with(g, seat, inst, ev)  # a hireling's items go with it (H11)
        return
    for zone in (p.races, p.classes, p.boosts):
        if inst in zone:
            zone.remove(inst)
    discard(g, inst)
    ev.append(Event("card_discarded", {"player": p.name, "card": a.arg}))
    reconcile_use(g, seat, ev)


def discard_options(g: GameState, seat: int) -> list[Action]:
    return [action("discard", card_id) for card_id in g.ids(discardable(g, seat))]


register("discard", check_discard, do_discard, discard_options, prechecked=True)
