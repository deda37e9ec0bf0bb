"""The words both interfaces show (issue 13): cards in full, the advice beside a view, the
fight's verdict and escape chances, menus by kind, the end's standings, and the log."""

from __future__ import annotations

from munchkin.advice import advise
from munchkin.cardtext import brief, details, in_play
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.session import Session
from munchkin.store.store import load_cards
from munchkin.text import sentence, with_no_effect
from munchkin.views import view
from munchkin.words.fight import escape_line, verdict
from munchkin.words.menus import default_action, group_of, grouped
from munchkin.words.standings import how_won, standings, standings_lines
from positions import fighting_and_losing, reach, replaces
from shared_wins import LOW_WIN, RANDOM_BOTS, shared_win_seed

CARDS = {card.id: card for card in load_cards(("base", "horses"))}
NAMES = {card.id: card.name for card in CARDS.values()}
CURSES = frozenset(i for i, c in CARDS.items() if c.type in ("curse", "trap"))


def test_every_card_reads_in_full() -> None:
    troll = CARDS["tollbooth-troll"]
    lines = details(troll)
    assert lines[0].startswith("Monster, level 11, 3 treasures")
    assert troll.text in lines
    assert "+3 against Dwarf" in lines and any(line.startswith("Bad Stuff: ") for line in lines)
    slippers = details(CARDS["fuzzy-slippers-of-stealth"])
    assert "Only for: Thief (others carry it)" in slippers
    assert brief(CARDS["fuzzy-slippers-of-stealth"]) == "item, +1, +1 to run away, footgear, 200 gold"
    for card in CARDS.values():  # every card of both sets: a first line, and its own text
        lines = details(card)
        assert lines and (not card.text or card.text in lines), card.id
    steed = {
        "id": "moose-of-moderate-menace",
        "name": "Moose",
        "attached": [{"id": "cupholder-attachment", "name": "Cupholder Attachment"}],
    }
    assert in_play(steed, NAMES) == ["With: Cupholder Attachment"]


def test_the_log_says_what_dice_need_whom_the_reward_goes_to_and_what_a_trade_offers() -> None:
    roll = Event(
        "die_rolled",
        {
            "player": "Ann",
            "purpose": "run away",
            "card": "tollbooth-troll",
            "roll": 3,
            "modifier": -3,
            "success": False,
        },
    )
    assert sentence(roll, NAMES) == "Ann rolls 3, -3 = 0, needs 5 to run away from Tollbooth Troll: failure."
    theft = Event(
        "die_rolled",
        {
            "player": "Ann",
            "purpose": "theft",
            "card": "frying-pan-of-justice",
            "roll": 4,
            "modifier": 0,
            "success": True,
        },
    )
    assert sentence(theft, NAMES) == "Ann rolls 4, needs 4 to steal Frying Pan of Justice: success."
    drawn = Event(
        "treasures_drawn",
        {
            "player": "Ann",
            "count": 2,
            "face_up": True,
            "cards": ["frying-pan-of-justice", "iron-clogs"],
            "helper_gets": 1,
        },
    )
    assert sentence(drawn, NAMES).endswith("the helper takes Frying Pan of Justice.")  # type: ignore[union-attr]
    offer = Event(
        "trade_offered",
        {"player": "Ann", "to": "Bob", "give": ["iron-clogs"], "take": ["frying-pan-of-justice"]},
    )
    assert sentence(offer, NAMES) == "Ann offers Bob Iron Clogs for Frying Pan of Justice."
    gift = Event("trade_offered", {"player": "Ann", "to": "Bob", "give": ["iron-clogs"], "take": []})
    assert sentence(gift, NAMES) == "Ann offers Bob Iron Clogs as a gift."


def test_a_curse_or_bad_stuff_that_does_nothing_says_no_effect() -> None:
    caught = Event("caught", {"player": "Ann", "card": "tollbooth-troll"})
    over = Event("combat_over", {"player": "Ann"})
    lost = Event("level_down", {"player": "Ann", "level": 1, "source": "tollbooth-troll"})
    told = with_no_effect([], [caught, over], CURSES)
    assert [e.kind for e in told] == ["caught", "no_effect", "combat_over"]
    assert sentence(told[1], NAMES) == "Tollbooth Troll: no effect on Ann."
    assert [e.kind for e in with_no_effect([], [caught, lost, over], CURSES)] == [
        "caught",
        "level_down",
        "combat_over",
    ]
    curse = Event("card_played", {"player": "Bob", "card": "hat-eating-moths", "target": "Ann"})
    waiting = with_no_effect([], [curse], CURSES)  # a curse waiting for answers: not yet
    assert [e.kind for e in waiting] == ["card_played"]
    later = with_no_effect(
        waiting, [Event("passed", {"player": "Cid"}), Event("turn_ended", {"player": "Bob"})], CURSES
    )
    assert [e.kind for e in later] == ["passed", "no_effect", "turn_ended"] and later[1].data[
        "player"
    ] == "Ann"


