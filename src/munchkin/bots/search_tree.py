"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse
2012), as OpenSpiel's `ISMCTSBot` runs it, for the search bot (issue 16).

One tree for the whole decision. Each iteration takes a fresh world (a determinization),
walks the tree from the root by UCB, adds one node, plays the world on with the playout
policy and backs up each player's own reward: an edge is valued by the player who
chooses there (in Munchkin others decide inside our turn: responses, help, trades).

A node stands for an information state of the searching seat: the root is its view; a
node below is reached by the decisions taken since (who decided what; every action of the
game is public, a card id or a player's name, never a hidden instance), whatever the
world. Legal actions differ between worlds, so an edge counts its *availability* (the
visits of its node in which it was legal) and UCB reads `log(available) / visits` in place
of the parent's visits (Cowling et al.'s ISMCTS with availability counts).

The heuristic bot's choice at the root, made from the same view, is tried first and
counted with a head start of `prior_share` of the iterations (`prior_least` at least) when
the most visited action is chosen: the search turns away from it only when UCB kept
preferring another, never on a handful of noisy playouts.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from munchkin.bots.search_eval import PlayoutPolicy, evaluate
from munchkin.engine.actions import Action
from munchkin.engine.game import Game

EXPLORATION = 0.5
"""UCB's exploration constant (rewards are in [0, 1])."""


class Edge:
    """An action from a node: its visits, its reward sum for the player choosing, how often
    it was legal when its node was visited, and the nodes below it by who decides next."""

    __slots__ = ("available", "below", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.below: dict[str, Node] = {}


class Node:
    """An information state of the searching seat: the edges tried from it."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}


@dataclass
class SearchConfig:
    """How much to search: `iterations` per decision, else `think_ms`; the playouts' length
    and randomness; the heuristic's head start at the root (a share of the iterations)."""

    think_ms: float | None = 200.0
    iterations: int | None = None
    playout_decisions: int = 16
    epsilon: float = 0.05
    exploration: float = EXPLORATION
    prior_share: float = 0.5
    prior_least: float = 4.0


@dataclass
class SearchStats:
    """What the last search did: iterations, time, each root action's visits and value,
    worlds broken off."""

    iterations: int = 0
    seconds: float = 0.0
    root: dict[Action, tuple[int, float]] = field(default_factory=dict)
    broken: int = 0
    """Worlds that broke off early (see `Search.iterate`)."""


class Search:
    """One decision's tree search."""

    def __init__(self, config: SearchConfig, policy: PlayoutPolicy, rng: random.Random) -> None:
        self.config = config
        self.policy = policy
        self.rng = rng
        self.root = Node()
        self.favourite: Action | None = None
        self.broken = 0

    def run(
        self,
        player: str,
        legal: Sequence[Action],
        world: Callable[[], Game],
        favourite: Action | None,
        started: float,
    ) -> tuple[Action, SearchStats]:
        """The most visited of `legal` (the favourite counted with its head start) after the
        budget's iterations, each on a new `world()`; the time budget counts from `started`."""
        config = self.config
        root = Node()
        for action in legal:
            root.edges[action] = Edge()
        self.favourite = favourite
        self.root = root
        seats: dict[str, int] = {}
        deadline = None if config.think_ms is None else started + config.think_ms / 1000
        iterations = 0
        root_sum = 0.0
        while True:
            if config.iterations is not None and iterations >= config.iterations:
                break
            if deadline is not None and iterations > 0:
                # Stop when one more iteration, as long as the mean one, would overrun.
                now = time.perf_counter()
                if now + (now - started) / iterations > deadline:
                    break
            w = world()
            if not seats:
                seats.update({name: i for i, name in enumerate(w.players)})
            rewards = self.iterate(w, root, player, seats)
            if rewards is not None:
                root_sum += rewards[seats[player]]
            iterations += 1
        stats = SearchStats(iterations, time.perf_counter() - started, broken=self.broken)
        root_mean = root_sum / max(1, iterations)
        head_start = max(config.prior_least, config.prior_share * iterations)
        best, best_visits = legal[0], -1.0
        for action in sorted(legal, key=lambda a: a != favourite):  # a tie keeps the favourite
            edge = root.edges[action]
            visits = edge.visits + (head_start if action == favourite else 0)
            value = edge.total / edge.visits if edge.visits else root_mean
            stats.root[action] = (edge.visits, value)
            if visits > best_visits:
                best, best_visits = action, visits
        return best, stats

    def iterate(self, world: Game, root: Node, player: str, seats: dict[str, int]) -> list[float] | None:
        """One iteration on one world: select and expand down the tree, play out, back up.

        A world is consistent with the searching seat's view, but what others know or were
        asked is guessed: when a guess breaks the rules' bookkeeping (a question to another
        seat whose options the view does not show, say), the world stops there, counted in
        `broken`, and is valued as it stands (or not at all, if even that fails)."""
        path: list[tuple[Edge, int]] = []
        try:
            self.descend(world, root, player, seats, path)
            self.policy.reset()
            self.policy.play(world, self.config.playout_decisions)
        except Exception:
            self.broken += 1
        try:
            rewards = evaluate(world)
        except Exception:
            return None
        for edge, seat in path:
            edge.visits += 1
            edge.total += rewards[seat]
        return rewards

    def descend(
        self, world: Game, root: Node, player: str, seats: dict[str, int], path: list[tuple[Edge, int]]
    ) -> None:
        """Down the tree by UCB, applying each choice to `world`, until a node is added or
        the game ends; the edges taken are appended to `path`."""
        rng = self.rng
        node, deciding = root, player
        while True:
            legal = world.legal_actions(deciding)
            if not legal:
                raise LookupError(f"{deciding} is waited for with nothing to do")
            edges = node.edges
            untried = []
            for action in legal:
                edge = edges.get(action)
                if edge is None:
                    edge = edges[action] = Edge()
                edge.available += 1
                if edge.visits == 0:
                    untried.append(action)
            if untried:
                if node is root and self.favourite in untried:
                    action = self.favourite
                else:
                    action = untried[0] if len(untried) == 1 else rng.choice(untried)
            else:
                action = self.select(edges, legal)
            edge = edges[action]
            path.append((edge, seats[deciding]))
            world.apply(deciding, action)
            if untried or world.over:
                return
            waiting = world.waiting_for()
            deciding = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
            below = edge.below.get(deciding)
            if below is None:
                below = edge.below[deciding] = Node()
            node = below

    def select(self, edges: dict[Action, Edge], legal: Sequence[Action]) -> Action:
        """UCB with availability among the legal actions (ties to the first)."""
        c = self.config.exploration
        best, best_value = legal[0], -math.inf
        for action in legal:
            edge = edges[action]
            value = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if value > best_value:
                best, best_value = action, value
        return best
