"""Skill effect kinds, one module each, registered by name (see ``game.core.kinds``)."""

from __future__ import annotations

from ..kinds import Registry, collect
from ..skill_kind import SkillKind

SKILLS: Registry[SkillKind] = Registry.of_named("skill effect", collect("skill effect", __name__, __path__))
