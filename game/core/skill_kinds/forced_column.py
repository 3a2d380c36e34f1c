"""``forced_column``: a forced march without its extra fatigue this turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..skill_kind import Advisor, Marker
from ..skill_marks import FORCED_COLUMN

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation


class ForcedColumn(Marker):
    reads = ("duration", "radius", "affects", "move_classes")
    mark = FORCED_COLUMN

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return False  # left to the player: a plain general marches as it must


KIND = ForcedColumn()
