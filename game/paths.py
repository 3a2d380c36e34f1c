"""Where the game's files live in a checkout (the game is installed in editable mode)."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
DATA_DIR = PACKAGE_DIR / "content" / "data"
LOCALE_DIR = PACKAGE_DIR / "locale"
MAPS_DIR = PACKAGE_DIR / "maps"
ASSETS_DIR = PACKAGE_DIR / "assets"
FONTS_DIR = ASSETS_DIR / "fonts"
TILES_DIR = ASSETS_DIR / "tiles"
# Saved games, campaign progress and settings; QIANKUN_SAVES_DIR puts them elsewhere.
SAVES_DIR = Path(os.environ.get("QIANKUN_SAVES_DIR") or ROOT / "saves")


def display_path(path: Path) -> str:
    """A path as short as it can be for messages: relative to the checkout when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
