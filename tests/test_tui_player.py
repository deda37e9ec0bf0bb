"""The terminal as a new player meets it (issue 13), through Textual's Pilot: reading every
card, why not, warnings, the fight, stable keys, the dialogs, undo and the end of the game.
Each test opens a position found by `positions.reach` (a second or less)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Label, OptionList, RichLog, SelectionList, Static

from munchkin.cardtext import brief, details
from munchkin.engine.actions import Action
from munchkin.engine.options import TableOptions
from munchkin.session import Seat, Session
from munchkin.tui.app import MunchkinApp
from munchkin.tui.screens import (
    AskHelpScreen,
    CardScreen,
    ConfirmScreen,
    EndScreen,
    LogScreen,
    NewGameScreen,
    TradeScreen,
)
from munchkin.tui.widgets import KEY_POOL, ActionMenu
from munchkin.words.refusals import player_words
from positions import fighting_and_losing, greyed, may_trade, reach, replaces
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

SIZE = (120, 45)


def drive(app: MunchkinApp, script: Callable[[Pilot[None]], Coroutine[Any, Any, None]]) -> list[str]:
    """Run the app headless, play `script`; what it said (its notifications)."""
    said: list[str] = []

    def notify(message: str, **_: Any) -> None:
        said.append(message)

    app.notify = notify  # type: ignore[method-assign]

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(run())
    return said


def text(app: MunchkinApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).content)


def finished() -> Session:
    """A game two players won together, with Ann's seat human."""
    bots_only = Session.start(RANDOM_BOTS, ["base"], shared_win_seed(), options=LOW_WIN)
    bots_only.run_to_end()
    setup = replace(bots_only.setup, seats=(Seat("Ann", "female", "human"), *RANDOM_BOTS[1:]))
    return Session(setup, bots_only.decisions, None, None)


def test_every_card_can_be_read_and_the_hand_says_its_numbers_and_why_not() -> None:
    session = reach(greyed)
    app = MunchkinApp(session)
    game = session._run.game

    async def script(pilot: Pilot[None]) -> None:
        panel = text(app, "#me")
        for card in session.view("Ann").data["hand"]:
            assert f"{card['name']} ({brief(app.defs[card['id']])})" in panel.replace("\n", " ")
            refused = game.why_not_play("Ann", card["id"])
            if refused is not None:
                why = player_words(refused.message, session.names)
                assert f"not now: {why} ({refused.rule})" in " ".join(panel.split())
        assert "strength " in text(app, "#others")
        await pilot.press("c")
        assert isinstance(app.screen, CardScreen)
        first = session.view("Ann").data["hand"][0]
        shown = " ".join(text(app, "#card-text").split())
        assert shown.startswith(first["name"]) and all(
            " ".join(line.split()) in shown for line in details(app.defs[first["id"]])
        )
        await pilot.press("down")
        assert text(app, "#card-text") != shown
        await pilot.press("escape")
        menu = app.query_one(ActionMenu)
        plays = [a for a in menu.actions if a.verb == "play"]
        menu.highlighted = menu.option_index(plays[0])
        await pilot.press("c")
        where, card = app.screen.cards[0]  # type: ignore[attr-defined]
        assert (where, card["id"]) == ("This action", plays[0].arg)

    drive(app, script)


def test_the_fight_tells_the_verdict_and_the_escape_chances_and_enter_never_fights_while_losing() -> None:
    session = reach(fighting_and_losing)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        assert menu.highlighted is None and menu.default is None
        assert text(app, "#situation").startswith("You are losing by ")
        panel = text(app, "#combat")
        assert "You are losing by " in panel and "If you must run away, per monster:" in panel
        made = session.decision_count
        await pilot.press("enter")
        assert session.decision_count == made, "Enter does not fight a losing fight"
        await pilot.press(menu.keys[Action("resolve_combat")])
        assert session.decisions[made].action == Action("resolve_combat")

    drive(app, script)


