"""The game record: everything needed to reproduce a game exactly.

A game is its scenario + content version + seed + settings + action list; a checkpoint hash
after each side's turn proves that a replay reproduced it. A saved record (format 2) also
carries a snapshot of the state when it was saved, so loading it for play re-runs nothing;
replays and ``--verify`` still re-run the actions and check the snapshot against them. Since
format 3 it also carries the content it was made with (``content.bundle``), so it loads, plays
and replays exactly after the game's own maps or data have changed. Since format 4 who commands
each side is kept in ``seats``, outside the settings and the state, so no hash includes it; a
game begun in an older format keeps how its hashes were made (``state_digest``). Format 5 lets a
seat hold its pass phrase's digest (``seal``) and keeps the reloads of a game between people at one
screen (``reloads``), both outside every hash.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .. import __version__
from ..core.actions import Action
from ..core.engine import GameSettings
from ..core.state import GameState
from .errors import SaveError
from .names import clean_name
from .reloads import Reload
from .seats import Seat
from .state_digest import LegacyCheckpoints

RECORD_FORMAT: Final = "qiankun-record"
FORMAT_VERSION = 5
MAX_SEED = (1 << 63) - 1


class Checkpoint(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")

    # Actions applied when the checkpoint was taken (the EndTurn included).
    actions: int = Field(ge=1)
    turn: int = Field(ge=1)
    side: str  # the side whose turn just ended
    hash: str = Field(pattern=r"^[0-9a-f]{16}$")
    # The digest of every action before it, chained (``action_chain``); None in saves begun in
    # format 2 or older, whose checkpoints vouch for the state only.
    digest: str | None = Field(None, pattern=r"^[0-9a-f]{16}$")


class Snapshot(BaseModel):
    """The state after the first ``actions`` actions, with its hash: a save's last position."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    actions: int = Field(ge=0)
    hash: str = Field(pattern=r"^[0-9a-f]{16}$")
    state: GameState


class GameRecord(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")

    format: Literal["qiankun-record"] = RECORD_FORMAT
    format_version: int = FORMAT_VERSION
    game_version: str = __version__
    scenario_id: str = Field(max_length=100)
    content_version: str = Field(max_length=200)
    seed: int = Field(ge=0, le=MAX_SEED)
    settings: GameSettings
    # Who commands each side (a side not named: by its role, ``seats.default_commander``).
    seats: dict[str, Seat] = Field(default_factory=dict)
    # Loads of an earlier save of this game between people at one screen (``reloads``).
    reloads: list[Reload] = Field(default_factory=list)
    # A game begun in format 3 or older: how its checkpoints were made (``state_digest``).
    legacy: LegacyCheckpoints | None = None
    actions: list[Action] = Field(default_factory=list)
    checkpoints: list[Checkpoint] = Field(default_factory=list)
    # When the file was written (ISO 8601, UTC); informational only.
    saved_at: str | None = Field(None, max_length=40)
    # The name the player saved it under (see ``names``); None in older saves and in the game's
    # own saves (autosaves, quicksave), which the save list names by their file.
    name: str | None = None
    # The scenario, map and data it was made with, packed (``content.bundle``); None in older
    # saves and for scenarios not read from files.
    content: str | None = Field(None, max_length=8 * 1024 * 1024)

    @field_validator("format_version", mode="before")
    @classmethod
    def _whole_number(cls, value: object) -> object:
        # Never "2" or true for 2, however lenient the parsing of other numbers.
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError("format_version must be a whole number")
        return value

    @field_validator("name")
    @classmethod
    def _a_save_name(cls, value: str | None) -> str | None:
        # Exactly what ``clean_name`` lets through: a hand-edited name is refused like a typed one.
        try:
            same = value is None or clean_name(value) == value
        except SaveError:
            same = False
        if not same:
            raise ValueError("not a save name as the game writes one")
        return value

    # Only in saved files: a Match's own record leaves it None and the snapshot is taken when
    # the record is saved (``Match.saved_record``).
    snapshot: Snapshot | None = None
