"""A card in words, for players who want to read it: its type and numbers in a few words
(`brief`), and every line of it (`details`): the printed text, the numbers, who may use it,
what it does, its Bad Stuff. Shared by the terminal and the browser (`/api/cards`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from munchkin.cards.schema import FIGHT_WORDS, CardDef, Condition, Effect, Restriction, RewardBonus, VsBonus

TYPE_WORDS = {
    "one_shot": "one-shot",
    "go_up_a_level": "go up a level",
    "monster_enhancer": "monster enhancer",
    "steed_enhancer": "steed enhancer",
    "item_enhancer": "item enhancer",
    "wandering_monster": "wandering monster",
    "divine_intervention": "divine intervention",
    "other": "kept in play",
}


def type_word(card_type: str) -> str:
    return TYPE_WORDS.get(card_type, card_type.replace("_", " "))


def kind_word(card: CardDef) -> str:
    """A card's type in words; a card of type `other` that acts on the fight (`FIGHT_WORDS`:
    Evil Twin and the like) is played once, not kept in play like Half-Breed."""
    if card.type == "other" and any(e.kind in FIGHT_WORDS for e in card.effects):
        return "one-shot"
    return type_word(card.type)


def _signed(n: int) -> str:
    return f"{n:+d}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _slug(word: str) -> str:
    return word.replace("-", " ").title()


def numbers(card: CardDef) -> list[str]:
    """The numbers printed on a card, as short phrases ("+2", "1 hand", "400 gold")."""
    out: list[str] = []
    if card.type == "monster":
        out.append(f"level {card.level}")
        out.append(_plural(card.treasures, "treasure"))
        if card.levels != 1:
            out.append(_plural(card.levels, "level") + " for killing it")
        if card.undead:
            out.append("undead")
    elif card.bonus:
        out.append(
            _signed(card.bonus)
            if card.type != "steed"
            else f"{_signed(card.bonus)} (a monster of level {2 * card.bonus})"
        )
    if card.type == "go_up_a_level" and card.levels > 1:
        out.append(f"{card.levels} levels")
    if card.run_away:
        out.append(f"{_signed(card.run_away)} to run away")
    if card.slot == "hands":
        out.append(_plural(card.hands, "hand"))
    elif card.slot != "none":
        out.append(card.slot)
    out += [
        slot if slot != "hands" else _plural(card.hands, "hand")
        for slot in card.extra_slots
        if slot != card.slot
    ]
    if card.big:
        out.append("big")
    if card.complex:
        out.append("complex")
    if card.value is not None:
        out.append(f"{card.value} gold")
    if card.carries:
        out.append(f"carries {_plural(card.carries, 'item')}")
    return out


def brief(card: CardDef) -> str:
    """The type and the numbers in one short line: `item, +2, 1 hand, 400 gold`."""
    return ", ".join([kind_word(card), *numbers(card)])


def _traits(kind: Restriction | Condition) -> list[str]:
    words = [_slug(r) for r in kind.race] + [_slug(c) for c in kind.class_]
    if kind.sex is not None:
        words.append(kind.sex)
    level = getattr(kind, "level_at_least", None)
    if level is not None:
        words.append(f"level {level} or more")
    return words


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


def _a(word: str) -> str:
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _either(words: list[str]) -> str:
    return " or ".join(words) if words else "nobody"


def _every(rule: Restriction) -> str:
    """What `requires` asks: one of each key's traits, every key named."""
    keys: list[list[str]] = [[_slug(r) for r in rule.race], [_slug(c) for c in rule.class_]]
    keys.append([rule.sex] if rule.sex else [])
    return " and ".join(_either(words) for words in keys if words) or "nobody"


def _vs(vs: VsBonus) -> str:
    who = _slug(vs.race or vs.class_ or "") if (vs.race or vs.class_) else (vs.sex or "")
    return f"{_signed(vs.bonus)} against {who}"


def _beaten(bonus: RewardBonus) -> str:
    who = _slug(bonus.race or bonus.class_ or "") if (bonus.race or bonus.class_) else (bonus.sex or "")
    gains = [_plural(bonus.levels, "more level")] * bool(bonus.levels) + [
        _plural(bonus.treasures, "more treasure")
    ] * bool(bonus.treasures)
    return f"beaten with {_a(who)} on the winning side: {' and '.join(gains)}"


