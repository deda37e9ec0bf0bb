"""Regressions of the engine bugs that random play found (tests/test_properties.py,
scripts/soak.py); each test failed before the fix (commit 9aebb63).

P1 a trade accepted after one of its cards left play crashed halfway (B13);
P2 an Elf helper reached level 10 after the fighter had won (B2);
P3 a second Half-Breed or Super Munchkin gave a third race or class (B14);
P4 a hireling's changed sex stayed with the card out of play (H15).

Their first scenarios are in tests/scenarios (p1-p4). Here: the random games that found
them, played again with every soak check, and the other ways to the same bugs.
"""

from __future__ import annotations

import pytest
import yaml

from munchkin.scenario.model import parse_scenario
from munchkin.scenario.runner import run_scenario
from soak_script import soak

FOUND_IN = {
    "P1 the taker discards the hireling on offer": (860743485, "base,horses", "wwwwwu"),
    "P1 the taker discards the hireling carrying the item on offer": (1089115759, "base,horses", "uwwu"),
    "P2 an Elf helper at level 9": (1102232473, "base,horses", "ww"),
    "P3 a second Super Munchkin": (647822332, "base,horses", "ww"),
    "P3 a second Half-Breed": (1857435860, "base", "ww"),
    "P4 a discarded hireling": (259151770, "base,horses", "www"),
}
"""Soak games that showed each bug: seed, card sets, and each seat's bot (weighted, uniform)."""


@pytest.mark.parametrize("bug", FOUND_IN)
def test_the_game_that_found_it_keeps_every_invariant(bug: str) -> None:
    seed, sets, bots = FOUND_IN[bug]
    spec = soak.GameSpec(0, seed, sets, len(bots), tuple(bot == "u" for bot in bots))
    report = soak.soak_game(spec, soak.GAME_DECISIONS, soak.SAMPLE_EVERY)
    assert report.violations == []
    assert report.finished


SHARED_CARDS = """
cards:
  - {id: stout-squire, deck: door, type: hireling, bonus: 2, sex: male, carries: 1}
  - {id: paid-porter, deck: door, type: hireling, bonus: 1, sex: male, value: 300}
  - {id: hedge-maiden, deck: door, type: hireling, bonus: 1, sex: female}
  - {id: tin-hat, deck: treasure, type: item, slot: headgear, bonus: 1, value: 200}
  - {id: soft-boots, deck: treasure, type: item, slot: footgear, bonus: 1, value: 200}
  - {id: potion-of-swap, deck: treasure, type: one_shot, uses: any, value: 100, effects: [{change_sex: true}]}
  - {id: doom-drake, deck: door, type: monster, level: 20, bad_stuff: [{die: true}]}
  - {id: crooning-werewolf, deck: door, type: monster, level: 6, treasures: 1,
     vs: [{sex: female, bonus: 3}], bad_stuff: [{lose_levels: 1}]}
  - {id: rag, deck: door, type: item, value: 100}
"""

SCENARIOS = {
    "P1 the taker discards the hireling carrying the item on offer": """
setup:
  players:
    - {name: ann, equipped: [soft-boots]}
    - {name: bob, hirelings: [{card: stout-squire, carrying: [tin-hat]}]}
steps:
  - ann: {trade: bob, give: [soft-boots], take: [tin-hat]}
  - bob: {discard: stout-squire}
  - expect: {bob: {not_in_play: [tin-hat]}, not_legal: {bob: [accept_trade]}}
  - {bob: accept_trade, refused: true}
  - bob: decline_trade
  - expect: {ann: {equipped: [soft-boots]}}
""",
    "P1 the giver discards the hireling on offer": """
setup:
  players:
    - {name: ann, hirelings: [paid-porter]}
    - {name: bob, equipped: [tin-hat]}
steps:
  - ann: {trade: bob, give: [paid-porter], take: [tin-hat]}
  - ann: {discard: paid-porter}
  - expect: {not_legal: {bob: [accept_trade]}}
  - {bob: accept_trade, refused: true}
  - bob: decline_trade
  - expect: {ann: {hirelings: []}, bob: {equipped: [tin-hat]}}
""",
    "P3 a second Half-Breed": """
setup:
  players:
    - {name: ann, race: [elf], hand: [half-breed, half-breed, dwarf, halfling]}
    - {name: bob}
steps:
  - ann: {play: half-breed}
  - ann: {play: dwarf}
  - expect: {ann: {race: [elf, dwarf]}, not_legal: {ann: [{play: half-breed}]}}
  - ann: {play: halfling}
  - expect: {ann: {race: [dwarf, halfling]}}
""",
    "P4 a hireling looted from its dead owner's body": """
dice: [1]
setup:
  players:
    - {name: ann, level: 4, hirelings: [hedge-maiden], hand: [potion-of-swap]}
    - {name: bob, level: 6, hand: [crooning-werewolf]}
  door_deck: [doom-drake, rag]
steps:
  - ann: {play: potion-of-swap, on: hedge-maiden}
  - ann: kick_door
  - ann: resolve_combat
  - ann: run_away
  - settle
  - expect: {ann: {dead: false, hand_count: 0}, bob: {hand: [hedge-maiden]}}   # back for bob's turn
  - bob: kick_door
  - bob: {keep: rag}
  - bob: {play: hedge-maiden}
  - bob: {look_for_trouble: crooning-werewolf}
  - expect: {combat: {player_strength: 7, monster_strength: 9}}
""",
}
"""Ways to the same bugs that the scenarios in tests/scenarios do not take."""


@pytest.mark.parametrize("bug", SCENARIOS)
def test_another_way_to_the_bug(bug: str) -> None:
    data = yaml.safe_load(SHARED_CARDS + SCENARIOS[bug])
    result = run_scenario(parse_scenario({"title": bug, **data}, bug))
    assert result.ok, result.message
