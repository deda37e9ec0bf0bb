"""Events read as sentences; explanations add up to the numbers the engine uses."""

from __future__ import annotations

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.cardtext import brief
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.match import play_match
from munchkin.text import SENTENCES, sentence
from munchkin.views import event_for, view
from munchkin.words.actions import describe
from munchkin.words.fight import escape_line
from munchkin.words.prompts import prompt_kind
from munchkin.words.refusals import player_words
from munchkin.words.situation import situation
from munchkin.words.standings import standings_lines, winners_line, winners_text
from shared_wins import both_win_game

CARDS = load_builtin_sets(["base"])
NAMES = {c.id: c.name for c in CARDS}


def _events_of_games(seeds: range) -> list[Event]:
    events: list[Event] = []
    for seed in seeds:
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, on_event=events.append)
    return events


def test_every_event_of_real_games_has_its_own_sentence() -> None:
    events = _events_of_games(range(6))
    kinds = {e.kind for e in events}
    assert not kinds - SENTENCES.keys(), "event kinds without a sentence"
    for event in events:
        line = sentence(event, NAMES)
        assert line is None or (line and "{" not in line), line


def test_a_door_reads_like_the_table_talk() -> None:
    event = Event("door_kicked", {"player": "Ann", "card": "x", "name": "X", "type": "monster", "level": 2})
    assert sentence(event, {"x": "Sulky Gnome"}) == "Ann kicks open the door: Sulky Gnome (level 2)."


def test_combat_breakdowns_are_the_numbers_the_fight_compares() -> None:
    """The totals explained before the deciding pass are the strengths compared (B6)."""
    last: dict[str, int] = {}
    compared = 0

    def explain(game: Game, player: str, action: Action) -> None:
        last.clear()
        if game.state.combat is not None and game.state.combat.stage == "fight":
            ours, theirs = game.explain_combat()
            assert all(p.rule for p in ours.parts + theirs.parts)
            last.update(munchkins=ours.total, monsters=theirs.total)

    def resolved(event: Event) -> None:
        nonlocal compared
        if event.kind == "combat_resolved" and last:
            assert (event["munchkins"], event["monsters"]) == (last["munchkins"], last["monsters"])
            compared += 1

    for seed in range(3):
        bots = [RandomBot(seed * 10 + i) for i in range(4)]
        play_match(CARDS, 4, seed, bots, on_event=resolved, after_decision=explain)
    assert compared > 20


def test_the_events_of_issue_11_have_sentences() -> None:
    names = {"troll": "Cave Troll", "drum": "War Drum", "di": "Divine Intervention"}
    told = [
        (
            Event("monster_left", {"player": "Ann", "card": "troll"}),
            "Cave Troll leaves Ann's fight, defeated but not killed.",
        ),
        (
            Event("drawn_face_up", {"player": "Bob", "card": "di"}),
            "Bob draws Divine Intervention, which acts at once.",
        ),
        (Event("came_back", {"player": "Cid"}), "Cid comes back, with new cards to come on their own turn."),
        (Event("card_given", {"player": "Ann", "card": "drum", "to": "Bob"}), "Ann gives War Drum to Bob."),
        (
            Event("die_rolled", {"player": "Bob", "purpose": "looting order", "roll": 4, "modifier": 0}),
            "Bob rolls 4 for the looting order.",
        ),
    ]
    for event, line in told:
        assert sentence(event, names) == line


def test_every_winner_of_a_shared_win_is_told() -> None:
    """Scenario b02: the fighter and the Elf helper reach level 10 in the same fight (B2)."""
    game, events = both_win_game()
    won = [sentence(e) for e in events if e.kind == "game_won"]
    assert won == [f"{name} reaches the winning level and wins the game!" for name in ("ann", "bob")]
    data = view(game, "cid").data
    assert data["winners"] == ["ann", "bob"] and data["winner"] == "ann"
    assert situation(data, NAMES) == f"Game over: ann and bob win together after {data['turn']} turns."
    assert winners_text(["ann", "bob", "cid"]) == "ann, bob and cid win together"
    assert winners_line(["ann"]) == "Winner: ann" and winners_line([]) == "Winner: nobody"


# -- the play-testers' report: log lines, cards, reasons and the fight's words ---------------

ALL = {card.id: card for card in load_builtin_sets(["base", "horses"])}
ALL_NAMES = {card_id: card.name for card_id, card in ALL.items()}


