"""The wheel carries every file the game reads: each data file in game/ is matched by a pattern of
pyproject's package-data (resolved as setuptools resolves them, by glob from the package folder),
and the saves folder is where the README says it is."""

from __future__ import annotations

import tomllib
from pathlib import Path

import platformdirs

from game.paths import PACKAGE_DIR, ROOT, SAVES_ENV, checkout_root, default_saves_dir

# Sources of compiled or generated files, which the running game never opens.
NOT_SHIPPED_SUFFIXES = {".py", ".pyc", ".po", ".pot"}


def shipped_patterns() -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        patterns: list[str] = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["game"]
    return patterns


def data_files() -> set[Path]:
    return {
        path
        for path in PACKAGE_DIR.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in NOT_SHIPPED_SUFFIXES
    }


def test_every_data_file_in_the_package_is_shipped() -> None:
    shipped = {path for pattern in shipped_patterns() for path in PACKAGE_DIR.glob(pattern) if path.is_file()}
    missing = sorted(str(path.relative_to(PACKAGE_DIR)) for path in data_files() - shipped)
    assert not missing, f"not in pyproject's [tool.setuptools.package-data]: {missing}"


def test_the_game_reads_maps_assets_and_translations_from_the_package() -> None:
    names = {str(path.relative_to(PACKAGE_DIR)) for path in data_files()}
    assert "maps/a1_valley_mouth.tmx" in names
    assert "assets/tiles/terrain.tsx" in names
    assert "assets/fonts/OFL.txt" in names
    assert "locale/zh_CN/LC_MESSAGES/qiankun.mo" in names


def make_project(folder: Path, name: str) -> Path:
    (folder / "game").mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n', encoding="utf-8")
    return folder / "game"


def test_a_checkout_is_known_by_the_projects_pyproject(tmp_path: Path) -> None:
    assert checkout_root(make_project(tmp_path / "clone", "qiankun")) == tmp_path / "clone"
    assert checkout_root(make_project(tmp_path / "other", "another-game")) is None
    (tmp_path / "site-packages" / "game").mkdir(parents=True)
    assert checkout_root(tmp_path / "site-packages" / "game") is None
    broken = make_project(tmp_path / "broken", "qiankun")
    (broken.parent / "pyproject.toml").write_text("[project\n", encoding="utf-8")
    assert checkout_root(broken) is None


def test_saves_go_to_the_named_folder_then_the_checkout_then_the_user_data_folder(tmp_path: Path) -> None:
    clone = make_project(tmp_path / "clone", "qiankun")
    installed = tmp_path / "site-packages" / "game"
    installed.mkdir(parents=True)
    named = {SAVES_ENV: str(tmp_path / "elsewhere")}
    assert default_saves_dir(named, clone) == tmp_path / "elsewhere"
    assert default_saves_dir(named, installed) == tmp_path / "elsewhere"
    assert default_saves_dir({}, clone) == tmp_path / "clone" / "saves"
    assert default_saves_dir({SAVES_ENV: ""}, clone) == tmp_path / "clone" / "saves"
    assert default_saves_dir({}, installed) == Path(platformdirs.user_data_dir("qiankun", appauthor=False))


def test_this_checkout_is_a_checkout() -> None:
    assert checkout_root() == ROOT
