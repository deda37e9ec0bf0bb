"""A play-tester's findings on the terminal game: what was rolled, forced choices with no
blind default, the monsters' Bad Stuff in the fight, the trade dialog's highlight, the keys
of the end screen. Each test opens a position found by `positions.reach`."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import SelectionList

from munchkin.engine.actions import Action
from munchkin.session import Session
from munchkin.tui.app import MunchkinApp
from munchkin.tui.screens import EndScreen, NewGameScreen, TradeScreen
from munchkin.tui.widgets import ActionMenu
from positions import fighting_and_losing, may_trade, reach
from test_tui_player import drive, finished, text


def failed_run(session: Session) -> bool:
    """Ann's own run-away roll has just failed, and awaits answers (B9, B16)."""
    pending = session.view("Ann").data["pending"]
    return (
        pending is not None
        and pending["kind"] == "run"
        and pending["player"] == "Ann"
        and not pending["success"]
    )


def asked(kind: str) -> Callable[[Session], bool]:
    """Ann is asked a question of `kind`."""

    def want(session: Session) -> bool:
        prompt = session.view("Ann").data["prompt"]
        return prompt is not None and prompt["player"] == "Ann" and prompt["kind"] == kind

    return want


def test_a_failed_run_away_roll_says_what_was_rolled() -> None:
    session = reach(failed_run, seeds=range(11, 40))
    app = MunchkinApp(session)
    pending = session.view("Ann").data["pending"]
    monster = session.names[pending["card"]]

    async def script(pilot: Pilot[None]) -> None:
        said = text(app, "#situation")
        assert f"You rolled {pending['roll']} against {monster}" in said, said
        assert "5 or more escapes" in said and "The monsters win: run away" not in said
        panel = " ".join(text(app, "#me").split())
        assert "what just happened" not in panel
        assert f"does not answer your roll of {pending['roll']} against {monster}" in panel, panel

    drive(app, script)


def test_the_flight_question_says_how_many_points_are_missing() -> None:
    session = reach(asked("flight"), seeds=range(3, 40))
    app = MunchkinApp(session)
    missing = session.view("Ann").data["prompt"]["missing"]

    async def script(pilot: Pilot[None]) -> None:
        said = text(app, "#situation")
        assert f"{missing} short" in said, said

    drive(app, script)


def test_losing_a_card_to_bad_stuff_has_no_enter_default_and_shows_values() -> None:
    session = reach(asked("lose_card"), seeds=range(3, 40))
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        assert menu.default is None and menu.highlighted is None
        made = session.decision_count
        await pilot.press("enter")
        assert session.decision_count == made, "Enter does not choose the card lost"
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        valued = [o for o in session.view("Ann").data["prompt"]["options"] if app.defs[o].value is not None]
        for option in valued:
            worth = f"Lose {session.names[option]} ({app.defs[option].value} gold)"
            assert any(worth in line for line in labels), labels

    drive(app, script)


def test_the_fight_shows_each_monsters_bad_stuff() -> None:
    session = reach(fighting_and_losing)
    app = MunchkinApp(session)
    monsters = session.view("Ann").data["combat"]["monsters"]

    async def script(pilot: Pilot[None]) -> None:
        panel = " ".join(text(app, "#combat").split())
        for monster in monsters:
            assert f"Bad Stuff, {monster['name']}: " in panel, panel

    drive(app, script)


def test_tab_into_the_give_list_highlights_its_first_item() -> None:
    session = reach(may_trade)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        await pilot.press(menu.keys["trade"])
        screen = app.screen
        assert isinstance(screen, TradeScreen)
        await pilot.press("tab")
        give = screen.query_one("#give", SelectionList)
        assert give.has_focus and give.highlighted == 0
        await pilot.press("space")
        assert len(give.selected) == 1

    drive(app, script)


def test_after_esc_the_end_screen_keys_still_work_and_the_situation_says_so() -> None:
    session = finished()
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, EndScreen)
        said = text(app, "#situation")
        assert "p: play again" in said and "n: new game" in said, said
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("escape")
        await pilot.press("p")
        assert app.session is not session and not app.session.over

    said = drive(app, script)
    assert not any("No action has the key" in line for line in said), said


def test_set_die_and_income_tax_have_no_enter_default() -> None:
    from munchkin.words.menus import default_action

    die = [Action("choose", str(face)) for face in range(1, 7)]
    assert default_action(die, prompt="set_die") is None
    items = [Action("choose", "staff-of-stern-looks"), Action("choose", "slippery-poncho")]
    for kind in ("tax_item", "pay_tax", "lose_card"):
        assert default_action(items, prompt=kind) is None
    assert default_action(items, prompt="loot") == items[0]


