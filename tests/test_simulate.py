"""`munchkin simulate`: the same results whatever the workers (and on Ray), the report's
files, and per-game statistics checked by hand."""

from __future__ import annotations

import base64
import json
import multiprocessing
import re
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from munchkin.bots.random_bot import RandomBot
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.match import MatchResult, play_match, seat_players
from munchkin.sim import simulate as simulate_module
from munchkin.sim.cli import register
from munchkin.sim.console import progress
from munchkin.sim.distributed import RayMissing, run_ray
from munchkin.sim.report import PLOTS
from munchkin.sim.simulate import SimConfig, cards_for, derive_seed, pool_context, run_local, seat_kinds
from munchkin.sim.stats import GameRecorder, aggregate, wilson

SETS = ("base", "horses")
CONFIG = SimConfig(games=4, players=3, sets=SETS, seed=11)
app = typer.Typer()
register(app)
runner = CliRunner()


def simulate(tmp_path: Path, *options: str) -> dict[str, Any]:
    args = ["simulate", "--games", "4", "--players", "3", "--sets", ",".join(SETS), "--seed", "11"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path), "--json", *options])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    out = tmp_path_factory.mktemp("one")
    return simulate(out, "--workers", "1"), out


def test_one_or_two_workers_give_the_same_report(
    one_worker: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    one = dict(one_worker[0])
    two = simulate(tmp_path, "--workers", "2")
    assert (one.pop("timing")["runner"], two.pop("timing")["runner"]) == (
        "local (1 worker)",
        "local (2 workers)",
    )
    assert one == two
    assert [g["index"] for g in one["per_game"]] == [0, 1, 2, 3]


def test_report_files(one_worker: tuple[dict[str, Any], Path]) -> None:
    data, out = one_worker
    assert json.loads((out / "report.json").read_text()) == data
    expected_keys = {"config", "games", "finished", "shared_wins", "win_rate_by_seat", "win_rate_by_bot"}
    expected_keys |= {"length"}
    expected_keys |= {"level_curves", "cards", "monsters", "hirelings_steeds", "per_game", "timing"}
    assert set(data) == expected_keys
    page = (out / "report.html").read_text()
    assert page.count('src="data:image/png;base64,') == len(PLOTS) == 6
    for name in PLOTS:
        png = (out / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG")
        assert base64.b64encode(png).decode() in page
    assert "<script" not in page and "http" not in page  # self-contained


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_give_the_same_records_however_they_start(
    monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    monkeypatch.setattr(simulate_module, "pool_context", lambda: multiprocessing.get_context(method))
    assert run_local(CONFIG, 3) == run_local(CONFIG, 1)
    assert run_local(SimConfig(games=1, sets=SETS), 2) == run_local(SimConfig(games=1, sets=SETS), 1)


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_workers_are_forked_unless_another_thread_runs() -> None:
    if threading.active_count() > 1:
        pytest.skip("an earlier test left a thread running")
    assert pool_context().get_start_method() == "fork"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert pool_context().get_start_method() == "spawn"
    finally:
        stop.set()
        thread.join()


def test_progress_bar_runs_no_thread_so_workers_can_fork() -> None:
    threads = threading.active_count()
    with progress(2) as done:
        assert threading.active_count() == threads
        done()


def test_seats_rotate_so_each_bot_sits_everywhere() -> None:
    kinds = ("random", "heuristic")
    assert seat_kinds(kinds, 4, 0) == ["random", "heuristic", "random", "heuristic"]
    assert seat_kinds(kinds, 4, 1) == ["heuristic", "random", "heuristic", "random"]
    assert {seat_kinds(kinds, 3, i)[2] for i in range(2)} == set(kinds)


def test_game_seeds_follow_from_run_seed_and_index_only() -> None:
    assert derive_seed(11, 3) == derive_seed(11, 3)
    assert len({derive_seed(11, i) for i in range(100)} | {derive_seed(12, 0)}) == 101


def test_unknown_bot_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--bots", "random,genius", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown bots ['genius']" in result.output


def test_an_output_folder_that_cannot_be_made_is_refused_before_any_game(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["simulate", "--games", "1", "--out", str(blocker / "report")])
    assert result.exit_code == 2
    assert f"cannot write to {blocker / 'report'}: Not a directory" in result.output
    assert "games in" not in result.output


def test_wilson_interval_matches_known_values() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


# -- statistics by hand --------------------------------------------------------------------


def _put(game: Game, seat: int, zone: str, card_id: str) -> None:
    """Move a card from wherever it is (a deck or a hand) into a player's zone."""
    g = game.state
    pile, inst = next((pile, i) for _, pile in g.zones() for i in pile if g.defs[i].id == card_id)
    pile.remove(inst)
    getattr(g.players[seat], zone).append(inst)


def test_recorder_counts_a_scripted_game_by_hand() -> None:
    cards = cards_for(SETS)
    game = Game.new(cards, seat_players(2), seed=1)
    rec = GameRecorder(cards, game.players)
    script = [
        ("card_played", {"player": "Bob", "card": "unpaid-torchbearer"}),
        ("card_played", {"player": "Bob", "card": "unpaid-torchbearer"}),
        ("card_played", {"player": "Ann", "card": "sighing-pack-mule"}),
        # Ann kills a Sock Gremlin after charming away a Mega Mimic
        ("monster_entered", {"player": "Ann", "card": "sock-gremlin"}),
        ("monster_entered", {"player": "Ann", "card": "mega-mimic"}),
        ("power_used", {"player": "Ann", "power": "charm", "card": "mega-mimic"}),
        ("monster_left", {"player": "Ann", "card": "mega-mimic"}),
        ("combat_resolved", {"player": "Ann", "won": True}),
        ("combat_over", {"player": "Ann"}),
        # Bob and his helper Ann lose to a Sock Gremlin: Ann escapes, Bob is caught and dies
        ("monster_entered", {"player": "Bob", "card": "sock-gremlin"}),
        ("combat_resolved", {"player": "Bob", "won": False}),
        ("escaped", {"player": "Ann", "card": "sock-gremlin", "automatic": False}),
        ("caught", {"player": "Bob", "card": "sock-gremlin"}),
        ("died", {"player": "Bob", "source": "sock-gremlin"}),
        ("hireling_sacrificed", {"player": "Bob", "card": "unpaid-torchbearer"}),
        ("escaped", {"player": "Bob", "card": None, "automatic": True}),
        ("combat_over", {"player": "Bob"}),
        ("hireling_killed", {"player": "Bob", "card": "unpaid-torchbearer"}),
        ("hireling_turned", {"player": "Bob", "card": "unpaid-torchbearer", "to": "Ann"}),
    ]
    for kind, data in script:
        rec.on_event(Event(kind, data))
    # Ann fights a steed (S9) and loses; then she is a Centaur with two steeds
    rec.after_decision(game, "Ann", Action("monstrify", "war-boar-of-bad-breath"))
    for kind, data in [
        ("monster_entered", {"player": "Ann", "card": "war-boar-of-bad-breath"}),
        ("combat_resolved", {"player": "Ann", "won": False}),
        ("combat_over", {"player": "Ann"}),
    ]:
        rec.on_event(Event(kind, data))
    for zone, card in [
        ("races", "centaur"),
        ("steeds", "sighing-pack-mule"),
        ("steeds", "war-boar-of-bad-breath"),
    ]:
        _put(game, 0, zone, card)
    rec.after_decision(game, "Ann", Action("pass"))

    record = rec.record(MatchResult(1, ["Bob"], [("Ann", Action("pass"))] * 7, turns=3), ["random", "random"])
    assert record["winners"] == [1] and record["turns"] == 3 and record["decisions"] == 7
    assert record["plays"] == {"unpaid-torchbearer": [0, 2], "sighing-pack-mule": [1, 0]}
    # fought, killed, escaped, caught, kills
    assert record["monsters"] == {
        "sock-gremlin": [2, 1, 1, 1, 1],
        "mega-mimic": [1, 0, 0, 0, 0],
        "war-boar-of-bad-breath": [1, 0, 0, 0, 0],
    }
    assert record["hirelings_steeds"] == {
        "hirelings_played": 2,
        "hirelings_sacrificed": 1,
        "hirelings_killed": 1,
        "hirelings_turned": 1,
        "steeds_played": 1,
        "steeds_fought": 1,
        "steed_fights_won": 0,
        "steed_fights_lost": 1,
        "centaurs_with_two_steeds": 1,
    }
    assert record["levels"] == [[1, 1]]

    summary = aggregate([record], cards, 2)
    assert summary["cards"]["unpaid-torchbearer"]["players"]["wins"] == 1
    assert summary["cards"]["sighing-pack-mule"]["players"]["wins"] == 0
    assert summary["monsters"]["sock-gremlin"]["kills"] == 1
    assert summary["win_rate_by_seat"][1]["rate"] == 1.0


def test_a_shared_win_counts_as_a_win_for_each_winner() -> None:
    """Two seats reach the win level in the same fight: both win (B2); the rates say so."""
    cards = cards_for(SETS)
    rec = GameRecorder(cards, [name for name, _ in seat_players(3)])
    rec.on_event(Event("card_played", {"player": "Bob", "card": "unpaid-torchbearer"}))
    shared = rec.record(MatchResult(1, ["Cid", "Bob"], turns=9), ["random", "heuristic", "random"])
    assert shared["winners"] == [2, 1]
    alone = GameRecorder(cards, [name for name, _ in seat_players(3)]).record(
        MatchResult(2, ["Ann"], turns=5), ["random", "heuristic", "random"]
    )
    summary = aggregate([shared, alone], cards, 3)
    assert (summary["finished"], summary["shared_wins"]) == (2, 1)
    assert [r["wins"] for r in summary["win_rate_by_seat"]] == [1, 1, 1]
    assert {kind: r["wins"] for kind, r in summary["win_rate_by_bot"].items()} == {
        "heuristic": 1,
        "random": 2,
    }
    assert summary["cards"]["unpaid-torchbearer"]["players"]["wins"] == 1


def test_table_options_play_every_game_and_the_report_tells_shared_wins(tmp_path: Path) -> None:
    """`--option win_level=3`: each game ends at level 3; the report names the option and
    says how a shared win is counted (B2)."""
    data = simulate(tmp_path, "--workers", "1", "--option", "win_level=3", "--bots", "random")
    assert data["config"]["options"] == {"win_level": 3}
    assert all(game["winners"] for game in data["per_game"])
    assert sum(r["wins"] for r in data["win_rate_by_seat"]) == sum(
        len(g["winners"]) for g in data["per_game"]
    )
    page = (tmp_path / "report.html").read_text()
    assert "options win_level=3" in page and "counts as a win for each of them" in page


def test_a_bad_table_option_is_a_one_line_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", "--option", "win_lvl=3", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: --option: 'win_lvl': unknown option")
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", [2, 5])
def test_recorder_agrees_with_the_event_stream_of_real_games(seed: int) -> None:
    cards = cards_for(SETS)
    monster_ids = {card.id for card in cards if card.type == "monster"}
    rec = GameRecorder(cards, [name for name, _ in seat_players(4)])
    seen: Counter[str] = Counter()
    in_fight = 0

    def watch(event: Event) -> None:
        nonlocal in_fight
        rec.on_event(event)
        kind, data = event.kind, event.data
        seen[kind] += kind != "escaped" or data["card"] is not None
        in_fight += kind == "monster_entered"
        in_fight -= kind == "monster_left"
        seen["killed"] += in_fight if kind == "combat_resolved" and data["won"] else 0
        seen["kills"] += kind == "died" and data["source"] in monster_ids
        in_fight = 0 if kind == "combat_over" else in_fight

    bots = [RandomBot(seed * 10 + i) for i in range(4)]
    result = play_match(cards, 4, seed, bots, on_event=watch, after_decision=rec.after_decision)
    record = rec.record(result, ["random"] * 4)
    totals = [sum(counts[i] for counts in record["monsters"].values()) for i in range(5)]
    assert totals == [seen[k] for k in ("monster_entered", "killed", "escaped", "caught", "kills")]
    assert seen["combat_resolved"] > 0
    assert sum(map(sum, record["plays"].values())) == seen["card_played"]
    assert record["hirelings_steeds"]["hirelings_sacrificed"] == seen["hireling_sacrificed"]
    assert record["turns"] == result.turns == len(record["levels"])


# -- Ray -----------------------------------------------------------------------------------


def test_ray_gives_the_same_records_as_a_local_run() -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed (the 'ray' extra)")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        assert run_ray(CONFIG, "auto") == run_local(CONFIG, 1)
    finally:
        ray.shutdown()


def test_ray_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayMissing, match=re.escape("pip install -e '.[ray]'")):
        run_ray(CONFIG, "auto")
    result = runner.invoke(app, ["simulate", "--games", "1", "--ray", "auto", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "pip install -e '.[ray]'" in result.output


def test_matplotlib_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delitem(sys.modules, "munchkin.sim.report")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = runner.invoke(app, ["simulate", "--games", "1", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "install the report extra" in result.output
    assert list(tmp_path.iterdir()) == []


def test_card_sets_too_small_for_a_game_are_refused_before_any_game(tmp_path: Path) -> None:
    """The fuzzer's `--sets horses` raised SetupError in every worker and left an empty folder."""
    out = tmp_path / "report"
    result = runner.invoke(app, ["simulate", "--games", "2", "--sets", "horses", "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith("error: the chosen card sets hold "), result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not out.exists()


def test_a_ray_address_that_cannot_be_joined_is_one_line(tmp_path: Path) -> None:
    """The fuzzer's `--ray junk` ended in a traceback."""
    pytest.importorskip("ray", reason="ray is not installed (the 'ray' extra)")
    result = runner.invoke(app, ["simulate", "--games", "1", "--ray", "junk", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert result.output.startswith("error: cannot join Ray at 'junk': "), result.output
    assert "Traceback" not in result.output
