"""The heuristic bot and the base game's interaction cards (issue 12): each is played in a
position that fits it, and kept in one that does not."""

from __future__ import annotations

from bot_positions import answer_until, choice, play_until, start
from munchkin.engine.actions import Action
from munchkin.engine.game import Game
from munchkin.engine.setup import HirelingSetup, PlayerSetup

# -- fight cards --------------------------------------------------------------------------------


def _bobs_fight(ann: PlayerSetup, bob_level: int, monster: str = "gerbil-of-mild-peril") -> Game:
    """Bob kicks open a door and fights its monster; Ann watches, with her hand."""
    game = start([PlayerSetup("Bob", level=bob_level), ann], [monster])
    game.apply("Bob", Action("kick_door"))
    return game


def _anns_fight(ann: PlayerSetup, monster: str, others: list[PlayerSetup] | None = None) -> Game:
    """Ann kicks open a door and fights its monster."""
    game = start([ann, *(others or [PlayerSetup("Bob")])], [monster])
    game.apply("Ann", Action("kick_door"))
    return game


def test_evil_twin_turns_the_leaders_fight_but_never_the_bots_own() -> None:
    """Bob, the leader, beats the gerbil by 1 and would pass Ann: its twin turns the fight."""
    twin = Action("play", "evil-twin", on="gerbil-of-mild-peril")
    assert choice(_bobs_fight(PlayerSetup("Ann", level=2, hand=["evil-twin"]), 3), "Ann") == twin
    behind = _bobs_fight(PlayerSetup("Ann", level=6, hand=["evil-twin"]), 1)
    assert choice(behind, "Ann") == Action("pass")
    own = _anns_fight(PlayerSetup("Ann", level=3, hand=["evil-twin"]), "gerbil-of-mild-peril")
    assert choice(own, "Ann") == Action("resolve_combat")


def test_evil_twin_doubles_the_rewards_of_the_bots_own_fight_won_by_far() -> None:
    """Ann (7) beats the gerbil (2 against her) by 5: with its twin it still loses by 3, and
    gives two levels."""
    own = _anns_fight(PlayerSetup("Ann", level=7, hand=["evil-twin"]), "gerbil-of-mild-peril")
    assert choice(own, "Ann") == Action("play", "evil-twin", on="gerbil-of-mild-peril")


def test_cardboard_cutout_brings_a_strong_monster_to_the_leader_and_a_weak_one_to_the_bot() -> None:
    hand = ["cardboard-cutout", "ogre-in-a-tutu"]
    stronger = _bobs_fight(PlayerSetup("Ann", level=2, hand=hand), 3)
    assert choice(stronger, "Ann") == Action("play", "cardboard-cutout", on="ogre-in-a-tutu")
    weaker = _anns_fight(
        PlayerSetup("Ann", level=2, hand=["cardboard-cutout", "sock-gremlin"]), "ogre-in-a-tutu"
    )
    assert choice(weaker, "Ann") == Action("play", "cardboard-cutout", on="sock-gremlin")
    won = _anns_fight(
        PlayerSetup("Ann", level=4, hand=["cardboard-cutout", "sock-gremlin"]), "gerbil-of-mild-peril"
    )
    assert choice(won, "Ann") == Action("resolve_combat")


def test_hey_you_makes_a_strong_player_help_once_asking_failed_but_never_for_the_win() -> None:
    bob = PlayerSetup("Bob", level=5, equipped=["comically-large-hammer"])
    game = _anns_fight(PlayerSetup("Ann", level=2, hand=["hey-you-yes-you"]), "mothball-moth", [bob])
    assert choice(game, "Ann") == Action("ask_help", "Bob", reward=1)
    game.apply("Ann", Action("ask_help", "Bob", reward=1))
    game.apply("Bob", Action("decline_help"))
    heuristic_choice = play_until(game, "Ann", "play")[-1]
    assert heuristic_choice == Action("play", "hey-you-yes-you", target="Bob")
    for_the_win = _anns_fight(PlayerSetup("Ann", level=9, hand=["hey-you-yes-you"]), "mothball-moth", [bob])
    assert Action("play", "hey-you-yes-you", target="Bob") not in for_the_win.legal_actions("Ann")
    assert choice(for_the_win, "Ann").verb != "play"


