"""Kinds registered by name, one small module each.

A scenario trigger kind (``game.core.trigger_kinds``), a scenario action kind
(``game.core.action_kinds``) and a skill effect kind (``game.core.skill_kinds``) each live in a
module of their own that holds everything about the kind: its data model, its content check, its
working in the rules, the text the screens show for it and what the computer general reads from
it. Each such module names its kind in a module-level ``KIND``; ``collect`` gathers a package's
kinds into a ``Registry`` once, at import, so adding a kind is adding a module. Nothing here
changes after that.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Generic, TypeVar


class UnknownKind(ValueError):
    """A name no kind of the family has: content names it, so it is a content error."""

    def __init__(self, family: str, name: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown kind {name!r} (known: {', '.join(known)})")
        self.family = family
        self.name = name


K = TypeVar("K")


class Registry(Generic[K]):
    """The kinds of one family by name, in the order their modules are named."""

    def __init__(self, family: str, kinds: list[tuple[str, K]]) -> None:
        by_name: dict[str, K] = {}
        for name, kind in kinds:
            if name in by_name:
                raise ValueError(f"two {family} kinds are named {name!r}")
            by_name[name] = kind
        self.family = family
        self._by_name: Mapping[str, K] = MappingProxyType(by_name)

    @classmethod
    def of_named(cls, family: str, kinds: list[Any]) -> Registry[Any]:
        """Kinds that carry their ``name``."""
        return cls(family, [(kind.name, kind) for kind in kinds])

    @classmethod
    def of_models(cls, family: str, models: list[Any]) -> Registry[Any]:
        """Pydantic models whose ``kind`` field names them."""
        return cls(family, [(model.model_fields["kind"].default, model) for model in models])

    def get(self, name: str) -> K:
        """The kind called ``name``; ``UnknownKind`` (a content error) if there is none."""
        kind = self._by_name.get(name)
        if kind is None:
            raise UnknownKind(self.family, name, self.names())
        return kind

    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __iter__(self) -> Iterator[K]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)


def collect(family: str, package: str, path: list[str]) -> list[Any]:
    """The ``KIND`` of every module of ``package`` (at ``path``), by module name; modules whose
    name starts with an underscore hold shared parts and name no kind."""
    kinds: list[Any] = []
    for info in sorted(pkgutil.iter_modules(path), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        kind = getattr(module, "KIND", None)
        if kind is None:
            raise ValueError(f"{package}.{info.name} names no {family} KIND")
        kinds.append(kind)
    return kinds
