"""The player's settings that outlive a game (settings.json in the saves folder), read forgivingly: a missing
or damaged file gives the defaults and is left as it is until the settings are next changed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

SETTINGS_NAME = "settings.json"
AUTOSAVE_CHOICES = (0, 1, 3, 5, 10)
# How the computer's moves are shown: seconds between two of them, 0 for "instant" (no pause).
AiSpeed = Literal["slow", "normal", "fast", "instant"]
AI_SPEEDS: dict[str, float] = {"slow": 0.8, "normal": 0.35, "fast": 0.12, "instant": 0.0}
# What the main menu's Continue resumes: the campaign played last, or the newest saved battle.
LastPlayed = Literal["campaign", "battle"]
Seat = Literal["human", "ai"]
Level = Literal["easy", "normal", "hard"]
# An id as scenarios, sides and campaigns spell theirs.
ID_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"


class UserSettings(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="ignore")

    # The screen's language (None: the system's), and whether each campaign's names keep the
    # script its chronicle writes them in.
    language: Literal["en", "zh_CN", "zh_TW"] | None = None
    names_follow_story: bool = True
    ai_speed: AiSpeed = "normal"
    # How fast the player's own moves are shown ("instant": no motion at all).
    own_speed: AiSpeed = "normal"
    # The briefing over the board as a battle begins.
    briefings: bool = True
    # Ask before ending a turn while formations can still act.
    end_turn_warning: bool = True
    # Short hints the first time something matters in a battle, and which have been read.
    hints: bool = True
    hints_seen: list[str] = Field(default_factory=list, max_length=64)
    # Autosaves kept (one is written at the start of every human turn; 0: none).
    autosaves: int = Field(3, ge=0, le=50)
    # The window: full screen, and the size of text, panels and buttons in per cent (None: the
    # scale the screen's size calls for, ``game.ui.scale.default_scale``).
    fullscreen: bool = False
    ui_scale: Literal[100, 125, 150, 175, 200] | None = None
    # Sound: music and effects volumes in per cent, and everything off at once.
    music_volume: int = Field(60, ge=0, le=100)
    effects_volume: int = Field(80, ge=0, le=100)
    muted: bool = False
    # The main menu's last choices: what was played last, the campaign, and the quick battle's
    # scenario, who commanded each side and at what level (unknown ids are ignored by the menus).
    last_played: LastPlayed | None = None
    last_campaign: str | None = Field(None, pattern=ID_PATTERN)
    last_scenario: str | None = Field(None, pattern=ID_PATTERN)
    last_seats: dict[Annotated[str, StringConstraints(pattern=ID_PATTERN)], Seat] = Field(
        default_factory=dict, max_length=16
    )
    last_levels: dict[Annotated[str, StringConstraints(pattern=ID_PATTERN)], Level] = Field(
        default_factory=dict, max_length=16
    )


def settings_path(saves_dir: Path) -> Path:
    return saves_dir / SETTINGS_NAME


def load_settings(saves_dir: Path, warn: bool = False) -> UserSettings:
    """The saved settings; the defaults when there are none, or (with one warning on stderr when
    ``warn``) when the file is damaged."""
    path = settings_path(saves_dir)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return UserSettings()
    except OSError as exc:
        return _fallback(warn, f"{path}: cannot be read ({exc.strerror})")
    try:
        if len(raw) > 64 * 1024:
            raise ValueError("larger than a settings file can be")
        return UserSettings.model_validate(json.loads(raw.decode("utf-8")))
    except (ValueError, ValidationError, RecursionError) as exc:
        reason = "not valid settings" if isinstance(exc, (ValidationError, RecursionError)) else str(exc).split("\n")[0]
        return _fallback(warn, f"{path}: {reason}")


def _fallback(warn: bool, message: str) -> UserSettings:
    if warn:
        print(f"qiankun: warning: {message}; using the default settings", file=sys.stderr)
    return UserSettings()


def save_settings(settings: UserSettings, saves_dir: Path) -> None:
    """Write the settings atomically (OSError escapes: the caller says it could not)."""
    from .record.saves import write_atomic

    write_atomic(settings_path(saves_dir), settings.model_dump_json(indent=1))


def update_settings(saves_dir: Path, /, **changes: object) -> UserSettings:
    """Change some settings and write them at once (OSError escapes: the caller says it could
    not); a value the model refuses raises ValidationError and nothing is written."""
    current = load_settings(saves_dir)
    changed = UserSettings.model_validate({**current.model_dump(), **changes})
    save_settings(changed, saves_dir)
    return changed
