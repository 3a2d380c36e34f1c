"""``breakthrough``: zones of control do not stop the formation, and after breaking the
defender in melee it may ride on (``skills.after_combat``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..skill_kind import Advisor, Marker
from ..skill_marks import BREAKTHROUGH

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation


class Breakthrough(Marker):
    reads = ("duration",)
    mark = BREAKTHROUGH

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return False  # left to the player: a plain general does not plan a ride through the line


KIND = Breakthrough()