def test_a_card_given_away_face_down_or_discarded_as_charity_reads_without_a_question_mark() -> None:
    hidden = Event("charity", {"player": "Dee", "card": "gold-tooth", "to": "Bob"})
    assert sentence(event_for(hidden, "Cid"), NAMES) == "Dee gives a card to Bob as charity."
    discarded = Event("charity", {"player": "Dee", "card": "rusty-broadsword", "to": None})
    told = sentence(event_for(discarded, "Cid"), {"rusty-broadsword": "Rusty Broadsword"})
    assert told == "Dee discards Rusty Broadsword as charity.", "the discard pile is face up"


def test_an_item_given_to_a_hireling_is_not_put_on() -> None:
    names = {"sword": "Sword", "hired-hand": "Hired Hand"}
    given = Event("item_equipped", {"player": "Ann", "card": "sword", "hireling": "hired-hand"})
    assert sentence(given, names) == "Ann gives Sword to Hired Hand to use."
    worn = Event("item_equipped", {"player": "Ann", "card": "sword", "hireling": None})
    assert sentence(worn, names) == "Ann puts on Sword."


def test_an_escape_names_the_monster_escaped() -> None:
    names = {"troll": "Cave Troll"}
    at_once = Event("escaped", {"player": "Ann", "card": "troll", "automatic": True})
    assert sentence(at_once, names) == "Ann escapes Cave Troll at once, without rolling."
    rolled = Event("escaped", {"player": "Ann", "card": "troll", "automatic": False})
    assert sentence(rolled, names) == "Ann escapes Cave Troll."
    helper = Event("escaped", {"player": "Bob", "card": None, "automatic": True})
    assert sentence(helper, names) == "Bob escapes every monster of the fight, without rolling."


def test_every_line_about_a_card_that_does_nothing_says_no_effect_alike() -> None:
    names = {"moths": "Curse! Moths"}
    nothing = Event("no_effect", {"player": "Ann", "card": "moths"})
    immune = Event("immune", {"player": "Ann", "card": "moths", "effect": "lose_levels"})
    assert sentence(nothing, names) == "Curse! Moths: no effect on Ann."
    assert sentence(immune, names) == "Curse! Moths: no effect on Ann (protected from: lose levels)."


def test_what_a_hireling_carries_goes_with_it_in_the_log() -> None:
    names = {"hired-hand": "Hired Hand", "sword": "Sword", "boots": "Boots"}
    sold = Event(
        "sold", {"player": "Ann", "cards": ["hired-hand"], "gold": 300, "levels": 0, "with": ["sword"]}
    )
    assert (
        sentence(sold, names) == "Ann sells Hired Hand for 300 gold; Sword, which it carried, goes with it."
    )
    gone = Event("card_discarded", {"player": "Ann", "card": "hired-hand", "with": ["sword", "boots"]})
    assert sentence(gone, names) == "Ann discards Hired Hand; Sword and Boots, which it carried, go with it."
    plain = Event("sold", {"player": "Ann", "cards": ["sword"], "gold": 400, "levels": 0})
    assert sentence(plain, names) == "Ann sells Sword for 400 gold."


def test_counts_of_one_are_singular() -> None:
    assert sentence(Event("hand_lost", {"player": "Bob", "count": 1})) == "Bob loses the whole hand (1 card)."


def test_a_door_card_played_once_into_a_fight_is_not_kept_in_play() -> None:
    assert brief(ALL["evil-twin"]).startswith("one-shot")
    assert brief(ALL["hey-you-yes-you"]).startswith("one-shot")
    assert brief(ALL["half-breed"]).startswith("kept in play")
    assert brief(ALL["old-money-bloodline"]).startswith("kept in play")


def test_refusals_read_in_player_words() -> None:
    names = {"evil-twin": "Evil Twin", "elf": "Elf"}
    cases = [
        ("name a monster of the fight with on:", "it is played on a monster of the fight"),
        ("name another living player with target:", "it is played on another living player"),
        (
            "Evil Twin cannot be played; a monster is fought (look_for_trouble)",
            "Evil Twin cannot be played; a monster is fought (look for trouble)",
        ),
        ("evil-twin is not in your hand", "Evil Twin is not in your hand"),
        ("name the monster it replaces with cards:", "it is played on the monster it replaces"),
        (
            "steal a level from another player: name them with target:",
            "steal a level from another player: it is played on one of them",
        ),
        (
            "a Cheat! is attached to a card: name it with on:",
            "a Cheat! is attached to a card: it is played on that card",
        ),
    ]
    for engine, player in cases:
        said = player_words(engine, names)
        assert said == player, said
        assert not any(word in said for word in ("on:", "target:", "cards:", "_"))


