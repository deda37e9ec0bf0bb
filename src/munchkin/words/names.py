"""Card ids as the names a player reads, alone or listed."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Name = Callable[[str | None], str]


def namer(names: Mapping[str, str]) -> Name:
    """Card ids to display names, falling back to the id."""
    return lambda card_id: names.get(card_id or "", card_id or "?")


def listed(n: Name, ids: tuple[str, ...]) -> str:
    """Cards named in a list ("Gold Tooth, Rat on a Stick"), or "nothing"."""
    return ", ".join(n(i) for i in ids) or "nothing"
