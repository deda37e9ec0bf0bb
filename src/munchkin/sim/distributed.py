"""The same simulation on a Ray cluster (the optional `ray` extra): one task per game, each
running `play_one`, so the records equal a local run's with the same configuration.

Every node needs this package installed, in the same version.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from munchkin.errortext import clean
from munchkin.sim.simulate import Record, SimConfig, play_one

LOCAL = "local"
"""Start a Ray instance on this machine instead of joining a cluster."""


class RayMissing(RuntimeError):
    """Ray is not installed, or the cluster cannot be joined."""


def import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayMissing("ray is not installed: pip install -e '.[ray]'") from None


def run_ray(config: SimConfig, address: str, on_done: Callable[[], None] = lambda: None) -> list[Record]:
    """Every game of the run as a Ray task. Joins the cluster at `address` (`auto`: the one
    this machine belongs to; `local`: a new one here) unless Ray is already initialised, and
    leaves only what it started."""
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(address=None if address == LOCAL else address, include_dashboard=False)
        except (ValueError, ConnectionError) as exc:
            raise RayMissing(f"cannot join Ray at {address!r}: {clean(str(exc), 200)}") from None
    try:
        task = ray.remote(play_one)
        pending = [task.remote(config, index) for index in range(config.games)]
        found: dict[int, Record] = {}
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            record = ray.get(done[0])
            found[record["index"]] = record
            on_done()
        return [found[index] for index in range(config.games)]
    finally:
        if started:
            ray.shutdown()
