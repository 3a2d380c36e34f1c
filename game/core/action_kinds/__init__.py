"""Scenario action kinds, one module each, registered by name (see ``game.core.kinds``)."""

from __future__ import annotations

from typing import Any, cast

from ..event_kind import ActionKind
from ..kinds import Registry, collect

ACTIONS: Registry[ActionKind[Any]] = Registry(
    "action", cast(list[ActionKind[Any]], collect("action", __name__, __path__))
)
