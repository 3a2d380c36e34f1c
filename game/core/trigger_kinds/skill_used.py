"""``skill_used``: a formation uses a skill (an order given on the field)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import References, TriggerSpec, of_kind
from ..events import Event, SkillUsed

if TYPE_CHECKING:
    from ..table import Table


class OnSkillUsed(TriggerSpec, names={"unit": "unit"}):
    """A formation (only ``unit``, if given) uses the skill ``skill``."""

    kind: Literal["skill_used"] = "skill_used"
    skill: str
    unit: str | None = None

    def check(self, refs: References) -> None:
        super().check(refs)
        if self.skill not in refs.rules.skills:
            refs.fail("skill", f"unknown skill {self.skill!r}")

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return any(e.skill == self.skill and self.unit in (None, e.unit) for e in of_kind(seen, (SkillUsed,)))


KIND = OnSkillUsed
