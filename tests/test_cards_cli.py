"""`munchkin cards validate|list`: one line per file, exit 2 on bad input, no traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from munchkin.cards import cli, loader
from munchkin.cards.cli import app

DATA = Path(__file__).parent / "data" / "cards"
runner = CliRunner()


def lines(text: str) -> list[str]:
    return text.strip().splitlines()


def test_validate_good_files() -> None:
    result = runner.invoke(app, ["validate", str(DATA / "good.yaml"), str(DATA / "good_list.yaml")])
    assert result.exit_code == 0, result.output
    assert lines(result.stdout) == [
        f"OK {DATA / 'good.yaml'} (4 cards, 5 with copies)",
        f"OK {DATA / 'good_list.yaml'} (3 cards, 3 with copies)",
    ]
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("wrong_type.yaml", "card 'war-pony': key 'bonus': expected an integer, got 'lots'"),
        ("bad_syntax.yaml", "line 3, column 2: bad YAML: did not find expected '-' indicator"),
        ("empty.yaml", "empty file"),
        ("alias_bomb.yaml", "line 5, column 36: aliases expand to more than 10000 nodes"),
    ],
)
def test_validate_bad_file_exits_2_with_one_line(name: str, problem: str) -> None:
    result = runner.invoke(app, ["validate", str(DATA / name)])
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{DATA / name}: {problem}"]
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_validate_mixed_files_reports_each() -> None:
    good, bad = DATA / "good.yaml", DATA / "unknown_effect.yaml"
    result = runner.invoke(app, ["validate", str(good), str(bad)])
    assert result.exit_code == 2
    assert lines(result.stdout) == [f"OK {good} (4 cards, 5 with copies)"]
    assert lines(result.stderr) == [
        f"{bad}: card 'gelatinous-cube': key 'bad_stuff[1].explode': unknown effect"
    ]


def test_validate_missing_file_and_binary(tmp_path: Path) -> None:
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    missing = tmp_path / "nope.yaml"
    result = runner.invoke(app, ["validate", str(missing), str(junk)])
    assert result.exit_code == 2
    assert lines(result.stderr) == [
        f"{missing}: cannot read the file: No such file or directory",
        f"{junk}: binary data, not a UTF-8 YAML text file",
    ]
    assert "Traceback" not in result.output


def test_validate_over_size_file(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as stream:
        stream.truncate(6 * 2**20)
    result = runner.invoke(app, ["validate", str(huge)])
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{huge}: file too large (6.0 MiB; the limit is 5 MiB)"]


def test_validate_folder(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("- {id: a, deck: door, type: other, copies: 3}\n")
    (tmp_path / "b.yml").write_text("- {id: b, deck: door, type: other}\n")
    (tmp_path / "notes.txt").write_text("not a card file")
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 0
    assert lines(result.stdout) == [
        f"OK {tmp_path / 'a.yaml'} (1 card, 3 with copies)",
        f"OK {tmp_path / 'b.yml'} (1 card, 1 with copies)",
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["validate", str(empty)])
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{empty}: no .yaml files in this folder"]


def test_validate_unexpected_error_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(path: object) -> object:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cli, "load_card_file", boom)
    result = runner.invoke(app, ["validate", str(DATA / "good.yaml")])
    assert result.exit_code == 2
    assert lines(result.stderr) == [f"{DATA / 'good.yaml'}: internal error: RuntimeError: boom second line"]


def test_validate_needs_a_path() -> None:
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


@pytest.fixture
def sets_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "sets"
    folder.mkdir()
    monkeypatch.setattr(loader, "SETS_DIR", folder)
    (folder / "alpha.yaml").write_text(
        "- {id: orc, name: Orc, deck: door, type: monster, level: 4, copies: 2}\n"
        "- {id: sword, name: '[Sword]', deck: treasure, type: item, bonus: 2, value: 300}\n"
    )
    (folder / "beta.yaml").write_text("- {id: squire, deck: door, type: hireling, bonus: 1}\n")
    return folder


def test_list_table_shows_every_builtin_set(sets_dir: Path) -> None:
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3 cards (4 with copies)" in out
    for text in ("orc", "Orc", "monster", "[Sword]", "+2", "300", "squire", "hireling", "beta"):
        assert text in out


def test_list_one_set_as_json(sets_dir: Path) -> None:
    result = runner.invoke(app, ["list", "--set", "alpha", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [row["id"] for row in rows] == ["orc", "sword"]
    assert rows[0] == {
        "set": "alpha",
        "id": "orc",
        "name": "Orc",
        "deck": "door",
        "type": "monster",
        "copies": 2,
        "level": 4,
    }
    assert rows[1]["bonus"] == 2 and rows[1]["value"] == 300 and rows[1]["copies"] == 1


def test_list_unknown_set_exits_2(sets_dir: Path) -> None:
    result = runner.invoke(app, ["list", "--set", "gamma"])
    assert result.exit_code == 2
    assert lines(result.stderr) == ["unknown card set 'gamma' (known: alpha, beta)"]
    assert "Traceback" not in result.output


def test_list_bad_builtin_set_exits_2(sets_dir: Path) -> None:
    (sets_dir / "gamma.yaml").write_text("- {id: x, deck: door, type: item, bonus: lots}\n")
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 2
    assert len(lines(result.stderr)) == 1
    assert result.stderr.strip().endswith(
        "gamma.yaml: card 'x': key 'bonus': expected an integer, got 'lots'"
    )


@pytest.mark.skipif(
    not (Path(loader.__file__).with_name("sets") / "base.yaml").exists(), reason="no base set yet"
)
def test_list_real_base_set() -> None:
    result = runner.invoke(app, ["list", "--set", "base", "--json"])
    assert result.exit_code == 0, result.output
    assert all(row["set"] == "base" for row in json.loads(result.stdout))


def test_validate_checks_what_a_set_requires(tmp_path: Path) -> None:
    lost = tmp_path / "lost.yaml"
    lost.write_text("set: {name: lost, requires: [atlantis]}\ncards: []\n")
    result = runner.invoke(app, ["validate", str(lost)])
    assert result.exit_code == 2
    problem = "key 'set.requires': unknown set 'atlantis' (neither given nor built in)"
    assert lines(result.stderr) == [f"{lost}: {problem}"]


def test_validate_sets_given_together_may_require_each_other(tmp_path: Path) -> None:
    core = tmp_path / "core.yaml"
    core.write_text("set: {name: core}\ncards: [{id: orc, deck: door, type: monster, level: 1}]\n")
    more = tmp_path / "more.yaml"
    more.write_text("set: {name: more, requires: [core]}\ncards: [{id: elf, deck: door, type: race}]\n")
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.yaml"
    again.write_text("set: {name: again, requires: [core]}\ncards: [{id: orc, deck: door, type: race}]\n")
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    problem = f"{again}: card 'orc': key 'id': duplicate id, already defined in {core}"
    assert lines(result.stderr) == [problem]
