"""Rate limits as token buckets."""

from __future__ import annotations

import time
from collections import OrderedDict


class Bucket:
    """Allows `burst` events at once and `rate` per second after that."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Spend one token if there is one."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def available(self) -> int:
        """Whole tokens there are now."""
        self._refill()
        return int(self.tokens)

    def spend(self, count: int) -> None:
        self._refill()
        self.tokens -= count

    def wait(self) -> float:
        """Seconds until there is a whole token."""
        self._refill()
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now


class Buckets:
    """One bucket per key (a client address), forgetting the least recently used beyond `size`."""

    def __init__(self, rate: float, burst: int, size: int = 10_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, key: str) -> bool:
        bucket = self._buckets.pop(key, None) or Bucket(self.rate, self.burst)
        self._buckets[key] = bucket
        if len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return bucket.take()
