"""``sword_surge``: the Sealing Sword's bearer holds it up, and its bonus grows for a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hexgrid import distance
from ..skill_kind import Advisor, Marker
from ..skill_marks import SWORD_SURGE

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation


class SwordSurge(Marker):
    reads = ("power", "duration")
    mark = SWORD_SURGE

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return any(distance(f.pos, e.pos) <= 2 for e in enemies)  # the fight is here or next turn


KIND = SwordSurge()