LOSE_WORDS = {
    "headgear": "the headgear in use",
    "armor": "the armor in use",
    "footgear": "the footgear in use",
    "hands": "an item in use in the hands",
    "big": "a Big item",
    "steed": "a steed",
    "item": "an item",
    "hand_cards": "the whole hand",
    "hireling": "every hireling",
}
EFFECT_WORDS: Mapping[str, Any] = {
    "lose_levels": lambda n: f"lose {_plural(n, 'level')}",
    "die": lambda _: "die",
    "lose": lambda what: f"lose {LOSE_WORDS.get(what, what)}",
    "hireling_dies": lambda _: "a hireling dies",
    "change_sex": lambda _: "change sex",
    "steal_hireling": lambda _: "a hireling goes over to the player of this card",
    "lose_class": lambda _: "lose every class",
    "lose_race": lambda _: "lose every race",
    "run_away": lambda n: f"{_signed(n)} to run away from now on",
    "gain_levels": lambda n: f"gain {_plural(n, 'level')} (never the winning one)",
    "combat": lambda n: f"{_signed(n)} in the next fight (this one, if played in it)",
    "escape": lambda _: "escape every monster that can be escaped",
    "draw_treasures": lambda n: f"draw {_plural(n, 'treasure')} face down",
    "remove_curse": lambda _: "one curse goes",
    "set_die": lambda _: "after any die roll: choose the number the die shows",
    "roll_again": lambda _: "after someone escapes: they roll again",
    "cancel_curse": lambda _: "a curse just played or drawn does nothing",
    "twin": lambda _: "a twin of a monster joins the fight",
    "illusion": lambda _: "a monster from your hand takes the place of one in the fight",
    "force_help": lambda _: "the player you choose must help you, for no reward",
    "send_away": lambda what: (
        "a monster leaves the fight"
        + (", its treasures won with the fight's" if what == "treasures" else ", for nothing")
    ),
    "pass_fight": lambda _: "the whole fight moves to another player",
    "double_strength": lambda _: "the fighter's own strength counts twice in this fight",
    "escape_together": lambda _: "fighter and helper escape together",
    "steal_level": lambda _: "another player loses a level, you gain one",
    "others_take": lambda n: f"the {_plural(n, 'player')} beside the victim each take a card from their hand",
    "swap_race": lambda _: "your race is swapped for the top race of the door discards",
    "swap_class": lambda _: "your class is swapped for the top class of the door discards",
    "income_tax": lambda _: "lose an item; everyone else pays as much or loses a level",
    "doom": lambda _: "the next curse on someone else hits you too",
    "no_divine": lambda _: "Divine Intervention gives this Cleric no level",
}


def effect_words(effect: Effect) -> str:
    """One effect in words: `lose 2 levels`, `if Elf: lose 1 level, else: ...`."""
    if effect.kind == "conditional":
        arg = effect.arg
        then = "; ".join(effect_words(e) for e in arg.then) or "nothing"
        other = "; ".join(effect_words(e) for e in arg.else_) or "nothing"
        return f"if {_either(_traits(arg.if_))}: {then}, else: {other}"
    words = EFFECT_WORDS.get(effect.kind)
    return words(effect.arg) if words else effect.kind.replace("_", " ")


def bad_stuff(card: CardDef) -> list[str]:
    """A monster's Bad Stuff in words, and what it does even to those who escape (B9)."""
    lines = ["Bad Stuff: " + ("; ".join(effect_words(e) for e in card.bad_stuff) or "nothing")]
    if card.even_if_escaped:
        lines.append("Even if you escape: " + "; ".join(effect_words(e) for e in card.even_if_escaped))
    return lines


def details(card: CardDef) -> list[str]:
    """Every line of a card in words, after its name: type and numbers, the printed text,
    who may use it, what it does."""
    lines = [_first_up(brief(card))]
    if card.text:
        lines.append(card.text)
    if card.requires is not None:
        lines.append(f"Only for: {_every(card.requires)} (others carry it)")
    if card.forbids is not None:
        lines.append(f"Not for: {_either(_traits(card.forbids))} (they carry it)")
    traits = [_slug(t) for t in (*card.race, *card.class_)]
    if card.type == "hireling" and (traits or card.sex):
        lines.append(f"Hireling: {', '.join([*traits, *([card.sex] if card.sex else [])])}")
    if card.uses != "any":
        lines.append("Used only in a fight" if card.uses == "combat" else "Used only when running away")
    if card.effects:
        lines.append("Does: " + "; ".join(effect_words(e) for e in card.effects))
    lines += [_first_up(_vs(vs)) for vs in card.vs]
    if card.escape_below:
        lines.append(f"Characters of level {card.escape_below} or lower escape it at once")
    if card.no_escape:
        lines.append("Nobody escapes it by running away")
    if card.no_help:
        lines.append("Nobody may help against it")
    if card.ignores is not None:
        lines.append(f"Will not fight: {_either(_traits(card.ignores))}")
    if card.defeated_by is not None:
        lines.append(f"Defeated at once by: {_either(_traits(card.defeated_by))}")
    lines += [_first_up(_beaten(b)) for b in card.beaten_by]
    if card.type == "monster":
        lines += bad_stuff(card)
    if card.extra_treasures:
        lines.append(f"{_signed(card.extra_treasures)} treasure(s) for the monster")
    if card.immune_to:
        lines.append("Protects from: " + ", ".join(w.replace("_", " ") for w in card.immune_to))
    extras = [
        (card.extra_hands, "hand"),
        (card.extra_big, "Big item"),
        (card.extra_complex, "Complex item"),
        (card.extra_steeds, "steed"),
        (card.extra_races, "race"),
        (card.extra_classes, "class"),
        (card.extra_hirelings, "hireling"),
    ]
    lines += [
        f"Room for {n} more {word}{'es' if word == 'class' and n > 1 else 's' if n > 1 else ''}"
        for n, word in extras
        if n
    ]
    if card.enhances:
        lines.append(f"Played on one of your {card.enhances} cards")
    if card.unless_highest:
        lines.append("Not for a player of the highest level")
    if card.on_other:
        lines.append("Played on another player, who goes up")
    if card.uses_any:
        lines.append("May use any item it carries")
    return lines


def in_play(card: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """What is attached to a card of a view (`attached`, a hireling's `carrying`), in words."""
    out = []
    if card.get("attached"):
        out.append("With: " + ", ".join(names.get(a["id"], a["name"]) for a in card["attached"]))
    if card.get("carrying"):
        out.append("Carrying: " + ", ".join(names.get(c["id"], c["name"]) for c in card["carrying"]))
    if card.get("sex"):
        out.append(f"Now {card['sex']}")
    return out
