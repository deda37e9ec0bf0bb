"""Train one Munchkin policy with sb3-contrib's MaskablePPO, then measure its win rate.

The learner takes a seat drawn for each game against three bots (random by default), sees
only its own view (`munchkin.rl.single_agent`) and picks among its legal actions only (the
mask). It is rewarded +1 for a win, plus the change of its level lead over the others
(`--shaping`, potential-based: it adds up to the final lead, so a win still matters most).
After training, it plays `--eval-games` games against three random bots and as many
against three heuristic bots, on seeds it never trained on, and the figures, the learning
curve (a PNG) and the model are written.

    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python examples/train_maskable_ppo.py --steps 200000 --out runs/ppo \
        --plot docs/rl-learning-curve.png

A smoke run (as CI does): `--steps 2048 --n-steps 256 --eval-games 2`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from munchkin.rl import single_agent
from munchkin.rl.sb3 import FactoredPolicy

EVAL_SEED = 1_000_000
"""Evaluation games use seeds from here on; training games draw theirs from `--seed`."""


def make_env(opponents: Sequence[str], seed: int, shaping: float, max_decisions: int) -> Callable[[], Any]:
    def build() -> Any:
        env = single_agent(
            opponents=tuple(opponents), seat=None, shaping=shaping, max_decisions=max_decisions
        )
        env.reset(seed=seed)
        return Monitor(env, info_keywords=("won",))

    return build


class WinCurve(BaseCallback):
    """Each finished training game: the step count and whether the learner won; a progress
    line every `every` steps."""

    def __init__(self, every: int = 10_000) -> None:
        super().__init__()
        self.games: list[tuple[int, bool]] = []
        self.started = time.perf_counter()
        self.every, self.next = every, every

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done:
                self.games.append((self.num_timesteps, bool(info.get("won"))))
        if self.num_timesteps >= self.next:
            self.next += self.every
            recent = [w for _, w in self.games[-200:]]
            rate = f"{np.mean(recent):.3f}" if recent else "-"
            elapsed = time.perf_counter() - self.started
            print(
                f"{self.num_timesteps} steps, {elapsed:.0f} s, {len(self.games)} games, win rate {rate}",
                flush=True,
            )
        return True


def evaluate(
    model: MaskablePPO,
    opponents: Sequence[str],
    games: int,
    max_decisions: int,
    first: int = 0,
    deterministic: bool = False,
) -> dict[str, Any]:
    """Games on unseen seeds (from EVAL_SEED + `first`), the learner in a seat drawn per game,
    sampling its policy (or taking its likeliest action: `deterministic`)."""
    env = single_agent(opponents=tuple(opponents), seat=None, max_decisions=max_decisions)
    wins = truncated = steps = 0
    for k in range(first, first + games):
        obs, info = env.reset(seed=EVAL_SEED + k)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=deterministic)
            obs, _, terminated, cut, info = env.step(int(action))
            done = terminated or cut
            steps += 1
        wins += int(info["won"])
        truncated += int(cut)
    return {
        "opponents": list(opponents),
        "games": games,
        "first_game": first,
        "deterministic": deterministic,
        "wins": wins,
        "win_rate": wins / max(1, games),
        "truncated": truncated,
        "learner_steps_per_game": steps / max(1, games),
    }


def plot(curve: list[tuple[int, bool]], window: int, figures: dict[str, Any], path: Path) -> None:
    """The training games' win rate (moving average) against the steps trained."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if curve:
        steps = np.array([s for s, _ in curve])
        won = np.array([w for _, w in curve], float)
        width = max(1, min(window, len(won)))
        rate = np.convolve(won, np.ones(width) / width, mode="valid")
        ax.plot(steps[width - 1 :], rate, label=f"training games vs random bots ({width}-game average)")
    ax.axhline(0.25, color="grey", linestyle=":", label="an equal share (25%)")
    for name, marker in (("vs_random", "o"), ("vs_heuristic", "s")):
        result = figures.get(name)
        if result:
            ax.plot(
                [figures["steps"]],
                [result["win_rate"]],
                marker,
                label=f"after training, {result['games']} games {name.replace('_', ' ')} bots",
            )
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title("MaskablePPO learner, 4 players, base set")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_evaluations(model: MaskablePPO, args: argparse.Namespace, figures: dict[str, Any]) -> None:
    """The evaluation games against each kind of `--eval-against`, figures written after each."""
    for kind in args.eval_against.split(","):
        if args.eval_games:
            start = time.perf_counter()
            result = evaluate(
                model, [kind] * 3, args.eval_games, args.max_decisions, args.eval_first, args.deterministic
            )
            figures[f"vs_{kind}"] = {**result, "seconds": time.perf_counter() - start}
        (args.out / "figures.json").write_text(json.dumps(figures, indent=2) + "\n")


