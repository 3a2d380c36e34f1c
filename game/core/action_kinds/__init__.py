"""Scenario action kinds, one module each, registered by name (see ``game.core.kinds``)."""

from __future__ import annotations

from ..event_kind import ActionSpec
from ..kinds import Registry, collect

ACTIONS: Registry[type[ActionSpec]] = Registry.of_models("action", collect("action", __name__, __path__))
