"""``downhill_charge``: from high ground onto an enemy the relief has engaged below (上下對衝):
a charge's weight and shock (``skill_marks.downhill``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import vision
from ..errors import IllegalAction
from ..hexgrid import distance
from ..rules import Skill
from ..sides import are_enemies
from ..skill_kind import Advisor, Marker
from ..skill_marks import DOWNHILL, downhill_from

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation
    from ..table import Table


def downhill_targets(table: Table, f: Formation, skill: Skill) -> list[Formation]:
    """Enemies below ``f`` that the relief has come up against: formed enemies next to ``f`` on
    lower ground with a formation of ``f``'s side already next to them. By id."""
    state, board = table.state, table.board
    seen = {o.id for o in vision.seen_formations(state, board, table.rules, f.side)}
    out = []
    for e in sorted(state.formations.values(), key=lambda x: x.id):
        if e.id not in seen or e.routed or distance(e.pos, f.pos) != 1 or not are_enemies(state, f.side, e.side):
            continue
        if not downhill_from(board, skill, f.pos, e.pos):
            continue
        if any(o.id != f.id and not o.routed and distance(o.pos, e.pos) == 1 for o in state.formations_of(f.side)):
            out.append(e)
    return out


class DownhillCharge(Marker):
    reads = ("power", "shock", "duration", "stand_on")
    mark = DOWNHILL

    def allows(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
        if not downhill_targets(table, f, skill):
            raise IllegalAction("no_relief", f"no enemy below {f.id} is engaged by its relief")

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return True  # only open once the relief has struck


KIND = DownhillCharge()
