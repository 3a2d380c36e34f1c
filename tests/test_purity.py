"""The rules core and the side views are pure: no pygame, no map loader, no hidden randomness
or clock."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import game.core
import game.view

CORE_DIR = Path(game.core.__file__).parent
# What one side sees (fog, witness rule, threat, cards) is shared by screens, reports and the
# computer: it is held to the same rules as the core.
VIEW_DIR = Path(game.view.__file__).parent
PURE_PACKAGES = ("game.core", "game.view")
UI_LIBRARIES = {"pygame", "pygame_gui", "pytmx"}
# Randomness comes from game.core.rng only; time never enters the rules.
NONDETERMINISTIC = {"random", "secrets", "time", "datetime", "uuid"}

PROBE = """
import importlib, json, pkgutil, sys
names = []
for package in {packages!r}:
    names += sorted(m.name for m in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."))
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {ui!r})
print(json.dumps({{"modules": names, "ui": loaded}}))
"""


def test_importing_the_core_and_the_side_views_loads_no_ui_library() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(ui=sorted(UI_LIBRARIES), packages=PURE_PACKAGES)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    result = json.loads(out.stdout)
    for expected in ("engine", "combat", "movement", "state", "rng", "legal", "hexgrid", "rules", "board"):
        assert f"game.core.{expected}" in result["modules"]
    for expected in ("side_view", "witness", "threat", "card"):
        assert f"game.view.{expected}" in result["modules"]
    assert result["ui"] == []


def pure_sources() -> list[Path]:
    files = sorted(CORE_DIR.rglob("*.py"))
    assert len(files) >= 10
    view = sorted(VIEW_DIR.rglob("*.py"))
    assert len(view) >= 4
    return files + view


def imported_roots(tree: ast.AST) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_core_or_view_module_imports_random_time_or_ui_libraries() -> None:
    for path in pure_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        bad = imported_roots(tree) & (NONDETERMINISTIC | UI_LIBRARIES)
        assert not bad, f"{path.name} imports {sorted(bad)}"
        dynamic = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in {"__import__", "hash", "id"}
        ]
        # hash() of a str changes with PYTHONHASHSEED, id() with memory layout.
        assert not dynamic, f"{path.name} calls {[n.func.id for n in dynamic]}"  # type: ignore[attr-defined]


def test_the_scan_would_catch_an_offender() -> None:
    tree = ast.parse("import random\nfrom time import monotonic\nimport pygame.display\n")
    assert imported_roots(tree) == {"random", "time", "pygame"}
