"""No module-level mutable state anywhere in game/: what a game or a screen needs is passed to it
(the profile, the app, the match), never kept in a variable of a module or a class.

Found by reading the code (AST), in every module of the package:
- a ``global`` statement (a function rebinding a module's variable);
- a name bound at module level, or a class attribute, to a mutable container (a list, dict or set
  display or comprehension, or a call of list, dict, set, defaultdict, deque, Counter...) that is
  then changed: a mutating method called on it (append, update, setdefault...), an item assigned or
  deleted, an attribute assigned; in its own module, through a class (``cls.X``, ``Klass.X``), or
  in a module that imports it by name;
- an attribute assigned on any other module-level object (``CONFIG.debug = True``);
- a ContextVar at module level, except the documented ones below.

Allowed, by design:
- the ContextVars that carry the profile's language and UI scale to the hundreds of places that
  draw text (``game.i18n.TRANSLATOR``, ``game.ui.scale.UI_SCALE``): each is set only from the
  profile, as the game starts and when the player changes the choice;
- memoised pure functions (``functools.cache``, ``lru_cache``): they remember results, which a
  caller cannot tell from computing them again;
- constants: a container bound once at module level and never changed (a tuple or frozenset is
  better, but a dict read as a table is not state).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from game.paths import PACKAGE_DIR

ALLOWED_CONTEXT_VARS = {("game.i18n", "TRANSLATOR"), ("game.ui.scale", "UI_SCALE")}
MUTABLE_FACTORIES = {
    "list",
    "dict",
    "set",
    "bytearray",
    "defaultdict",
    "deque",
    "Counter",
    "OrderedDict",
    "WeakValueDictionary",
    "WeakKeyDictionary",
    "WeakSet",
}
MUTATING_METHODS = {
    "append",
    "extend",
    "insert",
    "remove",
    "pop",
    "popitem",
    "clear",
    "add",
    "discard",
    "update",
    "setdefault",
    "sort",
    "reverse",
    "appendleft",
    "extendleft",
    "popleft",
    "rotate",
    "difference_update",
    "intersection_update",
    "symmetric_difference_update",
    "__setitem__",
    "__delitem__",
}


@dataclass(frozen=True)
class Finding:
    module: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.what}"


def is_mutable_value(node: ast.expr) -> bool:
    if isinstance(node, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in MUTABLE_FACTORIES
    return False


def is_context_var(node: ast.expr) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "ContextVar") or (
        isinstance(func, ast.Attribute) and func.attr == "ContextVar"
    )


def bindings(body: list[ast.stmt]) -> Iterator[tuple[str, ast.expr, int]]:
    """(name, value, line) for each simple assignment in a module's or a class's own body."""
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    yield target.id, stmt.value, stmt.lineno
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
            yield stmt.target.id, stmt.value, stmt.lineno


def root_and_chain(node: ast.expr) -> tuple[ast.expr, list[str]]:
    """The innermost object of ``a.b[c].d`` and the attribute names on the way (['b', 'd'])."""
    chain: list[str] = []
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute):
            chain.append(node.attr)
        node = node.value
    return node, chain[::-1]


class Mutations(ast.NodeVisitor):
    """Every place a module changes an object: (the changed expression, line)."""

    def __init__(self) -> None:
        self.changed: list[tuple[ast.expr, int, str]] = []

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr in MUTATING_METHODS:
            self.changed.append((node.func.value, node.lineno, f".{node.func.attr}()"))
        self.generic_visit(node)

    def _target(self, target: ast.expr, line: int, how: str) -> None:
        if isinstance(target, ast.Subscript):
            self.changed.append((target.value, line, how + " of an item"))
        elif isinstance(target, ast.Attribute):
            self.changed.append((target.value, line, how + f" of .{target.attr}"))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._target(element, line, how)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._target(target, node.lineno, "assignment")
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._target(node.target, node.lineno, "assignment")
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target, node.lineno, "assignment")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._target(target, node.lineno, "deletion")
        self.generic_visit(node)


def module_findings(module: str, source: str, imported_state: dict[str, set[str]] | None = None) -> list[Finding]:
    """What ``source`` (the module ``module``) keeps as mutable state. ``imported_state``: the
    module-level containers of the other modules, by module name, to catch their change here."""
    tree = ast.parse(source)
    found: list[Finding] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.append(Finding(module, node.lineno, f"global {', '.join(node.names)}"))

    containers: dict[str, int] = {}  # module-level mutable containers: name -> line
    objects: set[str] = set()  # every other module-level name (functions, instances, constants)
    class_containers: dict[tuple[str, str], int] = {}
    for name, value, line in bindings(tree.body):
        if is_context_var(value) and (module, name) not in ALLOWED_CONTEXT_VARS:
            found.append(Finding(module, line, f"ContextVar {name} (not one of the documented ones)"))
        elif is_mutable_value(value):
            containers[name] = line
        else:
            objects.add(name)
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            for name, value, line in bindings(stmt.body):
                if is_mutable_value(value):
                    class_containers[(stmt.name, name)] = line
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and imported_state:
            origin = resolve(module, stmt)
            names = imported_state.get(origin, set()) | imported_state.get(f"{origin}.__init__", set())
            for alias in stmt.names:
                if alias.name in names:
                    containers[alias.asname or alias.name] = stmt.lineno

    classes_with_state = {klass for klass, _ in class_containers}
    visitor = Mutations()
    visitor.visit(tree)
    for changed, line, how in visitor.changed:
        root, chain = root_and_chain(changed)
        if not isinstance(root, ast.Name):
            continue
        object_changed = root.id in objects and (chain or how.startswith(("assignment of .", "deletion of .")))
        if root.id in containers or object_changed:
            found.append(Finding(module, line, f"module-level {root.id} changed by {how}"))
        elif chain and (root.id in classes_with_state or root.id == "cls"):
            klass_attr = chain[0]
            if any(attr == klass_attr for (_, attr) in class_containers) and len(chain) == 1:
                found.append(Finding(module, line, f"class attribute {root.id}.{klass_attr} changed by {how}"))
    return found


def resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of the module ``from ... import`` reads from."""
    if not node.level:
        return node.module or ""
    parts = module.split(".")  # a package's own module is named pkg.__init__: the same rule holds
    base = parts[: len(parts) - node.level]
    return ".".join([*base, node.module] if node.module else base)


