"""The battle's logs, one per viewing side (two at one screen each read their own), and a loaded
game's log so far, rebuilt from its record a slice per frame."""

from __future__ import annotations

from ..record.match import Match
from .battle_log import BattleLog
from .replay_log import LogRebuild, log_sides

# Actions of a loaded game's record re-run per frame to rebuild its log (a slice takes 4-8 ms here).
RECALL_SLICE = 8


class SideLogs(dict[str | None, BattleLog]):
    """Side id -> its log (None: the one log of a battle no person plays)."""

    def __init__(self, match: Match) -> None:
        super().__init__((side, BattleLog()) for side in log_sides(match))
        # A game loaded part-way: its log so far is rebuilt from the record (None when done).
        self.recall = LogRebuild(match, list(self)) if match.record.actions else None
        for log in self.values():
            log.recalling = self.recall is not None

    def of(self, side: str | None) -> BattleLog:
        """The log of ``side``, else the first (everything shown, or no human side)."""
        log = self.get(side)
        return log if log is not None else next(iter(self.values()))

    def recall_step(self) -> None:
        """Rebuild one more slice of a loaded game's log; once all is done, put it above the lines
        logged since."""
        if self.recall is not None and self.recall.step(RECALL_SLICE):
            for side, lines in self.recall.lines.items():
                self[side].recall(lines)
            self.recall = None
