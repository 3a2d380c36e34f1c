"""The saves folder as the game uses it: the one place that decides where a game is saved, under
which name, which autosaves are kept and where the quicksave lives. Screens ask it; they never
build a save's path themselves.

``SavesFolder(folder, autosaves_kept)`` is plain file handling around ``Match.save`` (which writes atomically)
and ``list_saves`` (which reads defensively); every failure is a ``SaveError``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .match import Match, match_from_record
from .model import GameRecord
from .reload_ledger import ReloadLedger
from .reloads import Reload
from .save_list import SaveEntry, autosave_name, delete_save, game_id, list_saves, prune_autosaves
from .saves import QUICKSAVE_NAME, load_record, save_path


class SavesFolder:
    def __init__(self, folder: Path, autosaves_kept: Callable[[], int]) -> None:
        """``autosaves_kept()``: how many autosaves of a game the player keeps now (the settings
        say; the records know nothing of them)."""
        self.folder = folder
        self.autosaves_kept = autosaves_kept
        # Where each running two-player game stands: a load that goes back is seen from anywhere.
        self.ledger = ReloadLedger(folder)

    # -- where ----------------------------------------------------------------------------

    def path_for(self, name: str) -> Path:
        """The file a save of this name is kept in (BadSaveName, a SaveError, says why a name
        cannot be one)."""
        return save_path(name, self.folder)

    def free_name(self, name: str) -> str:
        """``name``, or ``name (2)``, ``name (3)``... the first that holds no save yet."""
        base, n = name, 2
        while self.path_for(name).exists():
            name, n = f"{base} ({n})", n + 1
        return name

    # -- saving ---------------------------------------------------------------------------

    def save_as(self, match: Match, name: str, path: Path | None = None) -> Path:
        """Save ``match`` under the player's ``name`` (over the save at ``path`` when the player
        chose to replace that one); the name is the one the game goes by next."""
        saved = match.save(path if path is not None else self.path_for(name), name=name)
        self.ledger.remember(match)
        return saved

    def save_game(self, match: Match, name: str) -> str:
        """Save ``match`` as leaving it or its result screen does: under ``name`` when the game
        already goes by it (it was saved or loaded under it), else under the first free name
        from ``name`` on, never over another game's save. The name it was saved under."""
        if match.record.name is None:
            name = self.free_name(name)
        self.save_as(match, name)
        return name

    def quicksave(self, match: Match) -> Path:
        saved = match.save(self.path_for(QUICKSAVE_NAME))
        self.ledger.remember(match)
        return saved

    def autosave(self, match: Match) -> Path | None:
        """Save at the start of a human turn under the game, turn and side to move, keeping
        only the player's number of autosaves of this game (other games' are theirs); None
        when the player keeps none."""
        self.ledger.remember(match)  # kept even when no autosave is
        keep = self.autosaves_kept()
        if keep <= 0:
            return None
        state = match.state
        path = match.save(self.path_for(autosave_name(match.record, state.turn, state.active_side.id)))
        prune_autosaves(keep, self.folder, game=game_id(match.record))
        return path

    def keep_autosaves(self, keep: int) -> list[Path]:
        """Let every game's autosaves beyond the ``keep`` newest go; the files deleted."""
        return prune_autosaves(keep, self.folder)

    # -- loading --------------------------------------------------------------------------

    def quickload(self) -> Match:
        return match_from_record(load_record(self.path_for(QUICKSAVE_NAME)))

    def opened(self, match: Match, left: Match | None = None, viewer: str | None = None) -> Reload | None:
        """``match``, loaded from a save, is about to be played (in place of ``left``, the game
        on screen with ``viewer``'s player at it, when loaded from a battle): a load that goes
        back in a running two-player game is recorded in it (``reload_ledger``)."""
        if left is not None:
            self.ledger.remember(left, viewer)  # moves not saved yet count as made
        return self.ledger.opened(match)

    def entries(self) -> list[SaveEntry]:
        """Every save, newest first (files that do not load listed with their problem)."""
        return list_saves(self.folder)

    def newest_record(self) -> GameRecord | None:
        """The most recently saved game that loads (None if there is none)."""
        return next((e.record for e in self.entries() if e.record is not None), None)

    def delete(self, path: Path) -> None:
        delete_save(path, self.folder)