def game_modules() -> dict[str, str]:
    modules: dict[str, str] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
        modules[".".join(parts)] = path.read_text(encoding="utf-8")
    return modules


def module_containers(source: str) -> set[str]:
    return {name for name, value, _ in bindings(ast.parse(source).body) if is_mutable_value(value)}


def test_no_module_level_mutable_state_in_game() -> None:
    modules = game_modules()
    state = {name: module_containers(source) for name, source in modules.items()}
    found = [str(f) for name, source in modules.items() for f in module_findings(name, source, state)]
    assert not found, "module-level mutable state:\n" + "\n".join(found)


def findings(source: str, module: str = "game.probe", others: dict[str, set[str]] | None = None) -> list[str]:
    return [f.what for f in module_findings(module, source, others)]


def test_a_global_statement_is_found() -> None:
    assert findings("x = 1\ndef f():\n    global x\n    x = 2\n") == ["global x"]


def test_a_changed_module_container_is_found_and_a_constant_table_is_not() -> None:
    assert findings("CACHE = {}\ndef f(k):\n    CACHE[k] = 1\n") == [
        "module-level CACHE changed by assignment of an item"
    ]
    assert findings("SEEN = set()\ndef f(k):\n    SEEN.add(k)\n") == ["module-level SEEN changed by .add()"]
    assert findings("LOG = []\ndef f():\n    del LOG[0]\n") == ["module-level LOG changed by deletion of an item"]
    assert findings("TABLE = {'a': 1}\ndef f(k):\n    return TABLE[k]\n") == []


def test_a_changed_module_object_or_class_attribute_is_found() -> None:
    assert findings("STATE = Thing()\ndef f():\n    STATE.value = 2\n") == [
        "module-level STATE changed by assignment of .value"
    ]
    source = "class Pool:\n    items = []\n    @classmethod\n    def put(cls, x):\n        cls.items.append(x)\n"
    assert findings(source) == ["class attribute cls.items changed by .append()"]


def test_a_container_changed_where_it_is_imported_is_found() -> None:
    others = {"game.registry": {"KINDS"}, "game.ui.__init__": {"SCREENS"}}
    source = "from .registry import KINDS\ndef register(k):\n    KINDS.append(k)\n"
    assert findings(source, "game.probe", others) == ["module-level KINDS changed by .append()"]
    source = "from . import SCREENS\ndef register(k):\n    SCREENS[k] = 1\n"
    assert findings(source, "game.ui.menu", others) == ["module-level SCREENS changed by assignment of an item"]
    source = "from ..registry import KINDS\ndef register(k):\n    KINDS[k].extra = 1\n"
    assert findings(source, "game.ui.menu", others) == ["module-level KINDS changed by assignment of .extra"]


def test_only_the_documented_context_vars_are_allowed() -> None:
    source = "from contextvars import ContextVar\nMODE = ContextVar('mode', default=1)\n"
    assert findings(source) == ["ContextVar MODE (not one of the documented ones)"]
    allowed = "from contextvars import ContextVar\nUI_SCALE = ContextVar('s', default=1.0)\n"
    assert findings(allowed, "game.ui.scale") == []


def test_instance_state_and_local_variables_are_not_module_state() -> None:
    source = (
        "class Screen:\n    def __init__(self):\n        self.items = []\n    def add(self, x):\n"
        "        self.items.append(x)\n"
        "def f():\n    seen = set()\n    seen.add(1)\n    return seen\n"
    )
    assert findings(source) == []
