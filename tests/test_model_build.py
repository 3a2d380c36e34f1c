"""Every model of the game builds its validator when first used (pydantic's ``defer_build``):
the main menu needs few of them, and building all at import was a tenth of its first frame."""

from __future__ import annotations

import importlib
import pkgutil

from pydantic import BaseModel

import game


def _game_models() -> list[type[BaseModel]]:
    for module in pkgutil.walk_packages(game.__path__, "game."):
        if module.name != "game.__main__":
            importlib.import_module(module.name)
    found: list[type[BaseModel]] = []
    todo = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        # A generic's parametrized base (``RootModel[...]``) is pydantic's own, built with its model.
        if cls.__module__.startswith("game.") and "[" not in cls.__qualname__:
            found.append(cls)
    return found


def test_every_model_of_the_game_is_built_when_first_used() -> None:
    models = _game_models()
    assert len(models) > 50  # the rules, the scenario, the events, the state, the records
    eager = sorted(f"{m.__module__}.{m.__qualname__}" for m in models if not m.model_config.get("defer_build"))
    assert eager == []
