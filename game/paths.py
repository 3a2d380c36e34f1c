"""Where the game's files live. Maps, assets, data and translations are package data inside
``game/``, so a checkout and an installed game find them the same way.

The saves folder (saved games, campaign progress, settings) is, in this order: the folder named by
QIANKUN_SAVES_DIR; ``saves/`` at the checkout's root when the game runs from a checkout (the folder
above the package holds the project's own pyproject.toml, as in a clone or an unpacked source
archive, installed editable or not installed at all); else the platform's user data folder
(platformdirs: ~/.local/share/qiankun on Linux, ~/Library/Application Support/qiankun on macOS,
%LOCALAPPDATA%\\qiankun on Windows).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "qiankun"
SAVES_ENV = "QIANKUN_SAVES_DIR"

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
DATA_DIR = PACKAGE_DIR / "content" / "data"
LOCALE_DIR = PACKAGE_DIR / "locale"
MAPS_DIR = PACKAGE_DIR / "maps"
ASSETS_DIR = PACKAGE_DIR / "assets"
FONTS_DIR = ASSETS_DIR / "fonts"
TILES_DIR = ASSETS_DIR / "tiles"


def checkout_root(package_dir: Path = PACKAGE_DIR) -> Path | None:
    """The checkout the package runs from, or None for an installed game. A checkout is known by
    the project's pyproject.toml beside the package (an installed package sits among others in
    site-packages, where no such file is)."""
    root = package_dir.parent
    try:
        with (root / "pyproject.toml").open("rb") as fh:
            project = tomllib.load(fh).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return root if isinstance(project, dict) and project.get("name") == APP_NAME else None


def default_saves_dir(environ: Mapping[str, str] = os.environ, package_dir: Path = PACKAGE_DIR) -> Path:
    """The saves folder: QIANKUN_SAVES_DIR, else the checkout's saves/, else the user data folder."""
    named = environ.get(SAVES_ENV)
    if named:
        return Path(named)
    checkout = checkout_root(package_dir)
    if checkout is not None:
        return checkout / "saves"
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


CHECKOUT = checkout_root()


def display_path(path: Path) -> str:
    """A path as short as it can be for messages: relative to the checkout (or, installed, to the
    folder that holds the package) when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
