"""``verse``: power and heart, and a double soul capture, for a turn (Cao Zhi's verse)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..skill_kind import Advisor, Marker, in_area
from ..skill_marks import VERSE, VERSE_REASON

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation


class Verse(Marker):
    reads = ("power", "morale", "duration", "radius", "affects")
    mark = VERSE
    reason = VERSE_REASON

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        # Before the retainers sweep the field: the verse doubles what they bag.
        catchers = advisor.engine.rules.skills[use.skill].affects
        return any(o.type in catchers and advisor.engine.can_capture(o) for o in in_area(advisor, f, use))


KIND = Verse()
