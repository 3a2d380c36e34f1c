"""``lane``: the friends on the line to an enemy step aside and the formation charges down the
lane and strikes with a charge's weight (Han Xin's order)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import combat, vision
from ..combat import Forecast
from ..errors import IllegalAction
from ..events import Event, Moved
from ..hexgrid import Hex, distance, line, neighbours
from ..movement import movement_points
from ..rules import Skill
from ..sides import closed_hexes
from ..skill_kind import Advisor, Outcome, SkillKind, until
from ..skill_marks import EFFECT_NAMES, LANE_CHARGE
from ..state import Formation, GameState, copy_state

if TYPE_CHECKING:
    from ..actions import UseSkill
    from ..table import Table


@dataclass(frozen=True)
class LanePlan:
    """How a lane opens: the friends who step aside (id, from, to) and the hexes the charge runs
    over, from the charging formation's hex to the one next to its target."""

    steps_aside: tuple[tuple[str, Hex, Hex], ...]
    path: tuple[Hex, ...]


def lane_plan(engine: Table, f: Formation, skill: Skill, target: Formation) -> LanePlan | str:
    """The lane from ``f`` straight to ``target``, or why there is none (an IllegalAction reason):
    the hexes between must be ground ``f`` can cross within a forced march, free of anyone but its
    own side's formations, and each of those must have a free hex beside the lane to step to."""
    state, board, rules = engine.state, engine.board, engine.rules
    between = line(f.pos, target.pos)[1:-1]
    if not between:
        return "adjacent"
    move_class = rules.units[f.type].move_class
    closed = closed_hexes(state, board, f.side)
    occupancy = state.occupancy()
    cost = 0
    for h in between:
        step = board.move_cost(h, move_class) if h in board else None
        if step is None or h in closed:
            return "lane_blocked"
        who = occupancy.get(h)
        if who is not None and state.formations[who].side != f.side:
            return "lane_blocked"
        cost += step
    if cost > movement_points(f, rules, forced=True):
        return "too_far"  # a charge runs as far as a forced march
    lane = {f.pos, target.pos, *between}
    taken = set(occupancy)
    steps: list[tuple[str, Hex, Hex]] = []
    for h in between:
        who = occupancy.get(h)
        if who is None:
            continue
        friend = state.formations[who]
        friend_class = rules.units[friend.type].move_class
        room = [
            n
            for n in neighbours(h)
            if n in board
            and n not in lane
            and n not in taken
            and n not in closed
            and board.move_cost(n, friend_class) is not None
        ]
        if not room:
            return "no_room"
        # The friend steps to the side nearest the enemy: the line still faces him.
        to = min(room, key=lambda n: (distance(n, target.pos), n))
        taken.add(to)
        steps.append((who, h, to))
    return LanePlan(steps_aside=tuple(steps), path=(f.pos, *between))


def open_lane(state: GameState, f: Formation, plan: LanePlan, until: int) -> None:
    """Put the plan on the board: friends aside, the charging formation at the end of the lane."""
    for who, _frm, to in plan.steps_aside:
        state.formations[who].pos = to
    f.pos = plan.path[-1]
    f.moved = True
    f.charge_run = len(plan.path) - 1
    f.effects[LANE_CHARGE] = until


def lane_forecast(engine: Table, f: Formation, action: UseSkill) -> Forecast | None:
    """The odds of the charge an Open-the-lane order would make (None if it cannot be given):
    worked out on a copy of the board with the lane opened, as the order itself will fight."""

    skill = engine.rules.skills[action.skill]
    target = engine.state.formations.get(action.target or "")
    if target is None:
        return None
    plan = lane_plan(engine, f, skill, target)
    if isinstance(plan, str):
        return None
    state = copy_state(engine.state)
    charger = state.formations[f.id]
    open_lane(state, charger, plan, until(engine, skill))
    setup = combat.setup_attack(state, engine.board, engine.rules, charger, state.formations[target.id])
    return combat.forecast_from(setup)


class Lane(SkillKind):
    reads = ("range", "duration")
    description = EFFECT_NAMES[LANE_CHARGE]

    def allows(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
        plan = lane_plan(table, f, skill, table.state.formations[action.target or ""])
        if isinstance(plan, str):
            raise IllegalAction(plan, f"{f.id} cannot charge {action.target} through a lane: {plan}")

    def use(self, table: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        state = table.state
        target = state.formations[action.target or ""]
        plan = lane_plan(table, f, skill, target)
        assert not isinstance(plan, str)
        open_lane(state, f, plan, until(table, skill))
        events: list[Event] = [Moved(unit=who, path=(frm, to)) for who, frm, to in plan.steps_aside]
        events.append(Moved(unit=f.id, path=plan.path))
        events += vision.refresh_explored(state, table.board, table.rules, f.side)
        events += table.strike(f, target)
        return [who for who, _frm, _to in plan.steps_aside], None, events

    def hint(self, advisor: Advisor, f: Formation, use: UseSkill, enemies: list[Formation]) -> bool:
        return use.target is not None and use.target == advisor.lane_target(f, use.skill)


KIND = Lane()
