"""A smoke run of examples/train_maskable_ppo.py: a few games of cloning the heuristic bot,
a few thousand steps of MaskablePPO, the evaluation games, the figures, the model and the
learning-curve PNG; the cloning itself (munchkin.rl.cloning); the factored head's two ways
to its logits."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "train_maskable_ppo.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_short_training_run_writes_figures_model_and_curve(tmp_path: Path) -> None:
    args = ["--steps", "2048", "--envs", "4", "--n-steps", "256", "--batch-size", "128"]
    args += ["--epochs", "1", "--hidden", "32", "--eval-games", "1", "--max-decisions", "600"]
    args += ["--clone-games", "2", "--clone-epochs", "1", "--clone-eval-games", "1"]
    figures = _script().main([*args, "--out", str(tmp_path)])
    assert figures["steps"] >= 2048
    cloned = figures["cloned"]
    assert cloned["games"] == 2 and cloned["decisions"] > 0 and len(cloned["epochs"]) == 1
    assert cloned["vs_random"]["games"] == 1 and (tmp_path / "cloned.zip").stat().st_size > 0
    for name in ("vs_random", "vs_heuristic"):
        assert figures[name]["games"] == 1 and 0 <= figures[name]["win_rate"] <= 1
    assert json.loads((tmp_path / "figures.json").read_text())["steps"] == figures["steps"]
    assert (tmp_path / "model.zip").stat().st_size > 0
    assert (tmp_path / "learning-curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    load = ["--load", str(tmp_path / "model.zip"), "--eval-games", "1", "--eval-against", "random"]
    load += ["--eval-first", "1", "--max-decisions", "300", "--out", str(tmp_path / "e")]
    again = _script().main(load)
    assert again["steps"] == figures["steps"] and again["vs_random"]["first_game"] == 1
    both = _script().main(["--combine", str(tmp_path), str(tmp_path / "e"), "--out", str(tmp_path / "c")])
    wins = figures["vs_random"]["wins"] + again["vs_random"]["wins"]
    assert both["vs_random"]["games"] == 2 and both["vs_random"]["wins"] == wins
    low, high = both["vs_random"]["interval_95"]
    assert 0 <= low <= wins / 2 <= high <= 1
    assert (tmp_path / "c" / "learning-curve.png").stat().st_size > 0
    with pytest.raises(ValueError, match="already counted"):  # the same seeds twice
        twice = [str(tmp_path), str(tmp_path / "e"), str(tmp_path / "e")]
        _script().main(["--combine", *twice, "--out", str(tmp_path / "d")])


def test_the_factored_head_gives_one_small_logit_per_id_and_learns_by_parts() -> None:
    import torch

    from munchkin.rl.catalog import default_catalog
    from munchkin.rl.sb3 import FactoredHead, key_parts

    catalog = default_catalog()
    parts = key_parts(catalog)
    assert all(len(values) == catalog.size for values in parts.values())
    discard = catalog.index[("discard", catalog.card_ids[0])]
    assert parts["a"][discard] == 1 and parts["b"][discard] == 0
    trade = catalog.index[("trade", 1, 0, -1)]
    assert parts["rel"][trade] == 2 and parts["free"][trade] > 0
    head = FactoredHead(16, catalog)
    latent = torch.ones(3, 16)
    logits = head(latent)
    assert logits.shape == (3, catalog.size) and logits.abs().max() < 1
    # a step on one discard moves every discard: the family's row is shared
    other = catalog.index[("discard", catalog.card_ids[1])]
    before = head(latent)[0, other].item()
    optimizer = torch.optim.SGD(head.parameters(), lr=1.0)
    (-head(latent)[:, discard].sum()).backward()
    optimizer.step()
    assert head(latent)[0, other].item() > before


def test_the_factored_head_gives_the_same_logits_by_gathers_and_by_rows() -> None:
    import torch

    from munchkin.rl.catalog import default_catalog
    from munchkin.rl.sb3 import FactoredHead

    torch.manual_seed(0)
    head = FactoredHead(8, default_catalog())
    for table in (head.family_bias, head.card_bias, head.free_bias):
        torch.nn.init.normal_(table.weight, 0.0, 0.5)
    latent = torch.randn(head.BY_ROWS, 8)
    by_rows = head(latent)
    by_gathers = torch.cat([head(latent[k : k + 4]) for k in range(0, head.BY_ROWS, 4)])
    assert torch.allclose(by_rows, by_gathers, atol=1e-5)


def test_cloning_teaches_the_policy_the_heuristic_bots_choices() -> None:
    from sb3_contrib import MaskablePPO

    from munchkin.rl import single_agent
    from munchkin.rl.cloning import agreement, clone, demonstrations
    from munchkin.rl.sb3 import FactoredPolicy

    demos = demonstrations(3, ["random"] * 3, 7, 1.0, 1500)
    assert len(demos.chosen) == len(demos.legal) == len(demos.returns) == len(demos.obs) > 100
    assert all(chosen in legal for chosen, legal in zip(demos.chosen, demos.legal, strict=True))
    env = single_agent(opponents=("random",) * 3, seat=None, max_decisions=1500)
    model = MaskablePPO(FactoredPolicy, env, policy_kwargs={"net_arch": [64, 64]}, seed=0, device="cpu")
    before = agreement(model, demos)
    history = clone(model, demos, epochs=8, batch_size=64, lr=2e-3)
    after = agreement(model, demos)
    assert history[-1]["loss"] < history[0]["loss"] / 2
    assert after > 0.7 and after > before + 0.3
