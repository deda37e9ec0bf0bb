"""Cards that act on the fight itself (B7, B8, B9, B16; docs/card-format.md, fight words).

- `twin` (`on:` a monster): a copy of it joins the fight, with its level, Bad Stuff,
  rewards and enhancers; both must be beaten and both give their rewards;
- `illusion` (`on:` a monster in the hand, `cards:` the monster it replaces when there are
  several): the monster replaces one in the fight; the old one goes with its enhancers;
- `force_help` (`target:` a player): that player helps the fighter, with no reward, and
  leaves without penalty once the fight would win the fighter the game;
- `send_away: treasures | nothing` (`on:` a monster): it leaves the fight, defeated; its
  treasures are won with the fight's, or nobody gets anything;
- `pass_fight` (`target:` a player): the fight moves to that player, who fights it (or
  runs) as if they had drawn it; a helper's deal ends;
- `double_strength`: the fighter's own strength counts twice in this fight;
- `escape_together`: when running, the fighter and the helper escape every monster that
  can be escaped; "even if you escape" Bad Stuff still applies.
"""

from __future__ import annotations

from munchkin.cards.schema import FIGHT_WORDS, CardDef, Effect
from munchkin.engine.actions import Action
from munchkin.engine.card import Card, card_of
from munchkin.engine.events import Event
from munchkin.engine.rules.combat import (
    enter_monster,
    fight,
    for_the_win,
    leave_fight,
    reopen_window,
    send_away,
)
from munchkin.engine.rules.items import discard
from munchkin.engine.rules.run_away import start_running
from munchkin.engine.state import GameState
from munchkin.engine.timing import in_fight
from munchkin.engine.verbs import refuse, seat_of


def fight_kind(card: Card) -> str | None:
    """The word of a card that acts on the fight, if it has one."""
    for kind in card.kinds:
        if kind in FIGHT_WORDS:
            return kind
    return None


def fight_word(card: CardDef) -> Effect | None:
    """The effect of a card that acts on the fight, if it has one (`fight_kind`, for a
    card's definition)."""
    facts = card_of(card)
    kind = fight_kind(facts)
    return None if kind is None else facts.effects[facts.kinds.index(kind)]


def check_fight_card(g: GameState, seat: int, inst: int, a: Action) -> None:
    """When and on what a fight card may be played."""
    card = g.cards[inst]
    word = fight_kind(card)
    assert word is not None
    if word == "escape_together":
        c = g.combat
        first_runner = c is not None and c.stage == "run" and c.runners[:1] == [seat] and not g.tasks
        if not (first_runner and c is not None and seat == c.fighter):
            raise refuse("B9", "the fighter plays it to run away")
        return
    if not in_fight(g):
        raise refuse("B16", f"{card.name} is played in a fight")
    c = fight(g)
    if word in ("twin", "send_away"):
        if g.find(c.monsters, a.on or "") is None:
            raise refuse("B16", "name a monster of the fight with on:")
    elif word == "illusion":
        _replaced(g, a)
        monster = g.find(g.players[seat].hand, a.on or "")
        ok = monster is not None and g.cards[monster].type == "monster"
        if not ok:
            raise refuse("B16", "name a monster in your hand with on:")
    elif word == "force_help":
        helper = seat_of(g, a.target, "B8")
        if seat != c.fighter:
            raise refuse("B8", "the fighter makes someone help")
        if not (c.helper is None and c.asked is None):
            raise refuse("B8", "only one other player may help")
        if not (helper != seat and not g.players[helper].dead):
            raise refuse("B8", "name another living player with target:")
        if any(g.cards[m].no_help for m in c.monsters):
            raise refuse("B8", "nobody may help against this monster")
        if for_the_win(g):
            raise refuse("B2", "nobody can be made to help in a fight for the win")
    elif word == "pass_fight":
        other = seat_of(g, a.target, "B16")
        if not (other != c.fighter and not g.players[other].dead):
            raise refuse("B16", "pass the fight to another living player")
    elif word == "double_strength" and seat != c.fighter:
        raise refuse("B16", "the fighter doubles their own strength")


def _replaced(g: GameState, a: Action) -> int:
    """The monster an illusion replaces: the one named with `cards:`, or the only one."""
    c = fight(g)
    if a.cards:
        inst = g.find(c.monsters, a.cards[0])
        if not (inst is not None and len(a.cards) == 1):
            raise refuse("B16", f"{a.cards[0]} is not in the fight")
        assert inst is not None
        return inst
    if len(c.monsters) != 1:
        raise refuse("B16", "name the monster it replaces with cards:")
    return c.monsters[0]


def play_fight_card(g: GameState, seat: int, inst: int, a: Action, ev: list[Event]) -> None:
    """Carry out a fight card."""
    card = g.cards[inst]
    word = fight_kind(card)
    assert word is not None
    c = fight(g)
    if word in ("double_strength", "escape_together"):
        c.played.append((inst, 0))  # discarded with the fight's one-shots (B7)
        if word == "escape_together":
            _escape_together(g)
        else:
            c.mods.append((seat, 0, inst, "double"))
        return
    if word == "twin":
        original = g.find(c.monsters, a.on or "")
        assert original is not None
        c.twins = (*c.twins, (inst, original))
        enter_monster(g, inst, ev)
        return
    discard(g, inst)
    if word == "illusion":
        _illusion(g, seat, a, ev)
    elif word == "send_away":
        monster = g.find(c.monsters, a.on or "")
        assert monster is not None
        send_away(g, monster, card.effects[card.kinds.index(word)].arg == "treasures", ev)
    elif word == "force_help":
        c.helper, c.forced, c.reward = g.index(a.target or ""), True, 0
        ev.append(Event("help_forced", {"player": g.players[seat].name, "helper": a.target}))
        reopen_window(g)
    elif word == "pass_fight":
        _pass_fight(g, g.index(a.target or ""), ev)


def _illusion(g: GameState, seat: int, a: Action, ev: list[Event]) -> None:
    c, p = fight(g), g.players[seat]
    old = _replaced(g, a)
    new = g.find(p.hand, a.on or "")
    assert new is not None
    p.hand.remove(new)
    c.monsters.remove(old)
    discard(g, old)  # with its enhancers (B16)
    ev.append(Event("monster_left", {"player": g.players[c.fighter].name, "card": g.cards[old].id}))
    enter_monster(g, new, ev)


def _pass_fight(g: GameState, other: int, ev: list[Event]) -> None:
    """The fight is now `other`'s, as if they had drawn it; the helper's deal ends."""
    c = fight(g)
    ev.append(Event("fight_passed", {"player": g.players[c.fighter].name, "to": g.players[other].name}))
    for seat in c.fighters():
        if seat != other:
            leave_fight(g, seat)
    c.fighter, c.helper, c.asked, c.forced = other, None, None, False
    c.reward, c.bribe, c.declined = 0, (), ()
    reopen_window(g)


def _escape_together(g: GameState) -> None:
    """Both escape every monster that can be escaped; each still runs, so "even if you
    escape" Bad Stuff and escape-proof monsters still count (B9, H4)."""
    c = fight(g)
    for seat in c.runners:
        if seat not in c.escaped:
            c.escaped.append(seat)
    for seat in list(c.runners):
        start_running(g, seat)
