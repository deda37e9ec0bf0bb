"""What happened, as data. `munchkin.text` renders events as sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One change of the game: a kind (e.g. `door_kicked`) and its details."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]
