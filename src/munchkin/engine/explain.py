"""Every number the engine computes, as a sum of parts that each name a source and a rule.

The engine computes the numbers *from* these breakdowns, so an explanation can
never disagree with the result.
"""

from __future__ import annotations

from typing import NamedTuple


class Part(NamedTuple):
    """One term of a number: `amount` from `source` (a card id or a player), under `rule`.
    (Named tuples: the engine builds breakdowns whenever it compares strengths.)"""

    label: str
    amount: int
    source: str
    rule: str


class Breakdown(NamedTuple):
    """A number and the parts it adds up from."""

    what: str
    parts: tuple[Part, ...]

    @property
    def total(self) -> int:
        return sum(p.amount for p in self.parts)

    def __str__(self) -> str:
        terms = " ".join(
            f"{'+' if i and p.amount >= 0 else '-' if i else ''} "
            f"{abs(p.amount) if i else p.amount} {p.label} ({p.rule})".strip()
            for i, p in enumerate(self.parts)
        )
        return f"{self.what} {self.total} = {terms or 0}"
