"""Combat strength of both sides, as breakdowns (B6, B14, H8, H12, S5, S9)."""

from __future__ import annotations

from munchkin.cards.schema import CardDef, VsBonus
from munchkin.engine.card import Card
from munchkin.engine.explain import Breakdown, Part
from munchkin.engine.rules.character import classes, full_traits, hireling_traits, is_class, races
from munchkin.engine.rules.items import can_use, hireling_can_use
from munchkin.engine.state import Combat, GameState

COMBAT_POWERS = ("berserking", "turning", "backstab")


def _enhancement(g: GameState, inst: int) -> int:
    return sum(g.cards[e].bonus for e in g.attached.get(inst, ()) if g.cards[e].type != "cheat")


def character_parts(g: GameState, seat: int) -> list[Part]:
    """A munchkin's strength in a fight: their own, and a curse's combat penalty (B6, B15)."""
    p = g.players[seat]
    parts = own_parts(g, seat)
    for kind, amount, source in p.lasting:
        if kind == "combat":
            parts.append(Part(f"curse {g.cards[source].name}", amount, g.cards[source].id, "B15"))
    return parts


def own_parts(g: GameState, seat: int) -> list[Part]:
    """A munchkin's own strength: level plus everything in use (B6, H8, S5)."""
    p = g.players[seat]
    parts = [Part(f"{p.name}'s level", p.level, p.name, "B6")]
    for trait in p.races + p.classes:
        for e in g.attached.get(trait, ()):
            if g.cards[e].bonus:
                label = f"{g.cards[e].name} on {g.cards[trait].name}"
                parts.append(Part(label, g.cards[e].bonus, g.cards[e].id, "B14"))
    for inst in p.equipped:
        if can_use(g, p, inst):
            parts.extend(_item_parts(g, inst, g.cards[inst].name, "B6"))
    for inst in p.steeds:
        card = g.cards[inst]
        total = card.bonus + _enhancement(g, inst)
        if total:
            parts.append(Part(f"steed {card.name}", total, card.id, "S5"))
    for h in p.hirelings:
        card = g.cards[h]
        if card.bonus:
            parts.append(Part(f"hireling {card.name}", card.bonus, card.id, "B6"))
        for inst in g.carrying.get(h, ()):
            if hireling_can_use(g, h, inst):
                parts.extend(_item_parts(g, inst, f"{g.cards[inst].name} (carried by {card.name})", "H8"))
    return parts


def _item_parts(g: GameState, inst: int, label: str, rule: str) -> list[Part]:
    """An item in use: its bonus, and each item enhancer's on it (B6)."""
    card = g.cards[inst]
    parts = [Part(label, card.bonus, card.id, rule)] if card.bonus else []
    for e in g.attached.get(inst, ()):
        enh = g.cards[e]
        if enh.bonus and enh.type == "item_enhancer":
            parts.append(Part(f"{enh.name} on {card.name}", enh.bonus, enh.id, "B6"))
    return parts


def copied(g: GameState, inst: int) -> int:
    """The monster a twin copies, or the monster itself."""
    if g.combat is not None:
        for twin, original in g.combat.twins:
            if twin == inst:
                return original
    return inst


def monster_card(g: GameState, inst: int) -> Card:
    """The card a monster of the fight fights as: a twin has its original's level, Bad
    Stuff and rewards."""
    return g.cards[copied(g, inst)]


def monster_def(g: GameState, inst: int) -> CardDef:
    """The definition of `monster_card` (for callers outside the engine)."""
    return g.defs[copied(g, inst)]


def monster_enhancers(g: GameState, inst: int) -> list[int]:
    """Enhancers on a monster; a twin has those of its original too, played before or after
    it joined."""
    original = copied(g, inst)
    own = g.attached.get(inst, [])
    return own + g.attached.get(original, []) if original != inst else list(own)


def monster_level(g: GameState, inst: int) -> int:
    """A monster's printed level; a steed fought as a monster has twice its bonus (S9)."""
    card = monster_card(g, inst)
    return 2 * card.bonus if card.type == "steed" else (card.level or 0)


