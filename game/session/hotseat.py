"""Hotseat: what a waiting player's formations saw of the other turns, told after the hand-over.

Each action applied while one human side waits for another is checked against the waiting
side's own eyes (the formations it saw before the action or sees after it, the hexes it sees);
only what passes becomes a line of its report and of its battle log, worded as the battle log
words everything (the session's ``describe``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.events import Event, GameOver, Narration, TurnEnded
from ..core.state import GameState, copy_state
from ..i18n import _, ngettext
from ..view.side_view import SideView
from ..view.witness import sight_around, witnessed

if TYPE_CHECKING:
    from .battle_session import BattleSession

# The battle log's words for an event (None for those it does not log).
Describe = Callable[[Event], str | None]

# Lines a report shows before it says how many more there were.
REPORT_LINES = 12


class WatchReports:
    def __init__(self, describe: Describe) -> None:
        self.describe = describe
        # Waiting side -> the lines of its report, and those of its battle log.
        self.lines: dict[str, list[str]] = {}
        self.log: dict[str, list[str]] = {}
        # Narrations a waiting side heard (text, speaker): read after its report.
        self.heard: dict[str, list[tuple[str, str | None]]] = {}
        # Waiting side -> the formations it saw just before the action being applied.
        self._before: dict[str, frozenset[str]] = {}
        # Human side -> where its last turn ended and the state there: the start of the turns
        # it then waited through, which it may watch again through its own eyes.
        self._since: dict[str, tuple[int, GameState]] = {}

    def begin(self, session: BattleSession) -> None:
        """Every human side's wait begins where this battle opens (a new or loaded game)."""
        state = session.state
        for side in session.humans():
            self._since[side] = (state.action_index, copy_state(state))

    def before(self, session: BattleSession) -> None:
        if not session.is_hotseat():
            self._before = {}
            return
        active = session.state.active_side.id
        self._before = {s: _view(session, s).seen_ids for s in session.humans() if s != active}

    def after(self, session: BattleSession, events: list[Event]) -> None:
        if session.is_hotseat():
            for ev in events:
                if isinstance(ev, TurnEnded) and ev.side in session.humans():
                    self._since[ev.side] = (session.state.action_index, copy_state(session.state))
        scenario = session.match.loaded.scenario
        for side, before in self._before.items():
            sight = sight_around(_view(session, side).sight, before)
            for ev in events:
                # Two people at one screen: a hero's words are heard only where he is seen.
                if not witnessed(ev, side, sight, session.state, scenario, session.rules, hearing_limited=True):
                    continue
                line = self.describe(ev)
                if line:
                    self.log.setdefault(side, []).append(line)
                if isinstance(ev, Narration):
                    self.heard.setdefault(side, []).append((ev.text, ev.speaker))
                elif line and not isinstance(ev, (TurnEnded, GameOver)):  # the hand-over says whose turn it is
                    self.lines.setdefault(side, []).append(line)
        self._before = {}

    def take_log(self, side: str) -> list[str]:
        """The battle-log lines of what ``side`` saw while it waited, turns' ends and words heard
        included (emptied as they are read): they go on that side's own log at the hand-over."""
        return self.log.pop(side, [])

    def replay_start(self, side: str, now: int) -> tuple[int, GameState] | None:
        """Where ``side``'s wait began (its last turn's end) and the state there, if it waited
        through any action before ``now``; else None."""
        start = self._since.get(side)
        return start if start is not None and start[0] < now else None

    def narrations(self, side: str) -> list[tuple[str, str | None]]:
        """What ``side`` heard while it waited (emptied as it is read)."""
        return self.heard.pop(side, [])

    def report(self, side: str) -> str:
        """The report for ``side`` (emptied as it is read)."""
        lines = self.lines.pop(side, [])
        if not lines:
            return _("While you waited, your formations saw nothing of the other side.")
        shown = lines[:REPORT_LINES]
        text = _("While you waited, your formations saw:") + "\n" + "\n".join(f"• {line}" for line in shown)
        more = len(lines) - len(shown)
        if more:
            text += "\n" + ngettext("… and {n} more", "… and {n} more", more).format(n=more)
        return text


def _view(session: BattleSession, side: str) -> SideView:
    """``side``'s view of the battle as it stands now."""
    return session.view(side)
