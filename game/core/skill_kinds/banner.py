"""``banner``: passive, the enemies near the banner lose heart at the start of their turn (the
Yue banner)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale
from ..hexgrid import distance
from ..sides import are_enemies
from ..skill_kind import Passive
from ..skill_marks import BANNER_REASON, passive_skill

if TYPE_CHECKING:
    from ..events import Event
    from ..table import Table


class Banner(Passive):
    reads = ("morale", "radius")
    description = BANNER_REASON

    def start_of_turn(self, table: Table, side_id: str) -> list[Event]:
        state, rules = table.state, table.rules
        banners = [
            (f, skill)
            for f in (state.formations[k] for k in sorted(state.formations))
            if not f.routed and (skill := passive_skill(rules, f, self.name)) is not None
        ]
        if not banners:
            return []
        events: list[Event] = []
        for f in state.formations_of(side_id):
            blows = [
                skill.morale
                for holder, skill in banners
                if are_enemies(state, holder.side, f.side) and distance(holder.pos, f.pos) <= skill.radius
            ]
            if blows:
                events += morale.change_morale(rules, f, min(blows), BANNER_REASON)
        return events


KIND = Banner()
