"""``raid``: go for the hero of an enemy formation. Success wounds him; failure leaves a note on
his helmet, a fright, and shows where the raiders are."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale, vision
from ..duel import wound_hero
from ..errors import IllegalAction
from ..rules import Ruleset, Skill
from ..skill_kind import Advisor, Outcome, SkillKind, enemy_target
from ..skill_marks import RAID_FAILED, RAID_WOUNDED

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


def raid_chance(rules: Ruleset, f: Formation, skill: Skill, target: Formation) -> int:
    """Percent chance that a raid by ``f`` wounds the hero of ``target``."""
    if target.hero is None:
        return 0
    martial = rules.heroes[f.hero].martial if f.hero is not None else skill.martial
    return max(5, min(95, skill.chance + martial - rules.heroes[target.hero].martial))


class Raid(SkillKind):
    reads = ("chance", "martial", "morale", "area_morale", "fail_morale", "radius")
    description = RAID_WOUNDED

    def allows(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
        target = table.formation(action.target or "")
        if target.hero is None:
            raise IllegalAction("no_hero", f"{target.id} has no commander to strike at")

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        rules = table.rules
        target = enemy_target(table, f, skill, action)
        assert target.hero is not None
        chance = raid_chance(rules, f, skill, target)
        if table.rng().randint(1, 100) <= chance:
            events = wound_hero(
                table,
                target,
                own_delta=skill.morale,
                area_delta=skill.area_morale,
                radius=skill.radius,
                reason=RAID_WOUNDED,
            )
            return [target.id], True, events
        events = morale.change_morale(rules, target, skill.fail_morale, RAID_FAILED)
        if f.hidden:
            f.hidden = False
            events += vision.revealed(f, target.id)
        return [target.id], False, events

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return True


KIND = Raid()
