"""Train one Munchkin policy with sb3-contrib's MaskablePPO, then measure its win rate.

The learner takes a seat drawn for each game against three bots (random by default), sees
only its own view (`munchkin.rl.single_agent`) and picks among its legal actions only (the
mask). It is rewarded +1 for a win, plus the change of its level lead over the others
(`--shaping`, potential-based: it adds up to the final lead, so a win still matters most).
After training, it plays `--eval-games` games against three random bots and as many
against three heuristic bots, on seeds it never trained on, and the figures, the learning
curve (a PNG) and the model are written.

With `--clone-games N`, the policy first learns to copy the heuristic bot (behaviour
cloning): N games in which the heuristic bot decides for the learner's seat give, per
decision, the observation, the legal ids and the catalog id of the heuristic's choice
(`Catalog.encode`'s table read backwards); the policy is trained on them with a
cross-entropy over its masked logits (and its value head on the discounted returns) for
`--clone-epochs` epochs, saved as `cloned.zip`, measured (`--clone-eval-games`), and PPO goes
on from there.

    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python examples/train_maskable_ppo.py --steps 200000 --clone-games 400 \
        --lr 1e-4 --ent-coef 0.001 --clip 0.1 --out runs/ppo --plot docs/rl-learning-curve.png

Evaluations can be run apart, in several processes (`--load runs/ppo/model.zip
--eval-first K`), and added up with the run's figures and plot (`--combine runs/ppo
EVAL_DIR...`); docs/rl.md gives the run behind its figures.

A smoke run (as CI does): `--steps 2048 --n-steps 256 --eval-games 2`; with cloning, add
`--clone-games 2 --clone-epochs 2`.
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
from munchkin.rl.cloning import GAMMA, clone, demonstrations
from munchkin.rl.sb3 import FactoredPolicy
from munchkin.sim.stats import wilson

EVAL_SEED = 1_000_000
"""Evaluation games use seeds from here on; training games draw theirs from `--seed`."""
CLONE_SEED = 2_000_000
"""The cloning games use seeds from here on (plus 10,000 per `--seed`)."""


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
    line every `every` steps, then the model and the curve so far saved in `out` (if given);
    training stops early once `deadline` (a `time.time()`) has passed."""

    def __init__(self, every: int = 10_000, out: Path | None = None, deadline: float | None = None) -> None:
        super().__init__()
        self.games: list[tuple[int, bool]] = []
        self.started = time.perf_counter()
        self.every, self.next = every, every
        self.out, self.deadline = out, deadline
        self.stopped_early = False

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
            if self.out is not None:
                self.model.save(self.out / "model.zip")
                (self.out / "curve.json").write_text(json.dumps(self.games) + "\n")
        if self.deadline is not None and time.time() > self.deadline:
            self.stopped_early = True
            return False
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
    """The training games' win rate (moving average) against the steps trained, with the
    evaluations (95% intervals): the cloned policy's at step 0, the trained one's at the end."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    if curve:
        steps = np.array([s for s, _ in curve])
        won = np.array([w for _, w in curve], float)
        width = max(1, min(window, len(won)))
        rate = np.convolve(won, np.ones(width) / width, mode="valid")
        ax.plot(steps[width - 1 :], rate, label=f"training games vs random bots ({width}-game average)")
    ax.axhline(0.25, color="grey", linestyle=":", label="an equal share (25%)")
    cloned = figures.get("cloned") or {}
    if cloned.get("games"):
        share = cloned["heuristic_wins"] / cloned["games"]
        label = f"the heuristic bot vs random bots ({cloned['games']} cloning games)"
        ax.axhline(share, color="grey", linestyle="--", label=label)
    points = [(0, cloned, "cloned policy"), (figures.get("steps", 0), figures, "after PPO")]
    nudge = 0.008 * max(1, figures.get("steps", 0))  # the two kinds of bots side by side
    for x, source, when in points:
        for name, marker, colour, dx in (
            ("vs_random", "o", "tab:green", -nudge),
            ("vs_heuristic", "s", "tab:red", nudge),
        ):
            result = source.get(name)
            if result:
                low, high = wilson(result["wins"], result["games"])
                rate = result["win_rate"]
                ax.errorbar(
                    [x + dx],
                    [rate],
                    yerr=[[rate - low], [high - rate]],
                    fmt=marker,
                    color=colour,
                    capsize=3,
                    label=f"{when}, {result['games']} games {name.replace('_', ' ')} bots",
                )
    ax.set_xlabel("PPO learner steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    start = "cloned from the heuristic bot, then " if cloned else ""
    ax.set_title(f"Munchkin learner ({start}MaskablePPO), 4 players, base set", fontsize=10)
    ax.legend(loc="best", fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def combine(run: Path, evaluations: Sequence[Path], out: Path, plot_path: Path | None) -> dict[str, Any]:
    """A training run's figures (`run`/figures.json, curve.json) with evaluations made apart
    (`--load`, each a figures.json or a folder holding one): games against the same bots
    added up, those of `cloned.zip` under "cloned"; win rates with 95% intervals; the plot."""
    figures = json.loads((run / "figures.json").read_text())
    curve = [(int(s), bool(w)) for s, w in json.loads((run / "curve.json").read_text())]
    seen: dict[tuple[int, str], set[int]] = {}
    for holder in (figures, figures.setdefault("cloned", None) or {}):
        for name, result in holder.items():
            if name.startswith("vs_"):
                seen[(id(holder), name)] = set(
                    range(result["first_game"], result["first_game"] + result["games"])
                )
    for source in evaluations:
        path = source / "figures.json" if source.is_dir() else source
        found = json.loads(path.read_text())
        if Path(found["model"]).name == "cloned.zip":
            into = figures["cloned"] = figures.get("cloned") or {}
        else:
            into = figures
        for name, result in found.items():
            if not name.startswith("vs_"):
                continue
            key = f"{name}_deterministic" if result["deterministic"] else name
            total = into.setdefault(key, {**result, "games": 0, "wins": 0, "truncated": 0, "seconds": 0.0})
            seeds = set(range(result["first_game"], result["first_game"] + result["games"]))
            played = seen.setdefault((id(into), key), set())
            if played & seeds:
                raise ValueError(f"{path}: {key} games already counted (the same evaluation seeds)")
            played |= seeds
            steps = total["learner_steps_per_game"] * total["games"]
            steps += result["learner_steps_per_game"] * result["games"]
            for field in ("games", "wins", "truncated", "seconds"):
                total[field] += result[field]
            total["learner_steps_per_game"] = steps / total["games"]
            total["first_game"] = min(total["first_game"], result["first_game"])
    for holder in (figures, figures.get("cloned") or {}):
        for name, result in holder.items():
            if name.startswith("vs_"):
                result["win_rate"] = result["wins"] / max(1, result["games"])
                result["interval_95"] = wilson(result["wins"], result["games"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "figures.json").write_text(json.dumps(figures, indent=2) + "\n")
    plot(curve, 200, figures, plot_path or out / "learning-curve.png")
    return figures


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


def run_cloning(model: MaskablePPO, args: argparse.Namespace) -> dict[str, Any]:
    """Copy the heuristic bot (see the module's text), save and measure the cloned policy."""
    start = time.perf_counter()
    first = CLONE_SEED + 10_000 * args.seed
    demos = demonstrations(args.clone_games, [args.opponents] * 3, first, args.shaping, args.max_decisions)
    played = time.perf_counter() - start
    print(f"{len(demos.chosen)} heuristic decisions in {demos.games} games, {played:.0f} s", flush=True)
    history = clone(model, demos, args.clone_epochs, args.clone_batch, args.clone_lr, args.seed)
    model.save(args.out / "cloned.zip")
    result: dict[str, Any] = {
        "games": demos.games,
        "decisions": len(demos.chosen),
        "heuristic_wins": demos.wins,
        "off_catalog": demos.off_catalog,
        "epochs": history,
        "seconds": time.perf_counter() - start,
    }
    if args.clone_eval_games:
        at = time.perf_counter()
        games, first = args.clone_eval_games, args.eval_first
        result["vs_random"] = evaluate(
            model, ["random"] * 3, games, args.max_decisions, first, args.deterministic
        )
        result["vs_random"]["seconds"] = time.perf_counter() - at
        print(f"cloned policy vs random bots: {result['vs_random']['win_rate']:.3f}", flush=True)
    (args.out / "cloned.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


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
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's clip range")
    parser.add_argument("--hidden", type=int, default=128, help="units of the two hidden layers")
    parser.add_argument("--clone-games", type=int, default=0, help="games of the heuristic bot to copy first")
    parser.add_argument("--clone-epochs", type=int, default=4, help="passes over the cloning decisions")
    parser.add_argument("--clone-lr", type=float, default=1e-3, help="learning rate of the cloning")
    parser.add_argument("--clone-batch", type=int, default=256, help="decisions per cloning step")
    parser.add_argument("--clone-eval-games", type=int, default=0, help="cloned policy vs random bots: games")
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
    parser.add_argument(
        "--combine",
        type=Path,
        nargs="+",
        default=None,
        metavar="DIR",
        help="a training run's folder, then evaluation folders: figures added up and plotted",
    )
    parser.add_argument(
        "--max-minutes", type=float, default=None, help="stop PPO after this long (wall clock), saved"
    )
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--out", type=Path, default=Path("runs/maskable_ppo"))
    parser.add_argument("--plot", type=Path, default=None, help="learning-curve PNG (default: in --out)")
    args = parser.parse_args(argv)

    torch.set_num_threads(args.threads)
    importlib.import_module("munchkin.bots.heuristic")  # the evaluation's bots, loaded now
    args.out.mkdir(parents=True, exist_ok=True)
    if args.combine is not None:
        return combine(args.combine[0], args.combine[1:], args.out, args.plot)
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
        gamma=GAMMA,
        gae_lambda=0.95,
        ent_coef=args.ent_coef,
        clip_range=args.clip,
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    cloned = run_cloning(model, args) if args.clone_games else None
    deadline = time.time() + 60 * args.max_minutes if args.max_minutes else None
    curve = WinCurve(out=args.out, deadline=deadline)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=curve)
    seconds = time.perf_counter() - start
    venv.close()
    model.save(args.out / "model.zip")

    figures: dict[str, Any] = {
        "cloned": cloned,
        "steps": model.num_timesteps,
        "training_seconds": seconds,
        "stopped_at_max_minutes": curve.stopped_early,
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
