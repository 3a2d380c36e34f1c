"""Small modules with one job each: no Python file in game/ grows past 500 lines (split it by
what its parts do before it does)."""

from __future__ import annotations

from game.paths import PACKAGE_DIR

MAX_LINES = 500


def test_no_module_in_the_game_is_over_500_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE_DIR)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE_DIR.rglob("*.py")
    }
    assert len(sizes) > 100  # the whole package was read
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
