"""Scenario events: triggers checked after every action, and what they do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Event

if TYPE_CHECKING:
    from .engine import Engine


def after_action(engine: Engine, events: list[Event]) -> list[Event]:
    return []
