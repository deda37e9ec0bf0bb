"""Hirelings: sacrifice to escape, discard at any time (H3, H4, H9)."""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.effects import lose_card
from munchkin.engine.rules.run_away import ran_task
from munchkin.engine.state import GameState
from munchkin.engine.verbs import refuse, register


def check_sacrifice(g: GameState, seat: int, a: Action) -> None:
    c = g.combat
    losing = c is not None and c.stage == "run" and c.runners[:1] == [seat] and not g.tasks
    if not (losing and c is not None and c.fighter == seat):
        raise refuse("H4", "the fighter sacrifices a hireling after losing, instead of running away")
    if g.find(g.players[seat].hirelings, a.arg or "") is None:
        raise refuse("H4", f"{a.arg} is not a hireling of yours")


def do_sacrifice(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    """The hireling goes with all it carries; the fighter escapes every monster, and the
    helper too when the fighter says so (H4, H9)."""
    c = g.combat
    assert c is not None
    inst = g.find(g.players[seat].hirelings, a.arg or "")
    assert inst is not None
    ev.append(Event("hireling_sacrificed", {"player": g.players[seat].name, "card": a.arg}))
    lose_card(g, seat, inst, ev, "sacrifice")
    if c.helper is not None and a.helper_escapes and c.helper in c.runners:
        ev.append(Event("escaped", {"player": g.players[c.helper].name, "card": None, "automatic": True}))
        ran_task(g, c.helper, ev)
    ran_task(g, seat, ev)


def sacrifice_options(g: GameState, seat: int) -> Iterator[Action]:
    c = g.combat
    if c is None or c.stage != "run" or c.fighter != seat:
        return
    for card_id in g.distinct_ids(g.players[seat].hirelings):
        yield action("sacrifice_hireling", card_id)
        if c is not None and c.helper is not None:
            yield action("sacrifice_hireling", card_id, helper_escapes=True)


register("sacrifice_hireling", check_sacrifice, do_sacrifice, sacrifice_options)
