"""``reform``: routed soul formations around the hero rally at once, and his side's wandering
souls near him rejoin the ranks of the formations around him that have room (Wanyan Liang)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale
from ..events import Event, Rallied, SoulsDrifted
from ..hexgrid import Hex, distance
from ..rules import Ruleset, Skill
from ..skill_kind import Advisor, Outcome, SkillKind
from ..skill_marks import REFORMED_REASON, area_radius, friends_within
from ..souls import take_souls

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


def _reformable(rules: Ruleset, f: Formation) -> bool:
    return f.routed and "soul" in rules.units[f.type].abilities


def _returning_souls(table: Table, f: Formation, skill: Skill) -> list[tuple[str, int]]:
    """("q,r", count) of the user's side's wandering souls within reach, sorted by hex."""
    out = []
    for key in sorted(table.state.field_souls):
        n = table.state.field_souls[key].get(f.side, 0)
        if n > 0 and distance(Hex.parse(key), f.pos) <= skill.souls_radius:
            out.append((key, n))
    return out


def _has_room(table: Table, f: Formation, skill: Skill) -> bool:
    radius = area_radius(table.rules, f, skill)
    return any(o.men < o.max_men for o in friends_within(table.state, f, radius))


class Reform(SkillKind):
    reads = ("morale", "radius", "souls_radius")
    description = REFORMED_REASON

    def affected(self, table: Table, f: Formation, skill: Skill) -> list[Formation]:
        radius = area_radius(table.rules, f, skill)
        return [o for o in friends_within(table.state, f, radius) if _reformable(table.rules, o)]

    def idle(self, table: Table, f: Formation, skill: Skill) -> bool:
        # With no one to rally it may still gather souls back into the ranks.
        if not super().idle(table, f, skill):
            return False
        return not (_returning_souls(table, f, skill) and _has_room(table, f, skill))

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        state, rules = table.state, table.rules
        events: list[Event] = []
        rallied = self.affected(table, f, skill)
        for o in rallied:
            utype = rules.units[o.type]
            o.routed = False
            goal = min(utype.morale, utype.rout_threshold + skill.morale)
            events += morale.change_morale(rules, o, max(0, goal - o.morale), REFORMED_REASON)
            events.append(Rallied(unit=o.id))
        ranks = friends_within(state, f, area_radius(rules, f, skill))
        for key, count in _returning_souls(table, f, skill):
            at = Hex.parse(key)
            left = count
            for o in sorted(ranks, key=lambda x: (distance(x.pos, at), x.id)):
                joined = min(left, o.max_men - o.men)
                if joined <= 0:
                    continue
                o.men += joined
                left -= joined
                take_souls(state, key, f.side, joined)
                events.append(SoulsDrifted(at=at, count=joined, into=o.id))
                if left == 0:
                    break
        return [o.id for o in rallied], None, events

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return True


KIND = Reform()
