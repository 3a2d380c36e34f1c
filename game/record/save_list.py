"""The saves folder as the save screen sees it: the saved games (autosaves apart), newest first,
and the autosaves kept to the player's number."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..paths import SAVES_DIR
from .model import GameRecord
from .saves import SaveError, load_record, save_files

AUTOSAVE_PREFIX = "autosave-"
# Files in the saves folder that are not saved games.
NOT_GAMES = re.compile(r"^(campaign-.*|settings)\.json$|^\.")


@dataclass(frozen=True)
class SaveEntry:
    name: str
    path: Path
    autosave: bool
    record: GameRecord | None = None
    # Why the file cannot be loaded (it is listed so it can be deleted).
    problem: str | None = None

    @property
    def turn(self) -> int:
        """The turn the game had reached when it was saved."""
        rec = self.record
        return rec.checkpoints[-1].turn if rec is not None and rec.checkpoints else 1

    @property
    def humans(self) -> list[str]:
        rec = self.record
        return [] if rec is None else sorted(s for s, c in rec.settings.controllers.items() if c == "human")

    @property
    def sort_key(self) -> tuple[str, str]:
        saved = self.record.saved_at if self.record is not None and self.record.saved_at else ""
        return (saved, self.name)


def list_saves(saves_dir: Path = SAVES_DIR) -> list[SaveEntry]:
    """Every saved game, newest first (files that do not load are listed with their problem)."""
    entries: list[SaveEntry] = []
    if not saves_dir.is_dir():
        return entries
    # save_files lists the folder's saves and clears away what killed writers left behind.
    for path in save_files(saves_dir):
        if NOT_GAMES.match(path.name):
            continue
        name = path.stem
        autosave = name.startswith(AUTOSAVE_PREFIX)
        try:
            entries.append(SaveEntry(name, path, autosave, record=load_record(path)))
        except SaveError as exc:
            entries.append(SaveEntry(name, path, autosave, problem=str(exc)))
    return sorted(entries, key=lambda e: e.sort_key, reverse=True)


def autosave_name(record: GameRecord, turn: int, side: str) -> str:
    safe_side = re.sub(r"[^A-Za-z0-9_]", "_", side)[:20]
    return f"{AUTOSAVE_PREFIX}{record.scenario_id[:30]}-{record.seed % 100000}-t{turn:03d}-{safe_side}"


def prune_autosaves(keep: int, saves_dir: Path = SAVES_DIR) -> list[Path]:
    """Delete all but the ``keep`` newest autosaves; the paths deleted."""
    autos = [e for e in list_saves(saves_dir) if e.autosave]
    doomed = [e.path for e in autos[keep:]]
    for path in doomed:
        delete_save(path, saves_dir)
    return doomed


def delete_save(path: Path, saves_dir: Path = SAVES_DIR) -> None:
    """Delete one saved game; nothing outside the saves folder, nothing that is not a game."""
    try:
        inside = path.resolve().parent == saves_dir.resolve()
    except OSError:
        inside = False
    if not inside or path.suffix != ".json" or NOT_GAMES.match(path.name):
        raise SaveError(f"{path}: not a saved game in {saves_dir}")
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        raise SaveError(f"cannot delete {path}: {exc.strerror or exc}") from None