def test_keys_stay_with_their_actions_and_a_key_given_anew_rests_a_moment() -> None:
    session = reach(fighting_and_losing)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        keys = dict(menu.keys)
        legal = session.view("Ann").legal
        menu.show(legal, session.names, "Ann", None, app.types, True)
        assert menu.keys == keys, "the same menu again: the same keys"
        some = menu.actions[-1]
        fewer = [a for a in legal if a != some]
        menu.pressed(keys[some])  # as if its key had just taken it
        menu.show([*fewer, Action("pass")], session.names, "Ann", None, app.types, True)
        assert some not in menu.keys and all(menu.keys[e] == keys[e] for e in keys if e != some)
        freed = keys[some]
        assert menu.keys[Action("pass")] != freed, "a key just freed goes to no other action at once"
        made = session.decision_count
        await pilot.press(freed)
        assert session.decision_count == made, "a press meant for the action that went takes nothing"
        many = [Action("choose", str(i)) for i in range(40)]
        menu.show(many, session.names, "Ann", "set_die", app.types, False)
        assert len(menu.keys) == len(KEY_POOL) and len(menu.actions) == 40, "the rest by arrows and Enter"
        assert set(KEY_POOL) - set("123456789") <= set(menu.keys.values())
        key = menu.keys[many[0]]
        menu.pressed(key)
        menu.show([*many[1:], Action("pass")], session.names, "Ann", "set_die", app.types, False)
        assert menu.keys[Action("pass")] == key, "every other key in use: the key just freed"
        assert menu.just_changed(key), "the key just pressed rests"
        assert not any(menu.just_changed(k) for k in menu.keys.values() if k != key)

    drive(app, script)


def test_a_quick_second_press_never_takes_another_action() -> None:
    session = reach(greyed)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        first = menu.actions[0]
        key = menu.keys[first]
        made = session.decision_count
        await pilot.press(key, key)
        later = [d.action for d in session.decisions[made:] if d.player == "Ann"]
        assert later[0] == first and all(action == first for action in later[1:2])

    drive(app, script)


def test_a_play_that_replaces_a_race_or_class_asks_first() -> None:
    session = reach(replaces)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        action = next(a for a in app.warnings if a in menu.keys)
        made = session.decision_count
        await pilot.press(menu.keys[action])
        assert isinstance(app.screen, ConfirmScreen)
        assert "is discarded for it (B14)" in text(app, "#confirm")
        await pilot.press("n")
        assert session.decision_count == made and not isinstance(app.screen, ConfirmScreen)
        await pilot.press(menu.keys[action], "y")
        assert session.decisions[made].action == action

    drive(app, script)


def test_a_refused_decision_says_why() -> None:
    session = reach(may_trade)
    app = MunchkinApp(session)
    mine = {card["id"] for card in session.view("Ann").data["hand"]} | {
        a.give[0] for a in session.view("Ann").legal if a.verb == "trade" and a.give
    }
    not_hers = next(card_id for card_id in session.names if card_id not in mine)

    async def script(pilot: Pilot[None]) -> None:
        app.decide(Action("trade", "Bob", give=(not_hers,)))

    said = drive(app, script)
    assert any(line.startswith("refused (B13): ") for line in said), said


def test_trading_goes_through_a_dialog_of_partner_and_items() -> None:
    session = reach(may_trade)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        assert not any(a.verb == "trade" for a in menu.actions), "no wall of trade lines"
        await pilot.press(menu.keys["trade"])
        screen = app.screen
        assert isinstance(screen, TradeScreen)
        trade = next(a for a in menu.dialogs["trade"] if a.take)
        screen.query_one("#partner", OptionList).highlighted = screen.partners.index(trade.arg or "")
        await pilot.pause()
        screen.query_one("#give", SelectionList).select(trade.give[0])
        screen.query_one("#take", SelectionList).select(trade.take[0])
        await pilot.pause()
        made = session.decision_count
        await pilot.press("o")
        assert session.decisions[made].action == trade
        names = session.names
        said = f"Ann offers {trade.arg} {names[trade.give[0]]} for {names[trade.take[0]]}."
        assert said in [
            strip.text.rstrip() for strip in app.query_one(RichLog).lines
        ] or said in app.history.lines("Ann")

    drive(app, script)


def test_help_is_asked_with_a_bribe_and_asked_again_with_more() -> None:
    session = reach(fighting_and_losing, options=TableOptions(help_asks=2))
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        assert not any(a.verb == "ask_help" for a in menu.actions)
        await pilot.press(menu.keys["help"])
        screen = app.screen
        assert isinstance(screen, AskHelpScreen)
        helper = screen.helper
        assert "Treasures promised to " in text(app, "#reward")
        made = session.decision_count
        await pilot.press("a")
        assert session.decisions[made].action == Action("ask_help", helper, reward=0)
        combat = session.view("Ann").data["combat"]
        if combat is None or helper not in combat["declined"]:
            return  # they helped
        await pilot.press(menu.keys["help"])
        screen = app.screen
        assert isinstance(screen, AskHelpScreen)
        screen.query_one("#helper", OptionList).highlighted = screen.helpers.index(helper)
        await pilot.pause()
        assert screen.reward == min(1, screen.most), "asked again, the dialog suggests more"
        assert f"{helper} declined 0 treasure(s) before" in text(app, "#ask-note")

    drive(app, script)


