"""Behaviour cloning for the `rl` extra: the heuristic bot's decisions in a learner's seat,
and a MaskablePPO policy trained to copy them before PPO goes on
(`examples/train_maskable_ppo.py --clone-games N`).

Each decision gives the observation, the legal ids and the catalog id of the heuristic's
choice (`Catalog.encode`'s table read backwards); the policy learns them with a
cross-entropy over its masked logits, and its value head learns their discounted returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from sb3_contrib import MaskablePPO

from munchkin.rl import single_agent
from munchkin.views import view

GAMMA = 0.995
"""The discount of the returns the value head learns, and of PPO's training."""


@dataclass
class Demonstrations:
    """The heuristic bot's decisions in the learner's seat: per decision, the observation,
    the legal ids, the id it chose and the discounted return from there on."""

    obs: np.ndarray
    legal: list[np.ndarray]
    chosen: np.ndarray
    returns: np.ndarray
    games: int
    wins: int
    off_catalog: int
    """Decisions where the heuristic chose an action no id expresses (an id was played
    instead, and the decision left out)."""


def demonstrations(
    games: int, opponents: Sequence[str], first_seed: int, shaping: float, max_decisions: int
) -> Demonstrations:
    """Play `games` games with the heuristic bot in the learner's seat (see the module's text)."""
    from munchkin.bots.heuristic import HeuristicBot

    env = single_agent(opponents=tuple(opponents), seat=None, shaping=shaping, max_decisions=max_decisions)
    obs_rows: list[np.ndarray] = []
    legal: list[np.ndarray] = []
    chosen: list[int] = []
    returns: list[float] = []
    wins = off_catalog = 0
    for k in range(games):
        obs, info = env.reset(seed=first_seed + k)
        teacher = HeuristicBot(env.game_seed * 10 + env.seat, env.cards)
        me = env.names[env.seat]
        rewards: list[float] = []
        kept: list[bool] = []
        done = False
        while not done:
            assert env.game is not None
            choice = teacher.choose(view(env.game, me))
            ids = [i for i, a in env.legal.actions.items() if a == choice]
            if ids:
                obs_rows.append(obs)
                legal.append(info["legal_action_ids"])
                chosen.append(ids[0])
            else:
                off_catalog += 1
            action = ids[0] if ids else int(info["legal_action_ids"][0])
            obs, reward, terminated, cut, info = env.step(action)
            rewards.append(float(reward))
            kept.append(bool(ids))
            done = terminated or cut
        wins += int(info["won"])
        ahead = 0.0
        game_returns: list[float] = []
        for reward, keep in zip(reversed(rewards), reversed(kept), strict=True):
            ahead = reward + GAMMA * ahead
            if keep:
                game_returns.append(ahead)
        returns += reversed(game_returns)
    return Demonstrations(
        np.array(obs_rows, np.float32).reshape(len(obs_rows), -1),
        legal,
        np.array(chosen, np.int64),
        np.array(returns, np.float32),
        games,
        wins,
        off_catalog,
    )


def _mask(demos: Demonstrations, rows: np.ndarray, size: int) -> torch.Tensor:
    mask = torch.zeros((len(rows), size), dtype=torch.bool)
    for r, j in enumerate(rows):
        mask[r, torch.as_tensor(demos.legal[j])] = True
    return mask


def _logits_and_values(
    model: MaskablePPO, obs: torch.Tensor, mask: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The policy's logits, masked (an illegal id at -1e9), and its values."""
    policy = model.policy
    latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(obs))
    logits = policy.action_net(latent_pi).masked_fill(~mask, -1e9)
    return logits, policy.value_net(latent_vf).squeeze(-1)


def agreement(model: MaskablePPO, demos: Demonstrations, batch_size: int = 512) -> float:
    """How often the policy's likeliest legal action is the heuristic's choice."""
    size = int(model.action_space.n)  # type: ignore[attr-defined]
    agree = 0
    with torch.no_grad():
        for start in range(0, len(demos.chosen), batch_size):
            rows = np.arange(start, min(start + batch_size, len(demos.chosen)))
            logits, _ = _logits_and_values(model, torch.as_tensor(demos.obs[rows]), _mask(demos, rows, size))
            agree += int((logits.argmax(1).numpy() == demos.chosen[rows]).sum())
    return agree / max(1, len(demos.chosen))


def clone(
    model: MaskablePPO, demos: Demonstrations, epochs: int, batch_size: int, lr: float, seed: int = 0
) -> list[dict[str, float]]:
    """Train the policy to pick the heuristic's choices (cross-entropy over the masked
    logits) and its value head on their returns; per epoch, the mean loss and how often
    the policy's likeliest action is the heuristic's, both measured while training."""
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    size = int(model.action_space.n)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    history: list[dict[str, float]] = []
    n = len(demos.chosen)
    for _ in range(epochs):
        loss_sum = value_sum = agree = 0.0
        order = rng.permutation(n)
        for start in range(0, n, batch_size):
            rows = order[start : start + batch_size]
            obs = torch.as_tensor(demos.obs[rows])
            mask = _mask(demos, rows, size)
            target = torch.as_tensor(demos.chosen[rows])
            logits, values = _logits_and_values(model, obs, mask)
            cross = F.cross_entropy(logits, target)
            value_loss = F.mse_loss(values, torch.as_tensor(demos.returns[rows]))
            optimizer.zero_grad()
            (cross + 0.5 * value_loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            loss_sum += cross.item() * len(rows)
            value_sum += value_loss.item() * len(rows)
            agree += float((logits.argmax(1) == target).sum())
        seen = max(1, n)
        history.append({"loss": loss_sum / seen, "value_loss": value_sum / seen, "agreement": agree / seen})
        print(f"cloning epoch {len(history)}: {history[-1]}", flush=True)
    policy.set_training_mode(False)
    return history