def test_the_strongest_monster_of_a_lost_fight_is_sent_away_the_treasures_kept() -> None:
    """Bob brings an ogre into Ann's won fight; she sends the ogre away, with Mandatory
    Union Break rather than Wrong Dungeon (its treasures are hers)."""
    hand = ["wrong-dungeon-sorry", "mandatory-union-break"]
    bob = PlayerSetup("Bob", hand=["wandering-monster", "ogre-in-a-tutu"])
    game = _anns_fight(PlayerSetup("Ann", level=4, hand=hand), "gerbil-of-mild-peril", [bob])
    assert choice(game, "Ann") == Action("resolve_combat")
    game.apply("Bob", Action("play", "wandering-monster", on="ogre-in-a-tutu"))
    assert choice(game, "Ann") == Action("play", "mandatory-union-break", on="ogre-in-a-tutu")


def test_a_hopeless_fight_is_passed_to_the_leader_who_loses_it_too() -> None:
    others = [PlayerSetup("Bob", level=5), PlayerSetup("Cid", level=2)]
    game = _anns_fight(
        PlayerSetup("Ann", level=3, hand=["potion-of-blame-shifting"]), "yeti-influencer", others
    )
    assert choice(game, "Ann") == Action("play", "potion-of-blame-shifting", target="Bob")
    won = _anns_fight(PlayerSetup("Ann", level=3, hand=["potion-of-blame-shifting"]), "gerbil-of-mild-peril")
    assert choice(won, "Ann") == Action("resolve_combat")


def test_a_fight_the_bot_would_win_clearly_is_passed_to_itself() -> None:
    ann = PlayerSetup("Ann", level=6, hand=["potion-of-blame-shifting"])
    assert choice(_bobs_fight(ann, 2), "Ann") == Action("play", "potion-of-blame-shifting", target="Ann")
    weak = PlayerSetup("Ann", level=2, hand=["potion-of-blame-shifting"])
    assert choice(_bobs_fight(weak, 1, "ogre-in-a-tutu"), "Ann") == Action("pass")


def test_mirror_doubles_the_bot_when_that_closes_the_gap() -> None:
    """Nobody to ask for help (Bob is about to win): Ann's reflection beats the accordion."""
    ann = PlayerSetup("Ann", level=4, hand=["mirror-of-self-admiration"])
    tie = _anns_fight(ann, "feral-accordion", [PlayerSetup("Bob", level=8)])
    assert choice(tie, "Ann") == Action("play", "mirror-of-self-admiration")
    far = _anns_fight(ann, "yeti-influencer", [PlayerSetup("Bob", level=8)])
    assert choice(far, "Ann") == Action("resolve_combat")


# -- running away -------------------------------------------------------------------------------


def _running(
    level: int, hand: list[str], monster: str = "yeti-influencer", dice: list[int] | None = None
) -> Game:
    """Ann has lost to the monster and is to run."""
    game = start([PlayerSetup("Ann", level=level, hand=hand), PlayerSetup("Bob")], [monster], dice=dice)
    game.apply("Ann", Action("kick_door"))
    game.apply("Ann", Action("resolve_combat"))
    return game


def test_emergency_exit_sign_saves_the_bot_from_painful_bad_stuff_only() -> None:
    assert choice(_running(5, ["emergency-exit-sign"]), "Ann") == Action("play", "emergency-exit-sign")
    harmless = _running(1, ["emergency-exit-sign"], "damp-skeleton-intern")
    assert choice(harmless, "Ann") == Action("run_away")


def test_the_heavy_die_turns_the_bots_own_failed_roll_into_an_escape() -> None:
    failed = _running(5, ["suspiciously-heavy-die"], dice=[1])
    failed.apply("Ann", Action("run_away"))
    assert choice(failed, "Ann") == Action("play", "suspiciously-heavy-die")
    failed.apply("Ann", Action("play", "suspiciously-heavy-die"))
    assert choice(failed, "Ann") == Action("choose", "6")
    escaped = _running(5, ["suspiciously-heavy-die"], dice=[6])
    escaped.apply("Ann", Action("run_away"))
    assert choice(escaped, "Ann") == Action("pass")


def _bob_escapes(bob_level: int, hand: list[str]) -> Game:
    """Bob has lost to the yeti and rolled a 6 to run; Ann may answer the roll."""
    game = start(
        [PlayerSetup("Bob", level=bob_level), PlayerSetup("Ann", level=3, hand=hand)],
        ["yeti-influencer"],
        dice=[6],
    )
    game.apply("Bob", Action("kick_door"))
    game.apply("Bob", Action("resolve_combat"))
    game.apply("Bob", Action("run_away"))
    return game


