"""The terminal game, driven headless through Textual's Pilot: keys in, screens and saved games out."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import typer
from textual.pilot import Pilot
from textual.widgets import Markdown, RichLog, Static
from typer.testing import CliRunner

from munchkin.engine.actions import VERBS, Action
from munchkin.session import Seat, Session
from munchkin.store import Store
from munchkin.tui.app import MunchkinApp
from munchkin.tui.cli import register
from munchkin.tui.screens import ConfirmScreen, EndScreen, HandoverScreen, HelpScreen
from munchkin.tui.widgets import ActionMenu
from munchkin.words.actions import WORDS, describe
from munchkin.words.fight import breakdown_lines
from munchkin.words.menus import default_action
from munchkin.words.prompts import CHOICES, PROMPTS
from munchkin.words.situation import situation
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

ROOT = Path(__file__).resolve().parents[1]
SIZE = (120, 40)
BOTS = [
    Seat(name, sex, "bot:heuristic") for name, sex in (("Bob", "male"), ("Cid", "male"), ("Dee", "female"))
]
SOLO = [Seat("Ann", "female", "human"), *BOTS]
SEED = 7
MAX_KEYS = 400


def new_session(db: Path, seats: list[Seat] = SOLO) -> Session:
    return Session.start(seats, ["base"], SEED, Store(str(db)))


def drive(app: MunchkinApp, script: Callable[[Pilot[None]], Coroutine[Any, Any, None]]) -> None:
    """Run the app headless and play `script` on it."""

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await script(pilot)

    asyncio.run(run())


def go_on(app: MunchkinApp) -> str:
    """The key that lets the game go on quietly: Enter (the default), "y" to a question, Esc
    from the end screen, Fight! when the menu has no default (a fight being lost)."""
    screen = app.screen
    if isinstance(screen, EndScreen):
        return "escape"
    if isinstance(screen, ConfirmScreen):
        return "y"
    if isinstance(screen, HandoverScreen):
        return "enter"
    menu = app.query_one(ActionMenu)
    if menu.highlighted is None and Action("resolve_combat") in menu.keys:
        return menu.keys[Action("resolve_combat")]
    if menu.highlighted is None and menu.actions and menu.actions[0] in menu.keys:
        return menu.keys[menu.actions[0]]  # a forced choice with no default (set the die, lose a card)
    return "enter"


async def press_until(pilot: Pilot[None], done: Callable[[], bool], key: str | None = None) -> None:
    """Press `key` (else whatever lets the game go on, `go_on`) until `done()`, at most
    MAX_KEYS times."""
    for _ in range(MAX_KEYS):
        if done():
            return
        await pilot.press(key or go_on(pilot.app))  # type: ignore[arg-type]
    raise AssertionError(f"not reached after {MAX_KEYS} presses of {key or 'the keys that go on'}")


def text(app: MunchkinApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def log_lines(app: MunchkinApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.query_one(RichLog).lines]


def fighting(session: Session, player: str = "Ann") -> bool:
    """`player` has to decide while a fight is on."""
    return session.view(player).data["combat"] is not None and player in session.waiting_humans()


# -- the screen's words ---------------------------------------------------------------------------


def test_every_verb_is_told_in_words() -> None:
    assert set(WORDS) == set(VERBS)
    names = {"rusty-broadsword": "Rusty Broadsword", "curse-duck": "Curse! Duck"}
    assert describe(Action("play", "rusty-broadsword"), names, "Ann") == "Play Rusty Broadsword"
    assert describe(Action("ask_help", "Bob", reward=2), names, "Ann") == "Ask Bob for help (2 treasures)"
    assert (
        describe(Action("play", "curse-duck", target="Ann"), names, "Ann") == "Play Curse! Duck on yourself"
    )
    assert describe(Action("play", "curse-duck", target="Bob"), names, "Ann") == "Play Curse! Duck on Bob"


def test_enter_passes_or_declines_before_anything_costly() -> None:
    assert default_action([Action("discard", "wizard"), Action("decline_help")]) == Action("decline_help")
    assert default_action([Action("play", "elf"), Action("pass")]) == Action("pass")
    assert default_action([Action("choose", "a"), Action("choose", "b")]) == Action("choose", "a")
    assert default_action([]) is None
    # a face-up card waits: Enter keeps it, never sells (a play-tester's Enter sold items in use)
    sale = Action("sell", cards=("sword", "flask"))
    keep = Action("keep", "warrior")
    assert default_action([sale, Action("play", "warrior"), keep]) == keep
    assert default_action([sale, Action("discard", "wizard")]) is None


def test_breakdown_is_one_part_a_line() -> None:
    lines = breakdown_lines(
        "munchkins 7 = 3 Ann's level (B6) + 4 Rusty Broadsword (B6) - 2 backstab (Ann) (B14)"
    )
    assert lines == [
        "munchkins 7",
        "  + 3 Ann's level (B6)",
        "  + 4 Rusty Broadsword (B6)",
        "  - 2 backstab (Ann) (B14)",
    ]


def test_a_request_for_help_is_put_as_a_question(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    data = {**session.view("Ann").data, "deciding": True, "phase": "combat"}
    data["combat"] = {"fighter": "Bob", "asked": "Ann", "reward": 2, "stage": "fight", "monsters": []}
    assert situation(data, session.names) == "Bob asks you for help, promising 2 treasures."


# -- playing ------------------------------------------------------------------------------------


def test_a_whole_game_against_bots_through_the_keyboard(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await press_until(pilot, lambda: session.over)
        await pilot.pause()
        assert isinstance(app.screen, EndScreen), "the standings come up at the end"
        assert f"Game over: {session.winner} wins" in text(app, "#end")
        await pilot.press("u")  # no undo once the game is over
        await pilot.press("escape")
        assert text(app, "#situation").startswith(f"Game over: {session.winner} wins")
        assert app.query_one(ActionMenu).actions == []
        assert log_lines(app)[-1] == f"{session.winner} reaches the winning level and wins the game!"

    drive(app, script)
    with Store(str(tmp_path / "g.db")) as store:
        assert store.load(session.game_id or 0).info.progress.winner == session.winner


def test_a_game_won_by_several_names_them_all(tmp_path: Path) -> None:
    """A shared win (B2) on the screen: every winner in the situation line, nothing to do."""
    bots_only = Session.start(RANDOM_BOTS, ["base"], shared_win_seed(), options=LOW_WIN)
    bots_only.run_to_end()
    winners = bots_only.winners
    setup = replace(bots_only.setup, seats=(Seat("Ann", "female", "human"), *RANDOM_BOTS[1:]))
    session = Session(setup, bots_only.decisions, None, None)
    assert session.over and session.winners == winners
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.pause()
        together = f"{', '.join(winners[:-1])} and {winners[-1]} win together"
        assert isinstance(app.screen, EndScreen)
        assert f"Game over: {together}." in text(app, "#end")
        await pilot.press("escape")
        assert text(app, "#situation").startswith(f"Game over: {together} after ")
        assert app.query_one(ActionMenu).actions == []

    drive(app, script)


def test_answers_read_as_answers_to_the_question_asked() -> None:
    """Every kind of question and its options in words, not card ids or option codes."""
    names = {"war-drum": "War Drum", "elf": "Elf", "wizard": "Wizard", "gem": "Gem"}
    cases = [
        ("get_rid", "war-drum", "Discard War Drum"),
        ("get_rid", "sell war-drum", "Sell War Drum"),
        ("get_rid", "give war-drum to Bob", "Give War Drum to Bob"),
        ("charity_to", "Bob", "Give the card to Bob"),
        ("flight", "decline", "Pay no more for flight"),
        ("flight", "gem", "Flight: discard Gem for +1 to the roll"),
        ("keep_race", "elf", "Keep Elf, discard the other races"),
        ("keep_class", "wizard", "Keep Wizard, discard the other classes"),
        ("half_trait", "as elf", "Count as Elf"),
        ("half_trait", "not as elf", "Do not count as Elf (the other branch)"),
        ("reroll", "decline", "Decline: no second roll"),
        ("loot", "gem", "Take Gem"),
    ]
    for kind, option, words in cases:
        assert describe(Action("choose", option), names, "Ann", kind) == words
    assert describe(Action("choose", "give war-drum to Bob"), names, "Ann") == "Give War Drum to Bob"
    for kind in ("charity_to", "flight", "keep_race", "keep_class", "half_trait", "get_rid", "take_off"):
        assert kind in PROMPTS and kind in CHOICES


def test_number_keys_take_that_action_and_the_combat_panel_shows_both_sides(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await press_until(pilot, lambda: fighting(session))
        combat = session.view("Ann").data["combat"]
        panel = text(app, "#combat")
        for side in ("munchkins", "monster_side"):
            assert breakdown_lines(combat[side]["explain"])[0] in panel
        menu = app.query_one(ActionMenu)
        second = menu.actions[1]
        before = len(session.decisions)
        await pilot.press(menu.keys[second])
        assert (session.decisions[before].player, session.decisions[before].action) == ("Ann", second)

    drive(app, script)


def test_out_of_turn_you_are_asked_and_enter_passes(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    def in_their_fight() -> bool:
        return fighting(session) and session.view("Ann").data["combat"]["fighter"] != "Ann"

    async def script(pilot: Pilot[None]) -> None:
        await press_until(pilot, in_their_fight)
        fighter = session.view("Ann").data["combat"]["fighter"]
        assert text(app, "#situation").startswith(f"{fighter} ")
        default = app.query_one(ActionMenu).actions[0]
        assert default in (Action("pass"), Action("decline_help"))
        before = len(session.decisions)
        await pilot.press("enter")
        assert (session.decisions[before].player, session.decisions[before].action) == ("Ann", default)

    drive(app, script)


def test_hot_seat_hides_the_table_until_the_next_human_takes_the_keyboard(tmp_path: Path) -> None:
    seats = [Seat("Ann", "female", "human"), Seat("Bob", "male", "human"), BOTS[1]]
    session = new_session(tmp_path / "g.db", seats)
    app = MunchkinApp(session)

    def hand_shown() -> str:
        return text(app, "#me").partition("Your hand")[2]

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, HandoverScreen)
        assert text(app, "#handover") == "Pass the keyboard to Ann; press Enter."
        made = session.decisions
        await pilot.press("1")  # no decision from behind the handover screen
        assert session.decisions == made
        await pilot.press("enter")
        assert all(card["name"] in hand_shown() for card in session.view("Ann").data["hand"])
        await press_until(pilot, lambda: isinstance(app.screen, HandoverScreen))
        assert text(app, "#handover") == "Pass the keyboard to Bob; press Enter."
        assert "you are Ann" not in app.sub_title and "Bob" in app.sub_title, app.sub_title
        await pilot.press("enter")
        assert app.seat == "Bob"
        assert all(card["name"] in hand_shown() for card in session.view("Bob").data["hand"])
        assert hand_shown().startswith(f" ({len(session.view('Bob').data['hand'])}, limit")
        assert app.sub_title.endswith("you are Bob")

    drive(app, script)


def test_resume_after_quitting_mid_combat_shows_the_same_fight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "g.db"
    session = new_session(db)
    first = MunchkinApp(session)
    seen: dict[str, str] = {}
    logs: list[list[str]] = []

    async def until_a_fight(pilot: Pilot[None]) -> None:
        await press_until(pilot, lambda: fighting(session))
        seen.update(combat=text(first, "#combat"), situation=text(first, "#situation"))
        logs.append(list(first.history.lines("Ann")))
        await pilot.press("q")

    drive(first, until_a_fight)
    assert first.return_code == 0 and not session.over

    def headless_run(app: MunchkinApp) -> None:
        async def look(pilot: Pilot[None]) -> None:
            seen.update(resumed=text(app, "#combat"), resumed_situation=text(app, "#situation"))
            logs.append(list(app.history.lines("Ann")))

        drive(app, look)

    monkeypatch.setattr(MunchkinApp, "run", headless_run)
    monkeypatch.setattr("munchkin.tui.cli.at_a_terminal", lambda: True)
    result = CliRunner().invoke(play_command(), ["play", "--resume", str(session.game_id), "--db", str(db)])
    assert result.exit_code == 0, result.output
    command = f".venv/bin/munchkin play --resume {session.game_id} --db {db}"
    said = f"go on with (from the project folder): {command}\n"
    assert result.output.endswith(said), "the command works as written: with the database it used"
    assert (seen["resumed"], seen["resumed_situation"]) == (seen["combat"], seen["situation"])
    assert seen["combat"].startswith("⚔ ")
    assert logs[0] == logs[1] and len(logs[0]) > 10


def test_undo_takes_back_the_last_decision(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        made = session.decisions
        await pilot.press("u")  # nothing to undo yet: nothing changes
        assert session.decisions == made
        await press_until(pilot, lambda: fighting(session))
        menu = app.query_one(ActionMenu)
        before = (session.fingerprint(), list(menu.actions), log_lines(app))
        await pilot.press("enter")
        assert session.fingerprint() != before[0]
        await pilot.press("u")
        assert (session.fingerprint(), menu.actions, log_lines(app)) == before

    drive(app, script)


def test_help_screen_shows_keys_and_rules_and_blocks_decisions(tmp_path: Path) -> None:
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert "Kick open the door" in app.screen.query_one(Markdown).source
        made = session.decisions
        await pilot.press("1")
        assert session.decisions == made
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)

    drive(app, script)


def test_screenshot(tmp_path: Path) -> None:
    """Writes docs/screenshot.svg with MUNCHKIN_WRITE_SCREENSHOT=1, else a copy under tmp_path."""
    target = ROOT / "docs" if os.environ.get("MUNCHKIN_WRITE_SCREENSHOT") == "1" else tmp_path
    session = new_session(tmp_path / "g.db")
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        for _ in range(8):  # before the first turn, play the cards the menu offers first
            menu = app.query_one(ActionMenu)
            plays = [a for a in menu.actions if a.verb == "play" and a in menu.keys]
            if session.view("Ann").data["phase"] != "setup" or not plays:
                break
            await pilot.press(menu.keys[plays[0]])
        await press_until(
            pilot, lambda: fighting(session) and session.view("Ann").data["combat"]["fighter"] == "Ann"
        )
        app.save_screenshot("screenshot.svg", str(target))

    drive(app, script)
    svg = (target / "screenshot.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "munchkins" in svg and "Actions" in svg


def play_command() -> typer.Typer:
    """`munchkin play` alone, to invoke with CliRunner."""
    cli = typer.Typer()
    cli.callback()(lambda: None)
    register(cli)
    return cli


def test_without_a_terminal_the_game_stops_at_once_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys piped in (or none, at the end of the input): a screen would wait forever."""

    def waits_forever(app: MunchkinApp) -> None:
        raise AssertionError("the screen started without a terminal: it would wait for keys forever")

    monkeypatch.setattr(MunchkinApp, "run", waits_forever)
    db = tmp_path / "g.db"
    result = CliRunner().invoke(play_command(), ["play", "--db", str(db)], input="")
    assert result.exit_code == 2
    assert (
        result.output.startswith("error: the terminal game needs a terminal") and "--no-ui" in result.output
    )
    with Store(str(db)) as store:
        assert store.games() == [], "no game started"


def test_a_sex_that_is_neither_is_refused_by_its_option(tmp_path: Path) -> None:
    result = CliRunner().invoke(play_command(), ["play", "--sex", "other", "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 2
    assert result.output == "error: --sex other: a character is female or male\n", result.output