def test_no_effect_is_noted_alike_whether_the_events_come_at_once_or_in_batches() -> None:
    import random

    session = Session.start(RANDOM_BOTS, ["base"], 5)
    session.run_to_end()
    events = session._run.events
    whole = with_no_effect([], events, CURSES)
    batched: list[Event] = []
    cut = random.Random(5)
    while events:
        size = cut.randint(1, 6)
        batched += with_no_effect(batched[-50:], events[:size], CURSES)
        events = events[size:]
    assert [e.kind for e in batched] == [e.kind for e in whole]
    assert any(e.kind == "no_effect" for e in whole)


def test_menus_put_the_default_first_self_curses_last_and_never_fight_while_losing() -> None:
    types = {"hat-eating-moths": "curse", "iron-clogs": "item"}
    legal = [
        Action("play", "hat-eating-moths", target="Ann"),
        Action("play", "hat-eating-moths", target="Bob"),
        Action("resolve_combat"),
        Action("ask_help", "Bob", reward=1),
        Action("sell", cards=("iron-clogs",)),
    ]
    assert group_of(legal[0], "Ann", types) == "self_curse" and group_of(legal[1], "Ann", types) == "play"
    order = [group for group, _ in grouped(legal, "Ann", types, default_action(legal))]
    assert order == ["main", "play", "items", "help", "self_curse"]
    assert default_action(legal) == Action("resolve_combat")
    assert default_action(legal, losing=True) is None
    assert default_action([*legal, Action("pass")], losing=True) == Action("pass")


def test_the_verdict_and_the_chance_to_run_away() -> None:
    combat = {"margin": -4, "wins": False, "fighter": "Ann", "helper": None, "run": {}}
    assert verdict(combat, "Ann") == "You are losing by 4 (5 more to win)."
    assert verdict(combat, None) == "Ann is losing by 4 (5 more to win)."
    assert verdict({**combat, "margin": 0, "wins": True, "helper": "Bob"}, "Cid").startswith(
        "Ann and Bob are winning: tied"
    )
    assert verdict({**combat, "margin": 2, "wins": True}, "Ann") == "You are winning by 2."
    entry = {
        "monster": "tollbooth-troll",
        "modifier": 1,
        "explain": "run away 1 = 1 Elf (B9)",
        "needs": 5,
        "faces": 3,
    }
    assert (
        escape_line(entry, NAMES) == "Tollbooth Troll: 3 in 6 (a roll of 4 or more; run away 1 = 1 Elf (B9))"
    )


def test_advice_is_the_engines_own_reasons_and_chances() -> None:
    session = reach(fighting_and_losing)
    game = session._run.game
    advice = advise(game, "Ann")
    for card_id, why in advice["why_not"].items():
        refused = game.why_not_play("Ann", card_id)
        assert refused is not None and (why["rule"], why["message"]) == (refused.rule, refused.message)
    combat = advice["combat"]
    ours, theirs = game.explain_combat()
    assert combat["margin"] == ours.total - theirs.total and not combat["wins"]
    for entry in combat["run"]["Ann"]:
        if "automatic" not in entry:
            assert entry["faces"] == sum(1 for face in range(1, 7) if face + entry["modifier"] >= 5)
    assert view(game, "Ann").advice == advice
    swap = reach(replaces)
    legal = swap.view("Ann").legal
    warned = swap.view("Ann").advice["warnings"]
    for index, found in warned.items():
        assert [tuple(c.values()) for c in found] == [
            tuple(c) for c in swap._run.game.consequences("Ann", legal[int(index)])
        ]


def test_standings_name_every_winner_and_how_they_won() -> None:
    session = Session.start(RANDOM_BOTS, ["base"], shared_win_seed(), options=LOW_WIN)
    session.run_to_end()
    data = session.view(session.seats[0].name).data
    end = standings(data, session._run.events, session.names)
    assert end["winners"] == session.winners and len(end["how"]) == len(session.winners)
    assert all(row["won"] == (row["name"] in session.winners) for row in end["rows"])
    assert [row["place"] for row in end["rows"]][: len(session.winners)] == [1] * len(session.winners)
    assert all("reached level 3" in line for line in how_won(session._run.events, session.names))
    lines = standings_lines(end)
    assert lines[0] == end["title"] and f"{data['turn']} turns played." in lines
