"""Reading a card file's YAML defensively; every problem a one-line `CardLoadError`.

Files over `MAX_FILE_BYTES`, empty files, binary or non-UTF-8 data and files holding
more than one document are refused. The event stream is checked before any Python
object is built: nesting deeper than `MAX_DEPTH` is refused, and so are aliases that
refer to their own enclosing node or that, all together, would add more than
`MAX_ALIAS_NODES` nodes to the document (a "billion laughs" guard). Plain anchors and
aliases, and merge keys (``<<: *base``), are otherwise allowed. A position names the
place of a problem: ``x.yaml: line 3, column 5: bad YAML: ...``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import yaml
from yaml.reader import ReaderError

from munchkin.cards.errors import CardLoadError
from munchkin.errortext import clean

MAX_FILE_BYTES = 5 * 1024 * 1024
"""Largest card file accepted (5 MiB)."""
MAX_DEPTH = 50
"""Deepest nesting of lists and mappings accepted (the document itself is level 1)."""
MAX_ALIAS_NODES = 10_000
"""Most nodes that aliases may add to one document, all aliases together."""

_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Mark(Protocol):
    """A position in YAML text (PyYAML's or libyaml's `Mark`), 0-based."""

    line: int
    column: int


def read_text_file(path: str | Path, source: str | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """Read a UTF-8 text file of at most `limit` bytes, refusing empty or binary data.

    A FIFO is opened without waiting for a writer: one nobody writes to reads as empty.
    """
    path = Path(path)
    source = source or str(path)
    try:
        size = path.stat().st_size
        if size > limit:
            raise _too_large(source, limit, f"{size / 2**20:.1f} MiB; ")
        with _open_without_waiting(path) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise CardLoadError.at(source, f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:  # a special file, or one growing while read
        raise _too_large(source, limit, "")
    return _decode(data, source)


def _open_without_waiting(path: Path) -> BinaryIO:
    """Open `path` for reading; a FIFO's open does not block until someone writes to it."""
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    descriptor = os.open(path, os.O_RDONLY | nonblocking)
    if nonblocking:  # reads wait for a writer that is there, and end at once if none is
        os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")


def _too_large(source: str, limit: int, size: str) -> CardLoadError:
    return CardLoadError.at(source, f"file too large ({size}the limit is {limit / 2**20:g} MiB)")


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


def _first_line(value: object, limit: int = 100) -> str:
    lines = str(value).strip().splitlines()
    line = lines[0] if lines else type(value).__name__
    return line if len(line) <= limit else line[: limit - 3] + "..."
