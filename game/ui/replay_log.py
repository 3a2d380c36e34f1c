"""Log lines from a game's record: what one side saw of each action, worded as the battle log
words it. One way for the replay viewer, the hotseat watch and the battle log rebuilt when a
saved game is loaded for play, so they tell the same things in the same words.

Whether a side saw an event is ``witness.witnessed``, judged by what it saw just before the
action and just after it (``ReplayCursor`` with ``sight=True`` keeps that).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core import vision
from ..core.events import Event
from ..record.match import Match
from ..record.replay_cursor import ReplayCursor
from ..view.names import formation_names, side_name
from ..view.witness import witnessed
from .narration import event_line


def action_sight(cursor: ReplayCursor, n: int, side: str) -> vision.Sight:
    """What ``side`` saw just before action ``n`` and after it; where the cursor kept no record
    of it (one made without sight), what it sees at the position shown."""
    after = cursor.sight_after(n, side)
    if after is None:
        board = cursor.loaded.scenario.board
        return vision.sight_of(cursor.state, board, cursor.rules, side)
    before = cursor.sight_after(n - 1, side)
    return vision.Sight(seen=after.seen | before.seen, visible=after.visible) if before else after


def action_lines(
    cursor: ReplayCursor,
    n: int,
    events: Sequence[Event],
    side: str | None,
    names: dict[str, str],
    hearing_limited: bool = True,
) -> list[str]:
    """The log lines of ``events`` (those of action ``n``) that ``side`` saw; every line for
    ``side`` None. ``hearing_limited``: a narration is heard only where its speaker is seen or a
    friend (two people at one screen, or a replay through one side's eyes)."""
    state, scenario, rules = cursor.state, cursor.loaded.scenario, cursor.rules
    events = seen_events(cursor, n, events, side, hearing_limited)
    lines = (event_line(ev, state, rules, scenario, names, lambda s: side_name(scenario, s)) for ev in events)
    return [line for line in lines if line]


def seen_events(
    cursor: ReplayCursor, n: int, events: Sequence[Event], side: str | None, hearing_limited: bool = True
) -> list[Event]:
    """The events of action ``n`` that ``side`` witnessed (all of them for ``side`` None)."""
    if side is None:
        return list(events)
    state, scenario, rules = cursor.state, cursor.loaded.scenario, cursor.rules
    sight = action_sight(cursor, n, side)
    return [ev for ev in events if witnessed(ev, side, sight, state, scenario, rules, hearing_limited)]


def record_names(cursor: ReplayCursor) -> dict[str, str]:
    """The formation names of the battle a cursor replays (``view.names.formation_names``)."""
    return formation_names(cursor.rules, cursor.loaded.scenario, cursor.record.settings.roster)


# -- the battle log of a game loaded for play -------------------------------------------------------


def log_sides(match: Match) -> list[str | None]:
    """Whose logs a battle keeps: each human side's (in hotseat each sees its own), or a single
    log of everything (None) when the computer commands every side."""
    return list(match.seats.humans()) or [None]


class LogRebuild:
    """Re-runs a game's record, from its first action to where the game stands now, to recover
    the battle log each viewing side would have read had it played all along.

    The save holds the state only at its end, so every action before it must be re-run to learn
    what happened (1,000-2,000 actions a second here); telling what each side saw adds less than
    the re-run itself. Rebuilding only the last turns would still need the re-run from the start,
    so the whole history is recovered, and ``step`` does it a slice at a time for a screen to
    spread over frames (the game can be played meanwhile; its new lines are the live log's).
    ``rebuild_logs`` does it all at once."""

    def __init__(self, match: Match, sides: Sequence[str | None] | None = None) -> None:
        self.sides = list(sides) if sides is not None else log_sides(match)
        # Lines after this many actions are the live log's: the rebuild stops where the game is now.
        self.end = len(match.record.actions)
        self.cursor = ReplayCursor(match.record, match.loaded, sight=True, snapshots=False)
        self.names = record_names(self.cursor)
        # A narration is heard through one side's ears only when two people share the screen.
        self.hearing_limited = len(match.seats.humans()) >= 2
        self.lines: dict[str | None, list[str]] = {side: [] for side in self.sides}

    @property
    def done(self) -> bool:
        return self.cursor.position >= min(self.end, self.cursor.length)

    def progress(self) -> float:
        """How far the rebuild is, from 0 to 1."""
        return 1.0 if self.end <= 0 else min(1.0, self.cursor.position / self.end)

    def step(self, actions: int) -> bool:
        """Re-run up to ``actions`` more actions; True once the rebuild is done."""
        c = self.cursor
        for _ in range(actions):
            if self.done or not c.step_forward():
                break
            n, events = c.position, c.last_events()
            for side in self.sides:
                self.lines[side] += action_lines(c, n, events, side, self.names, self.hearing_limited)
        return self.done


def rebuild_logs(match: Match, sides: Sequence[str | None] | None = None) -> dict[str | None, list[str]]:
    """Each viewing side's battle log of the game so far, as the battle screen would have told it
    (``sides``: by default ``log_sides``)."""
    rebuild = LogRebuild(match, sides)
    while not rebuild.step(500):
        pass
    return rebuild.lines


def rebuild_log(match: Match, side: str | None) -> list[str]:
    """``side``'s battle log of the game so far (None: everything, as no side's eyes see it)."""
    return rebuild_logs(match, [side])[side]
