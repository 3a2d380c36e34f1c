"""Heroes' signature skills (README "How to play"): the Use-skill action, temporary effects and
passive skills.

A formation has the skills its hero lists plus those granted to its unit type (skills.toml).
Active skills are actions with cooldowns (``Formation.cooldowns``); most set temporary effects
(``Formation.effects``: effect id -> the turn at whose start, for that side, it ends). Some
effect ids are honoured by other modules: ``no_rout`` (morale), ``breakthrough`` and
``ride_light`` (movement), ``verse`` (souls), ``forced_column`` and ``may_move_after_attack``
(the engine's move checks), ``downhill_charge`` (combat). Passive skills work through ``skill_modifiers`` (combat),
``after_attack`` and ``start_of_turn``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import baggage, combat, morale, officers, vision
from .actions import UseSkill
from .combat import CombatSetup, Forecast
from .duel import wound_hero
from .errors import IllegalAction
from .events import Attacked, BaggageDropped, Destroyed, Event, Moved, Rallied, Routed, SkillUsed, SoulsDrifted
from .hexgrid import Hex, distance, line, neighbours, spiral
from .movement import movement_points
from .rules import Ruleset, Skill
from .sides import are_enemies, closed_hexes
from .skill_marks import (
    BANNER_REASON,
    BREAKTHROUGH,
    DOWNHILL,
    FORCED_COLUMN,
    HALT_REASON,
    HALTED,
    HOLD_HILL,
    LANE_CHARGE,
    MAY_MOVE_AFTER_ATTACK,
    NO_ROUT,
    OFFICER_KILLS_NEARBY,
    OFFICERS_SLAIN,
    RAID_FAILED,
    RAID_WOUNDED,
    REFORMED_REASON,
    RIDE_LIGHT,
    RIVER_REASON,
    SABOTAGE_REASON,
    SWORD_SURGE,
    VERSE,
    VERSE_REASON,
    area_radius,
    downhill_from,
    formation_skills,
    friends_within,
    passive_skill,
)
from .state import Formation, GameState, copy_state
from .table import Table


def downhill_targets(engine: Table, f: Formation, skill: Skill) -> list[Formation]:
    """Enemies below ``f`` that the relief has come up against: formed enemies next to ``f`` on
    lower ground with a formation of ``f``'s side already next to them. By id."""
    state, board = engine.state, engine.board
    seen = {o.id for o in vision.seen_formations(state, board, engine.rules, f.side)}
    out = []
    for e in sorted(state.formations.values(), key=lambda x: x.id):
        if e.id not in seen or e.routed or distance(e.pos, f.pos) != 1 or not are_enemies(state, f.side, e.side):
            continue
        if not downhill_from(board, skill, f.pos, e.pos):
            continue
        if any(o.id != f.id and not o.routed and distance(o.pos, e.pos) == 1 for o in state.formations_of(f.side)):
            out.append(e)
    return out


def after_attack(engine: Table, attacker: Formation, defender: Formation, setup: CombatSetup) -> list[Event]:
    """Yue Fei's officer kills: every melee blow of his formation fells officers, which shakes
    the defender and heartens his own men nearby."""
    if setup.mode != "melee":
        return []
    skill = passive_skill(engine.rules, attacker, "officer_kills")
    if skill is None:
        return []
    events = morale.change_morale(engine.rules, defender, skill.morale, OFFICERS_SLAIN)
    for friend in friends_within(engine.state, attacker, skill.radius):
        if not friend.routed:
            events += morale.change_morale(engine.rules, friend, skill.area_morale, OFFICER_KILLS_NEARBY)
    # The scenario's named officers fall one by one, each lifting the hero's men.
    return events + officers.cut_down(engine, attacker, defender)


