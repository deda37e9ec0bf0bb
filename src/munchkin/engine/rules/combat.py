"""Fights: monsters entering, help, resolution and rewards (B6-B8, B16, S9)."""

from __future__ import annotations

from munchkin.cards.schema import RewardBonus
from munchkin.engine.events import Event
from munchkin.engine.rules.character import gain_levels, is_race, win_level
from munchkin.engine.rules.effects import condition_holds
from munchkin.engine.rules.items import discard, hand_over
from munchkin.engine.rules.strength import (
    monster_card,
    monster_enhancers,
    monster_side,
    munchkin_side,
    munchkins_win,
)
from munchkin.engine.rules.treasures import draw_treasures
from munchkin.engine.state import Combat, GameState


def start_fight(g: GameState, seat: int, inst: int, ev: list[Event]) -> None:
    """A monster must be fought: the fight opens with a response window (B4, B16)."""
    g.combat = Combat(seat, len(g.players))
    g.phase = "combat"
    g.fought = True
    enter_monster(g, inst, ev)


def enter_monster(g: GameState, inst: int, ev: list[Event]) -> None:
    """A monster joins the fight; several are fought as one total (B16)."""
    c = fight(g)
    c.monsters.append(inst)
    card = g.cards[inst]
    level = 2 * card.bonus if card.type == "steed" else card.level
    ev.append(
        Event(
            "monster_entered",
            {"player": g.players[c.fighter].name, "card": card.id, "name": card.name, "level": level},
        )
    )
    reopen_window(g)


def reopen_window(g: GameState) -> None:
    """After a card is played into a fight, everyone may respond again (B16)."""
    c = fight(g)
    c.passed = [False] * len(g.players)
    c.ready = False


def fight(g: GameState) -> Combat:
    """The fight in progress."""
    if g.combat is None:
        raise ValueError("no fight is on")
    return g.combat


def monster_treasures(g: GameState, inst: int) -> int:
    """One monster's treasures: its own plus its enhancers', never below 0 (B16); a steed
    fought as a monster gives 1 (S9)."""
    card = monster_card(g, inst)
    own = 1 if card.type == "steed" else card.treasures
    return max(0, own + sum(g.cards[e].extra_treasures for e in monster_enhancers(g, inst)))


def monster_levels(g: GameState, inst: int) -> int:
    """Levels for killing a monster: as printed, 1 for a steed (S9)."""
    card = monster_card(g, inst)
    return 1 if card.type == "steed" else card.levels


def treasure_count(g: GameState) -> int:
    """The fight's treasures: the sum over its monsters, those sent away with their treasures
    included (B7, B16)."""
    c = fight(g)
    return c.gone_treasures + sum(monster_treasures(g, inst) for inst in c.monsters)


def resolve(g: GameState, ev: list[Event]) -> None:
    """Compare the sides once everyone is done: win and collect, or run (B6, B7, B9)."""
    c = fight(g)
    ours, theirs = munchkin_side(g), monster_side(g)
    won = munchkins_win(g)
    ev.append(
        Event(
            "combat_resolved",
            {
                "player": g.players[c.fighter].name,
                "munchkins": ours.total,
                "monsters": theirs.total,
                "won": won,
            },
        )
    )
    if won:
        collect_rewards(g, ev)
        finish_fight(g, ev)
    else:
        c.stage = "run"
        c.runners = c.fighters()


def collect_rewards(g: GameState, ev: list[Event]) -> None:
    """Once the fight is over: levels per monster killed, for the fighter and an Elf helper
    at once (all who reach the win level win together), then the treasures, face down alone,
    face up when helped; a monster's extra rewards for a kind of character go to whoever of
    that kind was on the winning side (B2, B7, S9)."""
    c = fight(g)
    bonuses = reward_bonuses(g)
    levels = sum(monster_levels(g, m) for m in c.monsters)
    gain_levels(g, c.fighter, levels, ev, "kill", may_win=True)
    if c.helper is not None and is_race(g, g.players[c.helper], "elf"):
        gain_levels(g, c.helper, len(c.monsters), ev, "elf helper", may_win=True)
    for seat, extra_levels, _ in bonuses:
        gain_levels(g, seat, extra_levels, ev, "kill", may_win=True)
    if g.winners:
        return
    if c.helper is not None:
        pay_bribe(g, c.fighter, c.helper, c.bribe, ev)
    draw_treasures(g, c.fighter, treasure_count(g), c.helper, c.reward, ev)
    for seat, _, extra_treasures in bonuses:
        draw_treasures(g, seat, extra_treasures, c.helper, 0, ev)


def pay_bribe(g: GameState, fighter: int, helper: int, items: tuple[int, ...], ev: list[Event]) -> None:
    """The items promised to the helper change hands, those the fighter still has (B8)."""
    p = g.players[fighter]
    still = [i for i in items if i in g.items_in_play(p) + p.hirelings]
    if still:
        hand_over(g, [(fighter, helper, i) for i in still], ev)
        ev.append(
            Event(
                "bribe_paid",
                {"player": p.name, "to": g.players[helper].name, "cards": [g.cards[i].id for i in still]},
            )
        )


def finish_fight(g: GameState, ev: list[Event]) -> None:
    """Monsters and one-shots of the fight are discarded (B7, B9)."""
    c = fight(g)
    for inst in c.monsters:
        discard(g, inst)
    for inst, _ in c.played:
        discard(g, inst)
    for seat in c.fighters():
        end_next_fight_curses(g, seat, c.monsters)
    g.combat = None
    ev.append(Event("combat_over", {"player": g.players[c.fighter].name}))
    if not g.winners:
        g.phase = "end"


