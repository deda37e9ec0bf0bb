"""The card loader's errors: a `CardLoadError` is one line naming the file, the card and the key,
e.g. ``cards/base.yaml: card 'war-pony': key 'bonus': expected an integer, got 'lots'``.
Before a card has an id, its position names it: ``x.yaml: card #4: key 'id': required``.
Pydantic's validation errors are put in these words here (`Problem`)."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from munchkin.cards.schema import EFFECT_KEYS
from munchkin.errortext import key_path, problem, suggest

_EFFECT_LISTS = frozenset({"bad_stuff", "effects", "then", "else"})


class CardLoadError(Exception):
    """A card file or card definition is invalid; `str()` is one line for the user."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        card: str | None = None,
        key: str | None = None,
    ) -> None:
        message = message.replace("\r", " ").replace("\n", " ")
        super().__init__(message)
        self.message = message
        self.source = source
        self.card = card
        self.key = key

    @classmethod
    def at(
        cls,
        source: str,
        problem: str,
        *,
        where: str | None = None,
        key: str | None = None,
        card: str | None = None,
    ) -> CardLoadError:
        """`SOURCE: WHERE: key 'KEY': PROBLEM`, leaving out the parts not given."""
        parts = [source, where, None if key is None else f"key '{key}'", problem]
        return cls(": ".join(p for p in parts if p), source=source, card=card, key=key)


class Problem(Exception):
    """A problem inside one card or mapping, before the file and card are named."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key


def problem_of(exc: ValidationError, raw: object, model: type[BaseModel]) -> Problem:
    """The first of pydantic's errors validating `raw` as `model`, in words, counting the others."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    key = _key_path(first["loc"])
    message = _message(first, model)
    if key is None and _is_monster_without_level(raw):
        key, message = "level", "required for a monster"
    if len(errors) > 1:
        more = len(errors) - 1
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return Problem(message, key)


def _is_monster_without_level(raw: object) -> bool:
    return isinstance(raw, dict) and raw.get("type") == "monster" and raw.get("level") is None


def _key_path(loc: tuple[int | str, ...]) -> str | None:
    return key_path(loc) or None


def _message(error: ErrorDetails, model: type[BaseModel]) -> str:
    return problem(error, lambda e: _unknown_key(e["loc"], model))


def _unknown_key(loc: tuple[int | str, ...], model: type[BaseModel]) -> str:
    name = str(loc[-1])
    if len(loc) >= 3 and isinstance(loc[-2], int) and loc[-3] in _EFFECT_LISTS:
        return "unknown effect" + suggest(name, EFFECT_KEYS)
    if len(loc) == 1:
        fields = [info.alias or field for field, info in model.model_fields.items()]
        return "unknown key" + suggest(name, fields)
    return "unknown key"