def evaluate_only(args: argparse.Namespace) -> dict[str, Any]:
    model = MaskablePPO.load(args.load, device="cpu")
    figures: dict[str, Any] = {"model": str(args.load), "steps": model.num_timesteps}
    run_evaluations(model, args, figures)
    print(json.dumps(figures, indent=2))
    return figures


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps to train")
    parser.add_argument("--opponents", default="random", help="bot kind of the three other seats")
    parser.add_argument("--envs", type=int, default=8, help="games played side by side (one batch)")
    parser.add_argument("--subproc", action="store_true", help="each game in its own process")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=1.0, help="weight of the level-lead reward")
    parser.add_argument("--max-decisions", type=int, default=6000, help="decisions per game before a cut")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per game per update")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--hidden", type=int, default=128, help="units of the two hidden layers")
    parser.add_argument(
        "--policy",
        choices=("factored", "mlp"),
        default="factored",
        help="output rows built from the catalog's keys (munchkin.rl.sb3), or one free row per id",
    )
    parser.add_argument("--eval-games", type=int, default=200, help="games against each kind of bot")
    parser.add_argument("--eval-against", default="random,heuristic", help="bot kinds to evaluate against")
    parser.add_argument("--eval-first", type=int, default=0, help="first evaluation game (seed offset)")
    parser.add_argument("--deterministic", action="store_true", help="evaluate the likeliest actions")
    parser.add_argument("--load", type=Path, default=None, help="evaluate this saved model, no training")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"))
    parser.add_argument("--plot", type=Path, default=None, help="learning-curve PNG (default: in --out)")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    importlib.import_module("munchkin.bots.heuristic")  # the evaluation's bots, loaded now
    args.out.mkdir(parents=True, exist_ok=True)
    if args.load is not None:
        return evaluate_only(args)
    opponents = [args.opponents] * 3
    builders = [
        make_env(opponents, args.seed * 1000 + k, args.shaping, args.max_decisions) for k in range(args.envs)
    ]
    venv: VecEnv = SubprocVecEnv(builders) if args.subproc and args.envs > 1 else DummyVecEnv(builders)
    model = MaskablePPO(
        FactoredPolicy if args.policy == "factored" else "MlpPolicy",
        venv,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.lr,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    curve = WinCurve()
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=curve)
    seconds = time.perf_counter() - start
    venv.close()
    model.save(args.out / "model.zip")

    figures: dict[str, Any] = {
        "steps": model.num_timesteps,
        "training_seconds": seconds,
        "steps_per_s": model.num_timesteps / seconds,
        "training_games": len(curve.games),
        "training_win_rate_last_200": float(np.mean([w for _, w in curve.games[-200:]]))
        if curve.games
        else None,
        "settings": {k: str(v) for k, v in vars(args).items()},
    }
    (args.out / "curve.json").write_text(json.dumps(curve.games) + "\n")
    run_evaluations(model, args, figures)
    plot(curve.games, 200, figures, args.plot or args.out / "learning-curve.png")
    print(json.dumps({k: v for k, v in figures.items() if k != "settings"}, indent=2))
    return figures


if __name__ == "__main__":
    main()
