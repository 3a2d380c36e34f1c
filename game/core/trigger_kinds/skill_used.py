"""``skill_used``: a formation uses a skill (an order given on the field)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_TRIGGER_HINT, UNTOLD, References, Teller, TriggerHint, TriggerKind, TriggerSpec, of_kind
from ..events import Event, SkillUsed

if TYPE_CHECKING:
    from ..table import Table


class OnSkillUsed(TriggerSpec):
    """A formation (only ``unit``, if given) uses the skill ``skill`` (an order given on the field)."""

    kind: Literal["skill_used"] = "skill_used"
    skill: str
    unit: str | None = None


class SkillUsedKind(TriggerKind[OnSkillUsed]):
    name = "skill_used"
    model = OnSkillUsed

    def check(self, when: OnSkillUsed, refs: References) -> None:
        refs.unit("unit", when.unit)
        if when.skill not in refs.rules.skills:
            refs.fail("skill", f"unknown skill {when.skill!r}")

    def test(self, table: Table, when: OnSkillUsed, seen: Sequence[Event]) -> bool:
        return any(e.skill == when.skill and when.unit in (None, e.unit) for e in of_kind(seen, (SkillUsed,)))

    def describe(self, when: OnSkillUsed, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnSkillUsed) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = SkillUsedKind()
