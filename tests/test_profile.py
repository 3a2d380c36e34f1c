"""The profile: made once at start from the saves folder, the settings kept there and the
language; the records know nothing of the settings."""

from __future__ import annotations

import ast
from pathlib import Path

from game.paths import PACKAGE_DIR, SAVES_ENV
from game.profile import Profile
from game.settings import UserSettings, load_settings, save_settings


def test_the_profile_reads_its_folders_settings_and_language(tmp_path: Path) -> None:
    save_settings(UserSettings(language="zh_TW", ui_scale=150, autosaves=5), tmp_path)
    profile = Profile.load(saves_dir=tmp_path, environ={})
    assert (profile.saves_dir, profile.language, profile.ui_scale) == (tmp_path, "zh_TW", 150)
    assert profile.settings.autosaves == 5
    assert Profile.load("en", saves_dir=tmp_path, environ={}).language == "en"  # the command line wins


def test_without_a_saved_language_the_systems_is_used(tmp_path: Path) -> None:
    profile = Profile.load(saves_dir=tmp_path, environ={"LANG": "zh_TW.UTF-8"})
    assert profile.language == "zh_TW" and profile.settings == UserSettings()


def test_the_saves_folder_comes_from_the_environment_when_not_given(tmp_path: Path) -> None:
    assert Profile.load(environ={SAVES_ENV: str(tmp_path)}).saves_dir == tmp_path


def test_a_change_of_settings_is_written_and_gives_a_new_profile(tmp_path: Path) -> None:
    before = Profile.load(saves_dir=tmp_path, environ={})
    after = before.update_settings(autosaves=1)
    assert before.settings.autosaves == 3 and after.settings.autosaves == 1
    assert load_settings(tmp_path).autosaves == 1 == after.read_settings().autosaves
    assert after.saves_folder().autosaves_kept() == 1


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports, absolute (``game.x``) whatever way it names them."""
    package = ".".join(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def test_the_records_do_not_import_the_settings() -> None:
    for path in sorted((PACKAGE_DIR / "record").glob("*.py")):
        imports = imported_modules(path)
        assert not {"game.settings", "game.profile"} & imports, f"{path.name} imports the player's settings"


def test_the_import_reader_sees_a_relative_import(tmp_path: Path) -> None:
    probe = PACKAGE_DIR / "record" / "saves_folder.py"
    assert "game.record.match" in imported_modules(probe) and "game.paths" not in imported_modules(probe)
