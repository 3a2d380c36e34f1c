"""``ride_light``: the horse rides faster this turn; what it leaves behind lies on the roads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import baggage
from ..events import BaggageDropped, Event
from ..hexgrid import Hex, neighbours
from ..rules import Skill
from ..skill_kind import Advisor, Outcome, SkillKind, until
from ..skill_marks import EFFECT_NAMES, RIDE_LIGHT

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


class RideLight(SkillKind):
    reads = ("duration", "loads", "drop_on", "affects", "move_classes")
    description = EFFECT_NAMES[RIDE_LIGHT]

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        affected = self.affected(table, f, skill)
        dropped: set[Hex] = set()
        for o in affected:
            o.effects[RIDE_LIGHT] = until(table, skill)
            for h in (o.pos, *neighbours(o.pos)):
                if h in table.board and table.board.terrain_at(h).id in skill.drop_on:
                    dropped.add(h)
        events: list[Event] = []
        if dropped:
            for h in sorted(dropped):
                baggage.drop(table.state, h, f.side, skill.loads)
            events.append(BaggageDropped(at=tuple(sorted(dropped))))
        return [o.id for o in affected], None, events

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return False  # a flight, not a plain general's choice: the Jin commander decides it


KIND = RideLight()
