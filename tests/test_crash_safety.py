"""Crash safety: a bot game saving to SQLite in another process, killed with SIGKILL at seeded
random moments and resumed each time, never leaves a database that fails to load, never
loses more than the decision in flight, and ends as if it had never been interrupted."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from munchkin.session import Seat, Session
from munchkin.store import Store, verify

SEATS = (
    Seat("Ann", "female", "bot:random"),
    Seat("Bob", "male", "bot:random"),
    Seat("Cid", "male", "bot:random"),
)
FIRST_SEED = 21
LONG_GAME = range(1500, 4000)
"""Decisions of a game long enough to be killed at every moment below, and quick enough to
replay many times (the rules decide how long a seed's game lasts, so the seed is looked for)."""
CHILD = f"""
import sys
from munchkin.session import Seat, Session
from munchkin.store import Store

store = Store(sys.argv[1])
seed = int(sys.argv[2])
games = store.games()
seats = {[tuple(vars(seat).values()) for seat in SEATS]!r}
if games:
    session = Session.resume(games[0].id, store)
else:
    session = Session.start([Seat(*seat) for seat in seats], ["base"], seed, store)
print(len(session.decisions), flush=True)
while not session.over:
    session.step_bots(limit=1)
    print(len(session.decisions), flush=True)  # after the decision was saved
"""


def _long_game() -> tuple[int, Session]:
    """The first seed from FIRST_SEED whose game between the bots lasts LONG_GAME decisions,
    and that game played to its end."""
    for seed in range(FIRST_SEED, FIRST_SEED + 100):
        whole = Session.start(SEATS, ["base"], seed)
        whole.run_to_end()
        if len(whole.decisions) in LONG_GAME:
            return seed, whole
    raise AssertionError(f"no game of {LONG_GAME} decisions in 100 seeds")


def _kill_at(db: Path, seed: int, rng: random.Random, after: int | None) -> int | None:
    """Run the game in a child process and SIGKILL it once it reports `after` saved decisions
    (plus a moment), or at a random time if `after` is None; the last count it reported."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stderr is not None
    reported = None
    if after is None:
        time.sleep(rng.uniform(0.0, 1.0))
    else:
        for line in child.stdout:
            reported = int(line)
            if reported >= after:
                break
        time.sleep(rng.uniform(0.0, 0.002))
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL, child.stderr.read()
    for line in child.stdout.read().split("\n")[:-1]:  # a line cut short by the kill does not count
        reported = int(line)
    return reported


def _saved(db: Path) -> int:
    """The number of decisions saved, once they are shown to replay to the saved state."""
    if not db.exists():  # killed before the database was made: it is made whole or not at all
        return 0
    with Store(str(db)) as store:
        games = store.games()
        if not games:
            return 0
        (game,) = games
        verify(store.load(game.id))
        return len(Session.resume(game.id, store).decisions)


def test_killed_games_resume_with_at_most_the_decision_in_flight_lost(tmp_path: Path) -> None:
    seed, whole = _long_game()
    db = tmp_path / "games.sqlite3"
    rng = random.Random(2024)
    saved, killed_mid_game = 0, 0
    for moment in (None, 150, 300, 500, None, 900, 1300):
        reported = _kill_at(db, seed, rng, moment if moment is None else max(moment, saved + 1))
        count = _saved(db)
        if reported is not None:
            assert reported <= count <= reported + 1, f"reported {reported} decisions, {count} saved"
        assert count >= saved
        killed_mid_game += 0 < count < len(whole.decisions)
        saved = count
    assert killed_mid_game >= 5
    with Store(str(db)) as store:
        session = Session.resume(1, store)
        session.run_to_end()
    assert session.decisions == whole.decisions
    assert session.fingerprint() == whole.fingerprint()