def test_the_heavy_die_spoils_the_leaders_escape_from_painful_bad_stuff() -> None:
    game = _bob_escapes(6, ["suspiciously-heavy-die"])
    assert choice(game, "Ann") == Action("play", "suspiciously-heavy-die")
    game.apply("Ann", Action("play", "suspiciously-heavy-die"))
    assert choice(game, "Ann") == Action("choose", "1")
    assert choice(_bob_escapes(1, ["suspiciously-heavy-die"]), "Ann") == Action("pass")


def test_the_glue_makes_the_leader_roll_again_from_painful_bad_stuff_only() -> None:
    assert choice(_bob_escapes(6, ["industrial-strength-glue"]), "Ann") == Action(
        "play", "industrial-strength-glue"
    )
    assert choice(_bob_escapes(1, ["industrial-strength-glue"]), "Ann") == Action("pass")


def test_the_heavy_die_spoils_a_theft_of_the_bots_item() -> None:
    """Bob, a Thief, rolls a 6 to steal Ann's crown: she sets the die to 1 (B14)."""
    game = start(
        [
            PlayerSetup("Bob", level=3, class_=["thief"], hand=["sock-gremlin"]),
            PlayerSetup(
                "Ann", level=3, equipped=["crown-of-questionable-authority"], hand=["suspiciously-heavy-die"]
            ),
        ],
        ["elf"],
        dice=[6],
    )
    game.apply(
        "Bob", Action("steal", "crown-of-questionable-authority", target="Ann", cards=("sock-gremlin",))
    )
    assert choice(game, "Ann") == Action("play", "suspiciously-heavy-die")
    game.apply("Ann", Action("play", "suspiciously-heavy-die"))
    assert choice(game, "Ann") == Action("choose", "1")


# -- curses and one-shots -----------------------------------------------------------------------


def _curse_from_bob(curse: str, victim: str) -> Game:
    """Bob plays a curse on `victim`; Ann holds the ring."""
    game = start(
        [
            PlayerSetup("Bob", hand=[curse]),
            PlayerSetup(
                "Ann", level=5, equipped=["crown-of-questionable-authority"], hand=["ring-of-polite-refusal"]
            ),
            PlayerSetup("Cid", level=5, equipped=["iron-clogs"]),
        ],
        ["elf"],
    )
    game.apply("Bob", Action("play", curse, target=victim))
    return game


def test_the_ring_cancels_a_painful_curse_on_the_bot_only() -> None:
    assert choice(_curse_from_bob("surprise-audit", "Ann"), "Ann") == Action("play", "ring-of-polite-refusal")
    assert choice(_curse_from_bob("surprise-audit", "Cid"), "Ann") == Action("pass")
    assert choice(_curse_from_bob("sticky-sandals", "Ann"), "Ann") == Action("pass")


def _anns_turn(ann: PlayerSetup, others: list[PlayerSetup]) -> Game:
    return start([ann, *others], ["cheat"])


def test_a_level_is_borrowed_from_the_leader_at_once() -> None:
    ann = PlayerSetup("Ann", level=3, hand=["borrowed-experience"])
    game = _anns_turn(ann, [PlayerSetup("Bob", level=5), PlayerSetup("Cid", level=4)])
    assert choice(game, "Ann") == Action("play", "borrowed-experience", target="Bob")
    nobody = _anns_turn(ann, [PlayerSetup("Bob"), PlayerSetup("Cid")])
    assert choice(nobody, "Ann") == Action("kick_door")


def test_pink_slip_fires_the_leaders_hireling() -> None:
    hireling = [HirelingSetup("zero-hours-shield-maiden")]
    ann = PlayerSetup("Ann", level=3, hand=["pink-slip"])
    leader = _anns_turn(ann, [PlayerSetup("Bob", level=5, hirelings=hireling), PlayerSetup("Cid")])
    assert choice(leader, "Ann") == Action("play", "pink-slip", target="Bob")
    behind = _anns_turn(ann, [PlayerSetup("Bob", level=5), PlayerSetup("Cid", hirelings=hireling)])
    assert choice(behind, "Ann") == Action("kick_door")


