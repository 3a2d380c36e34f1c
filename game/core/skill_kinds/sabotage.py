"""``sabotage``: a blow to an enemy formation's heart, with no losses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale
from ..rules import Skill
from ..skill_kind import Advisor, Outcome, SkillKind, enemy_target
from ..skill_marks import SABOTAGE_REASON

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


class Sabotage(SkillKind):
    reads = ("morale",)
    description = SABOTAGE_REASON

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        target = enemy_target(table, f, skill, action)
        return [target.id], None, morale.change_morale(table.rules, target, skill.morale, SABOTAGE_REASON)

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return True


KIND = Sabotage()
