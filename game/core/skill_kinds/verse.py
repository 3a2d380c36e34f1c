"""``verse``: power and heart, and a double soul capture, for a turn (Cao Zhi's verse)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hexgrid import distance
from ..skill_kind import Advisor, Marker
from ..skill_marks import VERSE, VERSE_REASON, area_radius

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation


class Verse(Marker):
    name = "verse"
    reads = ("power", "morale", "duration", "radius", "affects")
    description = VERSE_REASON
    mark = VERSE
    reason = VERSE_REASON

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        # Before the retainers sweep the field: the verse doubles what they bag.
        engine = advisor.engine
        skill = engine.rules.skills[use.skill]
        radius = area_radius(engine.rules, f, skill)
        return any(
            engine.can_capture(o) and distance(o.pos, f.pos) <= radius and o.type in skill.affects
            for o in engine.state.formations_of(advisor.side_id)
        )


KIND = Verse()
