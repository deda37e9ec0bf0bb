"""Asking for help, with a bribe of treasures (B8)."""

from __future__ import annotations

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules.combat import reopen_window, treasure_count, unhelpable
from munchkin.engine.rules.items import pick_handed, receive_problem, require_fits
from munchkin.engine.rules.strength import munchkins_win
from munchkin.engine.state import GameState
from munchkin.engine.timing import free_to_act, in_fight
from munchkin.engine.verbs import holds, refuse, register, seat_of, single


def check_ask(g: GameState, seat: int, a: Action) -> None:
    _may_ask(g, seat)
    _check_helper(g, seat, a)


def _may_ask(g: GameState, seat: int) -> None:
    """Whether the fighter may ask anyone now (B8)."""
    c = g.combat
    if not (in_fight(g) and c is not None and c.fighter == seat and free_to_act(g, seat)):
        raise refuse("B8", "only the fighter asks for help, during the fight")
    assert c is not None
    if not (c.helper is None and c.asked is None):
        raise refuse("B8", "only one other player may help")
    if unhelpable(g):
        raise refuse("B8", "nobody may help against this monster")
    if munchkins_win(g):
        raise refuse("B8", "one cannot ask for help once winning")


def _check_helper(g: GameState, seat: int, a: Action) -> None:
    """Whether this player may be asked, with this bribe (B8)."""
    helper = seat_of(g, a.arg, "B8")
    _may_be_asked(g, seat, helper)
    if not (0 <= a.reward <= treasure_count(g)):
        raise refuse("B8", "the bribe is some of the fight's treasures")
    if a.give:
        promised = pick_handed(g, seat, a.give, "B8")
        require_fits(
            receive_problem(g, helper, promised, []), f"{g.players[helper].name} could not hold the bribe: "
        )
        require_fits(receive_problem(g, seat, [], promised), "you could not hold what is left: ")


def _may_be_asked(g: GameState, seat: int, helper: int) -> None:
    """Whether the fighter may ask this player, whatever the bribe (B8)."""
    if not (helper != seat and not g.players[helper].dead):
        raise refuse("B8", "ask another living player")
    c = g.combat
    asks = g.options.help_asks
    if not (c is None or c.declined.count(helper) < asks):
        raise refuse(
            "B8", f"they declined already: each player is asked {asks} time{'s' * (asks > 1)} a fight"
        )


def do_ask(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    c = g.combat
    assert c is not None
    c.asked = g.index(a.arg or "")
    c.reward = a.reward
    c.bribe = tuple(pick_handed(g, seat, a.give, "B8"))
    ev.append(
        Event(
            "help_asked",
            {"player": g.players[seat].name, "helper": a.arg, "reward": a.reward, "items": list(a.give)},
        )
    )


def ask_options(g: GameState, seat: int) -> list[Action]:
    """Every other player, with every share of the treasures as a bribe, and no items
    (checked here with the parts of `check_ask`)."""
    c = g.combat
    if c is None or c.fighter != seat or not holds(_may_ask, g, seat):
        return []
    rewards = range(treasure_count(g) + 1)
    return [
        action("ask_help", q.name, reward=reward)
        for helper, q in enumerate(g.players)
        if holds(_may_be_asked, g, seat, helper)
        for reward in rewards
    ]


def check_answer(g: GameState, seat: int, a: Action) -> None:
    if not (g.combat is not None and g.combat.asked == seat):
        raise refuse("B8", "nobody asked you for help")


def do_accept(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    c = g.combat
    assert c is not None
    c.helper, c.asked = seat, None
    ev.append(Event("help_accepted", {"player": g.players[seat].name, "reward": c.reward}))
    reopen_window(g)


def do_decline(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    c = g.combat
    assert c is not None
    c.asked, c.reward = None, 0
    c.declined = (*c.declined, seat)
    ev.append(Event("help_declined", {"player": g.players[seat].name}))


def _asked(g: GameState, seat: int) -> bool:
    return g.combat is not None and g.combat.asked == seat


register("ask_help", check_ask, do_ask, ask_options, prechecked=True)
register("accept_help", check_answer, do_accept, single("accept_help", _asked))
register("decline_help", check_answer, do_decline, single("decline_help", _asked))
