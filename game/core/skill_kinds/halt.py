"""``halt``: the blades dart into an adjacent enemy's front ranks and out; it loses heart and
cannot move on its next turn (Su Lin's sally)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import morale
from ..hexgrid import distance
from ..rules import Skill
from ..skill_kind import Advisor, Outcome, SkillKind, enemy_target
from ..skill_marks import HALT_REASON, HALTED

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..state import Formation, GameState
    from ..table import Table


def halt_until(state: GameState, side_id: str) -> int:
    """The turn at whose start a halt laid now on ``side_id`` ends: once its next turn is over."""
    later = [s.id for s in state.sides].index(side_id) > state.active
    return state.turn + (1 if later else 2)


class Halt(SkillKind):
    reads = ("morale", "range")
    description = HALT_REASON

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        target = enemy_target(table, f, skill, action)
        target.effects[HALTED] = halt_until(table.state, target.side)
        return [target.id], None, morale.change_morale(table.rules, target, skill.morale, HALT_REASON)

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        # Stop the strongest enemy formation next to the band in its tracks.
        near = [e for e in enemies if distance(e.pos, f.pos) == 1 and not e.routed and HALTED not in e.effects]
        return bool(near) and use.target == max(near, key=lambda e: (e.men, e.id)).id


KIND = Halt()