def test_undo_is_refused_once_the_game_is_over_and_the_end_shows_the_standings() -> None:
    session = finished()
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, EndScreen)
        end = text(app, "#end")
        for winner in session.winners:
            assert f"winner  {winner}" in end
        assert "turns played" in end and "reached level 3" in end
        await pilot.press("escape")
        made = session.decisions
        await pilot.press("u")
        assert session.decisions == made
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen) and len(app.screen.lines) == len(app.history.lines("Ann"))

    said = drive(app, script)
    assert "The game is over: there is nothing to undo." in said


def test_play_again_starts_a_new_game_with_the_same_seats() -> None:
    session = finished()
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("p")
        assert app.session is not session and not app.session.over
        assert app.session.seats == session.seats and app.session.options == session.options
        assert not isinstance(app.screen, EndScreen)

    drive(app, script)


def test_a_new_game_from_the_end_takes_new_seats_sets_and_options_and_says_what_is_wrong() -> None:
    session = finished()
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#new-seats", Input).value = "bot:random,bot:random"
        await pilot.press("enter")
        assert isinstance(app.screen, NewGameScreen), "no human seat: asked again"
        assert "no human seat" in text(app, "#new-game-problem")
        app.screen.query_one("#new-seats", Input).value = "human:Zoe:female,bot:random,bot:heuristic"
        app.screen.query_one("#new-sets", Input).value = "base,horses"
        app.screen.query_one("#new-options", Input).value = "win_level=7"
        app.screen.query_one("#new-seats", Input).focus()
        await pilot.press("enter")
        assert not isinstance(app.screen, (NewGameScreen, EndScreen))
        assert app.session is not session and not app.session.over
        assert app.session.seats[0].name == "Zoe"
        assert list(app.session.sets) == ["base", "horses"] and app.session.options.win_level == 7

    drive(app, script)


# -- the play-tester's report ------------------------------------------------------------------


def may_discard_a_trait(session: Session) -> bool:
    """Ann may discard a race or class of hers (B14)."""
    view = session.view("Ann")
    mine = {c["id"] for t in view.data["players"] if t["name"] == "Ann" for c in t["races"] + t["classes"]}
    return any(a.verb == "discard" and a.arg in mine for a in view.legal)


def test_a_key_just_pressed_is_not_given_at_once_and_an_action_back_gets_its_old_key() -> None:
    session = reach(fighting_and_losing)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        first = [Action("pass"), Action("discard", "elf"), Action("play", "evil-twin")]
        menu.show(first, session.names, "Ann")
        keys = dict(menu.keys)
        other = [Action("resolve_combat"), Action("play", "cardboard-cutout")]
        menu.show(other, session.names, "Ann")
        assert not set(menu.keys.values()) & set(keys.values()), "keys just freed wait"
        menu.show(first, session.names, "Ann")
        assert menu.keys == keys, "back on the menu, back with its key"

    drive(app, script)


def test_a_discard_of_a_race_or_class_asks_first_however_often_its_key_is_pressed() -> None:
    session = reach(may_discard_a_trait)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        discard = next(a for a in menu.actions if a.verb == "discard")
        key = menu.keys[discard]
        made = session.decision_count
        await pilot.press(key, key, key)
        assert isinstance(app.screen, ConfirmScreen) and session.decision_count == made
        assert f"you lose {session.names[discard.arg or '']}" in text(app, "#confirm")
        await pilot.press("n")
        assert session.decision_count == made
        await pilot.press(key, "y")
        assert session.decisions[made].action == discard

    drive(app, script)


