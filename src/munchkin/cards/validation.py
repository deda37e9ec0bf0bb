"""Card files' contents validated: the document's layout, each card by the schema in
pydantic's strict mode (``bonus: "3"``, ``bonus: true`` and ``big: 1`` are type errors,
never silently converted), then the rules across a card's keys that the schema cannot say."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from munchkin.cards.errors import CardLoadError, Problem, problem_of
from munchkin.cards.safe_yaml import MAX_DEPTH
from munchkin.cards.schema import ANSWER_WORDS, EFFECT_KEYS, FIGHT_WORDS, CardDef
from munchkin.errortext import clean, show, suggest

_SLUG = re.compile(r"[a-z0-9-]+")
_TOP_LEVEL_KEYS = ("set", "cards")
_Model = TypeVar("_Model", bound=BaseModel)


class SetMeta(BaseModel):
    """The optional `set:` mapping of a card file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""
    requires: tuple[str, ...] = ()
    """Names of the sets this one needs; loaded with it (see `loader.load_card_sets`)."""


def parse_cards(data: object, source: str) -> list[CardDef]:
    """Validate parsed YAML: a list of cards, or a mapping with `set:` and `cards:`."""
    return parse_document(data, source)[1]


def parse_document(data: object, source: str) -> tuple[SetMeta | None, list[CardDef]]:
    meta, items, depth = _split_document(data, source)
    cards: list[CardDef] = []
    first_at: dict[str, int] = {}
    for index, item in enumerate(items, start=1):
        card = _parse_card(item, source, index, depth)
        if card.id in first_at:
            problem = f"duplicate id (cards #{first_at[card.id]} and #{index})"
            raise CardLoadError.at(source, problem, where=f"card '{card.id}'", key="id", card=card.id)
        first_at[card.id] = index
        cards.append(card)
    return meta, cards


def _split_document(data: object, source: str) -> tuple[SetMeta | None, Sequence[object], int]:
    """The set metadata, the card list, and the nesting depth of each card."""
    if isinstance(data, list | tuple):
        return None, data, 2
    if not isinstance(data, dict):
        expected = "expected a list of cards or a mapping with 'cards'"
        raise CardLoadError.at(source, f"{expected}, got {show(data)}")
    for key in data:
        if key not in _TOP_LEVEL_KEYS:
            hint = suggest(str(key), _TOP_LEVEL_KEYS) or " (a file has 'set' and 'cards')"
            raise CardLoadError.at(source, f"unknown top-level key{hint}", key=clean(str(key)))
    items = data.get("cards")
    if "cards" not in data:
        raise CardLoadError.at(source, "required", key="cards")
    if not isinstance(items, list | tuple):
        raise CardLoadError.at(source, f"expected a list, got {show(items)}", key="cards")
    meta = _parse_meta(data["set"], source) if "set" in data else None
    return meta, items, 3


def _parse_meta(raw: object, source: str) -> SetMeta:
    try:
        return _validate(SetMeta, raw, 2)
    except Problem as problem:
        key = "set" if problem.key is None else f"set.{problem.key}"
        raise CardLoadError.at(source, problem.message, key=key) from None


def _parse_card(raw: object, source: str, index: int, depth: int) -> CardDef:
    card_id = _raw_id(raw)
    where = f"card #{index}" if card_id is None else f"card '{card_id}'"
    if not isinstance(raw, dict):
        raise CardLoadError.at(source, f"expected a mapping, got {show(raw)}", where=where)
    try:
        card = _validate(CardDef, raw, depth)
        _check_card(card)
    except Problem as problem:
        raise CardLoadError.at(source, problem.message, where=where, key=problem.key, card=card_id) from None
    return card


def _raw_id(raw: object) -> str | None:
    """The card's id if it is a valid slug, else None (the card is named by position)."""
    if isinstance(raw, dict):
        card_id = raw.get("id")
        if isinstance(card_id, str) and _SLUG.fullmatch(card_id):
            return card_id
    return None


def _check_card(card: CardDef) -> None:
    """Rules across keys, beyond the schema; only keys written in the file count."""
    given = card.model_fields_set
    if card.type != "monster":
        for key in (*MONSTER_KEYS, "ignores", "defeated_by", "beaten_by", "no_help"):
            if key in given:
                raise Problem(f"only for monsters (type is '{card.type}')", key)
    if card.treasures < 0 and card.type != "monster_enhancer":  # an enhancer's may be negative
        raise Problem(f"must be >= 0, got {card.treasures}", "treasures")
    if card.hands == 2 and card.slot != "hands" and "hands" not in card.extra_slots:
        raise Problem(f"2 hands needs 'slot: hands' (slot is '{card.slot}')", "hands")
    _check_words(card, given)
    if "carries" in given and card.type != "hireling":
        raise Problem(f"only for hirelings (type is '{card.type}')", "carries")
    if "enhances" in given and card.type != "other":
        raise Problem(f"only for race and class enhancers, type other (type is '{card.type}')", "enhances")


MONSTER_KEYS = ("level", "bad_stuff", "vs", "even_if_escaped", "escape_below", "no_escape")


def _check_words(card: CardDef, given: set[str]) -> None:
    """The newer words of docs/card-format.md, each only where it means something."""
    if "extra_slots" in given and card.type != "item":
        raise Problem(f"only for items (type is '{card.type}')", "extra_slots")
    if card.slot in card.extra_slots:
        raise Problem(f"'{card.slot}' is already the item's slot", "extra_slots")
    if "immune_to" in given and card.type not in ("item", "steed", "hireling"):
        raise Problem(f"only for items, steeds and hirelings (type is '{card.type}')", "immune_to")
    for word in card.immune_to:
        if word not in EFFECT_KEYS:
            raise Problem(f"'{clean(word)}' is not an effect word{suggest(word, EFFECT_KEYS)}", "immune_to")
    if "uses_any" in given and card.type != "hireling":
        raise Problem(f"only for hirelings (type is '{card.type}')", "uses_any")
    for key in ("unless_highest", "on_other"):
        if key in given and card.type != "go_up_a_level":
            raise Problem(f"only for Go Up a Level cards (type is '{card.type}')", key)
    for key in ("bad_stuff", "even_if_escaped"):
        for effect in getattr(card, key):
            if effect.kind in FIGHT_WORDS or effect.kind in ANSWER_WORDS:
                raise Problem(f"'{effect.kind}' is played from a hand, never Bad Stuff", key)
    played = card.type in ("one_shot", "other", "curse", "trap")
    for effect in card.effects:
        if (effect.kind in FIGHT_WORDS or effect.kind in ANSWER_WORDS) and card.type not in (
            "one_shot",
            "other",
        ):
            raise Problem(
                f"'{effect.kind}' is for one-shots and other cards (type is '{card.type}')", "effects"
            )
        if not played and "effects" in given and card.type != "go_up_a_level":
            raise Problem(
                f"effects are for curses, traps, one-shots and other cards (type is '{card.type}')", "effects"
            )


def _validate(model: type[_Model], raw: object, depth: int) -> _Model:
    """Strict validation; errors become a `Problem` naming the key path."""
    try:
        return model.model_validate(_plain(raw, depth), strict=True)
    except ValidationError as exc:
        raise problem_of(exc, raw, model) from None


def _plain(value: object, depth: int) -> object:
    """Lists as tuples and keys as text, for strict validation; refuse deep nesting."""
    if isinstance(value, list | tuple | dict) and depth > MAX_DEPTH:
        raise Problem(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, list | tuple):
        return tuple(_plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return {str(key): _plain(item, depth + 1) for key, item in value.items()}
    return value
