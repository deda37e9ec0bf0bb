"""Fights: monsters entering, help, resolution and rewards (B6-B8, B16, S9)."""

from __future__ import annotations

from munchkin.engine.events import Event
from munchkin.engine.rules.character import gain_levels, is_race
from munchkin.engine.rules.decks import draw
from munchkin.engine.rules.items import discard, hand_over
from munchkin.engine.rules.strength import monster_side, munchkin_side, munchkins_win
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
    card = g.defs[inst]
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
    card = g.defs[inst]
    own = 1 if card.type == "steed" else card.treasures
    return max(0, own + sum(g.defs[e].extra_treasures for e in g.attached.get(inst, ())))


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
    face up when helped (B2, B7, S9)."""
    c = fight(g)
    treasures = treasure_count(g)
    levels = sum(1 if g.defs[m].type == "steed" else g.defs[m].levels for m in c.monsters)
    gain_levels(g, c.fighter, levels, ev, "kill", may_win=True)
    if c.helper is not None and is_race(g, g.players[c.helper], "elf"):
        gain_levels(g, c.helper, len(c.monsters), ev, "elf helper", may_win=True)
    if g.winners:
        return
    if c.helper is not None:
        pay_bribe(g, c.fighter, c.helper, c.bribe, ev)
    drawn = [i for i in (draw(g, "treasure", ev) for _ in range(treasures)) if i is not None]
    helper_share = drawn[: c.reward] if c.helper is not None else []
    for inst in drawn:
        seat = c.helper if inst in helper_share and c.helper is not None else c.fighter
        g.players[seat].hand.append(inst)
    ev.append(
        Event(
            "treasures_drawn",
            {
                "player": g.players[c.fighter].name,
                "count": len(drawn),
                "face_up": c.helper is not None,
                "cards": [g.defs[i].id for i in drawn] if c.helper is not None else [],
                "helper_gets": len(helper_share),
            },
        )
    )


def pay_bribe(g: GameState, fighter: int, helper: int, items: tuple[int, ...], ev: list[Event]) -> None:
    """The items promised to the helper change hands, those the fighter still has (B8)."""
    p = g.players[fighter]
    still = [i for i in items if i in g.items_in_play(p) + p.hirelings]
    if still:
        hand_over(g, [(fighter, helper, i) for i in still], ev)
        ev.append(
            Event(
                "bribe_paid",
                {"player": p.name, "to": g.players[helper].name, "cards": [g.defs[i].id for i in still]},
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
        end_next_fight_curses(g, seat)
    g.combat = None
    ev.append(Event("combat_over", {"player": g.players[c.fighter].name}))
    if not g.winners:
        g.phase = "end"


def send_away(g: GameState, inst: int, with_treasures: bool, ev: list[Event]) -> None:
    """A monster leaves the fight, defeated but not killed: no level; its treasures, when
    the card says so, are won with the fight's (B7). With no monster left, the fight is over
    and won (B7, B16)."""
    c = fight(g)
    c.monsters.remove(inst)
    if with_treasures:
        c.gone_treasures += monster_treasures(g, inst)
    discard(g, inst)
    ev.append(Event("monster_left", {"player": g.players[c.fighter].name, "card": g.defs[inst].id}))
    if c.monsters:
        reopen_window(g)
    else:
        collect_rewards(g, ev)
        finish_fight(g, ev)


def end_next_fight_curses(g: GameState, seat: int) -> None:
    """A lasting combat penalty lasts for its victim's next fight; its curse then goes
    (ruling R4, docs/rulings.md)."""
    p = g.players[seat]
    ended = {src for kind, _, src in p.lasting if kind == "combat"}
    if not ended:
        return
    p.lasting = [entry for entry in p.lasting if entry[0] != "combat"]
    still = {src for _, _, src in p.lasting}
    for inst in [i for i in p.curses if i in ended and i not in still]:
        p.curses.remove(inst)
        discard(g, inst)
