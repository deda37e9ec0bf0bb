"""Who may act now, and what happens by itself in between decisions.

One generic mechanism, not code per card: a *response window*. When a monster
enters a fight, after each card played into it, and before it resolves, every
player other than the fighter may respond or pass (B16). A player whose only
possible answer is to pass is not asked. The fight resolves when the fighter
has said `resolve_combat` and everyone else has passed since the last card.
"""

from __future__ import annotations

from collections.abc import Iterator

from munchkin.engine.actions import Action, action
from munchkin.engine.events import Event
from munchkin.engine.rules import death, effects, limits, player_effects, run_away, treasures
from munchkin.engine.rules.character import classes
from munchkin.engine.rules.combat import apply_conditions, resolve, the_dead_leave
from munchkin.engine.rules.curses import curse_takes_effect
from munchkin.engine.rules.play import fixing_plays
from munchkin.engine.rules.powers import settle_theft
from munchkin.engine.rules.responses import passed, responders, set_die
from munchkin.engine.rules.turn import answer_charity_to, give_charity, next_turn
from munchkin.engine.state import GameState, Prompt
from munchkin.engine.timing import free_to_act, in_fight
from munchkin.engine.verbs import REGISTRY, Verb, passes, refuse, register, single

RESPONSES = ("play", "berserk", "turn_undead", "backstab", "charm")
"""Verbs that count as a response in a window; discarding one's own cards does not."""


ANYTIME = ("play", "discard")
"""Verbs a living player may have at any moment: curses, Go Up a Level, hirelings, discards."""
CALM = (*ANYTIME, "equip", "unequip", "sell", "trade", "steal")
"""Verbs of one's own turn outside a fight (B11, B12, B13, B14)."""
IN_A_FIGHT = (*ANYTIME, "pass", "berserk", "turn_undead", "backstab", "charm")
SITUATIONS: dict[str, tuple[str, ...]] = {
    "setup": ("play", "equip", "unequip", "discard", "pass"),
    "start of own turn": (*CALM, "kick_door"),
    "door face up": (*CALM, "keep", "monstrify"),
    "after the door": (*CALM, "loot_room", "look_for_trouble"),
    "end of own turn": (*CALM, "end_turn"),
    "offered a trade": (*ANYTIME, "accept_trade", "decline_trade"),
    "asked for help": (*IN_A_FIGHT, "accept_help", "decline_help"),
    "fighting": (*ANYTIME, "resolve_combat", "ask_help", "berserk", "turn_undead", "charm", "backstab"),
    "in a fight": IN_A_FIGHT,
    "running": (*ANYTIME, "run_away", "sacrifice_hireling"),
    "between fights": (*ANYTIME, "steal"),
    "waiting": ANYTIME,
}
"""Who may do what now, by the player's situation (B1, B4, B8, B9, B13, B16): the verbs
worth asking about; each verb's own check still decides."""
OWN_TURN = {
    "start": "start of own turn",
    "face_up": "door face up",
    "after_door": "after the door",
    "end": "end of own turn",
}
"""The situation of the player whose turn it is, outside a fight, by turn phase (B4)."""


def situation(g: GameState, seat: int) -> str:
    """The player's situation now, a key of SITUATIONS."""
    c = g.combat
    if g.phase == "setup":
        return "setup"
    if g.offer is not None and g.offer.taker == seat:
        return "offered a trade"
    if c is None:
        return OWN_TURN[g.phase] if seat == g.active else "between fights"
    if c.asked == seat:
        return "asked for help"
    if c.stage == "run":
        return "running" if c.runners[:1] == [seat] else "waiting"
    return "fighting" if seat == c.fighter else "in a fight"


def legal_actions(g: GameState, seat: int) -> list[Action]:
    """Every action the player may take now, in the engine's order."""
    if g.phase == "over" or g.players[seat].dead:
        return []
    if g.prompt is not None:
        if g.prompt.player != seat:
            return _options(g, seat, ANYTIME)  # what asks nobody anything (R56)
        answers = [action("choose", option) for option in g.prompt.options]
        return answers + fixing_plays(g, seat) if g.prompt.kind in limits.LIMIT_PROMPTS else answers
    if g.pending is not None:  # the answers or a pass, and what asks nobody anything (R56)
        return _options(g, seat, (*ANYTIME, "pass"))
    return _options(g, seat, SITUATIONS[situation(g, seat)])


def _options(g: GameState, seat: int, verbs: tuple[str, ...]) -> list[Action]:
    """The legal actions of these verbs, in the engine's order."""
    actions: list[Action] = []
    for verb in _asked(verbs, classes(g, g.players[seat])):
        if verb.prechecked:
            actions.extend(verb.options(g, seat))
        else:
            actions.extend(a for a in verb.options(g, seat) if passes(verb.check, g, seat, a))
    return actions


_ASKED: dict[tuple[tuple[str, ...], frozenset[str]], tuple[Verb, ...]] = {}