def test_the_new_curses_go_to_the_leader() -> None:
    others = [
        PlayerSetup("Bob", level=5, class_=["warrior"], hand=["elf", "dwarf"]),
        PlayerSetup("Cid", level=2),
    ]
    for curse in ("nosy-neighbours", "career-counsellor"):
        game = _anns_turn(PlayerSetup("Ann", level=3, hand=[curse]), others)
        assert choice(game, "Ann") == Action("play", curse, target="Bob")


def test_an_income_tax_is_levied_when_the_others_pay_more_than_the_bot() -> None:
    """On a tax-exempt unicorn Ann taxes the leader; with her crown to pay, she does not."""
    others = [PlayerSetup("Bob", level=5, equipped=["tinfoil-thinking-cap"]), PlayerSetup("Cid", level=4)]
    exempt = PlayerSetup("Ann", level=3, steeds=["unicorn-of-tax-exemption"], hand=["dungeon-income-tax"])
    assert choice(_anns_turn(exempt, others), "Ann") == Action("play", "dungeon-income-tax", target="Bob")
    paying = PlayerSetup(
        "Ann", level=3, equipped=["crown-of-questionable-authority"], hand=["dungeon-income-tax"]
    )
    assert choice(_anns_turn(paying, others), "Ann") == Action("kick_door")


def test_an_income_tax_is_paid_with_the_items_worth_least() -> None:
    """Bob's cap (300 gold) goes; Ann pays with her spare bucket and helm, not her sword."""
    game = start(
        [
            PlayerSetup("Cid", hand=["dungeon-income-tax"]),
            PlayerSetup("Bob", level=4, equipped=["tinfoil-thinking-cap"]),
            PlayerSetup(
                "Ann",
                level=3,
                equipped=["sword-of-moderate-slicing", "helm-of-stylish-dents"],
                carried=["bucket-of-valor"],
            ),
        ],
        ["elf"],
    )
    game.apply("Cid", Action("play", "dungeon-income-tax", target="Bob"))
    assert answer_until(game, "Ann", "pay_tax") == Action("choose", "helm-of-stylish-dents")
    assert answer_until(game, "Ann", "pay_tax") == Action("choose", "bucket-of-valor")


def test_underdog_story_is_played_while_someone_is_above_the_bot() -> None:
    ann = PlayerSetup("Ann", level=2, hand=["underdog-story"])
    assert choice(_anns_turn(ann, [PlayerSetup("Bob", level=3)]), "Ann") == Action("play", "underdog-story")
    assert choice(_anns_turn(ann, [PlayerSetup("Bob", level=2)]), "Ann") == Action("kick_door")


def test_a_pep_talk_is_never_given_to_an_opponent() -> None:
    ann = PlayerSetup("Ann", level=2, hand=["inspiring-pep-talk"])
    assert choice(_anns_turn(ann, [PlayerSetup("Bob", level=1)]), "Ann") == Action("kick_door")


def test_the_hired_hand_carries_an_item_the_bot_cannot_use() -> None:
    """Ann, female, cannot wear the belt (males only); her Hired Hand uses it for her."""
    ann = PlayerSetup("Ann", sex="female", carried=["belt-of-unreasonable-strength"], hand=["hired-hand"])
    chosen = play_until(_anns_turn(ann, [PlayerSetup("Bob")]), "Ann", "equip")
    assert chosen == [
        Action("play", "hired-hand"),
        Action("equip", "belt-of-unreasonable-strength", hireling="hired-hand"),
    ]


def _after_the_door(ann: PlayerSetup) -> Action:
    """Ann kicks open a door (a Cheat!, nothing to use it on: it goes to her hand); then she
    looks for trouble or loots the room."""
    game = _anns_turn(ann, [PlayerSetup("Bob")])
    game.apply("Ann", Action("kick_door"))
    return choice(game, "Ann")


def test_a_monster_that_ignores_the_bot_is_not_sought_and_one_it_defeats_at_once_is() -> None:
    """A Thief leaves the lawyer alone (it will not fight Thieves: nothing to win); a Cleric
    looks for the vampire poet eight levels above her: Clerics defeat it at once."""
    thief = PlayerSetup("Ann", level=8, class_=["thief"], hand=["professional-courtesy-lawyer"])
    assert _after_the_door(thief) == Action("loot_room")
    cleric = PlayerSetup("Ann", level=2, class_=["cleric"], hand=["brooding-vampire-poet"])
    assert _after_the_door(cleric) == Action("look_for_trouble", "brooding-vampire-poet")


