"""The screens over the table: handing over the keyboard, the rules, reading every card, the
whole log, a confirmation before a costly play, the trade and help dialogs, the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Middle, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, Markdown, OptionList, RichLog, SelectionList, Static
from textual.widgets.option_list import Option

from munchkin.cards.schema import CardDef
from munchkin.cardtext import details, in_play
from munchkin.engine.actions import Action
from munchkin.tui.rules_help import KEYS, RULES
from munchkin.tui.seats import SEAT_HINT
from munchkin.words.standings import standings_lines

CardRef = tuple[str, Mapping[str, Any]]
"""A card to read: the section it is shown in, and the card as a view holds it."""


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


def card_lines(card: Mapping[str, Any], defs: Mapping[str, CardDef], names: Mapping[str, str]) -> Text:
    """A card as it reads: its name, every line of it, and what is attached to it."""
    text = Text(card.get("name") or names.get(card["id"], card["id"]), style="bold")
    definition = defs.get(card["id"])
    for line in ([] if definition is None else details(definition)) + in_play(card, names):
        text.append(f"\n{line}")
    return text


class CardScreen(ModalScreen[None]):
    """Every card the player may see, by where it is; the highlighted one in full (`Esc`)."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("c", "dismiss", "Close", show=False),
    ]

    def __init__(
        self, cards: Sequence[CardRef], defs: Mapping[str, CardDef], names: Mapping[str, str], start: int = 0
    ) -> None:
        super().__init__()
        self.cards, self.defs, self.names, self.start = list(cards), defs, names, start

    def compose(self) -> ComposeResult:
        options: list[Option] = []
        section = None
        for i, (where, card) in enumerate(self.cards):
            if where != section:
                section = where
                options.append(Option(Text(where, style="bold underline"), disabled=True))
            options.append(Option(f"  {card['name']}", id=f"c{i}"))
        with Horizontal(id="cards"):
            yield OptionList(*options, id="card-list")
            with VerticalScroll(id="card-side"):
                yield Static(id="card-text")

    def on_mount(self) -> None:
        menu = self.query_one("#card-list", OptionList)
        menu.border_title = "Cards (↑ ↓, Esc closes)"
        if self.cards:
            menu.highlighted = menu.get_option_index(f"c{min(self.start, len(self.cards) - 1)}")
        else:
            self.query_one("#card-text", Static).update("No card to read yet.")
        menu.focus()

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        option_id = message.option.id
        if option_id is not None:
            _, card = self.cards[int(option_id[1:])]
            self.query_one("#card-text", Static).update(card_lines(card, self.defs, self.names))


class LogScreen(ModalScreen[None]):
    """The whole game's log, to scroll (`Esc` closes)."""

    BINDINGS = [Binding("escape", "dismiss", "Close"), Binding("l", "dismiss", "Close", show=False)]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        yield RichLog(id="full-log", wrap=True)

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        log.border_title = f"The whole log ({len(self.lines)} lines; ↑ ↓ PgUp PgDn, Esc closes)"
        for line in self.lines:
            log.write(line)
        log.focus()


class ConfirmScreen(ModalScreen[bool]):
    """A play that costs more than it says: the warnings, then yes or no."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes, do it"),
        Binding("enter", "answer(True)", "Yes", show=False),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, what: str, warnings: Sequence[str]) -> None:
        super().__init__()
        self.what, self.warnings = what, list(warnings)

    def compose(self) -> ComposeResult:
        text = Text(f"{self.what}?\n", style="bold")
        for warning in self.warnings:
            text.append(f"\n  ! {warning}")
        text.append("\n\ny or Enter: do it · n or Esc: think again", style="dim")
        with Middle(), Center():
            yield Static(text, id="confirm")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class EndScreen(ModalScreen[str]):
    """The standings once the game is over: play again with the same seats, a new game, or
    quit."""

    BINDINGS = [
        Binding("p", "finish('again')", "Play again (same seats)"),
        Binding("n", "finish('new')", "New game"),
        Binding("q", "finish('quit')", "Quit"),
        Binding("escape", "finish('look')", "Look at the table"),
    ]

    def __init__(self, end: Mapping[str, Any]) -> None:
        super().__init__()
        self.end = end

    def compose(self) -> ComposeResult:
        text = Text()
        lines = standings_lines(self.end)
        text.append(lines[0] + "\n", style="bold")
        text.append("\n".join(lines[1:]))
        text.append(
            "\n\np: play again with the same seats · n: new game · q: quit · Esc: look at the table",
            style="dim",
        )
        with Middle(), Center():
            yield Static(text, id="end")

    def action_finish(self, choice: str) -> None:
        self.dismiss(choice)


NewGame = tuple[str, str, str]
"""A new game as typed: seats, card sets, table options."""


class NewGameScreen(ModalScreen["NewGame | None"]):
    """A new game: its seats, card sets and table options, the last game's offered."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, seats: str, sets: str, options: str, problem: str = "") -> None:
        super().__init__()
        self.fields = (seats, sets, options)
        self.problem = problem

    def compose(self) -> ComposeResult:
        seats, sets, options = self.fields
        with Vertical(id="new-game"):
            yield Label("A new game", classes="title")
            if self.problem:
                yield Label(self.problem, id="new-game-problem")
            yield Label(f"Seats in turn order: {SEAT_HINT}")
            yield Input(seats, id="new-seats")
            yield Label("Card sets: base, or base,horses")
            yield Input(sets, id="new-sets")
            yield Label("Table options, NAME=VALUE separated by spaces (munchkin play --option help)")
            yield Input(options, id="new-options")
            yield Label("Enter: start it · Esc: back", classes="dim")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        seats, sets, options = (
            self.query_one(f"#new-{key}", Input).value for key in ("seats", "sets", "options")
        )
        self.dismiss((seats, sets, options))