def _asked(names: tuple[str, ...], class_ids: frozenset[str]) -> tuple[Verb, ...]:
    """The verbs worth asking a player about, in the registry's order (the engine's order):
    those named, less the powers of classes the player does not have (B14)."""
    key = (names, class_ids)
    if key not in _ASKED:
        _ASKED[key] = tuple(
            verb
            for name, verb in REGISTRY.items()
            if name in names and (verb.power_of is None or verb.power_of in class_ids)
        )
    return _ASKED[key]


def any_legal(g: GameState, seat: int, verbs: tuple[str, ...]) -> bool:
    """Whether the player has a legal action of one of these verbs now (stops at the first)."""
    for verb in _asked(verbs, classes(g, g.players[seat])):
        for a in verb.options(g, seat):
            if verb.prechecked or passes(verb.check, g, seat, a):
                return True
    return False


def has_response(g: GameState, seat: int) -> bool:
    """Whether the player could do anything in the window but pass."""
    return any_legal(g, seat, RESPONSES)


def waiting_for(g: GameState) -> list[int]:
    """Seats whose decision holds the game up, in the order they are asked."""
    if g.phase == "over":
        return []
    if g.prompt is not None:
        return [g.prompt.player]
    if g.pending is not None:
        return responders(g)
    if g.offer is not None:
        return [g.offer.taker]
    if g.phase == "setup":
        return [i for i, done in enumerate(g.setup_passed) if not done]
    c = g.combat
    if c is None:
        return [g.active]
    if c.asked is not None:
        return [c.asked]
    if c.stage == "run":
        return c.runners[:1]
    pending = [i for i, done in enumerate(c.passed) if not done and i != c.fighter]
    return pending if c.ready else [c.fighter, *pending]


DEFAULT_STEPS = (
    "pass",
    "decline_help",
    "decline_trade",
    "keep",
    "resolve_combat",
    "run_away",
    "end_turn",
    "loot_room",
    "kick_door",
)
"""What a player holding the game up does by default, the first of these verbs that is legal
(its plainest form): let a window go, say no to what was asked, go on with the turn."""


def default_action(g: GameState, seat: int) -> Action:
    """What a player holding the game up does by default: pass where allowed, else decline
    what was asked, else the turn's next plain step (`DEFAULT_STEPS`), else the first legal
    option (an answer to a question, in the engine's order)."""
    actions = legal_actions(g, seat)
    if not actions:
        raise ValueError(f"{g.players[seat].name} has nothing to do")
    by_verb: dict[str, Action] = {}
    for a in actions:
        plain = by_verb.get(a.verb)
        if plain is None or (plain.arg is not None and a.arg is None):
            by_verb[a.verb] = a
    return next((by_verb[verb] for verb in DEFAULT_STEPS if verb in by_verb), actions[0])


def advance(g: GameState, ev: list[Event]) -> None:
    """Let the game run on until someone has a real decision to make."""
    while g.phase != "over":
        if g.pending is not None:
            if g.prompt is not None or responders(g):
                return
            _settle_pending(g, ev)
        elif g.tasks and g.prompt is None:
            _run_task(g, ev)
        elif g.combat is not None and g.prompt is None and the_dead_leave(g, ev):
            continue
        elif g.phase == "setup":
            if not _skip_silent_setup(g, ev):
                return
        elif g.combat is not None and g.combat.stage == "fight" and g.prompt is None:
            if not _settle_window(g, ev):
                return
        elif g.players[g.active].dead and g.combat is None and g.prompt is None:
            next_turn(g, ev)  # a character who dies on their own turn ends it (ruling R3)
        elif g.phase == "face_up" and g.prompt is None and not _face_up_choice(g):
            REGISTRY["keep"].do(g, g.active, action("keep"), ev)  # nothing else to do with it (R1, H2)
        else:
            return


def _settle_pending(g: GameState, ev: list[Event]) -> None:
    """Nobody answers any more: the roll or the curse takes effect (B9, B14, B15)."""
    p = g.pending
    assert p is not None
    g.pending = None
    if p.kind == "run":
        assert p.seat is not None
        run_away.settle_roll(g, p.seat, p.card, p.value + p.modifier, 0, ev)
    elif p.kind == "theft":
        settle_theft(g, p, ev)
    else:
        curse_takes_effect(g, p.other, p.card, p.seat, ev, None if p.value < 0 else p.value)


def _face_up_choice(g: GameState) -> bool:
    """Whether the card drawn face up could be played or fought, not only kept (B4, H2, S9)."""
    assert g.face_up is not None
    card_id = g.cards[g.face_up].id
    return any_legal(g, g.active, ("monstrify",)) or any(
        a.arg == card_id for a in REGISTRY["play"].options(g, g.active)
    )


def _run_task(g: GameState, ev: list[Event]) -> None:
    task = g.tasks.pop(0)
    kind = task[0]
    if kind == "effect":
        _, seat, effect, source, caster = task
        effects.apply_effect(g, seat, effect, source, caster, ev)  # type: ignore[arg-type]
    elif kind == "roll":
        run_away.roll_task(g, task[1], task[2], ev)  # type: ignore[arg-type]
    elif kind == "ran":
        run_away.ran_task(g, task[1], ev)  # type: ignore[arg-type]
    elif kind == "loot":
        death.loot_task(g, task[1], ev)  # type: ignore[arg-type]
    elif kind == "fit":
        limits.fit_task(g, task[1], ev)  # type: ignore[arg-type]
    elif kind == "tax":
        player_effects.tax_task(g, task[1], task[2], task[3], ev)  # type: ignore[arg-type]
    elif kind == "discard_body":
        death.discard_body(g)
    elif kind == "treasure":
        _, seat, helper, count, helper_gets, asked = task
        treasures.treasure_task(g, seat, helper, count, helper_gets, asked, ev)  # type: ignore[arg-type]