def test_a_hireling_sold_or_discarded_says_its_items_go_with_it() -> None:
    from munchkin.words.costs import costs

    names = {"hired-hand": "Hired Hand", "sword": "Sword", "elf": "Elf", "boots": "Boots"}
    table = {
        "name": "Ann",
        "races": [{"id": "elf", "name": "Elf"}],
        "classes": [],
        "hirelings": [
            {"id": "hired-hand", "name": "Hired Hand", "carrying": [{"id": "sword", "name": "Sword"}]}
        ],
    }
    types = {"hired-hand": "hireling", "sword": "item", "elf": "race", "boots": "item"}
    sale = costs(Action("sell", cards=("boots", "hired-hand")), table, types, names)
    assert any("Sword, carried by Hired Hand, goes with it (H11)" in line for line in sale), sale
    gone = costs(Action("discard", "hired-hand"), table, types, names)
    assert any("Sword, carried by Hired Hand, goes with it (H11)" in line for line in gone), gone
    assert costs(Action("discard", "elf"), table, types, names) == [
        "you lose Elf and what it gives you (B14)"
    ]
    assert costs(Action("play", "sword"), table, types, names) == []


def test_the_log_says_what_a_hireling_carried_when_it_goes() -> None:
    from munchkin.engine.events import Event
    from munchkin.text import sentence
    from munchkin.tui.history import with_loads

    loads: dict[str, list[str]] = {}
    events = [
        Event("item_equipped", {"player": "Ann", "card": "sword", "hireling": "hired-hand"}),
        Event("sold", {"player": "Ann", "cards": ["hired-hand"], "gold": 300, "levels": 0}),
    ]
    told = with_loads(events, loads)
    names = {"hired-hand": "Hired Hand", "sword": "Sword"}
    assert (
        sentence(told[1], names)
        == "Ann sells Hired Hand for 300 gold; Sword, which it carried, goes with it."
    )
    assert loads == {}
    again = [
        Event("item_equipped", {"player": "Ann", "card": "sword", "hireling": "hired-hand"}),
        Event("item_unequipped", {"player": "Ann", "card": "sword"}),
        Event("card_discarded", {"player": "Ann", "card": "hired-hand"}),
    ]
    assert sentence(with_loads(again, loads)[2], names) == "Ann discards Hired Hand."


def test_a_play_that_would_do_nothing_now_says_so() -> None:
    from munchkin.words.costs import no_effect_now

    defs = app_defs()
    me = {"name": "Ann", "curses": [], "steeds": []}
    data = {"player": "Ann", "players": [me, {"name": "Bob", "curses": [{"id": "x", "name": "X"}]}]}
    bath = Action("play", "holy-bubble-bath")
    assert no_effect_now(bath, data, defs) == "no curse on you to remove"
    assert no_effect_now(bath._replace(target="Bob"), data, defs) is None
    peel = Action("play", "banana-peel-of-retreat")
    riding = {
        "combat": {"run": {"Ann": [{"explain": "run away 2 = 2 steed Ostrich of Poor Decisions (S6)"}]}}
    }
    walking = {"combat": {"run": {"Ann": [{"explain": "run away 1 = 1 Elf (B9)"}]}}}
    assert (
        no_effect_now(peel, data, defs, riding) == "your steed's run-away value replaces its bonus (S6, R66)"
    )
    assert no_effect_now(peel, data, defs, walking) is None
    session = reach(fighting_and_losing)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        menu = app.query_one(ActionMenu)
        menu.show([bath, Action("pass")], session.names, "Ann", notes={bath: "no curse on you to remove"})
        labels = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        assert any(
            "Holy Bubble Bath (no effect now: no curse on you to remove)" in line for line in labels
        ), labels

    drive(app, script)


def app_defs() -> dict[str, Any]:
    from munchkin.store.store import load_cards

    return {card.id: card for card in load_cards(("base", "horses"))}


def test_why_not_reads_in_player_words() -> None:
    session = reach(greyed)
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        from munchkin.tui.widgets import TablePanel

        data = session.view("Ann").data
        card = data["hand"][0]
        advice = {"why_not": {card["id"]: {"rule": "B16", "message": "name a monster of the fight with on:"}}}
        app.query_one(TablePanel).show(data, app.defs, advice, session.names)
        panel = " ".join(text(app, "#me").split())
        assert "not now: it is played on a monster of the fight (B16)" in panel and "on:" not in panel

    drive(app, script)


def test_the_new_game_screen_names_the_bot_levels() -> None:
    session = finished()
    app = MunchkinApp(session)

    async def script(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        hints = " ".join(str(label.content) for label in app.screen.query(Label))
        assert all(f"bot:{level}" in hints for level in ("easy", "medium", "hard")), hints

    drive(app, script)
