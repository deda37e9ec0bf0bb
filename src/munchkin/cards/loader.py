"""Load card sets from YAML files: safe reading, validation, one-line errors.

Every problem is a `CardLoadError` whose message is one line naming the file,
the card and the key, e.g. ``cards/base.yaml: card 'war-pony': key 'bonus':
expected an integer, got 'lots'``. Before a card has an id, the position names
it: ``x.yaml: card #4: key 'id': required``, ``x.yaml: line 3, column 5: bad
YAML: ...``.

YAML is read defensively. Files over `MAX_FILE_BYTES`, empty files, binary or
non-UTF-8 data and files holding more than one document are refused. The event
stream is checked before any Python object is built: nesting deeper than
`MAX_DEPTH` is refused, and so are aliases that refer to their own enclosing
node or that, all together, would add more than `MAX_ALIAS_NODES` nodes to the
document (a "billion laughs" guard). Plain anchors and aliases, and merge keys
(``<<: *base``), are otherwise allowed.

Cards are validated in pydantic's strict mode: ``bonus: "3"``, ``bonus: true``
and ``big: 1`` are type errors, never silently converted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails
from yaml.reader import ReaderError

from munchkin.cards.schema import ANSWER_WORDS, EFFECT_KEYS, FIGHT_WORDS, CardDef
from munchkin.errortext import clean, key_path, problem, show, suggest

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "CardLoadError",
    "CardSet",
    "SetMeta",
    "builtin_set_names",
    "catalog",
    "load_builtin_sets",
    "load_card_file",
    "load_card_sets",
    "load_sets_from_paths",
    "load_yaml",
    "parse_cards",
    "read_text_file",
]

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest card file accepted (5 MiB)."""
MAX_DEPTH = 50
"""Deepest nesting of lists and mappings accepted (the document itself is level 1)."""
MAX_ALIAS_NODES = 10_000
"""Most nodes that aliases may add to one document, all aliases together."""

SETS_DIR = Path(__file__).with_name("sets")
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SLUG = re.compile(r"[a-z0-9-]+")
_EFFECT_LISTS = frozenset({"bad_stuff", "effects", "then", "else"})
_TOP_LEVEL_KEYS = ("set", "cards")
_Model = TypeVar("_Model", bound=BaseModel)


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


@dataclass(frozen=True)
class CardSet:
    """The cards of one set file."""

    name: str
    cards: tuple[CardDef, ...]
    source: str
    description: str = ""
    requires: tuple[str, ...] = ()

    @property
    def copies(self) -> int:
        """Number of cards counting copies."""
        return sum(card.copies for card in self.cards)


class SetMeta(BaseModel):
    """The optional `set:` mapping of a card file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""
    requires: tuple[str, ...] = ()
    """Names of the sets this one needs; loaded with it (see `load_card_sets`)."""


class _Mark(Protocol):
    """A position in YAML text (PyYAML's or libyaml's `Mark`), 0-based."""

    line: int
    column: int


class _Problem(Exception):
    """A problem inside one card or mapping, before the file and card are named."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.key = key


# ---------------------------------------------------------------- reading YAML


