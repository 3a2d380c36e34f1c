"""``hold_hill``: on high ground the formation cannot rout and defends better this turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hexgrid import distance
from ..rules import Skill
from ..skill_kind import Advisor, Outcome, SkillKind, until
from ..skill_marks import DOWNHILL, HILL_MODIFIER, HOLD_HILL, NO_ROUT

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


class HoldHill(SkillKind):
    reads = ("defence", "duration", "stand_on")
    description = HILL_MODIFIER

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        f.effects[HOLD_HILL] = until(table, skill)
        f.effects[NO_ROUT] = until(table, skill)
        return [f.id], None, []

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        if DOWNHILL in f.effects:
            return False  # charging down, not standing fast
        return any(distance(f.pos, e.pos) <= 2 for e in enemies)


KIND = HoldHill()
