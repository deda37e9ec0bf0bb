"""`munchkin play`: the terminal game, one screen for every human seat (hot-seat), bots for the rest.

The app only shows views and applies the chosen legal actions through the session, which saves
the game after every decision; bots play whenever no human has to decide.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, OptionList, RichLog, Static

from munchkin.engine.actions import CARD_VERBS, Action
from munchkin.engine.errors import RulesError
from munchkin.engine.events import Event
from munchkin.engine.options import OptionsError, parse_assignments
from munchkin.session import HUMAN, Session, SessionError, searches
from munchkin.store.store import load_cards
from munchkin.tui.history import History
from munchkin.tui.screens import (
    AskHelpScreen,
    CardRef,
    CardScreen,
    ConfirmScreen,
    EndScreen,
    HandoverScreen,
    HelpScreen,
    LogScreen,
    NewGame,
    NewGameScreen,
    TradeScreen,
)
from munchkin.tui.seats import SeatError, parse_seats
from munchkin.tui.widgets import KEY_POOL, ZONES, ActionMenu, CombatPanel, Entry, OthersPanel, TablePanel
from munchkin.words.actions import describe
from munchkin.words.costs import costs, no_effect_now
from munchkin.words.fight import losing
from munchkin.words.prompts import prompt_kind
from munchkin.words.refusals import player_words
from munchkin.words.situation import situation
from munchkin.words.standings import options_text, standings

CSS = """
#main { height: 1fr; }
#left { width: 1fr; }
#right { width: 1fr; }
#me, #others { border: round $accent; padding: 0 1; height: auto; }
#combat { border: round $error; padding: 0 1; height: auto; max-height: 60%; overflow-y: auto; }
#situation { background: $boost; padding: 0 1; text-style: bold; height: auto; }
#actions { height: 1fr; min-height: 5; border: round $primary; }
#log { height: 12; border: round $secondary; }
HandoverScreen, HelpScreen, ConfirmScreen, EndScreen, NewGameScreen { align: center middle; }
#handover, #confirm, #end { width: auto; max-width: 90%; border: thick $accent; padding: 1 4;
  background: $surface; }
#help, #cards, #full-log, #dialog { width: 90%; height: 90%; border: thick $accent; background: $surface; }
CardScreen, LogScreen, TradeScreen, AskHelpScreen { align: center middle; }
#card-list { width: 2fr; }
#card-side { width: 3fr; padding: 0 1; }
#dialog { padding: 0 1; height: auto; max-height: 90%; }
#dialog OptionList { height: auto; max-height: 8; }
#dialog SelectionList { height: auto; max-height: 12; width: 1fr; }
.dim { color: $text-muted; }
"""


END_KEYS = {"p": "again", "n": "new", "s": "standings"}
"""The end screen's keys, still taken at the table once the game is over (after Esc)."""
END_HINT = "p: play again · n: new game · s: the standings · q: quit."
"""The situation's reminder of `END_KEYS` once the game is over."""