def test_a_fight_that_would_win_the_game_is_passed_to_a_player_it_would_not_win_it() -> None:
    """Bob, at level 9, beats the moth: passed to Cid, who beats it too and only goes up to
    level 7, or to Ann herself, the game goes on. Passing it to Dee, at level 9, would not."""
    ann = PlayerSetup("Ann", level=2, hand=["potion-of-blame-shifting"])
    others = [PlayerSetup("Cid", level=6), PlayerSetup("Dee", level=9)]
    game = start([PlayerSetup("Bob", level=9), ann, *others], ["mothball-moth"])
    game.apply("Bob", Action("kick_door"))
    passed = choice(game, "Ann")
    assert passed.verb == "play" and passed.arg == "potion-of-blame-shifting"
    assert passed.target in ("Ann", "Cid")
    far = start([PlayerSetup("Bob", level=5), ann, *others], ["mothball-moth"])
    far.apply("Bob", Action("kick_door"))
    assert choice(far, "Ann") == Action("pass")


def test_a_better_hireling_takes_the_place_of_the_weakest_when_there_is_no_room() -> None:
    """Ann's errand runner (no bonus, nothing carried) makes way for the +2 bodyguard in her
    hand; a runner carrying her hammer stays (it would go with the runner)."""
    runner = [HirelingSetup("hobgobbler-errand-runner")]
    ann = PlayerSetup("Ann", level=3, hand=["bodyguard-with-a-bad-knee"], hirelings=runner)
    game = _anns_turn(ann, [PlayerSetup("Bob"), PlayerSetup("Cid")])
    assert choice(game, "Ann") == Action("discard", "hobgobbler-errand-runner")
    game.apply("Ann", Action("discard", "hobgobbler-errand-runner"))
    assert choice(game, "Ann") == Action("play", "bodyguard-with-a-bad-knee")
    armed = [HirelingSetup("hobgobbler-errand-runner", carrying=["comically-large-hammer"])]
    armed_ann = PlayerSetup("Ann", level=3, hand=["bodyguard-with-a-bad-knee"], hirelings=armed)
    kept = _anns_turn(armed_ann, [PlayerSetup("Bob"), PlayerSetup("Cid")])
    assert choice(kept, "Ann") == Action("kick_door")


def test_a_doomed_bot_curses_nobody_with_what_would_hit_it_too() -> None:
    """Under a Looming Sense of Doom, Ann's level-losing curse on Bob would cost her a level
    too: she keeps it."""
    others = [PlayerSetup("Bob", level=5), PlayerSetup("Cid", level=2)]
    free = PlayerSetup("Ann", level=3, hand=["stubbed-toe-of-doom"])
    assert choice(_anns_turn(free, others), "Ann") == Action("play", "stubbed-toe-of-doom", target="Bob")
    doomed = PlayerSetup("Ann", level=3, hand=["stubbed-toe-of-doom"], curses=["looming-sense-of-doom"])
    assert choice(_anns_turn(doomed, others), "Ann") == Action("kick_door")


def test_the_ring_cancels_a_curse_that_would_lose_the_bot_its_fight() -> None:
    """Ann beats the gerbil by 1; Bob's Wet Noodle Arms (-2) would turn the fight: the ring
    cancels it, though a -2 alone is worth less than the ring. Winning by 3, she lets it be."""
    for level, answer in ((3, Action("play", "ring-of-polite-refusal")), (5, Action("pass"))):
        ann = PlayerSetup("Ann", level=level, hand=["ring-of-polite-refusal"])
        game = _anns_fight(ann, "gerbil-of-mild-peril", [PlayerSetup("Bob", hand=["wet-noodle-arms"])])
        game.apply("Bob", Action("play", "wet-noodle-arms", target="Ann"))
        assert choice(game, "Ann") == answer


def test_losing_headgear_costs_the_whole_outfit_that_takes_every_slot() -> None:
    """Bob, the leader, wears the Fully Matching Adventure Outfit (+7, every slot): the moths
    that eat headgear eat it, so Ann plays them on him."""
    bob = PlayerSetup("Bob", level=5, equipped=["fully-matching-adventure-outfit"])
    game = _anns_turn(PlayerSetup("Ann", level=3, hand=["hat-eating-moths"]), [bob, PlayerSetup("Cid")])
    assert choice(game, "Ann") == Action("play", "hat-eating-moths", target="Bob")
