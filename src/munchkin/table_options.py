"""Table options on the command line: `--option NAME=VALUE` (repeatable) for `munchkin play`,
`simulate` and `demo`, and `--option help` listing them with their descriptions.

The options themselves are the engine's (`munchkin.engine.options`); this module only reads
them from command lines and tells them, one line each, from their own descriptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

from munchkin.engine.options import DEFAULT_OPTIONS, OptionsError, TableOptions, parse_assignments

HELP_WORD = "help"
OPTION_HELP = "A table option as NAME=VALUE, repeatable; `--option help` lists them all."


def choices(name: str) -> str:
    """What an option takes: a range of numbers, true/false, or its words."""
    schema: dict[str, Any] = TableOptions.model_json_schema()["properties"][name]
    if "enum" in schema:
        return "|".join(schema["enum"])
    if schema.get("type") == "boolean":
        return "true|false"
    return f"{schema.get('minimum', '')}-{schema.get('maximum', '')}"


def option_lines() -> list[str]:
    """Every option: name, values, default, and its description (for `--option help`)."""
    lines = []
    for name, field in TableOptions.model_fields.items():
        default = getattr(DEFAULT_OPTIONS, name)
        shown = str(default).lower() if isinstance(default, bool) else default
        lines.append(f"{name}={choices(name)} (default {shown}): {field.description}")
    return lines


def epilog() -> str:
    """The options for a command's --help, one paragraph each (Typer joins lines otherwise)."""
    return "Table options (--option NAME=VALUE):\n\n" + "\n\n".join(option_lines())


def from_command_line(texts: Sequence[str]) -> TableOptions:
    """The options of `--option` texts; `--option help` prints them all and exits 0; a bad one
    is a one-line error naming the option (exit 2)."""
    if HELP_WORD in texts:
        for line in option_lines():
            typer.echo(line)
        raise typer.Exit(0)
    try:
        return parse_assignments(list(texts), "--option")
    except OptionsError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