def test_a_play_on_a_hireling_of_a_player_without_one_and_a_needless_sacrifice_say_no_effect() -> None:
    from munchkin.words.costs import no_effect_now
    from test_tui_player import app_defs

    defs = app_defs()
    me = {"name": "Ann", "curses": [], "steeds": [], "hirelings": []}
    bob = {"name": "Bob", "curses": [], "hirelings": [{"id": "hired-hand", "name": "Hired Hand"}]}
    data = {"player": "Ann", "players": [me, bob]}
    slip = Action("play", "pink-slip", target="Ann")
    assert no_effect_now(slip, data, defs) == "no hireling on you"
    assert no_effect_now(slip._replace(target="Bob"), data, defs) is None
    sacrifice = Action("sacrifice_hireling", "hired-hand")
    escaped = {"combat": {"run": {"Ann": [{"automatic": "escapes", "explain": "", "monster": "x"}]}}}
    rolled = {"combat": {"run": {"Ann": [{"explain": "run away 0 = 0", "monster": "x"}]}}}
    assert no_effect_now(sacrifice, data, defs, escaped) == "you escape every monster without a roll"
    assert no_effect_now(sacrifice, data, defs, rolled) is None


def _ann(**changes: object) -> dict[str, object]:
    """Ann's view, deciding on her own turn, no fight, no question; `changes` over it."""
    players = [
        {"name": name, "level": 1, "dead": False, "curses": [], "hirelings": []} for name in ("Ann", "Bob")
    ]
    data: dict[str, object] = {
        "player": "Ann",
        "active": "Ann",
        "turn": 3,
        "phase": "start",
        "winners": [],
        "deciding": True,
        "combat": None,
        "offer": None,
        "prompt": None,
        "pending": None,
        "hand": [],
        "hand_limit": 5,
        "players": players,
        "treasure_discard": [],
    }
    data.update(changes)
    return data


def test_blind_choices_name_the_discard_the_steed_level_and_the_sale_gold() -> None:
    from munchkin.words.actions import describe
    from munchkin.words.situation import situation
    from test_tui_player import app_defs

    defs = app_defs()
    names = {card.id: card.name for card in defs.values()}
    steed = next(c for c in defs.values() if c.type == "steed" and c.bonus > 0)
    said = describe(Action("monstrify", steed.id), names, "Ann", defs=defs)
    assert f"level {2 * steed.bonus}" in said and "1 treasure" in said and "S9" in said, said
    items = [c for c in defs.values() if c.type == "item" and c.value][:2]
    sale = describe(Action("sell", cards=tuple(c.id for c in items)), names, "Ann", defs=defs)
    assert f"{sum(c.value or 0 for c in items)} gold" in sale and "level" in sale, sale
    top = {"id": items[0].id, "name": items[0].name}
    prompt = {"player": "Ann", "kind": "resurrect", "options": ["draw"], "about": None}
    line = situation(_ann(prompt=prompt, treasure_discard=[top]), names)
    assert f"the top treasure discard is {items[0].name}" in line, line


def test_the_situation_says_the_step_of_the_turn_and_whose_fight_or_run_it_is() -> None:
    from munchkin.words.situation import situation

    names = {"troll": "Cave Troll"}
    assert "kick open the door" in situation(_ann(phase="start"), names)
    assert "look for trouble" in situation(_ann(phase="after_door"), names)
    assert "loot the room" in situation(_ann(phase="after_door"), names)
    ending = situation(_ann(phase="end", hand=[{}] * 7), names)
    assert "end" in ending and "charity" in ending and "B5" in ending, ending
    assert "charity" not in situation(_ann(phase="end", hand=[{}] * 5), names)
    troll = [{"id": "troll"}]
    run = {
        "fighter": "Bob",
        "helper": None,
        "asked": None,
        "stage": "run",
        "monsters": troll,
        "runners": ["Bob"],
    }
    bystander = situation(_ann(active="Bob", combat=run, phase="combat"), names)
    assert bystander.startswith("Bob must run away from Cave Troll"), bystander
    helping = {**run, "stage": "fight", "helper": "Ann"}
    advice = {"combat": {"margin": -2, "wins": False, "fighter": "Bob", "helper": "Ann", "run": {}}}
    helper = situation(_ann(active="Bob", combat=helping, phase="combat"), names, advice)
    assert helper.startswith("You are losing by 2"), helper


def test_wording_nits() -> None:
    from munchkin.words.actions import describe
    from munchkin.words.fight import breakdown_lines
    from test_tui_player import app_defs

    lines = breakdown_lines("munchkins 1 = 3 Bob's level (B6) - 2 curse Curse! Wet Noodle Arms (B15)")
    assert "  - 2 Curse! Wet Noodle Arms (B15)" in lines, lines
    defs = app_defs()
    names = {card.id: card.name for card in defs.values()}
    wandering = Action("play", "wandering-monster", on="dread-pirate-lich")
    said = describe(wandering, {**names, "dread-pirate-lich": "Dread Pirate Lich"}, "Ann", defs=defs)
    assert said == "Bring Dread Pirate Lich into the fight with Wandering Monster", said
