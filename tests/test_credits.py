"""The credits: every shipped asset is named with its licence, the same as the README beside it,
and the page opens from the help and closes back to it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame
import pygame_gui

from game.paths import ASSETS_DIR, ROOT
from game.profile import Profile
from game.ui.app import App
from game.ui.credits import CreditsScene, credits_page
from game.ui.credits_list import CREDITS
from game.ui.help_screen import HelpScene


def credited(path: Path) -> bool:
    return any(path.relative_to(ASSETS_DIR).match(pattern) for c in CREDITS for pattern in c.files)


def test_every_shipped_asset_is_credited() -> None:
    assets = [p for p in ASSETS_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    missing = [str(p.relative_to(ASSETS_DIR)) for p in assets if not credited(p)]
    assert assets and not missing, f"not in game/ui/credits_list.py: {missing}"


def test_every_credited_pattern_names_files_that_exist() -> None:
    for credit in CREDITS:
        for pattern in credit.files:
            assert list(ASSETS_DIR.glob(pattern)), pattern


def test_each_asset_folder_has_a_readme_saying_the_same_licence() -> None:
    readmes = {
        folder: (ASSETS_DIR / folder / "README.md").read_text(encoding="utf-8")
        for folder in ("tiles", "fonts", "audio")
    }
    assert "MIT" in readmes["tiles"] and "make_tileset.py" in readmes["tiles"]
    assert "Open Font License 1.1" in readmes["fonts"]
    assert "MIT" in readmes["audio"] and "Fluid R3 GM" in readmes["audio"] and "FluidSynth" in readmes["audio"]


def test_the_licence_files_match_the_declared_licence() -> None:
    """The package declares the game's MIT licence and the fonts' OFL, and ships both texts."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        project = tomllib.load(fh)["project"]
    assert project["license"] == "MIT AND OFL-1.1"
    assert project["license-files"] == ["LICENSE", "game/assets/fonts/OFL.txt"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "SIL OPEN FONT LICENSE Version 1.1" in (ROOT / "game/assets/fonts/OFL.txt").read_text(encoding="utf-8")


def test_the_credits_open_from_the_help_and_go_back_to_it(tmp_path: Path) -> None:
    app = App((800, 560))
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    app.go("menu")
    help_scene = app.open("help")
    assert isinstance(help_scene, HelpScene)
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=help_scene.credits_button)], 0.01)
    credits = app.scene
    assert isinstance(credits, CreditsScene)
    assert credits.back_button.rect.bottom <= 560
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE)], 0.01)
    assert app.stack[-1] is help_scene


def test_the_page_grows_with_its_text() -> None:
    assert credits_page(300).get_height() > credits_page(700).get_height() > 0
