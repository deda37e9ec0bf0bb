"""`munchkin scenario run`: PASS/FAIL lines, exit codes, --json, and malformed files as FAILs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from munchkin.cards.loader import CardLoadError
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.scenario import runner as runner_module
from munchkin.scenario.cli import app
from munchkin.scenario.runner import run_file

TESTS = Path(__file__).parent
GOOD = sorted((TESTS / "scenarios").glob("runner-*.yaml"))
BAD = TESTS / "data" / "scenarios_bad"
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, list[str]]:
    """Exit code and output lines of `scenario run ARGS`."""
    result = runner.invoke(app, ["run", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output.strip().splitlines()


def test_good_files_pass() -> None:
    assert GOOD, "the runner's own scenarios are missing"
    code, lines = run(*GOOD)
    assert code == 0, lines
    assert len(lines) == len(GOOD)
    assert all(line.startswith("PASS Runner: ") for line in lines), lines


def test_a_folder_is_searched_recursively(tmp_path: Path) -> None:
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (nested / "one.yaml").write_text(GOOD[0].read_text())
    (tmp_path / "notes.txt").write_text("not a scenario")
    code, lines = run(tmp_path)
    assert code == 0
    assert len(lines) == 1 and lines[0].startswith("PASS ")


def test_a_failing_expectation_names_key_expected_and_actual() -> None:
    code, lines = run(BAD / "failing_expect.yaml")
    assert code == 1
    assert lines == [
        f"FAIL An expectation that does not hold: {BAD / 'failing_expect.yaml'}: "
        "step 3 (expect): ann.level: expected 5, got 2"
    ]


def test_one_failure_fails_the_run_but_every_scenario_is_reported() -> None:
    code, lines = run(GOOD[0], BAD / "failing_expect.yaml", GOOD[1])
    assert code == 1
    assert [line.split(" ")[0] for line in lines] == ["PASS", "FAIL", "PASS"]


def test_json_output() -> None:
    result = runner.invoke(app, ["run", "--json", str(GOOD[0]), str(BAD / "failing_expect.yaml")])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert set(data) == {"passed", "failed", "results"}
    assert (data["passed"], data["failed"]) == (1, 1)
    good, bad = data["results"]
    assert set(good) == {"file", "title", "ok", "message"}
    assert good["file"] == str(GOOD[0]) and good["ok"] is True and good["message"] == ""
    assert good["title"].startswith("Runner: ")
    assert bad["ok"] is False and bad["title"] == "An expectation that does not hold"
    assert "ann.level: expected 5, got 2" in bad["message"]


def test_json_all_pass_exits_0() -> None:
    result = runner.invoke(app, ["run", "--json", *map(str, GOOD)])
    assert result.exit_code == 0
    assert json.loads(result.output)["failed"] == 0


KEYS = [
    "title",
    "rules",
    "seed",
    "dice",
    "cards",
    "setup",
    "steps",
    "players",
    "name",
    "level",
    "hand",
    "expect",
    "ann",
    "bob",
    "kick_door",
    "play",
    "door_deck",
    "active",
    "id",
    "deck",
    "type",
]
WELL_FORMED_FAILURES = {"refused_accepted.yaml", "dice_exhausted.yaml", "not_legal.yaml"}


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("bad_yaml.yaml", "line 4, column 1: bad YAML: did not find expected ',' or ']'"),
        ("not_a_mapping.yaml", "expected a mapping with title, setup and steps, got a list"),
        ("unknown_verb.yaml", "step 2: unknown verb 'kik_door' (did you mean 'kick_door'?)"),
        ("unknown_key.yaml", "key 'setup.players[0].levle': unknown key (did you mean 'level'?)"),
        ("unknown_step_key.yaml", "step 1: unknown key 'targt' (did you mean 'target'?)"),
        ("unknown_card.yaml", "key 'setup.players[0].hand[0]': unknown card 'no-such-card'"),
        ("unknown_card_in_step.yaml", "step 2: play no-such-card: unknown card 'no-such-card'"),
        ("wrong_type.yaml", "key 'setup.players[0].level': expected an integer, got 'three'"),
        ("bad_card.yaml", "card 'bad-pony': key 'bonus': expected an integer, got 'lots'"),
        ("huge_treasures.yaml", "card 'hoard': key 'treasures': must be <= 100, got 1000000000"),
        ("one_player.yaml", "key 'setup.players': a scenario has 2 to 6 players, got 1"),
        (
            "level_at_win.yaml",
            "setup: ann starts at level 10: in a game going on, everyone is below the win level, 10 (B2)",
        ),
        ("bad_dice.yaml", "key 'dice[1]': must be <= 6, got 7"),
        (
            "refused_accepted.yaml",
            "step 1 (ann: kick_door, refused): "
            "expected the engine to refuse this action, but it was accepted",
        ),
        ("dice_exhausted.yaml", "step 3 (ann: run_away): dice exhausted"),
        (
            "not_legal.yaml",
            "step 1 (ann: resolve_combat): not legal: refused (B16): only the fighter, during the fight, "
            "says when to resolve it; legal for ann: kick_door",
        ),
    ],
)
def test_malformed_scenario_is_a_fail_naming_file_and_place(name: str, problem: str) -> None:
    """Bad input (the file itself) exits 2; a well-formed scenario that fails exits 1."""
    path = BAD / name
    code, lines = run(path)
    assert code == (1 if name in WELL_FORMED_FAILURES else 2)
    assert len(lines) == 1
    assert lines[0].startswith("FAIL ")
    assert f": {path}: {problem}" in lines[0], lines[0]


def test_every_bad_file_in_one_run_is_reported_with_the_good_ones() -> None:
    bad = sorted(BAD.glob("*.yaml"))
    code, lines = run(GOOD[0], BAD, GOOD[-1])
    assert code == 2  # some of them are malformed: bad input
    assert len(lines) == len(bad) + 2
    assert lines[0].startswith("PASS ") and lines[-1].startswith("PASS ")
    assert all(line.startswith("FAIL ") for line in lines[1:-1])
    for path, line in zip(bad, lines[1:-1], strict=True):
        assert str(path) in line


def test_a_missing_path_is_a_fail() -> None:
    code, lines = run(BAD / "no-such-file.yaml", GOOD[0])
    assert code == 2
    missing = BAD / "no-such-file.yaml"
    assert lines[0] == f"FAIL {missing}: {missing}: no such file or folder"
    assert lines[1].startswith("PASS ")


def test_an_empty_folder_is_a_fail(tmp_path: Path) -> None:
    code, lines = run(tmp_path)
    assert code == 2
    assert lines == [f"FAIL {tmp_path}: {tmp_path}: no *.yaml scenario files in this folder"]


def test_a_file_over_1_mib_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(GOOD[0].read_text() + "#" * (1024 * 1024) + "\n")
    code, lines = run(path)
    assert code == 2
    assert "file too large" in lines[0] and "the limit is 1 MiB" in lines[0]


def test_a_special_file_is_read_up_to_the_scenario_limit() -> None:
    zero = Path("/dev/zero")
    if not zero.exists():
        pytest.skip("no /dev/zero")
    code, lines = run(zero)
    assert code == 2
    assert lines == ["FAIL zero: /dev/zero: file too large (the limit is 1 MiB)"]


def test_nesting_deeper_than_50_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("title: deep\nsetup: " + "[" * 60 + "]" * 60 + "\n")
    code, lines = run(path)
    assert code == 2
    assert "nested deeper than 50 levels" in lines[0]


def test_an_engine_exception_is_a_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Game, player: str, action: Action) -> list[Event]:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(Game, "apply", broken)
    result = run_file(TESTS / "scenarios" / "runner-defaults.yaml")
    assert not result.ok
    assert "step 1 (ann: kick_door): engine error: ZeroDivisionError: boom" in result.message


def test_a_refused_step_must_leave_the_state_unchanged(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "refused.yaml"
    path.write_text(
        "title: refused\n"
        "setup: {players: [{name: ann}, {name: bob}]}\n"
        "steps:\n"
        "  - {ann: end_turn, refused: true}\n"
    )
    assert run_file(path).ok
    original = Game.apply

    def change_then_refuse(self: Game, player: str, action: Action) -> list[Event]:
        self.state.players[0].level += 1
        return original(self, player, action)

    monkeypatch.setattr(Game, "apply", change_then_refuse)
    result = run_file(path)
    assert not result.ok
    assert "step 1 (ann: end_turn, refused): the engine refused the action but changed" in result.message


def test_expect_step_reports_every_failed_check(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        "title: many\n"
        "setup: {players: [{name: ann, level: 3}, {name: bob}]}\n"
        "steps:\n"
        "  - expect:\n"
        "      ann: {level: 4, sex: female, race: [elf], hand_count: 2, dead: true}\n"
        "      bob: {hirelings: [], level: 1}\n"
        "      winner: ann\n"
        "      combat: {player_strength: 3}\n"
        "      door_discard: {includes: [elf]}\n"
        "      legal: {bob: [kick_door]}\n"
        "      not_legal: {ann: [kick_door]}\n"
    )
    result = run_file(path)
    assert not result.ok
    for problem in (
        "ann.level: expected 4, got 3",
        "ann.sex: expected female, got male",
        "ann.race: expected [elf], got []",
        "ann.hand_count: expected 2, got 0",
        "ann.dead: expected true, got false",
        "winner: expected ann, got null",
        "combat: no fight is on",
        "door_discard.includes: expected to include [elf], got []",
        "legal.bob: kick_door is not legal",
        "not_legal.ann: kick_door is legal",
    ):
        assert problem in result.message
    assert "bob." not in result.message


def test_settle_and_defaults_are_applied(tmp_path: Path) -> None:
    path = tmp_path / "settle.yaml"
    path.write_text(
        "title: settle\n"
        "cards:\n"
        "  - {id: t-rat, deck: door, type: monster, level: 1}\n"
        "  - {id: t-potion, deck: treasure, type: one_shot, bonus: 2, uses: combat}\n"
        "  - {id: t-coin, deck: treasure, type: item, value: 300}\n"
        "setup:\n"
        "  players: [{name: ann, level: 2}, {name: bob, hand: [t-potion]}]\n"
        "  door_deck: [t-rat]\n"
        "  treasure_deck: [t-coin]\n"
        "steps:\n"
        "  - ann: kick_door\n"
        "  - ann: resolve_combat\n"
        "  - expect: {combat: {player_strength: 2, monster_strength: 1}}\n"
        "  - settle\n"
        "  - expect: {ann: {level: 3, hand: [t-coin]}, bob: {hand: [t-potion]}}\n"
    )
    result = run_file(path)
    assert result.ok, result.message


def test_unquoted_on_key_means_on(tmp_path: Path) -> None:
    """YAML 1.1 reads `on:` as true; in an action it is the `on` key."""
    path = tmp_path / "on.yaml"
    path.write_text(
        "title: the on key\n"
        "cards:\n"
        "  - {id: t-rat, deck: door, type: monster, level: 1}\n"
        "  - {id: t-big, deck: door, type: monster_enhancer, bonus: 5}\n"
        "setup:\n"
        "  players: [{name: ann, level: 2}, {name: bob, hand: [t-big]}]\n"
        "  door_deck: [t-rat]\n"
        "steps:\n"
        "  - ann: kick_door\n"
        "  - expect: {legal: {bob: [{play: t-big, on: t-rat}]}, not_legal: {ann: [{play: t-big}]}}\n"
        "  - bob: {play: t-big, on: t-rat}\n"
        "  - expect: {combat: {player_strength: 2, monster_strength: 6}}\n"
    )
    result = run_file(path)
    assert result.ok, result.message


def test_inline_cards_work_when_the_builtin_sets_do_not_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken() -> dict[str, object]:
        raise CardLoadError("base.yaml: card 'x': key 'bonus': expected an integer, got 'lots'")

    monkeypatch.setattr(runner_module, "builtin_catalog", broken)
    assert run_file(TESTS / "scenarios" / "runner-defaults.yaml").ok
    path = tmp_path / "builtin.yaml"
    path.write_text("title: builtin\nsetup: {players: [{name: ann, hand: [elf]}, {name: bob}]}\n")
    result = run_file(path)
    assert not result.ok
    assert "unknown card 'elf' (the built-in card sets did not load: base.yaml: card 'x'" in result.message


@settings(max_examples=150, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
        max_leaves=20,
    )
)
def test_any_yaml_document_runs_or_fails_in_one_line(
    tmp_path_factory: pytest.TempPathFactory, doc: object
) -> None:
    """Fuzz: a scenario file of any shape passes or FAILs with one line, never a traceback."""
    path = tmp_path_factory.mktemp("fuzz") / "doc.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    code, lines = run(path)
    assert code in (0, 1, 2)
    assert len(lines) == 1 and lines[0].split(" ")[0] in ("PASS", "FAIL")
    assert "Traceback" not in lines[0]


def test_control_characters_never_reach_the_terminal() -> None:
    """A fuzzer's escape codes, bell and right-to-left mark in a title and a name were
    written to the terminal as they were."""
    code, lines = run(BAD / "control_characters.yaml")
    assert code == 2 and len(lines) == 1
    assert all(c.isprintable() for c in lines[0]), lines[0]
    assert "key 'setup.players[0].name': a name is printable text, without control characters" in lines[0]
