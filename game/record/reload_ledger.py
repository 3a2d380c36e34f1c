"""Where each running game between people at one screen stands, kept in the saves folder so that
loading an earlier save of it is seen wherever it is loaded from: the battle (F9, the save list)
or the main menu, and even after the newer saves were deleted.

The ledger (a hidden file beside the saves, never listed) holds, for every such game
(``save_list.game_id``), the actions of the position it was last saved or opened at, the side
whose player was at the screen and the reloads recorded so far. A game opened from a save whose
actions do not carry on from that position went back: the reload is added to the opened game's
record (``reloads``) and told to the other side at its next hand-over. The ledger is best
effort: a ledger that cannot be read counts as empty, one that cannot be written is left as it was.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.actions import ACTION_LIST_ADAPTER
from .match import Match
from .reloads import Reload
from .save_list import game_id
from .saves import write_atomic

LEDGER_NAME = ".two_player_games.json"
# Games remembered at most (the oldest forgotten first): a ledger does not grow for ever.
MAX_GAMES = 50


class Position(BaseModel):
    """Where a running two-player game stands, as the ledger remembers it."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    actions: list[object] = Field(default_factory=list)  # the actions, as a save holds them
    turn: int = Field(ge=1)
    # The side whose player had the screen (else the side to move).
    side: str
    reloads: list[Reload] = Field(default_factory=list)


class Ledger(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")

    games: dict[str, Position] = Field(default_factory=dict)


def _two_players_running(match: Match) -> bool:
    return not match.state.over and len(match.seats.humans()) >= 2


class ReloadLedger:
    def __init__(self, folder: Path) -> None:
        self.path = folder / LEDGER_NAME

    def _read(self) -> Ledger:
        try:
            return Ledger.model_validate_json(self.path.read_bytes())
        except (OSError, ValidationError, ValueError):
            return Ledger()

    def _write(self, ledger: Ledger) -> None:
        with contextlib.suppress(OSError):
            write_atomic(self.path, ledger.model_dump_json())

    def remember(self, match: Match, viewer: str | None = None) -> None:
        """``match`` stands here now, ``viewer``'s player at the screen (None: the side to move's)."""
        if not _two_players_running(match):
            return
        ledger = self._read()
        key = game_id(match.record)
        ledger.games.pop(key, None)  # the newest last
        ledger.games[key] = Position(
            actions=ACTION_LIST_ADAPTER.dump_python(match.record.actions, mode="json"),
            turn=match.state.turn,
            side=viewer or match.state.active_side.id,
            reloads=[r.model_copy(deep=True) for r in match.record.reloads],
        )
        while len(ledger.games) > MAX_GAMES:
            ledger.games.pop(next(iter(ledger.games)))
        self._write(ledger)

    def opened(self, match: Match) -> Reload | None:
        """``match`` was just loaded from a save to be played: if it goes back from where its
        game stood, the reload is recorded in its record (after the reloads recorded before) and
        returned. Either way the game stands where ``match`` does from now on."""
        if not _two_players_running(match):
            return None
        position = self._read().games.get(game_id(match.record))
        reload = None
        if position is not None:
            mine = ACTION_LIST_ADAPTER.dump_python(match.record.actions, mode="json")
            common = 0
            for theirs, ours in zip(position.actions, mine, strict=False):
                if theirs != ours:
                    break
                common += 1
            if common < len(position.actions):
                reload = Reload(
                    by=position.side,
                    from_turn=position.turn,
                    to_turn=match.state.turn,
                    undone=len(position.actions) - common,
                )
                match.record.reloads = [r.model_copy(deep=True) for r in position.reloads] + [reload]
        self.remember(match)
        return reload
