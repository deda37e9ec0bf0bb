"""The game screen's panels; each one renders a piece of a player's view (`PlayerView.data`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown, OptionList, Static
from textual.widgets.option_list import Option

from munchkin.describe import breakdown_lines, default_action, describe
from munchkin.engine.actions import Action
from munchkin.tui.rules_help import KEYS, RULES

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
    """One player's face-up table: level, sex, hand count, and each zone that holds a card."""
    text = Text()
    marker = "▶ " if active else "  "
    text.append(f"{marker}{table['name']}", style="bold")
    text.append(f"  level {table['level']}, {table['sex']}, {table['hand_count']} card(s) in hand")
    if table["dead"]:
        text.append("  DEAD", style="bold red")
    for key, label in ZONES:
        if table[key]:
            text.append(f"\n    {label}: ", style="dim")
            text.append(card_names(table[key]))
    return text


def standing(munchkins: int, monsters: int) -> str:
    """Who wins the fight as it stands (B6)."""
    if munchkins > monsters:
        return f"The munchkins are ahead by {munchkins - monsters}."
    if munchkins == monsters:
        return "Tied: the monsters win it, unless a Warrior fights or helps."
    return f"The monsters are ahead by {monsters - munchkins}."


class TablePanel(Static):
    """Your own table and hand."""

    def show(self, data: Mapping[str, Any]) -> None:
        me = next(t for t in data["players"] if t["name"] == data["player"])
        text = table_text(me, data["active"] == me["name"])
        text.append(f"\n\nYour hand ({len(data['hand'])}, limit {data['hand_limit']}):\n", style="bold")
        text.append(
            "\n".join(f"  {c['name']} ({c['type'].replace('_', ' ')})" for c in data["hand"]) or "  empty"
        )
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
    """The fight on now: who fights what, both sides' strength and its breakdown."""

    def show(self, combat: Mapping[str, Any] | None) -> None:
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
        text.append(
            f"\n{standing(combat['munchkins']['total'], combat['monster_side']['total'])}", style="bold"
        )
        if combat["played"]:
            played = (f"{card['name']} (for the {card['side']})" for card in combat["played"])
            text.append(f"\nPlayed: {', '.join(played)}", style="dim")
        if combat["stage"] == "run":
            text.append(f"\nRunning away: {', '.join(combat['runners'])}", style="bold yellow")
        self.update(text)


class ActionMenu(OptionList):
    """Your legal actions in words: the default first and highlighted, keys 1-9 on the first nine."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.actions: list[Action] = []

    def show(self, legal: list[Action], names: Mapping[str, str], me: str, prompt: str | None = None) -> None:
        """The actions, answers read as answers to the open question of kind `prompt`."""
        first = default_action(legal)
        self.actions = [first, *(a for a in legal if a != first)] if first else []
        self.set_options(
            Option(f"{i + 1 if i < 9 else ' '}  {describe(a, names, me, prompt)}")
            for i, a in enumerate(self.actions)
        )
        self.highlighted = 0 if self.actions else None


class HandoverScreen(Screen[None]):
    """Hides the table between two humans at one keyboard."""

    BINDINGS = [Binding("enter", "dismiss", "Ready")]

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(f"Pass the keyboard to {self.player}; press Enter.", id="handover")


class HelpScreen(ModalScreen[None]):
    """The keys and the rules in short."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(KEYS + "\n" + RULES)
