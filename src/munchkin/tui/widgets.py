"""The game screen's panels; each one renders a piece of a player's view (`PlayerView.data`)
and the advice beside it (`PlayerView.advice`)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from munchkin.cards.schema import CardDef
from munchkin.cardtext import bad_stuff, brief
from munchkin.engine.actions import Action
from munchkin.words.actions import describe
from munchkin.words.fight import breakdown_lines, escape_lines, verdict
from munchkin.words.menus import GROUPS, default_action, group_of
from munchkin.words.refusals import player_words

ZONES = (
    ("races", "Race"),
    ("classes", "Class"),
    ("boosts", "Also"),
    ("equipped", "In use"),
    ("carried", "Carried"),
    ("steeds", "Steeds"),
    ("hirelings", "Hirelings"),
    ("curses", "Curses"),
)
KEY_POOL = "1234567890abdefghijkmnoprstvwxyz"
"""The keys that take an action from the menu, in the order they are handed out (c, l, q and
u are the screen's own)."""
KEY_REST = 0.75
"""Seconds a key just pressed, once it takes another action, does not take it, so that a
quick second press meant for the action just taken never takes the new one (only when every
other key is in use: a key just freed is not given to another action at once)."""
KEYS_REMEMBERED = 500
"""Actions whose last key the menu remembers, to give it back when they come back."""
DIALOGS = {"trade": "Trade or give… (choose a player and the items)", "help": "Ask for help… (with a bribe)"}
"""Menu lines that open a dialog instead of a wall of actions, by kind."""
DIALOG_VERBS = {"trade": "trade", "ask_help": "help"}

Entry = Action | str
"""A line of the menu: an action, or the kind of a dialog (`DIALOGS`)."""


def card_names(cards: list[dict[str, Any]]) -> str:
    """Cards by name, attachments in brackets, hireling loads after a colon."""
    out = []
    for card in cards:
        text = card["name"]
        if card.get("attached"):
            text += f" [{', '.join(a['name'] for a in card['attached'])}]"
        if card.get("carrying"):
            text += f": {', '.join(c['name'] for c in card['carrying'])}"
        out.append(text)
    return ", ".join(out)


def table_text(table: Mapping[str, Any], active: bool) -> Text:
    """One player's face-up table: level, strength, sex, hand count, and each zone that holds
    a card."""
    text = Text()
    marker = "▶ " if active else "  "
    text.append(f"{marker}{table['name']}", style="bold")
    text.append(
        f"  level {table['level']}, strength {table['strength']}, {table['sex']}, "
        f"{table['hand_count']} card(s) in hand"
    )
    if table["dead"]:
        text.append("  DEAD", style="bold red")
    for key, label in ZONES:
        if table[key]:
            text.append(f"\n    {label}: ", style="dim")
            text.append(card_names(table[key]))
    return text


def standing(munchkins: int, monsters: int) -> str:
    """Who is ahead in the fight, by the totals alone (B6)."""
    if munchkins > monsters:
        return f"The munchkins are ahead by {munchkins - monsters}."
    if munchkins == monsters:
        return "Tied: the monsters win it, unless a Warrior fights or helps."
    return f"The monsters are ahead by {monsters - munchkins}."


class TablePanel(Static):
    """Your own table and hand: each card of the hand with its numbers, and why it cannot be
    played now."""

    def show(
        self,
        data: Mapping[str, Any],
        defs: Mapping[str, CardDef],
        advice: Mapping[str, Any],
        names: Mapping[str, str] | None = None,
    ) -> None:
        """The table and hand of `data`'s player; why a card cannot be played, in player
        words (`player_words`)."""
        me = next(t for t in data["players"] if t["name"] == data["player"])
        text = table_text(me, data["active"] == me["name"])
        text.append(f"\n\nYour hand ({len(data['hand'])}, limit {data['hand_limit']}):", style="bold")
        why_not = advice.get("why_not", {})
        for card in data["hand"]:
            numbers = brief(defs[card["id"]]) if card["id"] in defs else card["type"]
            refused = why_not.get(card["id"])
            text.append(f"\n  {card['name']} ({numbers})", style="dim" if refused else "")
            if refused:
                why = player_words(refused["message"], names or {}, data)
                text.append(f"\n      not now: {why} ({refused['rule']})", style="dim italic")
        if not data["hand"]:
            text.append("\n  empty")
        if data["face_up"]:
            text.append(f"\n\nFace up: {data['face_up']['name']}", style="bold yellow")
        self.update(text)


class OthersPanel(Static):
    """Every other player's table; their hands only as counts."""

    def show(self, data: Mapping[str, Any]) -> None:
        tables = [t for t in data["players"] if t["name"] != data["player"]]
        text = Text("\n").join(table_text(t, data["active"] == t["name"]) for t in tables)
        text.append(
            f"\n\nDoors {data['door_deck_count']} · Treasures {data['treasure_deck_count']}", style="dim"
        )
        self.update(text)


class CombatPanel(Static):
    """The fight on now: who fights what, both sides' strength and its breakdown, the verdict,
    which side each card played was for, and the chance to run away from each monster."""

    def show(
        self,
        combat: Mapping[str, Any] | None,
        advice: Mapping[str, Any] | None = None,
        me: str | None = None,
        names: Mapping[str, str] | None = None,
        defs: Mapping[str, CardDef] | None = None,
    ) -> None:
        """The fight of a view (`combat`), `me`'s verdict and escape chances (`advice`), and
        what each monster does to those it catches (`defs`: its Bad Stuff, B9)."""
        self.display = combat is not None
        if combat is None:
            self.update("")
            return
        monsters = card_names(combat["monsters"])
        text = Text()
        text.append(f"⚔ {combat['fighter']} fights {monsters}", style="bold")
        if combat["helper"]:
            text.append(f", helped by {combat['helper']}")
        if combat["asked"]:
            text.append(f" ({combat['asked']} is asked to help for {combat['reward']} treasure(s))")
        for side, style in (("munchkins", "green"), ("monster_side", "red")):
            lines = breakdown_lines(combat[side]["explain"])
            text.append(f"\n{lines[0]}", style=f"bold {style}")
            text.append("".join(f"\n{line}" for line in lines[1:]))
        said = verdict((advice or {}).get("combat"), me)
        if not said:
            said = standing(combat["munchkins"]["total"], combat["monster_side"]["total"])
        text.append(f"\n{said}", style="bold")
        if combat["played"]:
            played = (f"{card['name']} (for the {card['side']})" for card in combat["played"])
            text.append(f"\nPlayed: {', '.join(played)}", style="dim")
        if combat["stage"] == "run":
            text.append(f"\nRunning away: {', '.join(combat['runners'])}", style="bold yellow")
        for line in escape_lines(advice, me, names or {}):
            text.append(f"\n{line}", style="" if line.startswith(" ") else "bold")
        for line in bad_stuff_lines(combat["monsters"], defs or {}):
            text.append(f"\n{line}", style="yellow")
        self.update(text)


def bad_stuff_lines(monsters: Sequence[Mapping[str, Any]], defs: Mapping[str, CardDef]) -> list[str]:
    """Each monster's Bad Stuff (a twin's: the monster it fights as), for whoever is caught
    (B9): "Bad Stuff, Cave Troll: lose 2 levels"."""
    out = []
    for monster in monsters:
        card = defs.get(monster.get("as", monster["id"]))
        if card is not None and card.type == "monster":
            out += [line.replace(":", f", {monster['name']}:", 1) for line in bad_stuff(card)]
    return out


class ActionMenu(OptionList):
    """Your legal actions in words, grouped by kind, the default first and highlighted. Each
    line has a key (`KEY_POOL`) that it keeps while it stays on the menu, and gets back when
    it comes back while that key is free; a key just freed goes to no other line at once, and
    when it must (every other key in use), it rests a moment (`KEY_REST`), so a quick second
    press never takes another action than the first. Trades and help requests open a
    dialog; a play that would do nothing now says so (`notes`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.actions: list[Action] = []
        """The actions on the menu, in order (those of the dialogs not included)."""
        self.entries: list[Entry] = []
        self.dialogs: dict[str, list[Action]] = {}
        self.keys: dict[Entry, str] = {}
        self.remembered: dict[Entry, str] = {}
        """The last key of each line shown, the line shown last at the end."""
        self.changed: dict[str, float] = {}
        """When each key last took another action (monotonic seconds)."""
        self.last_press: tuple[str, float] = ("", -KEY_REST)
        self.default: Entry | None = None

    def show(
        self,
        legal: Sequence[Action],
        names: Mapping[str, str],
        me: str,
        prompt: str | None = None,
        types: Mapping[str, str] | None = None,
        losing: bool = False,
        notes: Mapping[Action, str] | None = None,
        defs: Mapping[str, CardDef] | None = None,
    ) -> None:
        """The actions, answers read as answers to the open question of kind `prompt`; no
        default while the player is `losing` their fight (B6), nor for a question whose
        answers Enter never picks (`words.menus.NO_DEFAULT_PROMPTS`); `notes`: why an action
        would do nothing now (`words.costs.no_effect_now`); `defs`: the cards, for what a line
        needs said (`words.actions.describe`)."""
        self.dialogs = {kind: [a for a in legal if DIALOG_VERBS.get(a.verb) == kind] for kind in DIALOGS}
        direct = [a for a in legal if a.verb not in DIALOG_VERBS]
        first = default_action(direct, losing, prompt) if direct else None
        by_group: dict[str, list[Entry]] = {group: [] for group in GROUPS}
        for action in direct:
            by_group[group_of(action, me, types or {})].append(action)
        for kind in DIALOGS:
            if self.dialogs[kind]:
                by_group[kind].append(kind)
        if first is not None:
            by_group[group_of(first, me, types or {})].remove(first)
            by_group["main"].insert(0, first)
        groups = [(g, entries) for g, entries in by_group.items() if entries]
        self.entries = [entry for _, entries in groups for entry in entries]
        self.actions = [e for e in self.entries if isinstance(e, Action)]
        self.keys = self._keys(self.entries)
        self.default = first
        options: list[Option | None] = []
        for group, entries in groups:
            if len(groups) > 1:
                options.append(Option(Text(GROUPS[group], style="bold underline"), disabled=True))
            for entry in entries:
                label = DIALOGS[entry] if isinstance(entry, str) else describe(entry, names, me, prompt, defs)
                note = (notes or {}).get(entry) if isinstance(entry, Action) else None
                label += f" (no effect now: {note})" if note else ""
                key = self.keys.get(entry, " ")
                options.append(Option(f"{key:>2}  {label}", id=f"e{self.entries.index(entry)}"))
        self.set_options(options)
        self.highlighted = None if first is None else self.option_index(first)

    def _keys(self, entries: list[Entry]) -> dict[Entry, str]:
        """Keys for the new menu: the lines still on it keep theirs; a line back on it gets
        its last key again if free and not just freed; other new lines get a key no line
        had lately (`_new_key`). A key just freed given to another line is marked as just
        changed (it rests)."""
        old = self.keys
        keys = {entry: old[entry] for entry in entries if entry in old}
        freed = set(old.values()) - set(keys.values())
        for entry in entries:
            last = self.remembered.get(entry)
            if entry not in keys and last is not None and last not in freed and last not in keys.values():
                keys[entry] = last
        now = time.monotonic()
        for entry in entries:
            if entry not in keys:
                key = self._new_key(set(keys.values()), freed)
                if key is None:
                    break  # every key in use: the rest by arrows and Enter
                keys[entry] = key
                if key in freed:
                    self.changed[key] = now
        self._remember(keys)
        return keys

    def _new_key(self, used: set[str], freed: set[str]) -> str | None:
        """A key for a line new to the menu: one no line remembers, else the one whose line
        was shown longest ago, else (every other key in use) one just freed."""
        free = [k for k in KEY_POOL if k not in used]
        fresh = [k for k in free if k not in freed]
        if not fresh:
            return free[0] if free else None
        shown = {key: order for order, key in enumerate(self.remembered.values())}
        return min(fresh, key=lambda k: shown.get(k, -1))

    def _remember(self, keys: Mapping[Entry, str]) -> None:
        """Note each line's key, the lines shown now as the latest."""
        for entry, key in keys.items():
            self.remembered.pop(entry, None)
            self.remembered[entry] = key
        for entry in list(self.remembered)[: max(0, len(self.remembered) - KEYS_REMEMBERED)]:
            del self.remembered[entry]

    def forget(self) -> None:
        """A new game: no keys on the menu, none remembered."""
        self.keys, self.remembered = {}, {}

    def pressed(self, key: str) -> None:
        """`key` was pressed to take its action."""
        self.last_press = (key, time.monotonic())

    def just_changed(self, key: str) -> bool:
        """Whether `key` was pressed a moment ago (`KEY_REST` seconds) and has taken another
        action since: a press now was meant for the one it took."""
        last, when = self.last_press
        now = time.monotonic()
        return key == last and now - when < KEY_REST and self.changed.get(key, -1.0) >= when

    def option_index(self, entry: Entry) -> int:
        return self.get_option_index(f"e{self.entries.index(entry)}")

    def entry_at(self, option_id: str | None) -> Entry | None:
        if option_id is None or not option_id.startswith("e"):
            return None
        return self.entries[int(option_id[1:])]

    def entry_for_key(self, key: str) -> Entry | None:
        return next((entry for entry, k in self.keys.items() if k == key and entry in self.entries), None)

    def highlighted_entry(self) -> Entry | None:
        if self.highlighted is None:
            return None
        return self.entry_at(self.get_option_at_index(self.highlighted).id)