def _skip_silent_setup(g: GameState, ev: list[Event]) -> bool:
    """Players with nothing to play before the first turn are done (B1)."""
    for i, done in enumerate(g.setup_passed):
        if not done and not [a for a in legal_actions(g, i) if a.verb != "pass"]:
            g.setup_passed[i] = True
    if all(g.setup_passed):
        g.phase = "start"
        ev.append(Event("turn_started", {"player": g.players[g.active].name, "turn": g.turn}))
        return True
    return False


def _settle_window(g: GameState, ev: list[Event]) -> bool:
    """Pass for those who could only pass; resolve the fight once everyone is done (B16)."""
    c = g.combat
    assert c is not None
    if c.asked is not None:
        return False
    apply_conditions(g, ev)
    if g.combat is None:
        return True
    for i, done in enumerate(c.passed):
        if not done and i != c.fighter and (g.players[i].dead or not has_response(g, i)):
            c.passed[i] = True
    if c.ready and all(done for i, done in enumerate(c.passed) if i != c.fighter):
        resolve(g, ev)
        return True
    return False


def answer_prompt(g: GameState, prompt: Prompt, option: str, ev: list[Event]) -> None:
    """Carry out the answer to an open question."""
    if prompt.kind == "charity":
        give_charity(g, prompt, option, ev)
    elif prompt.kind == "charity_to":
        answer_charity_to(g, prompt, option, ev)
    elif prompt.kind == "loot":
        death.take_loot(g, prompt.player, option, ev)
    elif prompt.kind == "resurrect":
        treasures.answer_resurrect(g, prompt, option, ev)
    elif prompt.kind == "reroll":
        run_away.answer_reroll(g, prompt, option, ev)
    elif prompt.kind == "flight":
        run_away.answer_flight(g, prompt, option, ev)
    elif prompt.kind in ("take_off", "get_rid", "keep_race", "keep_class"):
        limits.answer_fit(g, prompt, option, ev)
    elif prompt.kind in ("tax_item", "pay_tax"):
        player_effects.answer_tax(g, prompt, option, ev)
    elif prompt.kind == "set_die":
        set_die(g, prompt, option, ev)
    elif prompt.kind == "half_trait":
        effects.answer_half_trait(g, prompt, option, ev)
    else:
        effects.finish_choice(g, prompt, option, ev)


# -- verbs of the window: pass, resolve_combat, choose --------------------------------


def check_pass(g: GameState, seat: int, a: Action) -> None:
    if g.pending is not None:
        if seat not in responders(g):
            raise refuse("B16", "you have nothing to answer with")
        return
    if g.phase == "setup":
        if g.setup_passed[seat]:
            raise refuse("B1", "you are already done")
        return
    c = g.combat
    if not (
        in_fight(g)
        and c is not None
        and seat != c.fighter
        and not c.passed[seat]
        and c.asked is None
        and free_to_act(g, seat)
    ):
        raise refuse("B16", "there is nothing to pass on now")


def do_pass(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    if g.pending is not None:
        passed(g, seat)
    elif g.phase == "setup":
        g.setup_passed[seat] = True
    else:
        assert g.combat is not None
        g.combat.passed[seat] = True
    ev.append(Event("passed", {"player": g.players[seat].name}))


def check_resolve(g: GameState, seat: int, a: Action) -> None:
    c = g.combat
    if not (in_fight(g) and c is not None and c.fighter == seat and not c.ready and c.asked is None):
        raise refuse("B16", "only the fighter, during the fight, says when to resolve it")


def do_resolve(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    assert g.combat is not None
    g.combat.ready = True
    ev.append(Event("ready", {"player": g.players[seat].name}))


def check_choose(g: GameState, seat: int, a: Action) -> None:
    if not (g.prompt is not None and g.prompt.player == seat):
        raise refuse("B4", "no question is open for you")
    assert g.prompt is not None
    if a.arg not in g.prompt.options:
        raise refuse("B4", f"answer one of: {', '.join(g.prompt.options)}")


def do_choose(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    prompt = g.prompt
    assert prompt is not None and a.arg is not None
    g.prompt = None
    answer_prompt(g, prompt, a.arg, ev)


def _no_options(g: GameState, seat: int) -> Iterator[Action]:
    return iter(())


register(
    "pass",
    check_pass,
    do_pass,
    single("pass", lambda g, s: g.phase == "setup" or g.combat is not None or g.pending is not None),
)
register(
    "resolve_combat",
    check_resolve,
    do_resolve,
    single("resolve_combat", lambda g, s: g.combat is not None and g.combat.fighter == s),
)
register("choose", check_choose, do_choose, _no_options)
