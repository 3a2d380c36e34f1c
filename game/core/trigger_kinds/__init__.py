"""Scenario trigger kinds, one module each, registered by name (see ``game.core.kinds``)."""

from __future__ import annotations

from typing import Any, cast

from ..event_kind import TriggerKind
from ..kinds import Registry, collect

TRIGGERS: Registry[TriggerKind[Any]] = Registry(
    "trigger", cast(list[TriggerKind[Any]], collect("trigger", __name__, __path__))
)
