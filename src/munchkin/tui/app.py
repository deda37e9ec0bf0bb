"""`munchkin play`: the terminal game, one screen for every human seat (hot-seat), bots for the rest.

The app only shows views and applies the chosen legal actions through the session, which saves
the game after every decision; bots play whenever no human has to decide.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, OptionList, RichLog, Static

from munchkin.describe import options_text, prompt_kind, situation
from munchkin.engine.errors import RulesError
from munchkin.session import HUMAN, Session, SessionError
from munchkin.tui.history import History
from munchkin.tui.widgets import ActionMenu, CombatPanel, HandoverScreen, HelpScreen, OthersPanel, TablePanel

CSS = """
#main { height: 1fr; }
#left { width: 1fr; }
#right { width: 1fr; }
#me, #others { border: round $accent; padding: 0 1; height: auto; }
#combat { border: round $error; padding: 0 1; height: auto; }
#situation { background: $boost; padding: 0 1; text-style: bold; height: auto; }
#actions { height: 1fr; min-height: 5; border: round $primary; }
#log { height: 12; border: round $secondary; }
HandoverScreen { align: center middle; }
#handover { width: auto; border: thick $accent; padding: 1 4; text-style: bold; }
HelpScreen { align: center middle; }
#help { width: 90%; height: 90%; border: thick $accent; background: $surface; }
"""


class MunchkinApp(App[None]):
    """One game of Munchkin on a session: the human seats play at this keyboard."""

    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        *(Binding(str(i + 1), f"pick({i})", show=False) for i in range(9)),
        Binding("u", "undo", "Undo"),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "quit", "Quit (saved)"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.title = "Munchkin" if session.game_id is None else f"Munchkin · game {session.game_id}"
        self.humans = [seat.name for seat in session.seats if seat.kind == HUMAN]
        if not self.humans:
            raise ValueError("the terminal game needs at least one human seat")
        self.seat: str | None = None
        self.history = History(session)
        self._written: tuple[str | None, int] = (None, 0)

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
                yield RichLog(id="log", wrap=True, min_width=20, max_lines=500)
        yield Footer()

    def on_mount(self) -> None:
        titles = {"me": "You", "others": "The others", "combat": "Combat", "actions": "Actions", "log": "Log"}
        for widget_id, title in titles.items():
            self.query_one(f"#{widget_id}").border_title = title
        self.advance()

    # -- the game moves on -------------------------------------------------------------------

    def advance(self) -> None:
        """Let the bots play, then show the human who must decide (behind a handover screen
        when the keyboard changes hands)."""
        self.history.add(self.session.step_bots())
        following = self._following()
        changed, self.seat = following != self.seat, following
        if changed and len(self.humans) > 1:
            self.push_screen(HandoverScreen(following), lambda _: self.show())
        else:
            self.show()

    def _following(self) -> str:
        """Whose screen to show: the same human while they must decide, else the first who must."""
        waiting = self.session.waiting_humans()
        if self.seat in waiting or (self.seat is not None and not waiting):
            return self.seat
        return waiting[0] if waiting else self.humans[0]

    def decide(self, action_index: int) -> None:
        """Apply the menu's action number `action_index` for the human at the keyboard."""
        menu = self.query_one(ActionMenu)
        if self.seat is None or not 0 <= action_index < len(menu.actions):
            return
        try:
            events = self.session.apply(self.seat, menu.actions[action_index])
        except (RulesError, SessionError) as exc:
            self.notify(str(exc), severity="error")
            return
        self.history.add(events)
        self.advance()

    # -- the screen ----------------------------------------------------------------------------

    def show(self) -> None:
        """Redraw every panel from the current human's view."""
        assert self.seat is not None
        view = self.session.view(self.seat)
        data, names = view.data, self.session.names
        rules = (
            "" if not self.session.options.changed() else f" · {options_text(self.session.options.changed())}"
        )
        self.sub_title = f"turn {data['turn']} · {data['active']}'s turn{rules} · you are {self.seat}"
        self.query_one(TablePanel).show(data)
        self.query_one(OthersPanel).show(data)
        self.query_one(CombatPanel).show(data["combat"])
        self.query_one("#situation", Static).update(situation(data, names))
        menu = self.query_one(ActionMenu)
        menu.show(view.legal if data["deciding"] else [], names, self.seat, prompt_kind(data))
        menu.focus()
        self.show_log()

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

    # -- keys --------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Decisions only from the game screen, never from behind the handover or help screen."""
        return action not in ("pick", "undo", "help") or len(self.screen_stack) == 1

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        self.decide(message.option_index)

    def action_pick(self, index: int) -> None:
        self.decide(index)

    def action_undo(self) -> None:
        if self.seat is None:
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
