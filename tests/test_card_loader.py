"""The card loader: good files load, every bad input is one exact, one-line error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from munchkin.cards import loader
from munchkin.cards.loader import (
    MAX_FILE_BYTES,
    CardLoadError,
    CardSet,
    builtin_set_names,
    catalog,
    load_builtin_sets,
    load_card_file,
    load_card_sets,
    load_sets_from_paths,
    load_yaml,
    parse_cards,
)
from munchkin.cards.schema import EFFECT_KEYS, CardDef

DATA = Path(__file__).parent / "data" / "cards"
BUILTIN_BASE = Path(loader.__file__).with_name("sets") / "base.yaml"


def error_of(path: Path) -> CardLoadError:
    with pytest.raises(CardLoadError) as info:
        load_card_file(path)
    return info.value


# ------------------------------------------------------------------ good files


def test_good_file_loads_with_set_metadata() -> None:
    card_set = load_card_file(DATA / "good.yaml")
    assert isinstance(card_set, CardSet)
    assert card_set.name == "good"
    assert card_set.description == "Cards for the loader tests."
    assert card_set.source == str(DATA / "good.yaml")
    assert [c.id for c in card_set.cards] == ["war-pony", "thug-for-hire", "centaur-bane", "big-club"]
    assert card_set.copies == 5
    pony, thug, bane, club = card_set.cards
    assert pony.big and pony.bonus == 2 and pony.value == 300 and pony.extra_big == 1
    assert thug.carries == 1 and thug.race == ("human",) and not thug.is_item
    assert bane.level == 6 and bane.vs[0].race == "centaur" and bane.bad_stuff[0].kind == "lose_levels"
    assert club.hands == 2 and club.slot == "hands" and club.name == "big-club"


def test_plain_list_file_takes_its_name_from_the_file_stem() -> None:
    card_set = load_card_file(DATA / "good_list.yaml")
    assert card_set.name == "good_list"
    ice = card_set.cards[1]
    assert (ice.id, ice.name, ice.bonus, ice.uses) == ("flask-of-ice", "Flask of Ice", 3, "combat")


def test_parse_cards_accepts_inline_scenario_cards() -> None:
    data = yaml.safe_load("cards:\n  - {id: squire, deck: door, type: hireling, bonus: 1, sex: male}")
    cards = parse_cards(data["cards"], "scenario.yaml: cards")
    assert [c.id for c in cards] == ["squire"]
    assert parse_cards([], "scenario.yaml: cards") == []


def test_parse_cards_error_names_the_given_source() -> None:
    with pytest.raises(CardLoadError) as info:
        parse_cards([{"id": "squire", "deck": "door", "type": "hireling", "bonus": "x"}], "s.yaml: cards")
    assert str(info.value) == "s.yaml: cards: card 'squire': key 'bonus': expected an integer, got 'x'"
    assert (info.value.card, info.value.key) == ("squire", "bonus")


def test_catalog_maps_ids_and_refuses_duplicates() -> None:
    cards = load_card_file(DATA / "good.yaml").cards
    assert list(catalog(cards)) == [c.id for c in cards]
    with pytest.raises(CardLoadError, match="card 'war-pony': key 'id': defined twice"):
        catalog([*cards, cards[0]])


# ------------------------------------------------------------ the bad corpus

BAD_FILES = {
    "bad_syntax.yaml": "line 3, column 2: bad YAML: did not find expected '-' indicator",
    "unknown_key.yaml": "card 'war-pony': key 'bonsu': unknown key (did you mean 'bonus'?)",
    "wrong_type.yaml": "card 'war-pony': key 'bonus': expected an integer, got 'lots'",
    "quoted_number.yaml": "card 'war-pony': key 'bonus': expected an integer, got '2'",
    "out_of_range.yaml": "card 'war-pony': key 'value': must be >= 0, got -300",
    "bad_choice.yaml": "card 'war-pony': key 'deck': must be one of: door, treasure (got 'doors')",
    "duplicate_id.yaml": "card 'war-pony': key 'id': duplicate id (cards #1 and #3)",
    "empty.yaml": "empty file",
    "comments_only.yaml": "empty file (no YAML document)",
    "missing_id.yaml": "card #2: key 'id': required",
    "bad_id.yaml": "card #1: key 'id': expected a slug (a-z, 0-9, '-'), got 'War Pony'",
    "unknown_effect.yaml": "card 'gelatinous-cube': key 'bad_stuff[1].explode': unknown effect",
    "effect_two_keys.yaml": (
        "card 'gelatinous-cube': key 'bad_stuff[0]': "
        "an effect has exactly one key, got ['lose_levels', 'lose']"
    ),
    "bad_effect_value.yaml": (
        "card 'gelatinous-cube': key 'bad_stuff[1].lose': must be one of: headgear, armor, "
        "footgear, hands, big, steed, item, hand_cards, hireling (got 'armour')"
    ),
    "bad_vs.yaml": "card 'gelatinous-cube': key 'vs[1].bonus': expected an integer, got 'lots'",
    "monster_without_level.yaml": "card 'gelatinous-cube': key 'level': required for a monster",
    "negative_treasures.yaml": "card 'gelatinous-cube': key 'treasures': must be >= 0, got -1",
    "huge_treasures.yaml": "card 'gelatinous-cube': key 'treasures': must be <= 100, got 1000000000",
    "huge_copies.yaml": "card 'war-pony': key 'copies': must be <= 100, got 1000000000",
    "level_on_item.yaml": "card 'big-club': key 'level': only for monsters (type is 'item')",
    "hands_without_slot.yaml": ("card 'big-club': key 'hands': 2 hands needs 'slot: hands' (slot is 'none')"),
    "carries_on_item.yaml": "card 'big-club': key 'carries': only for hirelings (type is 'item')",
    "multi_document.yaml": "line 2, column 1: more than one YAML document (one per file)",
    "alias_bomb.yaml": "line 5, column 36: aliases expand to more than 10000 nodes",
    "recursive_alias.yaml": "line 1, column 61: alias '*card' refers to its own enclosing node",
    "python_tag.yaml": (
        "line 1, column 3: bad YAML: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system'"
    ),
    "top_level_scalar.yaml": ("expected a list of cards or a mapping with 'cards', got 'just some text'"),
    "top_level_unknown.yaml": "key 'card': unknown top-level key (did you mean 'cards'?)",
    "bad_set.yaml": "key 'set.requires': expected a list, got 'base'",
    "deep_nesting.yaml": "line 1, column 51: nested deeper than 50 levels",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_gives_one_exact_line(name: str) -> None:
    path = DATA / name
    message = str(error_of(path))
    assert message == f"{path}: {BAD_FILES[name]}"
    assert "\n" not in message


def test_corpus_is_fully_covered() -> None:
    files = {p.name for p in DATA.glob("*.yaml")}
    assert files == set(BAD_FILES) | {"good.yaml", "good_list.yaml"}


def test_error_carries_the_card_and_the_key() -> None:
    error = error_of(DATA / "bad_vs.yaml")
    assert (error.source, error.card, error.key) == (
        str(DATA / "bad_vs.yaml"),
        "gelatinous-cube",
        "vs[1].bonus",
    )


@pytest.mark.parametrize(
    ("card", "message"),
    [
        ({"bonus": True}, "key 'bonus': expected an integer, got true"),
        ({"bonus": 2.5}, "key 'bonus': expected an integer, got 2.5"),
        ({"big": 1}, "key 'big': expected true or false, got 1"),
        ({"name": 1984}, "key 'name': expected text, got 1984"),
        ({"copies": 0}, "key 'copies': must be >= 1, got 0"),
        ({"hands": 3, "slot": "hands"}, "key 'hands': must be <= 2, got 3"),
        ({"requires": {"sex": "x"}}, "key 'requires.sex': must be one of: male, female (got 'x')"),
        ({"effects": "die"}, "key 'effects': expected a list, got 'die'"),
        ({"effects": [{"die": False}]}, "key 'effects[0].die': must be true, got false"),
        ({"effects": ["die"]}, "key 'effects[0]': expected a mapping, got 'die'"),
        ({"effects": [{}]}, "key 'effects[0]': an effect has exactly one key, got none"),
        (
            {"effects": [{"conditional": {"if": {"race": "elf"}, "then": [{"dye": True}]}}]},
            "key 'effects[0].conditional.then[0].dye': unknown effect (did you mean 'die'?)",
        ),
        ({"vs": [{"race": "elf", "bonus": 1}]}, "key 'vs': only for monsters (type is 'item')"),
        ({"bad_stuff": [{"die": True}]}, "key 'bad_stuff': only for monsters (type is 'item')"),
        (
            {"deck": "x", "type": "y"},
            "key 'deck': must be one of: door, treasure (got 'x') (and 1 more problem)",
        ),
        ({1: 2}, "key '1': unknown key"),
    ],
)
def test_field_errors(card: dict[object, object], message: str) -> None:
    raw = {"id": "thing", "deck": "treasure", "type": "item", **card}
    with pytest.raises(CardLoadError) as info:
        parse_cards([raw], "x.yaml")
    assert str(info.value) == f"x.yaml: card 'thing': {message}"


def test_vs_bonus_names_one_trait() -> None:
    raw = {
        "id": "orc",
        "deck": "door",
        "type": "monster",
        "level": 1,
        "vs": [{"race": "elf", "class": "thief", "bonus": 1}],
    }
    with pytest.raises(CardLoadError) as info:
        parse_cards([raw], "x.yaml")
    assert (
        str(info.value) == "x.yaml: card 'orc': key 'vs[0]': a vs bonus names exactly one of race, class, sex"
    )


def test_non_mapping_card_is_named_by_position() -> None:
    with pytest.raises(CardLoadError) as info:
        parse_cards([{"id": "a", "deck": "door", "type": "other"}, "b"], "x.yaml")
    assert str(info.value) == "x.yaml: card #2: expected a mapping, got 'b'"


def test_deep_data_is_refused_without_recursion() -> None:
    deep: object = 1
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(CardLoadError) as info:
        parse_cards([{"id": "a", "deck": "door", "type": "other", "text": deep}], "x.yaml")
    assert str(info.value) == "x.yaml: card 'a': nested deeper than 50 levels"


def test_cyclic_data_is_refused() -> None:
    card: dict[str, object] = {"id": "a", "deck": "door", "type": "other"}
    card["text"] = card
    with pytest.raises(CardLoadError, match="nested deeper than 50 levels"):
        parse_cards([card], "x.yaml")


def test_fifty_levels_are_allowed() -> None:
    text = "[" * 50 + "]" * 50
    assert load_yaml(text, "x.yaml") is not None
    with pytest.raises(CardLoadError, match="nested deeper than 50 levels"):
        load_yaml("[" * 51 + "]" * 51, "x.yaml")


def test_alias_cannot_smuggle_depth() -> None:
    text = "a: &a " + "[" * 30 + "]" * 30 + "\nb: " + "[" * 25 + "*a" + "]" * 25
    with pytest.raises(CardLoadError, match="nested deeper than 50 levels"):
        load_yaml(text, "x.yaml")


def test_undefined_alias() -> None:
    with pytest.raises(CardLoadError) as info:
        load_yaml("a: *nowhere", "x.yaml")
    assert str(info.value) == "x.yaml: line 1, column 4: bad YAML: undefined alias '*nowhere'"


def test_bad_scalar_values_are_load_errors() -> None:
    with pytest.raises(CardLoadError) as info:
        load_yaml("- {id: 2023-02-30}", "x.yaml")
    assert str(info.value) == "x.yaml: bad YAML: day is out of range for month"
    with pytest.raises(CardLoadError, match=r"^x\.yaml: bad YAML: Exceeds the limit"):
        load_yaml("bonus: " + "9" * 5000, "x.yaml")


# --------------------------------------------------------- files, bytes, size


def test_binary_junk(tmp_path: Path) -> None:
    path = tmp_path / "junk.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    assert str(error_of(path)) == f"{path}: binary data, not a UTF-8 YAML text file"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes("- id: a\n- name: Caf\u00e9\n".encode("latin-1"))
    assert str(error_of(path)) == f"{path}: line 2: not UTF-8 text (byte 0xe9)"


def test_control_character(tmp_path: Path) -> None:
    path = tmp_path / "bell.yaml"
    path.write_text("- {id: a\x07}\n")
    message = str(error_of(path))
    assert message.startswith(f"{path}: line 1, column 9: bad YAML: unacceptable character")


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbf- {id: a, deck: door, type: other}\n")
    assert load_card_file(path).cards[0].id == "a"


def test_over_size_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 2**19)  # sparse: nothing big written to disk
    assert str(error_of(path)) == f"{path}: file too large (5.5 MiB; the limit is 5 MiB)"


def test_special_file_is_read_up_to_the_limit() -> None:
    zero = Path("/dev/zero")
    if not zero.exists():
        pytest.skip("no /dev/zero")
    assert str(error_of(zero)) == "/dev/zero: file too large (the limit is 5 MiB)"


def test_a_fifo_nobody_writes_to_is_an_empty_file_not_a_hang(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "cards.yaml"
    os.mkfifo(fifo)
    assert str(error_of(fifo)) == f"{fifo}: empty file"


def test_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "padded.yaml"
    head = b"- {id: a, deck: door, type: other}\n"
    path.write_bytes(head + b"#" * (MAX_FILE_BYTES - len(head)))
    assert len(load_card_file(path).cards) == 1


def test_missing_file_and_folder(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    assert str(error_of(missing)) == f"{missing}: cannot read the file: No such file or directory"
    assert str(error_of(tmp_path)) == f"{tmp_path}: cannot read the file: Is a directory"


def test_document_holding_only_null(tmp_path: Path) -> None:
    path = tmp_path / "null.yaml"
    path.write_text("---\n...\n")
    assert str(error_of(path)) == f"{path}: empty document, no cards"


# ------------------------------------------------------------- several sets


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text)
    return path


@pytest.fixture
def sets_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "sets"
    folder.mkdir()
    monkeypatch.setattr(loader, "SETS_DIR", folder)
    write(folder, "core", "- {id: elf, deck: door, type: race}\n")
    write(
        folder,
        "more",
        "set: {name: more, requires: [core]}\ncards:\n- {id: orc, deck: door, type: monster, level: 1}\n",
    )
    write(folder, "clash", "- {id: elf, deck: door, type: race}\n")
    return folder


def test_builtin_set_names(sets_dir: Path) -> None:
    assert builtin_set_names() == ["clash", "core", "more"]


def test_required_sets_are_loaded_first(sets_dir: Path) -> None:
    assert [c.id for c in load_builtin_sets(["more"])] == ["elf", "orc"]
    assert [s.name for s in load_card_sets(["more", "core"])] == ["core", "more"]


def test_unknown_builtin_set(sets_dir: Path) -> None:
    with pytest.raises(CardLoadError) as info:
        load_builtin_sets(["nope"])
    assert str(info.value) == "unknown card set 'nope' (known: clash, core, more)"


def test_id_defined_in_two_sets(sets_dir: Path) -> None:
    with pytest.raises(CardLoadError) as info:
        load_builtin_sets(["core", "clash"])
    core, clash = sets_dir / "core.yaml", sets_dir / "clash.yaml"
    assert str(info.value).endswith(
        f"clash.yaml: card 'elf': key 'id': duplicate id, already defined in {loader._display(core)}"
    )
    assert info.value.source == loader._display(clash)


def test_paths_with_cross_file_duplicates(tmp_path: Path, sets_dir: Path) -> None:
    mine = write(tmp_path, "mine", "- {id: dwarf, deck: door, type: race}\n")
    again = write(tmp_path, "again", "- {id: dwarf, deck: door, type: race}\n")
    assert [c.id for c in load_sets_from_paths([mine])] == ["dwarf"]
    with pytest.raises(CardLoadError) as info:
        load_sets_from_paths([mine, again])
    assert str(info.value) == f"{again}: card 'dwarf': key 'id': duplicate id, already defined in {mine}"


def test_path_requiring_a_builtin_set(tmp_path: Path, sets_dir: Path) -> None:
    mine = write(
        tmp_path,
        "mine",
        "set: {name: mine, requires: [core]}\ncards: [{id: dwarf, deck: door, type: race}]\n",
    )
    assert [c.id for c in load_sets_from_paths([mine])] == ["elf", "dwarf"]


def test_unknown_and_cyclic_requirements(tmp_path: Path, sets_dir: Path) -> None:
    lost = write(tmp_path, "lost", "set: {name: lost, requires: [atlantis]}\ncards: []\n")
    with pytest.raises(CardLoadError) as info:
        load_sets_from_paths([lost])
    assert (
        str(info.value) == f"{lost}: key 'set.requires': unknown set 'atlantis' (neither given nor built in)"
    )
    a = write(tmp_path, "a", "set: {name: a, requires: [b]}\ncards: []\n")
    b = write(tmp_path, "b", "set: {name: b, requires: [a]}\ncards: []\n")
    with pytest.raises(CardLoadError) as info:
        load_sets_from_paths([a, b])
    assert str(info.value) == f"{b}: key 'set.requires': requirement cycle a -> b -> a"


def test_builtin_set_is_named_after_its_file(sets_dir: Path) -> None:
    write(sets_dir, "odd", "set: {name: even}\ncards: []\n")
    with pytest.raises(CardLoadError, match=r"key 'set\.name': a built-in set is named after its file"):
        load_builtin_sets(["odd"])


def test_no_builtin_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "SETS_DIR", tmp_path / "absent")
    assert builtin_set_names() == []
    with pytest.raises(CardLoadError, match=r"known: none"):
        load_builtin_sets(["base"])


@pytest.mark.skipif(not BUILTIN_BASE.exists(), reason="no built-in base set yet")
def test_builtin_base_set_loads() -> None:
    cards = load_builtin_sets(["base"])
    assert cards and all(isinstance(card, CardDef) for card in cards)
    assert len(catalog(cards)) == len(cards)


# ------------------------------------------------------------------- fuzzing

CARD_KEYS = sorted(info.alias or name for name, info in CardDef.model_fields.items())
WORDS = ["door", "treasure", "monster", "item", "hireling", "steed", "hands", "armor", "elf", "x-1"]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(WORDS)
)
keys = st.sampled_from([*CARD_KEYS, *EFFECT_KEYS, "set", "cards", "name", "if", "then"]) | st.text(max_size=8)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=40,
)
cardish = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["a", "b", "Bad Id"]),
        "deck": st.sampled_from(["door", "treasure", "x"]),
        "type": st.sampled_from(["monster", "item", "hireling", "curse"]),
    },
    optional={key: documents for key in CARD_KEYS if key not in ("id", "deck", "type")},
)


def parse_or_fail(data: object) -> None:
    try:
        cards = parse_cards(data, "fuzz.yaml")
    except CardLoadError as error:
        assert "\n" not in str(error)
        assert str(error).startswith("fuzz.yaml")
    else:
        assert all(isinstance(card, CardDef) for card in cards)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    documents
    | st.lists(cardish, max_size=4)
    | st.fixed_dictionaries({"cards": st.lists(cardish, max_size=3)}, optional={"set": documents})
)
def test_parse_cards_never_fails_otherwise(document: object) -> None:
    parse_or_fail(yaml.safe_load(yaml.safe_dump(document)))


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("-:[]{}&*!|>'\"#,? \nabc1\t%@`"), max_size=60))
def test_load_yaml_never_fails_otherwise(text: str) -> None:
    try:
        data = load_yaml(text, "fuzz.yaml")
    except CardLoadError as error:
        assert "\n" not in str(error)
    else:
        parse_or_fail(data)


@settings(max_examples=100)
@given(st.binary(max_size=200))
def test_load_card_file_never_fails_otherwise(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.getbasetemp() / "fuzz.yaml"
    path.write_bytes(data)
    try:
        load_card_file(path)
    except CardLoadError as error:
        assert "\n" not in str(error)