def send_away(g: GameState, inst: int, with_treasures: bool, ev: list[Event]) -> None:
    """A monster leaves the fight: defeated, with its treasures won with the fight's but no
    level, or for nothing (B7). With no monster left the fight is over, won when a monster
    left defeated, else with nothing won, not even a bribe (B7, B16, R62)."""
    c = fight(g)
    c.monsters.remove(inst)
    if with_treasures:
        c.gone_treasures += monster_treasures(g, inst)
        c.defeated_left = True
    discard(g, inst)
    ev.append(Event("monster_left", {"player": g.players[c.fighter].name, "card": g.cards[inst].id}))
    if c.monsters:
        reopen_window(g)
        return
    if c.defeated_left:
        collect_rewards(g, ev)
    finish_fight(g, ev)


def for_the_win(g: GameState) -> bool:
    """Whether beating the monsters would take the fighter to the winning level, with the
    extra levels a monster gives a fighter of a kind it names (B2, R42, R47)."""
    c = fight(g)
    gain = sum(monster_levels(g, m) for m in c.monsters)
    gain += sum(levels for seat, levels, _ in reward_bonuses(g) if seat == c.fighter)
    return g.players[c.fighter].level + gain >= win_level(g)


def unhelpable(g: GameState) -> bool:
    """A monster of the fight that nobody may help against (B8)."""
    return any(monster_card(g, m).no_help for m in fight(g).monsters)


def apply_conditions(g: GameState, ev: list[Event]) -> None:
    """What the fight's monsters and its helper do by themselves, checked after every change
    (B8, B16): a monster leaves a fighter it will not fight (nothing won) and one defeated at
    once by the fighter or helper (its treasures won, no level); a helper leaves a fight that
    nobody may help in, and a helper made to help leaves a fight for the win (B2)."""
    c = fight(g)
    for inst in list(c.monsters):
        card = monster_card(g, inst)
        fighter = g.players[c.fighter]
        if card.ignores is not None and condition_holds(g, fighter, card.ignores):
            ev.append(Event("monster_ignores", {"player": fighter.name, "card": g.cards[inst].id}))
            send_away(g, inst, False, ev)
        elif card.defeated_by is not None and any(
            condition_holds(g, g.players[s], card.defeated_by) for s in c.fighters()
        ):
            ev.append(Event("monster_defeated", {"player": fighter.name, "card": g.cards[inst].id}))
            send_away(g, inst, True, ev)
        if g.combat is None:
            return
    if c.helper is not None and (unhelpable(g) or (c.forced and for_the_win(g))):
        helper_leaves(g, ev)


def helper_leaves(g: GameState, ev: list[Event]) -> None:
    """The helper leaves the fight with nothing, the deal ended (B8, B10, R42)."""
    c = fight(g)
    assert c.helper is not None
    ev.append(Event("helper_left", {"player": g.players[c.helper].name}))
    leave_fight(g, c.helper)
    c.helper, c.forced, c.reward, c.bribe = None, False, 0, ()
    reopen_window(g)


def leave_fight(g: GameState, seat: int) -> None:
    """A player leaving a fight before it ends: it was their fight, so a penalty for their
    next fight is spent (R4)."""
    end_next_fight_curses(g, seat, fight(g).monsters)


def the_dead_leave(g: GameState, ev: list[Event]) -> bool:
    """The dead take no part in a fight (B10): a help request to a dead player lapses; a dead
    helper leaves with nothing; a dead fighter's fight is over, nothing won; the dead make no
    run-away rolls. True when something changed."""
    c = fight(g)
    dead = [i for i, p in enumerate(g.players) if p.dead]
    if not dead:
        return False
    if c.asked in dead:
        c.declined, c.asked = (*c.declined, c.asked), None
        return True
    if c.stage == "fight" and c.fighter in dead:
        finish_fight(g, ev)
        return True
    if c.stage == "fight" and c.helper in dead:
        helper_leaves(g, ev)
        return True
    if c.stage == "run" and not g.tasks and any(r in dead for r in c.runners):
        c.runners = [r for r in c.runners if r not in dead]
        if not c.runners:
            finish_fight(g, ev)
        return True
    return False


def reward_bonuses(g: GameState) -> list[tuple[int, int, int]]:
    """Extra (seat, levels, treasures) of monsters beaten by someone of a kind they name:
    the fighter, else the helper, when of that kind."""
    c = fight(g)
    bonuses = []
    for inst in c.monsters:
        for bonus in monster_card(g, inst).beaten_by:
            seat = next((s for s in c.fighters() if _rewarded(g, s, bonus)), None)
            if seat is not None:
                bonuses.append((seat, bonus.levels, bonus.treasures))
    return bonuses


def _rewarded(g: GameState, seat: int, bonus: RewardBonus) -> bool:
    p = g.players[seat]
    return (
        (bonus.race is not None and is_race(g, p, bonus.race))
        or (bonus.class_ is not None and g.find(p.classes, bonus.class_) is not None)
        or (bonus.sex is not None and p.sex == bonus.sex)
    )


def end_next_fight_curses(g: GameState, seat: int, spared: list[int]) -> None:
    """A lasting combat penalty lasts for its victim's next fight; its curse then goes
    (ruling R4, docs/rulings.md). One the Bad Stuff of a monster in `spared` gave, as the
    fight ended, is for the next fight (B9)."""
    p = g.players[seat]
    ended = {src for kind, _, src in p.lasting if kind == "combat" and src not in spared}
    if not ended:
        return
    p.lasting = [entry for entry in p.lasting if not (entry[0] == "combat" and entry[2] in ended)]
    still = {src for _, _, src in p.lasting}
    for inst in [i for i in p.curses if i in ended and i not in still]:
        p.curses.remove(inst)
        discard(g, inst)
