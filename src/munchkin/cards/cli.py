"""`munchkin cards ...`: check card files and list the built-in cards.

Errors are one line on stderr, never a traceback; a bad input exits with 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from munchkin.cards.loader import (
    CardLoadError,
    CardSet,
    builtin_set_names,
    combine,
    load_card_file,
    load_card_sets,
)
from munchkin.cards.schema import CardDef

app = typer.Typer(
    name="cards",
    help="Check card files and list the built-in card sets.",
    no_args_is_help=True,
    add_completion=False,
)

_SUMMARY_KEYS = ("id", "name", "deck", "type", "copies")
_PIPE_WIDTH = 160
_MAX_ID_WIDTH = 16


@app.command()
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(help="Card files (YAML), or folders of them.", show_default=False),
    ],
) -> None:
    """Check card files: one line per file, then what the sets require; exit 2 if any is bad."""
    all_good = True
    loaded: list[CardSet] = []
    for path in paths:
        for line, card_set in _check_path(path):
            typer.echo(line, err=card_set is None)
            all_good = all_good and card_set is not None
            loaded += [card_set] if card_set is not None else []
    if all_good:
        problem = _requirement_problem(loaded)
        if problem is not None:
            typer.echo(problem, err=True)
            all_good = False
    if not all_good:
        raise typer.Exit(2)


def _requirement_problem(loaded: list[CardSet]) -> str | None:
    """The sets together, with the sets they require: a missing or cyclic requirement, or an
    id defined twice, as one line (None when they hold together)."""
    try:
        combine(loaded)
    except CardLoadError as exc:
        return str(exc)
    return None


@app.command("list")
def list_cards(
    sets: Annotated[
        list[str] | None,
        typer.Option("--set", "-s", help="A built-in set to list (repeatable); default: all."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
) -> None:
    """List the cards of built-in sets."""
    card_sets = _load_or_exit(sets or builtin_set_names())
    if as_json:
        rows = [_card_json(card, card_set.name) for card_set in card_sets for card in card_set.cards]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        console = Console()
        if not console.is_terminal:  # piped: no terminal width to respect
            console = Console(width=_PIPE_WIDTH)
        console.print(_table(card_sets))


def _check_path(path: Path) -> list[tuple[str, CardSet | None]]:
    """Result lines for a file, or for each card file of a folder, with the set loaded (None
    when it could not be)."""
    if not path.is_dir():
        return [_check_file(path)]
    files = sorted(p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:
        return [(f"{path}: no .yaml files in this folder", None)]
    return [_check_file(file) for file in files]


def _check_file(path: Path) -> tuple[str, CardSet | None]:
    try:
        card_set = load_card_file(path)
    except CardLoadError as exc:
        return str(exc), None
    except OSError as exc:
        return _one_line(f"{path}: cannot read the file: {exc.strerror or exc}"), None
    except Exception as exc:  # never a traceback for the user
        return _one_line(f"{path}: internal error: {type(exc).__name__}: {exc}"), None
    count = len(card_set.cards)
    return (
        f"OK {path} ({count} card{'' if count == 1 else 's'}, {card_set.copies} with copies)",
        card_set,
    )


def _load_or_exit(names: list[str]) -> list[CardSet]:
    try:
        return load_card_sets(names=names)
    except CardLoadError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot read the card sets: {exc.strerror or exc}")
    except Exception as exc:  # never a traceback for the user
        _fail(f"internal error: {type(exc).__name__}: {exc}")


def _fail(message: str) -> NoReturn:
    typer.echo(_one_line(message), err=True)
    raise typer.Exit(2)


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def _card_json(card: CardDef, set_name: str) -> dict[str, Any]:
    """The summary keys, then every key that differs from its default."""
    full = card.model_dump(mode="json", by_alias=True)
    rest = card.model_dump(mode="json", by_alias=True, exclude_defaults=True)
    return {"set": set_name, **{key: full[key] for key in _SUMMARY_KEYS}, **rest}


def _table(card_sets: list[CardSet]) -> Table:
    """One row per card; long ids and names fold onto more lines."""
    cards = [card for card_set in card_sets for card in card_set.cards]
    copies = sum(card.copies for card in cards)
    table = Table(title=f"{len(cards)} cards ({copies} with copies)", box=box.SIMPLE_HEAD, pad_edge=False)
    longest_id = max((len(card.id) for card in cards), default=2)
    if len(card_sets) > 1:
        table.add_column("set", overflow="fold")
    table.add_column("id", overflow="fold", min_width=min(longest_id, _MAX_ID_WIDTH))
    for column in ("name", "deck", "type"):
        table.add_column(column, overflow="fold")
    table.add_column("copies", justify="right", no_wrap=True)
    table.add_column("numbers", overflow="fold")
    for card_set in card_sets:
        for card in card_set.cards:
            row = _row(card, card_set.name)[len(card_sets) == 1 :]
            table.add_row(*(Text(cell) for cell in row))
    return table


def _row(card: CardDef, set_name: str) -> list[str]:
    kind = card.type.replace("_", " ")
    return [set_name, card.id, card.name, card.deck, kind, str(card.copies), _numbers(card)]


def _numbers(card: CardDef) -> str:
    """The key numbers: `level 6`, `+2`, `300 gp`."""
    parts = [] if card.level is None else [f"level {card.level}"]
    if card.bonus:
        parts.append(f"{card.bonus:+d}")
    if card.value is not None:
        parts.append(f"{card.value} gp")
    return " ".join(parts)