def test_a_run_with_no_chance_or_no_risk_says_so_plainly() -> None:
    entry = {"monster": "troll", "modifier": -3, "explain": "run away -3 = -3 Iron Clogs (B9)", "needs": 5}
    names = {"troll": "Cave Troll"}
    hopeless = escape_line({**entry, "faces": 0, "modifier": -3}, names)
    assert hopeless == "Cave Troll: 0 in 6 (even a 6 fails; run away -3 = -3 Iron Clogs (B9))"
    sure = escape_line({**entry, "faces": 6, "modifier": 4, "explain": "run away 4 = 4 x (B9)"}, names)
    assert sure == "Cave Troll: 6 in 6 (every roll escapes; run away 4 = 4 x (B9))"


def test_the_fight_asks_for_help_only_when_help_may_be_asked() -> None:
    game, _ = both_win_game()
    data = dict(view(game, "cid").data)
    combat = {"fighter": "cid", "asked": None, "stage": "fight", "monsters": [], "helper": None}
    data.update(winners=[], deciding=True, prompt=None, offer=None, phase="combat", combat=combat)
    advice = {"combat": {"margin": -2, "wins": False, "fighter": "cid", "helper": None, "run": {}}}
    asking = situation(
        {**data, "legal": [Action("ask_help", "ann"), Action("resolve_combat")]}, NAMES, advice
    )
    assert "ask for help" in asking
    alone = situation({**data, "legal": [Action("resolve_combat")]}, NAMES, advice)
    assert "help" not in alone and alone.startswith("You are losing by 2")
    assert "help" not in situation({**data, "legal": [Action("resolve_combat")]}, NAMES)


def test_the_standings_columns_line_up_whatever_the_names_and_traits() -> None:
    rows = [
        {"place": 1, "name": "Ann", "level": 10, "won": True, "traits": "Elf", "fights_won": 9, "deaths": 0},
        {
            "place": 2,
            "name": "Bartholomew the Long-Named",
            "level": 7,
            "won": False,
            "traits": "Elf, Dwarf, Half-Breed, Wizard, Super Munchkin, Warrior",
            "fights_won": 12,
            "deaths": 3,
        },
        {
            "place": 3,
            "name": "Cid",
            "level": 1,
            "won": False,
            "traits": "Human, no class",
            "fights_won": 0,
            "deaths": 1,
        },
    ]
    lines = standings_lines({"title": "Game over: Ann wins.", "turns": 40, "how": [], "rows": rows})
    table = lines[-3:]
    for column in ("level", "fights won"):
        assert len({line.index(column) for line in table}) == 1, table


def _table(levels: dict[str, int], dead: tuple[str, ...] = ()) -> list[dict[str, object]]:
    return [{"name": name, "level": level, "dead": name in dead} for name, level in levels.items()]


def _asked(kind: str, levels: dict[str, int], dead: tuple[str, ...] = ()) -> dict[str, object]:
    """Ann's view with a question of `kind` open to her, the players at `levels`."""
    prompt = {"player": "Ann", "kind": kind, "options": ["gold-tooth"], "about": None}
    return {
        "player": "Ann",
        "prompt": prompt,
        "players": _table(levels, dead),
        "winners": [],
        "deciding": True,
        "combat": None,
        "offer": None,
    }


def test_charity_says_whether_the_card_is_discarded_or_given_and_to_whom() -> None:
    """B5: the lowest level discards; else the card goes to the lowest other player."""
    names = {"gold-tooth": "Gold Tooth"}
    card = Action("choose", "gold-tooth")
    cases = [
        ({"Ann": 1, "Bob": 3}, (), "Discard Gold Tooth (you are the lowest level)"),
        ({"Ann": 2, "Bob": 2, "Cid": 4}, (), "Discard Gold Tooth (you are the lowest level)"),
        ({"Ann": 4, "Bob": 2, "Cid": 3}, (), "Give Gold Tooth to Bob"),
        ({"Ann": 4, "Bob": 2, "Cid": 2, "Dee": 1}, ("Dee",), "Give Gold Tooth to Bob or Cid"),
    ]
    for levels, dead, words in cases:
        data = _asked("charity", levels, dead)
        assert describe(card, names, "Ann", prompt_kind(data)) == words
        line = situation(data, names)
        assert ("discard" in line) == words.startswith("Discard"), line
        assert "give" not in line if words.startswith("Discard") else "give" in line, line
    assert describe(card, names, "Ann", prompt_kind(_asked("loot", {"Ann": 1}))) == "Take Gold Tooth"