class MunchkinApp(App[None]):
    """One game of Munchkin on a session: the human seats play at this keyboard."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        *(Binding(key, f"key('{key}')", show=False) for key in KEY_POOL),
        Binding("c", "cards", "Cards"),
        Binding("l", "log", "Log"),
        Binding("u", "undo", "Undo"),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "quit", "Quit (saved)"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.humans = [seat.name for seat in session.seats if seat.kind == HUMAN]
        if not self.humans:
            raise ValueError("the terminal game needs at least one human seat")
        self._open(session)

    def _open(self, session: Session) -> None:
        """Play `session` from now on (a new game: play again)."""
        self.session = session
        self.title = "Munchkin" if session.game_id is None else f"Munchkin · game {session.game_id}"
        self.seat: str | None = None
        self.history = History(session)
        self._written: tuple[str | None, int] = (None, 0)
        cards = load_cards(tuple(session.sets))
        self.defs = {card.id: card for card in cards}
        self.types = {card.id: card.type for card in cards}
        self.warnings: dict[Action, list[str]] = {}
        self.offered: dict[str, int] = {}
        """Treasures last offered to each player for help, in the fight on now."""
        self.data: dict[str, Any] = {}
        self._ended = False
        self.searching = any(searches(seat.kind) for seat in session.seats)
        """Some bot searches: the bots play in a worker thread (`advance`)."""
        self.thinking = False
        """The bots are deciding in a worker thread: no decision may be taken meanwhile."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="left"):
                yield TablePanel(id="me")
                yield OthersPanel(id="others")
            with Vertical(id="right"):
                yield CombatPanel(id="combat")
                yield Static(id="situation")
                yield ActionMenu(id="actions")
                yield RichLog(id="log", wrap=True, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        titles = {"me": "You", "others": "The others", "combat": "Combat", "actions": "Actions", "log": "Log"}
        for widget_id, title in titles.items():
            self.query_one(f"#{widget_id}").border_title = title
        self.advance()

    # -- the game moves on -------------------------------------------------------------------

    def advance(self) -> None:
        """Let the bots play, then show the human who must decide (behind a handover screen
        when the keyboard changes hands). Search bots (`hard`) think in a worker thread, the
        screen saying so meanwhile, with every decision held back until they are done."""
        if self.searching:
            self.thinking = True
            self.query_one("#situation", Static).update("The bots are thinking…")
            self.query_one(ActionMenu).show([], self.session.names, self.seat or "", None, self.types, False)
            self.run_worker(self._think, thread=True, exclusive=True, group="bots")
            return
        self.history.add(self.session.step_bots())
        self._bots_done()

    def _think(self) -> None:
        """In a worker thread: the bots' decisions, handed back to the screen."""
        events = self.session.step_bots()
        self.call_from_thread(self._thought, events)

    def _thought(self, events: list[Event]) -> None:
        self.thinking = False
        self.history.add(events)
        self._bots_done()

    def _bots_done(self) -> None:
        following = self._following()
        changed, self.seat = following != self.seat, following
        if changed and len(self.humans) > 1:
            self.sub_title = f"passing the keyboard to {following}"  # the table is hidden meanwhile
            self.push_screen(HandoverScreen(following), lambda _: self.show())
        else:
            self.show()

    def _following(self) -> str:
        """Whose screen to show: the same human while they must decide, else the first who must."""
        waiting = self.session.waiting_humans()
        if self.seat in waiting or (self.seat is not None and not waiting):
            return self.seat
        return waiting[0] if waiting else self.humans[0]

    def take(self, entry: Entry | None) -> None:
        """A line of the menu: open its dialog, or ask before a play that costs more than it
        says, or decide it."""
        if entry is None or self.seat is None:
            return
        if entry == "trade":
            trades = self.query_one(ActionMenu).dialogs["trade"]
            self.push_screen(TradeScreen(trades, self.session.names), self._decided)
        elif entry == "help":
            self.push_screen(self._ask_screen(), self._decided)
        elif isinstance(entry, Action) and entry in self.warnings:
            what = describe(entry, self.session.names, self.seat, prompt_kind(self.data), self.defs)
            self.push_screen(
                ConfirmScreen(what, self.warnings[entry]), lambda yes: self.decide(entry) if yes else None
            )
        elif isinstance(entry, Action):
            self.decide(entry)

    def _ask_screen(self) -> AskHelpScreen:
        combat = self.data.get("combat") or {}
        me = next(t for t in self.data["players"] if t["name"] == self.seat)
        return AskHelpScreen(
            self.query_one(ActionMenu).dialogs["help"],
            handed(me, self.defs),
            self.session.names,
            self.offered,
            combat.get("declined", []),
            self.session.options.help_asks,
        )

    def _decided(self, action: Action | None) -> None:
        if action is not None:
            self.decide(action)

    def decide(self, action: Action) -> None:
        """Apply `action` for the human at the keyboard; a refusal says why."""
        if self.seat is None:
            return
        try:
            events = self.session.apply(self.seat, action)
        except (RulesError, SessionError) as exc:
            self.notify(player_words(str(exc), self.session.names), severity="error")
            return
        if action.verb == "ask_help" and action.arg:
            self.offered[action.arg] = action.reward
        self.history.add(events)
        self.advance()

    def play_again(self) -> None:
        """A new game with the same seats, card sets and table options."""
        old = self.session
        seed = random.randrange(1 << 30)
        self._start(
            Session.start(list(old.seats), list(old.sets), seed, old.store, old.options), "A new game"
        )

    # -- the screen ----------------------------------------------------------------------------

    def show(self) -> None:
        """Redraw every panel from the current human's view."""
        assert self.seat is not None
        view = self.session.view(self.seat)
        data, names, advice = view.data, self.session.names, view.advice
        self.data = data
        rules = (
            "" if not self.session.options.changed() else f" · {options_text(self.session.options.changed())}"
        )
        self.sub_title = f"turn {data['turn']} · {data['active']}'s turn{rules} · you are {self.seat}"
        if data["combat"] is None:
            self.offered = {}
        legal = view.legal if data["deciding"] else []
        self.warnings = self._warnings(legal, data, advice)
        notes = {a: note for a in legal if (note := no_effect_now(a, data, self.defs, advice))}
        self.query_one(TablePanel).show(data, self.defs, advice, names)
        self.query_one(OthersPanel).show(data)
        self.query_one(CombatPanel).show(data["combat"], advice, self.seat, names, self.defs)
        said = situation({**data, "legal": legal}, names, advice)
        self.query_one("#situation", Static).update(f"{said} {END_HINT}" if self.session.over else said)
        menu = self.query_one(ActionMenu)
        kind = prompt_kind(data)
        menu.show(legal, names, self.seat, kind, self.types, losing(advice, self.seat), notes, self.defs)
        menu.focus()
        self.show_log()
        if self.session.over and not self._ended:
            self._ended = True
            events = [event for _, event in self.history.events]
            self.push_screen(EndScreen(standings(data, events, names)), self._after_end)

    def _warnings(
        self, legal: list[Action], data: Mapping[str, Any], advice: Mapping[str, Any]
    ) -> dict[Action, list[str]]:
        """What each legal action costs beyond what it says, to confirm first: the engine's
        consequences (`advice["warnings"]`, by index in `legal`) and what a discard, a sale or
        a sacrifice gives up (`words.costs.costs`)."""
        warnings = {
            legal[int(index)]: [f"{c['message']} ({c['rule']})" for c in found]
            for index, found in advice.get("warnings", {}).items()
            if int(index) < len(legal)
        }
        me = next(t for t in data["players"] if t["name"] == self.seat)
        for action in legal:
            cost = costs(action, me, self.types, self.session.names)
            if cost:
                warnings[action] = warnings.get(action, []) + cost
        return warnings

    def _end_key(self, choice: str) -> None:
        """A key of the end screen pressed at the table once the game is over (`END_KEYS`)."""
        if choice == "standings":
            self._ended = False
            self.show()
        else:
            self._after_end(choice)

    def _after_end(self, choice: str | None) -> None:
        if choice == "again":
            self.play_again()
        elif choice == "new":
            self.push_screen(NewGameScreen(*self._as_typed()), self._new_game)
        elif choice == "quit":
            self.exit()

    def _as_typed(self) -> NewGame:
        """The game played now, as the new-game screen shows it to start from."""
        seats = ",".join(
            f"{s.kind}:{s.name}:{s.sex}" if s.kind == HUMAN else s.kind for s in self.session.seats
        )
        options = " ".join(f"{k}={str(v).lower()}" for k, v in self.session.options.changed().items())
        return seats, ",".join(self.session.sets), options

    def _new_game(self, typed: NewGame | None) -> None:
        """Start the game typed in, or say what is wrong with it and ask again."""
        if typed is None:
            self._ended = False
            self.show()
            return
        seats, sets, options = typed
        try:
            chosen = parse_seats(seats, "Ann", "female", 3)
            if not any(seat.kind == HUMAN for seat in chosen):
                raise SeatError("no human seat: add human:NAME")
            table = parse_assignments(options.split(), "options")
            names = [name.strip() for name in sets.split(",") if name.strip()]
            session = Session.start(chosen, names, random.randrange(1 << 30), self.session.store, table)
        except (SeatError, OptionsError, SessionError) as exc:
            self.push_screen(NewGameScreen(seats, sets, options, str(exc)), self._new_game)
            return
        self._start(session, "A new game")

    def _start(self, session: Session, what: str) -> None:
        """Play `session` from now on, from a clean menu and log."""
        self._open(session)
        self.query_one(ActionMenu).forget()
        self.query_one(RichLog).clear()
        self.notify(f"{what}: {self.title.removeprefix('Munchkin · ')}.")
        self.advance()

    def show_log(self) -> None:
        """Add the new lines of the current human's log; start over when the human changed."""
        assert self.seat is not None
        log, lines = self.query_one(RichLog), self.history.lines(self.seat)
        who, count = self._written
        if who != self.seat or count > len(lines):
            log.clear()
            count = 0
        for line in lines[count:]:
            log.write(line)
        self._written = (self.seat, len(lines))

    def cards_to_read(self) -> tuple[list[CardRef], int]:
        """Every card the player may see, by where it is, and the first one of the highlighted
        menu line (if it names a card)."""
        data = self.data
        cards: list[CardRef] = []
        entry = self.query_one(ActionMenu).highlighted_entry()
        named = action_cards(entry) if isinstance(entry, Action) else []
        cards += [
            ("This action", {"id": card_id, "name": self.session.names.get(card_id, card_id)})
            for card_id in named
        ]
        cards += [("Your hand", card) for card in data.get("hand", [])]
        combat = data.get("combat")
        if combat:
            cards += [("The fight", card) for card in combat["monsters"] + combat["played"]]
        if data.get("face_up"):
            cards.append(("Face up", data["face_up"]))
        for table in data.get("players", []):
            where = "You: in play" if table["name"] == self.seat else f"{table['name']}: in play"
            for key, _ in ZONES:
                for card in table[key]:
                    cards.append((where, card))
                    cards += [(where, extra) for extra in card.get("attached", []) + card.get("carrying", [])]
        cards += [("A body to loot", card) for card in data.get("body", [])]
        for pile, title in (("door_discard", "Door discards"), ("treasure_discard", "Treasure discards")):
            cards += [(title, card) for card in reversed(data.get(pile, [])[-5:])]
        if self.seat is not None:
            cards += [
                ("In the log", {"id": i, "name": self.session.names.get(i, i)})
                for i in self.history.cards(self.seat)[:20]
            ]
        return cards, 0

    # -- keys --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Decisions only from the game screen, never from behind another screen, nor while
        the bots think."""
        if action in ("key", "undo") and self.thinking:
            return False
        return action not in ("key", "undo", "help", "cards", "log") or len(self.screen_stack) == 1

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if message.option_list.id == "actions" and not self.thinking:
            self.take(self.query_one(ActionMenu).entry_at(message.option.id))

    def action_key(self, key: str) -> None:
        if self.session.over and key in END_KEYS:
            self._end_key(END_KEYS[key])
            return
        menu = self.query_one(ActionMenu)
        entry = menu.entry_for_key(key)
        if entry is None:
            self.notify(f"No action has the key {key} now.", severity="warning")
        elif menu.just_changed(key):
            self.notify(f"The menu has just changed: {key} takes another action now. Press it again.")
        else:
            menu.pressed(key)
            self.take(entry)

    def action_undo(self) -> None:
        if self.seat is None:
            return
        if self.session.over:
            self.notify("The game is over: there is nothing to undo.", severity="warning")
            return
        try:
            taken_back = self.session.undo(self.seat)
        except SessionError as exc:
            self.notify(str(exc), severity="warning")
            return
        self.history.undone()
        self.notify(f"Took back {taken_back} decision(s).")
        self.advance()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_cards(self) -> None:
        cards, start = self.cards_to_read()
        self.push_screen(CardScreen(cards, self.defs, self.session.names, start))

    def action_log(self) -> None:
        if self.seat is not None:
            self.push_screen(LogScreen(self.history.lines(self.seat)))


def action_cards(action: Action) -> list[str]:
    """The card ids an action names: its card, what it is played on, the cards it pays or
    trades."""
    ids = [action.arg] if action.verb in CARD_VERBS and action.arg else []
    ids += [i for i in (action.on, action.hireling) if i]
    ids += [*action.cards, *action.give, *action.take]
    return list(dict.fromkeys(ids))


def handed(table: Mapping[str, Any], defs: Mapping[str, Any]) -> list[str]:
    """The ids of a player's items in play that may change hands (B13, H5): items, steeds,
    what hirelings carry, hirelings with a gold value."""
    cards = table["equipped"] + table["carried"] + table["steeds"]
    cards += [c for h in table["hirelings"] for c in h.get("carrying", [])]
    cards += [h for h in table["hirelings"] if getattr(defs.get(h["id"]), "value", None) is not None]
    return list(dict.fromkeys(card["id"] for card in cards))