class TradeScreen(ModalScreen[Action | None]):
    """A trade or a gift: choose the player, what you give and what you take (B13). Only
    items of the listed trades are offered; the engine checks the deal."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("o", "offer", "Offer it"),
    ]

    def __init__(self, trades: Sequence[Action], names: Mapping[str, str]) -> None:
        super().__init__()
        self.trades, self.names = list(trades), names
        self.partners = list(dict.fromkeys(a.arg or "" for a in self.trades))
        self.partner = self.partners[0] if self.partners else ""

    def _items(self, field: str) -> list[str]:
        found = (i for a in self.trades if a.arg == self.partner for i in getattr(a, field))
        return list(dict.fromkeys(found))

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Trade with (↑ ↓):")
            yield OptionList(*self.partners, id="partner")
            with Horizontal():
                yield SelectionList[str](id="give")
                yield SelectionList[str](id="take")
            yield Static(id="deal")
            yield Label("Space: choose an item · Tab: next box · o: offer it · Esc: cancel", classes="dim")

    def on_mount(self) -> None:
        self.query_one("#give").border_title = "You give"
        self.query_one("#take").border_title = "You take (nothing: a gift)"
        self._fill()
        self.query_one("#partner", OptionList).focus()

    def _fill(self) -> None:
        for field, widget_id in (("give", "#give"), ("take", "#take")):
            box = self.query_one(widget_id, SelectionList)
            box.clear_options()
            box.add_options([(self.names.get(i, i), i) for i in self._items(field)])
            box.highlighted = 0 if box.option_count else None  # Space chooses from the first item on
        self._deal()

    def _deal(self) -> None:
        give, take = self.chosen()
        named = (", ".join(self.names.get(i, i) for i in ids) or "nothing" for ids in (give, take))
        self.query_one("#deal", Static).update(f"Offer {self.partner}: {next(named)} for {next(named)}")

    def chosen(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        give = tuple(self.query_one("#give", SelectionList).selected)
        take = tuple(self.query_one("#take", SelectionList).selected)
        return give, take

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        if message.option_list.id == "partner":
            self.partner = self.partners[message.option_index]
            self._fill()

    def on_selection_list_selected_changed(self) -> None:
        self._deal()

    def action_offer(self) -> None:
        give, take = self.chosen()
        if not give and not take:
            self.notify("Choose at least one item to give or take.", severity="warning")
            return
        self.dismiss(Action("trade", self.partner, give=give, take=take))


class AskHelpScreen(ModalScreen[Action | None]):
    """A help request: who, how many of the fight's treasures, which items of yours as a bribe
    (B8). A player who declined may be asked again, as often as the table allows
    (`help_asks`): with a better offer, the dialog suggests."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Cancel"),
        Binding("plus,equals_sign", "reward(1)", "+1 treasure"),
        Binding("minus", "reward(-1)", "-1 treasure"),
        Binding("a", "ask", "Ask"),
    ]

    def __init__(
        self,
        asks: Sequence[Action],
        items: Sequence[str],
        names: Mapping[str, str],
        offered: Mapping[str, int],
        declined: Sequence[str],
        times: int,
    ) -> None:
        super().__init__()
        self.asks, self.items, self.names = list(asks), list(items), names
        self.offered, self.declined, self.times = offered, list(declined), times
        self.helpers = list(dict.fromkeys(a.arg or "" for a in self.asks))
        self.most = max((a.reward for a in self.asks), default=0)
        self.helper = self.helpers[0] if self.helpers else ""
        self.reward = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label("Ask (↑ ↓):")
            yield OptionList(*self.helpers, id="helper")
            yield Static(id="reward")
            yield SelectionList[str](*[(self.names.get(i, i), i) for i in self.items], id="bribe")
            yield Static(id="ask-note")
            yield Label("+ / -: treasures · Space: add an item · a: ask · Esc: cancel", classes="dim")

    def on_mount(self) -> None:
        self.query_one("#bribe").border_title = "Items of yours as a bribe"
        self._pick(self.helper)
        self.query_one("#helper", OptionList).focus()

    def _pick(self, helper: str) -> None:
        self.helper = helper
        before = self.offered.get(helper)
        self.reward = min(self.most, 0 if before is None else before + 1)
        self._show()

    def _show(self) -> None:
        self.query_one("#reward", Static).update(
            f"Treasures promised to {self.helper}: {self.reward} of {self.most}"
        )
        note = ""
        if self.helper in self.declined:
            before = self.offered.get(self.helper)
            offer = "" if before is None else f" {before} treasure(s)"
            note = (
                f"{self.helper} declined{offer} before: offer more? "
                f"(each player may be asked {self.times} time(s))"
            )
        self.query_one("#ask-note", Static).update(note)

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        if message.option_list.id == "helper":
            self._pick(self.helpers[message.option_index])

    def action_reward(self, step: int) -> None:
        self.reward = max(0, min(self.most, self.reward + step))
        self._show()

    def action_ask(self) -> None:
        give = tuple(self.query_one("#bribe", SelectionList).selected)
        self.dismiss(Action("ask_help", self.helper, reward=self.reward, give=give))
