"""``no_rout``: the formations affected cannot rout this turn and gain heart (backs to the river)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hexgrid import distance
from ..skill_kind import Advisor, Marker
from ..skill_marks import NO_ROUT, RIVER_REASON, area_radius

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation

# Backs to the river when a formation in contact is this close to breaking.
SHAKEN_MARGIN = 25


class NoRout(Marker):
    name = "no_rout"
    reads = ("morale", "duration", "radius", "affects", "move_classes")
    description = RIVER_REASON
    mark = NO_ROUT
    reason = RIVER_REASON

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        engine = advisor.engine
        rules = engine.rules
        return any(
            o.morale < rules.units[o.type].rout_threshold + SHAKEN_MARGIN
            and any(distance(o.pos, e.pos) <= 1 for e in enemies)
            for o in engine.state.formations_of(advisor.side_id)
            if distance(o.pos, f.pos) <= area_radius(rules, f, rules.skills[use.skill])
        )


KIND = NoRout()
