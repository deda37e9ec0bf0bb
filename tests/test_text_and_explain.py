"""Events read as sentences; explanations add up to the numbers the engine uses."""

from __future__ import annotations

from munchkin.bots.random_bot import RandomBot
from munchkin.cards.loader import load_builtin_sets
from munchkin.engine.actions import Action
from munchkin.engine.events import Event
from munchkin.engine.game import Game
from munchkin.match import play_match
from munchkin.text import SENTENCES, sentence

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
