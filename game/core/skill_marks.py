"""What a skill leaves on a formation and what that does to a fight: the effect ids a formation
carries (``Formation.effects``) and their names, which skills a formation has, and the combat
modifiers and shocks its skills give. Read by combat as well as by the skills themselves, so it
imports neither.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from . import morale
from .board import Board
from .duel import DUELLING
from .hexgrid import Hex, distance
from .msgid import N_
from .rules import Ruleset, RulesKey, Skill
from .state import Formation, GameState

# Effect ids (keys of Formation.effects).
NO_ROUT = morale.NO_ROUT
BREAKTHROUGH = "breakthrough"
MAY_MOVE_AFTER_ATTACK = "may_move_after_attack"
VERSE = "verse"
RIDE_LIGHT = "ride_light"
SWORD_SURGE = "sword_surge"
FORCED_COLUMN = "forced_column"
HOLD_HILL = "hold_hill"
DOWNHILL = "downhill_charge"
LANE_CHARGE = "lane_charge"
HALTED = "halted"

# What the unit panel calls each effect.
EFFECT_NAMES: dict[str, str] = {
    NO_ROUT: N_("Cannot rout"),
    BREAKTHROUGH: N_("Breakthrough"),
    MAY_MOVE_AFTER_ATTACK: N_("May ride on"),
    VERSE: N_("Inspired by verse"),
    RIDE_LIGHT: N_("Riding light"),
    SWORD_SURGE: N_("Sword unsheathed"),
    FORCED_COLUMN: N_("Forced column"),
    HOLD_HILL: N_("Holding the hill"),
    DOWNHILL: N_("Charging downhill"),
    DUELLING: N_("In single combat"),
    LANE_CHARGE: N_("Charging through the lane"),
    HALTED: N_("Halted"),
}

# Names of combat modifiers and reasons of morale changes (English msgids).
SEALING_SWORD = N_("Sealing Sword")
VERSE_MODIFIER = N_("Verse")
HILL_MODIFIER = N_("Holding the hill")
DOWNHILL_MODIFIER = N_("Downhill charge")
RIVER_REASON = N_("Backs to the river")
VERSE_REASON = N_("Verse")
OFFICERS_SLAIN = N_("Officers cut down")
OFFICER_KILLS_NEARBY = N_("Enemy officers cut down")
BANNER_REASON = N_("The Yue banner")
RAID_WOUNDED = N_("Commander struck down")
RAID_FAILED = N_("A note on the helmet")
SABOTAGE_REASON = N_("Sabotage")
REFORMED_REASON = N_("Re-formed")
HALT_REASON = N_("The blades' sally")


# -- which skills a formation has ---------------------------------------------------------------


def formation_skills(rules: Ruleset, f: Formation) -> list[Skill]:
    """The hero's skills, then those of the unit type, each once; a skill limited to other unit
    types is left out."""
    return list(_skills_of(RulesKey(rules), f.hero, f.type))


@lru_cache(maxsize=1 << 10)
def _skills_of(key: RulesKey, hero: str | None, unit_type: str) -> tuple[Skill, ...]:
    """``formation_skills`` of a formation led by ``hero`` (None: no hero) of ``unit_type``:
    every attack the general weighs asks for both sides' skills."""
    rules = key.rules
    ids: list[str] = []
    if hero is not None and hero in rules.heroes:
        ids.extend(s for s in rules.heroes[hero].skills if s in rules.skills)
    for sid in sorted(rules.skills):
        if unit_type in rules.skills[sid].granted_to and sid not in ids:
            ids.append(sid)
    skills = [rules.skills[sid] for sid in ids]
    return tuple(s for s in skills if not s.only_units or unit_type in s.only_units)


def passive_skill(rules: Ruleset, f: Formation, effect: str) -> Skill | None:
    for skill in _skills_of(RulesKey(rules), f.hero, f.type):
        if skill.passive and skill.effect == effect:
            return skill
    return None


def effect_skill(rules: Ruleset, effect: str) -> Skill | None:
    """The skill that sets an effect id, for its numbers (the first by id if several do)."""
    for sid in sorted(rules.skills):
        if rules.skills[sid].effect == effect:
            return rules.skills[sid]
    return None


def area_radius(rules: Ruleset, f: Formation, skill: Skill) -> int:
    if skill.radius:
        return skill.radius
    return rules.heroes[f.hero].aura if f.hero is not None else 0


def friends_within(state: GameState, f: Formation, radius: int) -> list[Formation]:
    """Formations of ``f``'s side within ``radius`` of it, ``f`` included, by id."""
    return [o for o in state.formations_of(f.side) if distance(o.pos, f.pos) <= radius]


# -- passive skills -----------------------------------------------------------------------------


def _sword_bonus(state: GameState, rules: Ruleset, f: Formation, skill: Skill) -> int:
    """The Sealing Sword: a bonus while the bearer leads a formation of this side, larger within
    his aura, larger still while he holds the sword up."""
    if skill.bearer is None:
        return 0
    bearer = next((o for o in state.formations_of(f.side) if o.hero == skill.bearer), None)
    if bearer is None:
        return 0
    percent = skill.power
    if distance(bearer.pos, f.pos) <= rules.heroes[skill.bearer].aura:
        percent = max(percent, skill.near_power)
    if SWORD_SURGE in bearer.effects:
        surge = effect_skill(rules, SWORD_SURGE)
        percent += surge.power if surge is not None else 0
    return percent


def skill_modifiers(
    state: GameState, rules: Ruleset, f: Formation
) -> list[tuple[str, int, Literal["power", "defence"]]]:
    """(name msgid, percent, "power" or "defence") for every skill effect on ``f``."""
    mods: list[tuple[str, int, Literal["power", "defence"]]] = []
    sword = passive_skill(rules, f, "sealing_sword")
    if sword is not None:
        percent = _sword_bonus(state, rules, f, sword)
        if percent:
            mods.append((SEALING_SWORD, percent, "power"))
    if VERSE in f.effects:
        verse = effect_skill(rules, VERSE)
        if verse is not None and verse.power:
            mods.append((VERSE_MODIFIER, verse.power, "power"))
    if HOLD_HILL in f.effects:
        hill = effect_skill(rules, HOLD_HILL)
        if hill is not None and hill.defence:
            mods.append((HILL_MODIFIER, hill.defence, "defence"))
    return mods


def downhill(board: Board, rules: Ruleset, attacker: Formation, defender: Formation) -> Skill | None:
    """The downhill charge (上下對衝) that ``attacker`` makes on ``defender`` in melee, if any: it
    is charging this turn, stands on high ground, and the enemy is below it."""
    if DOWNHILL not in attacker.effects:
        return None
    skill = effect_skill(rules, DOWNHILL)
    if skill is None or not downhill_from(board, skill, attacker.pos, defender.pos):
        return None
    return skill


def downhill_from(board: Board, skill: Skill, at: Hex, target: Hex) -> bool:
    high = skill.stand_on
    return board.terrain_at(at).id in high and board.terrain_at(target).id not in high


def attack_shock(rules: Ruleset, attacker: Formation, mode: str) -> int:
    """Morale the defender will lose to the attacker's skills after the blow (for the forecast)."""
    skill = passive_skill(rules, attacker, "officer_kills") if mode == "melee" else None
    return -skill.morale if skill is not None else 0
