"""The game's one seeded random source (B19): cheap to copy, optionally forced."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from munchkin.engine.errors import DiceExhausted

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Dice:
    """SplitMix64 generator; its whole state is one integer, so copying is free.

    `forced` (scenarios) lists die results used in order instead of the generator.
    """

    __slots__ = ("forced", "state")

    def __new__(cls, *args: object, **kwargs: object) -> Dice:
        """A bare instance, for `copy` (the compiled class needs a `__new__` of its own)."""
        return object.__new__(cls)

    def __init__(self, seed: int, forced: tuple[int, ...] | None = None) -> None:
        self.state = seed & _MASK
        self.forced = forced

    def copy(self) -> Dice:
        clone = Dice.__new__(Dice)
        clone.state = self.state
        clone.forced = self.forced
        return clone

    def _next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return self._next() % n

    def d6(self) -> int:
        """One die roll, forced when the scenario says so."""
        if self.forced is not None:
            if not self.forced:
                raise DiceExhausted("dice exhausted")
            value, self.forced = self.forced[0], self.forced[1:]
            return value
        return self.below(6) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
