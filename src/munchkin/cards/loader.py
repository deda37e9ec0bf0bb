"""Card sets from YAML files: each file read safely (`safe_yaml`) and validated
(`validation`), the sets with those they require, every card id defined once.

Every problem is a `CardLoadError` (`errors`) whose message is one line naming the file,
the card and the key. The names of those modules that other code uses are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from munchkin.cards.errors import CardLoadError
from munchkin.cards.safe_yaml import MAX_ALIAS_NODES, MAX_DEPTH, MAX_FILE_BYTES, load_yaml, read_text_file
from munchkin.cards.schema import CardDef
from munchkin.cards.validation import SetMeta, parse_cards, parse_document
from munchkin.errortext import clean

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "CardLoadError",
    "CardSet",
    "SetMeta",
    "builtin_set_names",
    "catalog",
    "combine",
    "load_builtin_sets",
    "load_card_file",
    "load_card_sets",
    "load_sets_from_paths",
    "load_yaml",
    "parse_cards",
    "read_text_file",
]

SETS_DIR = Path(__file__).with_name("sets")


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


def load_card_file(path: str | Path, *, source: str | None = None) -> CardSet:
    """Read, parse and validate one card file; `source` names it in messages."""
    path = Path(path)
    source = source or str(path)
    data = load_yaml(read_text_file(path, source), source)
    if data is None:
        raise CardLoadError.at(source, "empty document, no cards")
    meta, cards = parse_document(data, source)
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
    return combine(given)


def combine(given: Sequence[CardSet]) -> list[CardSet]:
    """Loaded sets together with the sets they require (built-in ones loaded when missing),
    requirements first; a set name used twice, a requirement missing or in a cycle, or an id
    defined twice is a `CardLoadError`."""
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
