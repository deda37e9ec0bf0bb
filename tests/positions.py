"""Sessions brought to a position the interface tests need (Ann, the human, losing her own
fight; free to trade on her turn; about to replace her race...), found by playing seeded
games: Ann plays every card she can before the first turn, then takes the quiet default
(`words.menus.default_action`), and heuristic bots play the other seats.

Each finder tries seeds in order and returns the first session that gets there; the seeds are
few, so the search takes well under a second or two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from munchkin.engine.actions import Action
from munchkin.engine.options import DEFAULT_OPTIONS, TableOptions
from munchkin.session import Seat, Session
from munchkin.store import Store
from munchkin.words.menus import default_action

BOTS = (
    Seat("Bob", "male", "bot:heuristic"),
    Seat("Cid", "male", "bot:heuristic"),
    Seat("Dee", "female", "bot:heuristic"),
)
SOLO = (Seat("Ann", "female", "human"), *BOTS)
MAX_STEPS = 600

Want = Callable[[Session], bool]


def annes_choice(session: Session) -> Action:
    """Ann's decision: a card played before the first turn, else the quiet default."""
    view = session.view("Ann")
    if view.data["phase"] == "setup":
        plays = [a for a in view.legal if a.verb == "play"]
        if plays:
            return plays[0]
    chosen = default_action(view.legal) or view.legal[0]
    if chosen.verb == "resolve_combat":
        return chosen
    return chosen


def reach(
    want: Want,
    seeds: Sequence[int] = range(1, 60),
    options: TableOptions = DEFAULT_OPTIONS,
    store: Store | None = None,
    seats: Sequence[Seat] = SOLO,
    sets: Sequence[str] = ("base",),
    choose: Callable[[Session], Action] = annes_choice,
) -> Session:
    """The first seeded game in which `want(session)` holds while Ann is to decide."""
    for seed in seeds:
        session = Session.start(seats, sets, seed, store, options)
        for _ in range(MAX_STEPS):
            session.step_bots()
            if session.over:
                break
            if "Ann" in session.waiting_humans() and want(session):
                return session
            session.apply("Ann", choose(session))
    raise AssertionError("no seed reaches the position")


def fighting_and_losing(session: Session) -> bool:
    """Ann fights her own fight, losing it, and may still ask for help."""
    view = session.view("Ann")
    combat = view.data["combat"]
    if combat is None or combat["fighter"] != "Ann" or combat["stage"] != "fight":
        return False
    advice = view.advice["combat"]
    return not advice["wins"] and any(a.verb == "ask_help" for a in view.legal)


def about_to_kick_into_a_strong_monster(session: Session) -> bool:
    """Ann is to kick open the door, and the top door card is a monster of level 10 or more."""
    state = session._run.game.state  # the true deck: a test may look
    if not any(a.verb == "kick_door" for a in session.view("Ann").legal) or not state.door_deck:
        return False
    top = state.cards[state.door_deck[-1]]
    return top.type == "monster" and (top.level or 0) >= 10


def may_trade(session: Session) -> bool:
    view = session.view("Ann")
    return any(a.verb == "trade" and a.take for a in view.legal)


def replaces(session: Session) -> bool:
    view = session.view("Ann")
    return any(c["kind"] == "replaces" for found in view.advice["warnings"].values() for c in found)


def greyed(session: Session) -> bool:
    view = session.view("Ann")
    return view.data["phase"] != "setup" and len(view.advice["why_not"]) >= 2


def plays_into_her_fights(session: Session) -> Action:
    """Ann's decision, playing the first card she may into a fight of hers."""
    view = session.view("Ann")
    combat = view.data["combat"]
    if combat is not None and combat["fighter"] == "Ann" and combat["stage"] == "fight":
        plays = [a for a in view.legal if a.verb == "play" and a.target is None and a.on is None]
        if plays:
            return plays[0]
    return annes_choice(session)


def fight_with_played(session: Session) -> bool:
    """Ann fights, and a card was played into her fight."""
    combat = session.view("Ann").data["combat"]
    return combat is not None and combat["fighter"] == "Ann" and bool(combat["played"])


def finished(store: Store | None = None) -> Session:
    """A game two players won together (B2), Ann's seat human: the first shared-win game
    between random bots at a low win level, played again decision by decision."""
    from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

    bots_only = Session.start(RANDOM_BOTS, ["base"], shared_win_seed(), options=LOW_WIN)
    bots_only.run_to_end()
    seats = (Seat("Ann", "female", "human"), *RANDOM_BOTS[1:])
    session = Session.start(seats, ["base"], bots_only.seed, store, LOW_WIN)
    for decision in bots_only.decisions:
        if decision.player == "Ann":
            session.apply("Ann", decision.action)
        else:
            session.step_bots(limit=1)
    assert session.over and session.winners == bots_only.winners
    return session
