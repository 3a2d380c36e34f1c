"""Heroes' signature skills (README "How to play"): the Use-skill action, temporary effects and
passive skills.

A formation has the skills its hero lists plus those granted to its unit type (skills.toml).
Active skills are actions with cooldowns (``Formation.cooldowns``); most set temporary effects
(``Formation.effects``: effect id -> the turn at whose start, for that side, it ends). Some
effect ids are honoured by other modules: ``no_rout`` (morale), ``breakthrough`` and
``ride_light`` (movement), ``verse`` (souls), ``forced_column`` and ``may_move_after_attack``
(the engine's move checks), ``downhill_charge`` (combat). Passive skills work through
``skill_modifiers`` (combat), ``after_attack`` and ``start_of_turn``. Each effect kind is a
module of ``game.core.skill_kinds``; this module checks and applies a use the same way for all.
"""

from __future__ import annotations

from . import morale
from .actions import UseSkill
from .combat import CombatSetup
from .errors import IllegalAction
from .events import Attacked, Destroyed, Event, Routed, SkillUsed
from .hexgrid import Hex, distance, spiral
from .rules import Ruleset, Skill
from .skill_kind import enemy_target
from .skill_kinds import SKILLS
from .skill_kinds.banner import KIND as BANNER
from .skill_kinds.downhill_charge import downhill_targets
from .skill_kinds.halt import halt_until
from .skill_kinds.lane import LanePlan, lane_forecast, lane_plan
from .skill_kinds.officer_kills import KIND as OFFICER_KILLS
from .skill_kinds.raid import raid_chance
from .skill_marks import BREAKTHROUGH, DOWNHILL, MAY_MOVE_AFTER_ATTACK, formation_skills
from .state import Formation
from .table import Table

__all__ = [
    "LanePlan",
    "after_attack",
    "after_combat",
    "apply",
    "check",
    "downhill_targets",
    "halt_until",
    "lane_forecast",
    "lane_plan",
    "legal_uses",
    "raid_chance",
    "ready",
    "start_of_turn",
    "targets",
]


def after_attack(engine: Table, attacker: Formation, defender: Formation, setup: CombatSetup) -> list[Event]:
    """Yue Fei's officer kills: every melee blow of his formation fells officers, which shakes
    the defender and heartens his own men nearby."""
    return OFFICER_KILLS.after_attack(engine, attacker, defender, setup)


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
    return BANNER.start_of_turn(engine, side_id)


# -- using a skill ------------------------------------------------------------------------------


def _skill_of(rules: Ruleset, f: Formation, skill_id: str) -> Skill:
    for skill in formation_skills(rules, f):
        if skill.id == skill_id:
            return skill
    raise IllegalAction("unknown_skill", f"{f.id} has no skill {skill_id!r}")


def _check_aim(engine: Table, f: Formation, skill: Skill, action: UseSkill) -> None:
    if skill.target == "enemy":
        enemy_target(engine, f, skill, action)
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
    kind = SKILLS.get(skill.effect)
    kind.allows(engine, f, skill, action)
    if kind.idle(engine, f, skill):
        raise IllegalAction("no_effect", f"{skill.id} would do nothing now")


def apply(engine: Table, f: Formation, action: UseSkill) -> list[Event]:
    """Carry out a skill use that ``check`` accepted."""
    skill = engine.rules.skills[action.skill]
    used = SkillUsed(unit=f.id, hero=f.hero, skill=skill.id, target=action.target, at=action.at)
    affected, succeeded, events = SKILLS.get(skill.effect).use(engine, f, skill, action)
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