def test_a_gift_offered_reads_as_a_gift() -> None:
    data = _asked("loot", {"Ann": 1, "Bob": 2})
    card = {"id": "third-arm-harness", "name": "Third Arm Harness"}
    gift = {"from": "Bob", "to": "Ann", "give": [card], "take": []}
    data.update(prompt=None, offer=gift)
    assert situation(data, NAMES) == "Bob offers you Third Arm Harness as a gift: accept or decline."
    data["offer"] = {**gift, "take": [{"id": "gold-tooth", "name": "Gold Tooth"}]}
    assert (
        situation(data, NAMES) == "Bob offers you Third Arm Harness for your Gold Tooth: accept or decline."
    )


def test_a_card_that_waits_for_an_open_decision_says_which_in_player_words() -> None:
    wait = "wait: another decision is open"
    offer = {"from": "Bob", "to": "Ann", "give": [], "take": []}
    cases = [
        ({"offer": offer}, "first answer Bob's trade offer"),
        ({"offer": {**offer, "from": "Ann", "to": "Cid"}}, "wait for Cid to answer your trade offer"),
        ({"offer": {**offer, "to": "Cid"}}, "wait for Cid to answer Bob's trade offer"),
        ({"prompt": {"player": "Ann", "kind": "charity"}}, "first answer the question open to you"),
        ({"prompt": {"player": "Bob", "kind": "reroll"}}, "wait for Bob to answer their question"),
        ({"combat": {"asked": "Ann", "fighter": "Bob"}}, "first answer Bob's request for help"),
        ({"combat": {"asked": "Cid", "fighter": "Bob"}}, "wait for Cid to answer Bob's request for help"),
        ({}, "wait for the open question to be answered"),
    ]
    for open_now, words in cases:
        data = {"player": "Ann", "prompt": None, "offer": None, "combat": None, **open_now}
        assert player_words(wait, NAMES, data) == words
    assert player_words(wait, NAMES) == "wait for the open question to be answered"
    assert "another decision" not in player_words(wait, NAMES)


def test_a_run_with_no_modifier_shows_no_empty_breakdown() -> None:
    entry = {"monster": "troll", "modifier": 0, "explain": "run away 0 = 0", "needs": 5, "faces": 2}
    assert escape_line(entry, {"troll": "Mega Mimic"}) == "Mega Mimic: 2 in 6 (a roll of 5 or more)"
    parts = {**entry, "modifier": 1, "explain": "run away 1 = 1 Elf (B14)", "faces": 3}
    assert escape_line(parts, {"troll": "Mega Mimic"}) == (
        "Mega Mimic: 3 in 6 (a roll of 4 or more; run away 1 = 1 Elf (B14))"
    )


def test_unpaid_tax_tells_a_lost_level_only_when_one_is_lost() -> None:
    unpaid = sentence(Event("tax_unpaid", {"player": "Bob", "owed": 400}), NAMES)
    assert unpaid is not None and "level" not in unpaid, "at level 1 no level is lost (B3)"
    assert unpaid == "Bob cannot pay 400 gold of tax."
    dropped = Event("level_down", {"player": "Bob", "level": 2, "source": "income-tax"})
    assert sentence(dropped, {"income-tax": "Income Tax"}) == "Bob drops to level 2 (Income Tax)."


def test_promised_treasures_are_counted_in_words() -> None:
    data = _asked("loot", {"Ann": 1, "Bob": 2})
    data.update(prompt=None, combat={"asked": "Ann", "fighter": "Bob", "reward": 0, "stage": "fight"})
    assert situation(data, NAMES) == "Bob asks you for help, promising no treasure."
    data["combat"]["reward"] = 1  # type: ignore[index]
    assert situation(data, NAMES) == "Bob asks you for help, promising 1 treasure."
    asked = Event("help_asked", {"player": "Bob", "helper": "Ann", "reward": 2})
    assert sentence(asked, NAMES) == "Bob asks Ann for help, promising 2 treasures."
    assert describe(Action("ask_help", "Ann"), NAMES, "Bob") == "Ask Ann for help (no treasure)"
    assert describe(Action("ask_help", "Ann", reward=1), NAMES, "Bob") == "Ask Ann for help (1 treasure)"
    losing = {"combat": {"fighter": "Ann", "helper": None, "margin": -1, "wins": False}}
    data.update(combat={"asked": None, "fighter": "Ann", "stage": "fight", "helper": None}, phase="combat")
    data.update(active="Ann")
    assert ".." not in situation(data, NAMES, losing) and "!." not in situation(data, NAMES, losing)
