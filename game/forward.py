"""One way to pass an attribute through: ``state = Forward[GameState]("engine", "state")`` in a
class body reads ``self.engine.state``, where a property would take three lines that say the
same. Read-only, like the property it stands for."""

from __future__ import annotations

from typing import Any, Generic, Self, TypeVar, cast, overload

T = TypeVar("T")


class Forward(Generic[T]):
    """An attribute read along ``path`` from the instance (a descriptor)."""

    def __init__(self, *path: str) -> None:
        self.path = path

    @overload
    def __get__(self, obj: None, owner: type[object]) -> Self: ...
    @overload
    def __get__(self, obj: object, owner: type[object]) -> T: ...
    def __get__(self, obj: object | None, owner: type[object]) -> T | Self:
        if obj is None:
            return self
        value: Any = obj
        for name in self.path:
            value = getattr(value, name)
        return cast(T, value)