def read_text_file(path: str | Path, source: str | None = None) -> str:
    """Read a UTF-8 text file of at most `MAX_FILE_BYTES`, refusing empty or binary data."""
    path = Path(path)
    source = source or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _too_large(source, f"{size / 2**20:.1f} MiB; ")
        with path.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CardLoadError.at(source, f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:  # a special file, or one growing while read
        raise _too_large(source, "")
    return _decode(data, source)


def _too_large(source: str, size: str) -> CardLoadError:
    limit = MAX_FILE_BYTES / 2**20
    return CardLoadError.at(source, f"file too large ({size}the limit is {limit:g} MiB)")


def _decode(data: bytes, source: str) -> str:
    if b"\x00" in data:
        raise CardLoadError.at(source, "binary data, not a UTF-8 YAML text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problem = f"not UTF-8 text (byte 0x{data[exc.start]:02x})"
        raise CardLoadError.at(source, problem, where=f"line {line}") from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise CardLoadError.at(source, "empty file")
    return text


def load_yaml(text: str, source: str) -> object:
    """Parse one YAML document with the safe loader, after the depth and alias checks."""
    try:
        guard = _EventGuard(source)
        for event in yaml.parse(text, Loader=_YAML_LOADER):
            guard.feed(event)
        guard.finish()
        return yaml.load(text, Loader=_YAML_LOADER)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, source) from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        # constructors of tagged or implicit values: dates, `!!int x`, huge numbers
        raise CardLoadError.at(source, f"bad YAML: {_first_line(exc)}") from None


class _Node:
    """An open collection while walking the event stream."""

    def __init__(self, anchor: str | None) -> None:
        self.anchor = anchor
        self.size = 1
        self.height = 1


class _EventGuard:
    """Checks the YAML event stream: one document, depth, alias expansion."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.stack: list[_Node] = []
        self.anchors: dict[str, tuple[int, int] | None] = {}  # None: still open
        self.documents = 0
        self.alias_nodes = 0

    def feed(self, event: yaml.Event) -> None:
        """Account for one event; raise `CardLoadError` at the first excess."""
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self._error(event, "more than one YAML document (one per file)")
        elif isinstance(event, yaml.CollectionStartEvent):
            if len(self.stack) >= MAX_DEPTH:
                raise self._error(event, f"nested deeper than {MAX_DEPTH} levels")
            if event.anchor:
                self.anchors[event.anchor] = None
            self.stack.append(_Node(event.anchor))
        elif isinstance(event, yaml.CollectionEndEvent):
            node = self.stack.pop()
            if node.anchor:
                self.anchors[node.anchor] = (node.size, node.height)
            self._add(node.size, node.height)
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor:
                self.anchors[event.anchor] = (1, 0)
            self._add(1, 0)
        elif isinstance(event, yaml.AliasEvent):
            self._alias(event)

    def finish(self) -> None:
        """Refuse a stream with no document."""
        if self.documents == 0:
            raise CardLoadError.at(self.source, "empty file (no YAML document)")

    def _alias(self, event: yaml.AliasEvent) -> None:
        name = event.anchor or ""
        if name not in self.anchors:
            raise self._error(event, f"bad YAML: undefined alias '*{clean(name)}'")
        target = self.anchors[name]
        if target is None:
            raise self._error(event, f"alias '*{clean(name)}' refers to its own enclosing node")
        size, height = target
        self.alias_nodes += size
        if self.alias_nodes > MAX_ALIAS_NODES:
            problem = f"aliases expand to more than {MAX_ALIAS_NODES} nodes"
            raise self._error(event, problem)
        if len(self.stack) + height > MAX_DEPTH:
            raise self._error(event, f"nested deeper than {MAX_DEPTH} levels (through an alias)")
        self._add(size, height)

    def _add(self, size: int, height: int) -> None:
        if self.stack:
            parent = self.stack[-1]
            parent.size += size
            parent.height = max(parent.height, height + 1)

    def _error(self, event: yaml.Event, problem: str) -> CardLoadError:
        return _at_mark(self.source, event.start_mark, problem)


def _at_mark(source: str, mark: _Mark | None, problem: str) -> CardLoadError:
    if mark is None:
        return CardLoadError.at(source, problem)
    where = f"line {mark.line + 1}, column {mark.column + 1}"
    return CardLoadError.at(source, problem, where=where)


def _yaml_error(exc: yaml.YAMLError, text: str, source: str) -> CardLoadError:
    if isinstance(exc, yaml.MarkedYAMLError):
        problem = exc.problem or exc.context or "syntax error"
        mark = exc.problem_mark or exc.context_mark
        return _at_mark(source, mark, f"bad YAML: {_first_line(problem)}")
    if isinstance(exc, ReaderError):
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        where = f"line {line}, column {column}"
        return CardLoadError.at(source, f"bad YAML: {_first_line(exc)}", where=where)
    return CardLoadError.at(source, f"bad YAML: {_first_line(exc)}")


# ------------------------------------------------------------- parsing cards


def parse_cards(data: object, source: str) -> list[CardDef]:
    """Validate parsed YAML: a list of cards, or a mapping with `set:` and `cards:`."""
    return _parse_document(data, source)[1]


def _parse_document(data: object, source: str) -> tuple[SetMeta | None, list[CardDef]]:
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
    except _Problem as problem:
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
    except _Problem as problem:
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
                raise _Problem(f"only for monsters (type is '{card.type}')", key)
    if card.hands == 2 and card.slot != "hands" and "hands" not in card.extra_slots:
        raise _Problem(f"2 hands needs 'slot: hands' (slot is '{card.slot}')", "hands")
    _check_words(card, given)
    if "carries" in given and card.type != "hireling":
        raise _Problem(f"only for hirelings (type is '{card.type}')", "carries")
    if "enhances" in given and card.type != "other":
        raise _Problem(f"only for race and class enhancers, type other (type is '{card.type}')", "enhances")


MONSTER_KEYS = ("level", "bad_stuff", "vs", "even_if_escaped", "escape_below", "no_escape")


def _check_words(card: CardDef, given: set[str]) -> None:
    """The newer words of docs/card-format.md, each only where it means something."""
    if "extra_slots" in given and card.type != "item":
        raise _Problem(f"only for items (type is '{card.type}')", "extra_slots")
    if card.slot in card.extra_slots:
        raise _Problem(f"'{card.slot}' is already the item's slot", "extra_slots")
    if "immune_to" in given and card.type not in ("item", "steed", "hireling"):
        raise _Problem(f"only for items, steeds and hirelings (type is '{card.type}')", "immune_to")
    for word in card.immune_to:
        if word not in EFFECT_KEYS:
            raise _Problem(f"'{clean(word)}' is not an effect word{suggest(word, EFFECT_KEYS)}", "immune_to")
    if "uses_any" in given and card.type != "hireling":
        raise _Problem(f"only for hirelings (type is '{card.type}')", "uses_any")
    for key in ("unless_highest", "on_other"):
        if key in given and card.type != "go_up_a_level":
            raise _Problem(f"only for Go Up a Level cards (type is '{card.type}')", key)
    for key in ("bad_stuff", "even_if_escaped"):
        for effect in getattr(card, key):
            if effect.kind in FIGHT_WORDS or effect.kind in ANSWER_WORDS:
                raise _Problem(f"'{effect.kind}' is played from a hand, never Bad Stuff", key)
    played = card.type in ("one_shot", "other", "curse", "trap")
    for effect in card.effects:
        if (effect.kind in FIGHT_WORDS or effect.kind in ANSWER_WORDS) and card.type not in (
            "one_shot",
            "other",
        ):
            raise _Problem(
                f"'{effect.kind}' is for one-shots and other cards (type is '{card.type}')", "effects"
            )
        if not played and "effects" in given and card.type != "go_up_a_level":
            raise _Problem(
                f"effects are for curses, traps, one-shots and other cards (type is '{card.type}')", "effects"
            )


def _validate(model: type[_Model], raw: object, depth: int) -> _Model:
    """Strict validation; errors become a `_Problem` naming the key path."""
    try:
        return model.model_validate(_plain(raw, depth), strict=True)
    except ValidationError as exc:
        raise _problem(exc, raw, model) from None


def _plain(value: object, depth: int) -> object:
    """Lists as tuples and keys as text, for strict validation; refuse deep nesting."""
    if isinstance(value, list | tuple | dict) and depth > MAX_DEPTH:
        raise _Problem(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, list | tuple):
        return tuple(_plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return {str(key): _plain(item, depth + 1) for key, item in value.items()}
    return value


# ------------------------------------------------- pydantic errors, in words


def _problem(exc: ValidationError, raw: object, model: type[BaseModel]) -> _Problem:
    errors = exc.errors(include_url=False)
    first = errors[0]
    key = _key_path(first["loc"])
    message = _message(first, model)
    if key is None and _is_monster_without_level(raw):
        key, message = "level", "required for a monster"
    if len(errors) > 1:
        more = len(errors) - 1
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return _Problem(message, key)


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


def _first_line(value: object, limit: int = 100) -> str:
    lines = str(value).strip().splitlines()
    line = lines[0] if lines else type(value).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."


# --------------------------------------------------------------- card sets


def load_card_file(path: str | Path, *, source: str | None = None) -> CardSet:
    """Read, parse and validate one card file; `source` names it in messages."""
    path = Path(path)
    source = source or str(path)
    data = load_yaml(read_text_file(path, source), source)
    if data is None:
        raise CardLoadError.at(source, "empty document, no cards")
    meta, cards = _parse_document(data, source)
    if meta is None:
        return CardSet(path.stem, tuple(cards), source)
    return CardSet(meta.name, tuple(cards), source, meta.description, meta.requires)


def builtin_set_names() -> list[str]:
    """Names (file stems) of the built-in card sets, sorted."""
    if not SETS_DIR.is_dir():
        return []
    return sorted(p.stem for p in SETS_DIR.glob("*.yaml") if p.is_file())


def load_card_sets(names: Iterable[str] = (), paths: Iterable[str | Path] = ()) -> list[CardSet]:
    """Load built-in sets by name and set files by path, plus the sets they require.

    A required set is one of those given (by set name) or else a built-in set,
    loaded too. Sets come requirements first; an id may be defined only once.
    """
    names = [names] if isinstance(names, str) else names
    given = [_load_builtin(name) for name in dict.fromkeys(names)]
    given += [load_card_file(path) for path in paths]
    by_name: dict[str, CardSet] = {}
    for card_set in given:
        other = by_name.setdefault(card_set.name, card_set)
        if other is not card_set:
            problem = f"set name '{card_set.name}' is also used by {other.source}"
            raise CardLoadError.at(card_set.source, problem, key="set.name")
    ordered = _with_requirements(by_name)
    _check_unique_ids(ordered)
    return ordered


def load_builtin_sets(names: Sequence[str]) -> list[CardDef]:
    """The cards of the named built-in sets (and of the sets they require)."""
    return [card for card_set in load_card_sets(names=names) for card in card_set.cards]


def load_sets_from_paths(paths: Iterable[str | Path]) -> list[CardDef]:
    """The cards of several set files (and of the built-in sets they require)."""
    return [card for card_set in load_card_sets(paths=paths) for card in card_set.cards]


def catalog(cards: Iterable[CardDef]) -> dict[str, CardDef]:
    """Cards by id; an id given twice is a `CardLoadError`."""
    result: dict[str, CardDef] = {}
    for card in cards:
        if card.id in result:
            raise CardLoadError(f"card '{card.id}': key 'id': defined twice", card=card.id, key="id")
        result[card.id] = card
    return result


def _load_builtin(name: str) -> CardSet:
    known = builtin_set_names()
    if name not in known:
        listed = ", ".join(known) or "none"
        raise CardLoadError(f"unknown card set '{clean(name)}' (known: {listed})")
    path = SETS_DIR / f"{name}.yaml"
    card_set = load_card_file(path, source=_display(path))
    if card_set.name != name:
        problem = f"a built-in set is named after its file ('{name}'), got '{card_set.name}'"
        raise CardLoadError.at(card_set.source, problem, key="set.name")
    return card_set


def _display(path: Path) -> str:
    """The path relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


def _with_requirements(by_name: dict[str, CardSet]) -> list[CardSet]:
    """All sets with their requirements (loaded when missing), requirements first."""
    ordered: list[CardSet] = []
    done: set[str] = set()

    def visit(card_set: CardSet, chain: tuple[str, ...]) -> None:
        if card_set.name in done:
            return
        chain = (*chain, card_set.name)
        for required in card_set.requires:
            if required in chain:
                cycle = " -> ".join((*chain, required))
                raise CardLoadError.at(card_set.source, f"requirement cycle {cycle}", key="set.requires")
            if required not in by_name:
                by_name[required] = _load_required(required, card_set)
            visit(by_name[required], chain)
        done.add(card_set.name)
        ordered.append(card_set)

    for card_set in list(by_name.values()):
        visit(card_set, ())
    return ordered


def _load_required(name: str, by: CardSet) -> CardSet:
    if name not in builtin_set_names():
        problem = f"unknown set '{clean(name)}' (neither given nor built in)"
        raise CardLoadError.at(by.source, problem, key="set.requires")
    return _load_builtin(name)


def _check_unique_ids(sets: Iterable[CardSet]) -> None:
    seen: dict[str, str] = {}
    for card_set in sets:
        for card in card_set.cards:
            if card.id in seen:
                problem = f"duplicate id, already defined in {seen[card.id]}"
                raise CardLoadError.at(
                    card_set.source, problem, where=f"card '{card.id}'", key="id", card=card.id
                )
            seen[card.id] = card_set.source