def _vs_matches(g: GameState, vs: VsBonus, seat: int) -> str | None:
    """Whom a monster's bonus matches: the character, or the character's hireling (H12). A
    bonus for the monster ignores a race or class held beside Half-Breed or Super Munchkin
    alone: its owner has none of its disadvantages (B14)."""
    p = g.players[seat]
    race_ids, class_ids = full_traits(g, p) if vs.bonus > 0 else (races(g, p), classes(g, p))
    if _traits_match(vs, race_ids, class_ids, p.sex):
        return p.name
    for h in p.hirelings:
        if _traits_match(vs, *hireling_traits(g, h)):
            return f"{p.name}'s hireling {g.cards[h].name}"
    return None


def _traits_match(vs: VsBonus, race_ids: frozenset[str], class_ids: frozenset[str], sex: str | None) -> bool:
    return (
        (vs.race is not None and vs.race in race_ids)
        or (vs.class_ is not None and vs.class_ in class_ids)
        or (vs.sex is not None and vs.sex == sex)
    )


def monster_side(g: GameState) -> Breakdown:
    """Monsters' strength: levels, enhancers, one-shots for them, `vs` bonuses (B6, B16, H12)."""
    c = _combat(g)
    parts: list[Part] = []
    for inst in c.monsters:
        card = monster_card(g, inst)
        rule = "S9" if card.type == "steed" else "B6"
        name = card.name if copied(g, inst) == inst else f"{g.cards[inst].name} ({card.name})"
        parts.append(Part(f"{name} level", monster_level(g, inst), g.cards[inst].id, rule))
        for e in monster_enhancers(g, inst):
            enh = g.cards[e]
            parts.append(Part(f"{enh.name} on {name}", enh.bonus, enh.id, "B16"))
        parts.extend(_vs_parts(g, c, card))
    for inst, side in c.played:
        if side == 1 and g.cards[inst].bonus:
            parts.append(Part(g.cards[inst].name, g.cards[inst].bonus, g.cards[inst].id, "B16"))
    return Breakdown("monsters", tuple(parts))


def _vs_parts(g: GameState, c: Combat, card: Card) -> list[Part]:
    """One bonus per `vs` entry when anyone on the munchkins' side matches (H12)."""
    parts = []
    for vs in card.vs:
        for seat in c.fighters():
            whom = _vs_matches(g, vs, seat)
            if whom:
                trait = vs.race or vs.class_ or vs.sex
                parts.append(Part(f"{card.name} against {trait} ({whom})", vs.bonus, card.id, "H12"))
                break
    return parts


def munchkin_side(g: GameState) -> Breakdown:
    """The munchkins' strength: fighter and helper, one-shots and powers for them (B6, B8)."""
    c = _combat(g)
    parts: list[Part] = []
    for seat in c.fighters():
        parts.extend(character_parts(g, seat))
    for inst, side in c.played:
        if side == 0 and g.cards[inst].bonus:
            parts.append(Part(g.cards[inst].name, g.cards[inst].bonus, g.cards[inst].id, "B16"))

    for seat, _, source, power in c.mods:  # a double counts its player's strength while fighting
        if power == "double" and seat == c.fighter:
            own = sum(part.amount for part in own_parts(g, seat))
            label = f"{g.cards[source].name}: {g.players[seat].name}'s own strength again"
            parts.append(Part(label, own, g.cards[source].id, "B16"))
    undead = any(monster_card(g, m).undead for m in c.monsters)
    for seat, amount, source, power in c.mods:
        if power == "turning" and not undead:
            continue  # against Undead only: none is left in the fight (B14)
        if power in COMBAT_POWERS and seat in c.fighters():
            who = g.players[seat].name
            parts.append(Part(f"{power} ({who})", amount, g.cards[source].id, "B14"))
    return Breakdown("munchkins", tuple(parts))


def munchkins_win(g: GameState) -> bool:
    """Strictly stronger wins; a Warrior on the munchkins' side, fighter or helper, wins ties
    (B6, B14)."""
    c = _combat(g)
    ours, theirs = munchkin_side(g).total, monster_side(g).total
    if ours > theirs:
        return True
    return ours == theirs and any(is_class(g, g.players[s], "warrior") for s in c.fighters())


def _combat(g: GameState) -> Combat:
    if g.combat is None:
        raise ValueError("no fight is on")
    return g.combat
