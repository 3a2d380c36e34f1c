"""The player's profile: where saves and settings are kept, the settings, the language and the UI
scale. It is made once at start (``Profile.load``: the window's start, or the command line) and
passed down to what needs it; no module keeps any of it in a variable of its own.

The screens reach it as ``app.profile``; a change of settings writes the settings file and gives
the app a new profile (``Profile.with_settings``), so a profile is a value and never changes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from .i18n import detect_language
from .paths import default_saves_dir
from .record.saves_folder import SavesFolder
from .settings import UserSettings, load_settings, update_settings

# The UI scale when neither the settings nor the screen say otherwise, in per cent.
DEFAULT_SCALE = 100


@dataclass(frozen=True)
class Profile:
    saves_dir: Path
    settings: UserSettings
    language: str = "en"
    # Text, panels and buttons, in per cent (the settings' choice, else what the screen calls for).
    ui_scale: int = DEFAULT_SCALE

    @classmethod
    def load(
        cls,
        lang: str | None = None,
        saves_dir: Path | None = None,
        warn: bool = False,
        environ: Mapping[str, str] = os.environ,
    ) -> Profile:
        """The profile at start: the saves folder (``saves_dir``, else ``game.paths.default_saves_dir``),
        the settings kept there (a damaged file gives the defaults, with one warning when ``warn``)
        and the language (``lang``, else the saved choice, else the system's)."""
        folder = saves_dir if saves_dir is not None else default_saves_dir(environ)
        settings = load_settings(folder, warn=warn)
        language = lang or settings.language or detect_language(dict(environ))
        return cls(folder, settings, language, settings.ui_scale or DEFAULT_SCALE)

    def read_settings(self) -> UserSettings:
        """The settings as the file holds them now (another screen may have changed them)."""
        return load_settings(self.saves_dir)

    def update_settings(self, **changes: object) -> Profile:
        """Write some settings at once (OSError escapes: the caller says it could not; a value the
        model refuses raises ValidationError and nothing is written); the profile with them."""
        return replace(self, settings=update_settings(self.saves_dir, **changes))

    def with_language(self, language: str) -> Profile:
        return replace(self, language=language)

    def with_scale(self, percent: int) -> Profile:
        return replace(self, ui_scale=percent)

    def saves_folder(self) -> SavesFolder:
        """The saves folder of this profile, keeping as many autosaves as its settings file says."""
        folder = self.saves_dir
        return SavesFolder(folder, autosaves_kept=lambda: load_settings(folder).autosaves)
