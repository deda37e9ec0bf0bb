"""Pieces of one-line error messages about user files: values shown short, close matches."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from pydantic_core import ErrorDetails


def suggest(name: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for a close match, else nothing."""
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def show(value: object) -> str:
    """A short, one-line picture of a value from a file."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else "a very large integer"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return repr(clean(value, 40))
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return f"a {type(value).__name__}"


def clean(text: str, limit: int = 60) -> str:
    """Text from a file made printable and short, for use inside a message."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "string_pattern_mismatch": "a slug (a-z, 0-9, '-')",
    "tuple_type": "a list",
    "list_type": "a list",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "dict_type": "a mapping",
    "none_required": "null",
}
BOUNDS = {
    "greater_than_equal": ("ge", ">="),
    "greater_than": ("gt", ">"),
    "less_than_equal": ("le", "<="),
    "less_than": ("lt", "<"),
}


def key_path(loc: Sequence[int | str]) -> str:
    """`('setup', 'players', 0, 'level')` -> `setup.players[0].level` (union branch names
    left out, `class_` shown as `class`)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part == "class_":
            text += ".class" if text else "class"
        elif not part[:1].isupper() and "[" not in part:
            text += f".{part}" if text else part
    return clean(text)


def problem(error: ErrorDetails, unknown_key: Callable[[ErrorDetails], str]) -> str:
    """One pydantic error as a short phrase; `unknown_key` words the unknown-key case."""
    kind = error["type"]
    got = show(error["input"])
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return "required"
    if kind == "extra_forbidden":
        return unknown_key(error)
    if kind in EXPECTED:
        return f"expected {EXPECTED[kind]}, got {got}"
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        if not choices:
            return f"must be {str(ctx.get('expected', '')).lower()}, got {got}"
        return f"must be one of: {', '.join(choices)} (got {got})"
    if kind in BOUNDS:
        name, sign = BOUNDS[kind]
        return f"must be {sign} {ctx.get(name)}, got {got}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    return f"{error['msg']}, got {got}"
