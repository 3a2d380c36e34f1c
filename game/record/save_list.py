"""The saves folder as the save screen sees it: the saved games (autosaves apart), newest first,
and the autosaves, a pool of the player's number for each game."""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from .errors import SaveError
from .model import GameRecord
from .saves import load_record, save_files
from .seats import Seats

AUTOSAVE_PREFIX = "autosave-"
# Files in the saves folder that are not saved games (a save's hashed file name has a "~").
NOT_GAMES = re.compile(r"^(campaign-[^~]*|settings)\.json$|^\.")


def game_id(record: GameRecord) -> str:
    """What tells one game from another: its scenario, seed, settings and commanders. Every save
    of a game, loaded and played on or not, has the same id; settings left at their defaults do
    not count, so a setting added later does not change the id of the games saved before it. The
    commanders count as they did when the settings held them (``controllers``), so the ids of
    games saved before format 4 stay theirs, and a game taken over by other commanders is
    another game."""
    settings = record.settings.model_dump(mode="json", exclude_defaults=True)
    commanders = Seats(record.seats).commanders()
    if commanders:
        settings["controllers"] = commanders
    key = {"scenario": record.scenario_id, "seed": record.seed, "settings": settings}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True)
class SaveEntry:
    # The name the player saved it under; the file's name (without .json) if it has none.
    name: str
    path: Path
    autosave: bool
    record: GameRecord | None = None
    # Why the file cannot be loaded (it is listed so it can be deleted).
    problem: str | None = None

    @property
    def named(self) -> bool:
        """Whether the save holds the name it is listed by (older saves and the game's own are
        listed by their file name)."""
        return self.record is not None and self.record.name is not None

    @property
    def game(self) -> str | None:
        """The game it is a save of (``game_id``); None when the file cannot be loaded."""
        return None if self.record is None else game_id(self.record)

    @property
    def turn(self) -> int:
        """The turn the game had reached when it was saved."""
        rec = self.record
        if rec is None:
            return 1
        if rec.snapshot is not None:
            return rec.snapshot.state.turn
        return rec.checkpoints[-1].turn if rec.checkpoints else 1

    @property
    def side_to_move(self) -> str | None:
        """The side whose turn it was when it was saved (known from the snapshot only)."""
        rec = self.record
        return None if rec is None or rec.snapshot is None else rec.snapshot.state.active_side.id

    @property
    def humans(self) -> list[str]:
        rec = self.record
        return [] if rec is None else sorted(Seats(rec.seats).humans())

    @property
    def sort_key(self) -> tuple[str, int, str]:
        # Saved in the same second (times are to the second): the one further on is newer.
        rec = self.record
        saved = rec.saved_at if rec is not None and rec.saved_at else ""
        return (saved, len(rec.actions) if rec is not None else 0, self.path.name)


def list_saves(saves_dir: Path) -> list[SaveEntry]:
    """Every saved game, newest first (files that do not load are listed with their problem)."""
    entries: list[SaveEntry] = []
    if not saves_dir.is_dir():
        return entries
    # save_files lists the folder's saves and clears away what killed writers left behind.
    for path in save_files(saves_dir):
        if NOT_GAMES.match(path.name):
            continue
        stem = path.stem
        # An autosave is written without a name; a player may still name a save "autosave-1".
        own = stem.startswith(AUTOSAVE_PREFIX)
        try:
            record = load_record(path)
        except SaveError as exc:
            entries.append(SaveEntry(stem, path, own, problem=str(exc)))
            continue
        name = record.name if record.name is not None else stem
        entries.append(SaveEntry(name, path, own and record.name is None, record=record))
    return sorted(entries, key=lambda e: e.sort_key, reverse=True)


def autosave_name(record: GameRecord, turn: int, side: str) -> str:
    """The autosave's file name: the scenario, the game, the turn and the side to move."""
    safe_side = re.sub(r"[^a-z0-9_]", "_", side.lower())[:12]
    return f"{AUTOSAVE_PREFIX}{record.scenario_id[:24].lower()}-{game_id(record)}-t{turn:03d}-{safe_side}"


def autosave_pools(entries: list[SaveEntry]) -> list[list[SaveEntry]]:
    """The autosaves among ``entries`` by game, each newest first, the game autosaved last
    first. Autosaves that cannot be loaded belong to no game and are left out."""
    pools: dict[str, list[SaveEntry]] = defaultdict(list)
    for entry in sorted(entries, key=lambda e: e.sort_key, reverse=True):
        if entry.autosave and entry.game is not None:
            pools[entry.game].append(entry)
    return list(pools.values())


def prune_autosaves(keep: int, saves_dir: Path, game: str | None = None) -> list[Path]:
    """Delete all but the ``keep`` newest autosaves of ``game`` (``game_id``), or of every game
    when it is None; the paths deleted. Another game's autosaves are never touched, nor are
    autosaves that cannot be loaded (whose game cannot be told: the player may delete them)."""
    doomed = [
        e.path
        for pool in autosave_pools(list_saves(saves_dir))
        if game is None or pool[0].game == game
        for e in pool[max(0, keep) :]
    ]
    for path in doomed:
        delete_save(path, saves_dir)
    return doomed


def delete_save(path: Path, saves_dir: Path) -> None:
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
