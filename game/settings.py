"""The player's settings that outlive a game (saves/settings.json), read forgivingly: a missing
or damaged file gives the defaults and is left as it is until the settings are next changed."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .paths import SAVES_DIR

SETTINGS_NAME = "settings.json"
AUTOSAVE_CHOICES = (0, 1, 3, 5, 10)


class UserSettings(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Autosaves kept (one is written at the start of every human turn; 0: none).
    autosaves: int = Field(3, ge=0, le=50)


def settings_path(saves_dir: Path = SAVES_DIR) -> Path:
    return saves_dir / SETTINGS_NAME


def load_settings(saves_dir: Path = SAVES_DIR) -> UserSettings:
    try:
        raw = settings_path(saves_dir).read_bytes()
        if len(raw) > 64 * 1024:
            return UserSettings()
        return UserSettings.model_validate(json.loads(raw.decode("utf-8")))
    except (OSError, ValueError, ValidationError, RecursionError):
        return UserSettings()


def save_settings(settings: UserSettings, saves_dir: Path = SAVES_DIR) -> None:
    """Write the settings atomically (OSError escapes: the caller says it could not)."""
    from .record.saves import write_atomic

    write_atomic(settings_path(saves_dir), settings.model_dump_json(indent=1))
