"""``sealing_sword``: passive, a power bonus while the sword's bearer is on the field, larger
within his aura (``skill_marks.skill_modifiers``)."""

from __future__ import annotations

from ..rules import Skill
from ..skill_kind import Passive
from ..skill_marks import SEALING_SWORD


class SealingSword(Passive):
    reads = ("power", "near_power", "bearer")
    description = SEALING_SWORD

    def check(self, skill: Skill) -> list[tuple[str, str]]:
        if skill.bearer is None:
            return [("bearer", "the Sealing Sword needs the hero who bears it")]
        return []


KIND = SealingSword()
