"""``no_rout``: the formations affected cannot rout this turn and gain heart (backs to the river)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hexgrid import distance
from ..skill_kind import Advisor, Marker, in_area
from ..skill_marks import NO_ROUT, RIVER_REASON

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation

# Backs to the river when a formation in contact is this close to breaking.
SHAKEN_MARGIN = 25


class NoRout(Marker):
    reads = ("morale", "duration", "radius", "affects", "move_classes")
    mark = NO_ROUT
    reason = RIVER_REASON

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        units = advisor.engine.rules.units
        shaken = [o for o in in_area(advisor, f, use) if o.morale < units[o.type].rout_threshold + SHAKEN_MARGIN]
        return any(distance(o.pos, e.pos) <= 1 for o in shaken for e in enemies)


KIND = NoRout()
