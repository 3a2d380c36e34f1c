"""Which package may import which: the layers stay apart so that each can be read, tested and
replaced on its own. Read from the sources (every import statement, at any depth), not from
what happens to be loaded."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import game

GAME_DIR = Path(game.__file__).parent
# Package -> the packages it must never import. The rules, the records, the content and the
# computer players know nothing of screens; the screens know nothing of the command line.
FORBIDDEN = {
    "game.core": ("game.ui", "game.cli", "game.record", "game.ai", "game.content", "game.view"),
    "game.view": ("game.ui", "game.cli", "game.ai"),
    "game.ai": ("game.ui", "game.cli"),
    "game.record": ("game.ui", "game.cli"),
    "game.content": ("game.ui", "game.cli", "game.record", "game.ai"),
    "game.ui": ("game.cli",),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(GAME_DIR.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def sources(package: str) -> list[Path]:
    folder = GAME_DIR.parent.joinpath(*package.split("."))
    return sorted(folder.rglob("*.py"))


def breaches(package: str) -> list[str]:
    out = []
    for path in sources(package):
        for target in sorted(imports(path)):
            for banned in FORBIDDEN[package]:
                if target == banned or target.startswith(banned + "."):
                    out.append(f"{module_name(path)} imports {target}")
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(package: str) -> None:
    assert sources(package), package
    assert breaches(package) == []


def core_import_graph() -> dict[str, set[str]]:
    """Module -> the game.core modules importing it runs: those it names, the packages they are
    in (Python runs a package's ``__init__`` before its modules), and, for a package that loads
    every module of its own as it is imported (``kinds.collect``: the action, skill and trigger
    kinds), all of those."""
    paths = {module_name(p): p for p in sources("game.core")}
    collected = {
        name: {m for m in paths if m.startswith(name + ".")}
        for name, path in paths.items()
        if path.name == "__init__.py" and "collect(" in path.read_text(encoding="utf-8")
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        # The packages this module is in have begun importing before it: importing a sibling
        # does not run them again.
        own = {name.rsplit(".", n)[0] for n in range(1, name.count("."))}
        targets = {t for t in imports(path) if t in paths}
        for t in list(targets):
            parts = t.split(".")
            targets.update(".".join(parts[:n]) for n in range(3, len(parts)) if ".".join(parts[:n]) in paths)
        targets -= own
        for package in [t for t in targets if t in collected]:
            targets |= collected[package]
        graph[name] = targets - {name}
    return graph


def test_the_rules_core_has_no_import_cycle() -> None:
    """Read at module level (a deferred import inside a function is a cycle all the same). One
    used to hide behind a package that loads its own modules: ``tallies`` imported the ``fallen``
    trigger, whose package loads the ``tally`` trigger, which imports ``tallies`` (importing
    ``game.core.tallies`` first failed)."""
    graph = core_import_graph()
    cycles = []
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(" -> ".join(path[path.index(t) :] + [m, t]) if t in path else f"{m} -> {t}")
            elif t not in state:
                visit(t, path + [m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    assert cycles == []


def test_the_checker_sees_a_breach() -> None:
    """The rule is read right: a relative import two levels up is resolved to its package."""
    ui_file = GAME_DIR / "ui" / "snapshot.py"
    assert "game.record.match" in imports(ui_file)