def after_combat(engine: Table, attacker: Formation, defender: Formation, events: list[Event]) -> list[Event]:
    """A breakthrough charge, or a downhill charge, that broke or destroyed the defender in melee
    may ride on: the formation may move again this turn (it still cannot fight again)."""
    state = engine.state
    if attacker.id not in state.formations or attacker.routed:
        return []
    if BREAKTHROUGH not in attacker.effects and DOWNHILL not in attacker.effects:
        return []
    melee = any(isinstance(e, Attacked) and e.unit == attacker.id and e.mode == "melee" for e in events)
    broke = any(isinstance(e, Routed | Destroyed) and e.unit == defender.id for e in events)
    if melee and broke and attacker.acted:
        attacker.moved = False
        attacker.effects[MAY_MOVE_AFTER_ATTACK] = state.turn + 1
    return []


def start_of_turn(engine: Table, side_id: str) -> list[Event]:
    """The Yue banner: formations of the side whose turn starts lose morale near it."""
    state, rules = engine.state, engine.rules
    banners = [
        (f, skill)
        for f in (state.formations[k] for k in sorted(state.formations))
        if not f.routed and (skill := passive_skill(rules, f, "banner")) is not None
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


# -- using a skill ------------------------------------------------------------------------------


def _skill_of(rules: Ruleset, f: Formation, skill_id: str) -> Skill:
    for skill in formation_skills(rules, f):
        if skill.id == skill_id:
            return skill
    raise IllegalAction("unknown_skill", f"{f.id} has no skill {skill_id!r}")


def _enemy_target(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Formation:
    if action.target is None or action.at is not None:
        raise IllegalAction("bad_target", f"{skill.id} is aimed at an enemy formation")
    target = engine.formation(action.target)
    if not vision.sees_formation(engine.state, engine.board, engine.rules, f.side, target):
        raise IllegalAction("unseen", f"{f.side} cannot see {target.id}")
    if not are_enemies(engine.state, f.side, target.side):
        raise IllegalAction("not_an_enemy", f"{target.id} is not an enemy of {f.id}")
    if distance(f.pos, target.pos) > skill.range:
        raise IllegalAction("out_of_range", f"{target.id} is out of range of {skill.id}")
    if skill.effect == "raid" and target.hero is None:
        raise IllegalAction("no_hero", f"{target.id} has no commander to strike at")
    return target


def _check_aim(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
    if skill.target == "enemy":
        _enemy_target(engine, f, skill, action)
        return
    if skill.target == "hex":
        if action.at is None or action.target is not None:
            raise IllegalAction("bad_target", f"{skill.id} is aimed at a hex")
        at = Hex(*action.at)
        if at not in engine.board:
            raise IllegalAction("off_map", f"{at.key()} is not on the map")
        if distance(f.pos, at) > skill.range:
            raise IllegalAction("out_of_range", f"{at.key()} is out of range of {skill.id}")
        return
    if action.target is not None or action.at is not None:
        raise IllegalAction("bad_target", f"{skill.id} takes no target")


def _affected(engine: Table, f: Formation, skill: Skill) -> list[Formation]:
    """The formations of the user's side a self, area or side-wide skill works on."""
    state, rules = engine.state, engine.rules
    if skill.effect == "reform":
        return [o for o in friends_within(state, f, area_radius(rules, f, skill)) if _reformable(rules, o)]
    if skill.target == "self":
        pool = [f]
    elif skill.target == "ally_area":
        pool = friends_within(state, f, area_radius(rules, f, skill))
    elif skill.target == "none":
        pool = state.formations_of(f.side)
    else:
        return []
    return [
        o
        for o in pool
        if not o.routed
        and (not skill.affects or o.type in skill.affects)
        and (not skill.move_classes or rules.units[o.type].move_class in skill.move_classes)
    ]


def _reformable(rules: Ruleset, f: Formation) -> bool:
    return f.routed and "soul" in rules.units[f.type].abilities


def _returning_souls(engine: Table, f: Formation, skill: Skill) -> list[tuple[str, int]]:
    """("q,r", count) of the user's side's wandering souls within reach, sorted by hex."""
    out = []
    for key in sorted(engine.state.field_souls):
        n = engine.state.field_souls[key].get(f.side, 0)
        if n > 0 and distance(Hex.parse(key), f.pos) <= skill.souls_radius:
            out.append((key, n))
    return out


def _has_room(engine: Table, f: Formation, skill: Skill) -> bool:
    radius = area_radius(engine.rules, f, skill)
    return any(o.men < o.max_men for o in friends_within(engine.state, f, radius))


def check(engine: Table, f: Formation, action: UseSkill) -> None:
    """Everything about a skill use beyond the formation being ready to act (the engine checks
    that first). Raises IllegalAction; changes nothing."""
    skill = _skill_of(engine.rules, f, action.skill)
    if skill.passive:
        raise IllegalAction("passive_skill", f"{skill.id} works by itself and cannot be used")
    left = f.cooldowns.get(skill.id, 0)
    if left > 0:
        raise IllegalAction("cooldown", f"{skill.id} is ready again in {left} turn(s)")
    if skill.before_move and f.moved:
        raise IllegalAction("already_moved", f"{skill.id} must be used before {f.id} moves")
    if skill.stand_on and engine.board.terrain_at(f.pos).id not in skill.stand_on:
        raise IllegalAction("wrong_ground", f"{f.id} must stand on {', '.join(skill.stand_on)} to use {skill.id}")
    _check_aim(engine, f, skill, action)
    if skill.effect == "downhill_charge" and not downhill_targets(engine, f, skill):
        raise IllegalAction("no_relief", f"no enemy below {f.id} is engaged by its relief")
    if skill.effect == "lane":
        plan = lane_plan(engine, f, skill, engine.state.formations[action.target or ""])
        if isinstance(plan, str):
            raise IllegalAction(plan, f"{f.id} cannot charge {action.target} through a lane: {plan}")
    if _does_nothing(engine, f, skill):
        raise IllegalAction("no_effect", f"{skill.id} would do nothing now")


def _does_nothing(engine: Table, f: Formation, skill: Skill) -> bool:
    """An unaimed skill with no formation to work on (re-forming may still gather souls)."""
    if skill.target not in ("self", "ally_area", "none") or _affected(engine, f, skill):
        return False
    if skill.effect == "reform":
        return not (_returning_souls(engine, f, skill) and _has_room(engine, f, skill))
    return True


def apply(engine: Table, f: Formation, action: UseSkill) -> list[Event]:
    """Carry out a skill use that ``check`` accepted."""
    skill = engine.rules.skills[action.skill]
    used = SkillUsed(unit=f.id, hero=f.hero, skill=skill.id, target=action.target, at=action.at)
    affected, succeeded, events = EFFECTS[skill.effect](engine, f, skill, action)
    if skill.cooldown:
        f.cooldowns[skill.id] = skill.cooldown
    if skill.acts:
        f.acted = True
        f.moved = True
    if skill.holds:
        f.moved = True
    used = used.model_copy(update={"affected": tuple(affected), "succeeded": succeeded})
    return [used, *events, *morale.check_routs(engine.state, engine.rules)]


def legal_uses(engine: Table, unit_id: str) -> list[UseSkill]:
    """Every UseSkill action the formation could take now, in a stable order."""
    f = engine.state.formations.get(unit_id)
    if f is None or not engine.can_act(f):
        return []
    out: list[UseSkill] = []
    for skill in formation_skills(engine.rules, f):
        if skill.passive:
            continue
        for action in _candidates(engine, f, skill):
            try:
                check(engine, f, action)
            except IllegalAction:
                continue
            out.append(action)
    return out


def _candidates(engine: Table, f: Formation, skill: Skill) -> list[UseSkill]:
    if skill.target == "enemy":
        formations = engine.state.formations
        if 3 * skill.range * (skill.range + 1) + 1 < len(formations):
            occupied = engine.state.occupancy()  # few hexes in range: look them up
            near = [formations[occupied[h]] for h in spiral(f.pos, skill.range) if h in occupied]
        else:
            near = [e for e in formations.values() if distance(e.pos, f.pos) <= skill.range]
        return [
            UseSkill(unit=f.id, skill=skill.id, target=e.id)
            for e in sorted(near, key=lambda x: x.id)
            if e.side != f.side
        ]
    if skill.target == "hex":
        return [
            UseSkill(unit=f.id, skill=skill.id, at=h) for h in sorted(spiral(f.pos, skill.range)) if h in engine.board
        ]
    return [UseSkill(unit=f.id, skill=skill.id)]


def ready(engine: Table, f: Formation, skill_id: str) -> bool:
    """Whether the skill could be used now against at least one target (for buttons and the AI)."""
    return any(a.skill == skill_id for a in legal_uses(engine, f.id))


def targets(engine: Table, f: Formation, skill_id: str) -> list[UseSkill]:
    return [a for a in legal_uses(engine, f.id) if a.skill == skill_id]


# -- effect kinds -------------------------------------------------------------------------------

Outcome = tuple[list[str], bool | None, list[Event]]


def _until(engine: Table, skill: Skill) -> int:
    return engine.state.turn + skill.duration


def _marker(effect: str, reason: str = "") -> Callable[..., Outcome]:
    """An effect kind that marks the formations affected (and changes their morale)."""

    def run(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
        affected = _affected(engine, f, skill)
        events: list[Event] = []
        for o in affected:
            o.effects[effect] = _until(engine, skill)
            if reason:
                events += morale.change_morale(engine.rules, o, skill.morale, reason)
        return [o.id for o in affected], None, events

    return run


def _hold_hill(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    f.effects[HOLD_HILL] = _until(engine, skill)
    f.effects[NO_ROUT] = _until(engine, skill)
    return [f.id], None, []


def _raid(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    """Go for the enemy commander: success wounds him, failure leaves a note and a fright and
    shows where the raiders are."""
    rules = engine.rules
    target = _enemy_target(engine, f, skill, action)
    assert target.hero is not None
    chance = raid_chance(rules, f, skill, target)
    if engine.rng().randint(1, 100) <= chance:
        events = wound_hero(
            engine,
            target,
            own_delta=skill.morale,
            area_delta=skill.area_morale,
            radius=skill.radius,
            reason=RAID_WOUNDED,
        )
        return [target.id], True, events
    events = morale.change_morale(rules, target, skill.fail_morale, RAID_FAILED)
    if f.hidden:
        f.hidden = False
        events += vision.revealed(f, target.id)
    return [target.id], False, events


def raid_chance(rules: Ruleset, f: Formation, skill: Skill, target: Formation) -> int:
    """Percent chance that a raid by ``f`` wounds the hero of ``target``."""
    if target.hero is None:
        return 0
    martial = rules.heroes[f.hero].martial if f.hero is not None else skill.martial
    return max(5, min(95, skill.chance + martial - rules.heroes[target.hero].martial))


def _sabotage(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    target = _enemy_target(engine, f, skill, action)
    return [target.id], None, morale.change_morale(engine.rules, target, skill.morale, SABOTAGE_REASON)


def _reform(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    """Routed soul formations in the aura rally at once; the side's souls near the hero rejoin
    the ranks of the nearest formations around him that have room (men are conserved)."""
    state, rules = engine.state, engine.rules
    events: list[Event] = []
    rallied = _affected(engine, f, skill)
    for o in rallied:
        utype = rules.units[o.type]
        o.routed = False
        goal = min(utype.morale, utype.rout_threshold + skill.morale)
        events += morale.change_morale(rules, o, max(0, goal - o.morale), REFORMED_REASON)
        events.append(Rallied(unit=o.id))
    ranks = friends_within(state, f, area_radius(rules, f, skill))
    for key, count in _returning_souls(engine, f, skill):
        at = Hex.parse(key)
        left = count
        for o in sorted(ranks, key=lambda x: (distance(x.pos, at), x.id)):
            joined = min(left, o.max_men - o.men)
            if joined <= 0:
                continue
            o.men += joined
            left -= joined
            _take_souls(state, key, f.side, joined)
            events.append(SoulsDrifted(at=at, count=joined, into=o.id))
            if left == 0:
                break
    return [o.id for o in rallied], None, events


def _take_souls(state: GameState, key: str, side_id: str, count: int) -> None:
    by_side = state.field_souls[key]
    by_side[side_id] -= count
    if by_side[side_id] <= 0:
        del by_side[side_id]
    if not by_side:
        del state.field_souls[key]


def _ride_light(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    """Horse rides faster; what it leaves behind lies on the roads around it."""
    affected = _affected(engine, f, skill)
    dropped: set[Hex] = set()
    for o in affected:
        o.effects[RIDE_LIGHT] = _until(engine, skill)
        for h in (o.pos, *neighbours(o.pos)):
            if h in engine.board and engine.board.terrain_at(h).id in skill.drop_on:
                dropped.add(h)
    events: list[Event] = []
    if dropped:
        for h in sorted(dropped):
            baggage.drop(engine.state, h, f.side, skill.loads)
        events.append(BaggageDropped(at=tuple(sorted(dropped))))
    return [o.id for o in affected], None, events


# -- Han Xin's lane ---------------------------------------------------------------------------------


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


def _open_lane(state: GameState, f: Formation, plan: LanePlan, until: int) -> None:
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
    _open_lane(state, charger, plan, _until(engine, skill))
    setup = combat.setup_attack(state, engine.board, engine.rules, charger, state.formations[target.id])
    return combat.forecast_from(setup)


def _lane(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    """Han Xin's order: the friends on the line to the enemy step aside, and the formation
    charges down the lane and strikes with a charge's weight."""
    state = engine.state
    target = state.formations[action.target or ""]
    plan = lane_plan(engine, f, skill, target)
    assert not isinstance(plan, str)
    _open_lane(state, f, plan, _until(engine, skill))
    events: list[Event] = [Moved(unit=who, path=(frm, to)) for who, frm, to in plan.steps_aside]
    events.append(Moved(unit=f.id, path=plan.path))
    events += vision.refresh_explored(state, engine.board, engine.rules, f.side)
    events += engine.strike(f, target)
    return [who for who, _frm, _to in plan.steps_aside], None, events


# -- Su Lin's sally ---------------------------------------------------------------------------------


def halt_until(state: GameState, side_id: str) -> int:
    """The turn at whose start a halt laid now on ``side_id`` ends: once its next turn is over."""
    later = [s.id for s in state.sides].index(side_id) > state.active
    return state.turn + (1 if later else 2)


def _halt(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> Outcome:
    """The blades dart into an enemy's front ranks and out: it loses heart and stands still."""
    target = _enemy_target(engine, f, skill, action)
    target.effects[HALTED] = halt_until(engine.state, target.side)
    return [target.id], None, morale.change_morale(engine.rules, target, skill.morale, HALT_REASON)


EFFECTS: dict[str, Callable[[Table, Formation, Skill, UseSkill], Outcome]] = {
    "no_rout": _marker(NO_ROUT, RIVER_REASON),
    "breakthrough": _marker(BREAKTHROUGH),
    "raid": _raid,
    "sabotage": _sabotage,
    "sword_surge": _marker(SWORD_SURGE),
    "verse": _marker(VERSE, VERSE_REASON),
    "forced_column": _marker(FORCED_COLUMN),
    "hold_hill": _hold_hill,
    "reform": _reform,
    "ride_light": _ride_light,
    "downhill_charge": _marker(DOWNHILL),
    "lane": _lane,
    "halt": _halt,
}
