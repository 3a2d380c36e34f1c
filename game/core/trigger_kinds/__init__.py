"""Scenario trigger kinds, one module each, registered by name (see ``game.core.kinds``)."""

from __future__ import annotations

from ..event_kind import TriggerSpec
from ..kinds import Registry, collect

TRIGGERS: Registry[type[TriggerSpec]] = Registry.of_models("trigger", collect("trigger", __name__, __path__))
