"""A formation's card: what one side may read about a formation it sees, friend or foe.

Everything on a card is what the field shows: the banner, its strength, its bearing, its arms.
What only its own commanders know stays off the cards of other sides: whether it lies in
ambush or holds still for orders, what it did this turn, when its hero's skills are ready again.
A formation the side does not see has no card at all.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import Literal

from ..core import skill_marks
from ..core.movement import MAX_FATIGUE_TO_FORCE, movement_points
from ..core.rules import MAX_EXPERIENCE, Ruleset
from ..core.sides import are_allied, are_enemies
from ..core.skill_marks import EFFECT_NAMES
from ..core.state import Formation, GameState

__all__ = ["TIRED_FATIGUE", "FormationCard", "HeroCard", "SkillCard", "formation_card"]

# From this fatigue a formation counts as tired: it fights at three quarters of its power or less.
TIRED_FATIGUE = 50

# How the side looking stands to the formation's side.
Relation = Literal["own", "ally", "enemy", "neutral"]
# In the order a card lists them. Seen by all: routed, tired. Known to its own side only:
# hidden (in ambush), held (standing still until an event releases it), and, while its side is
# on the move, ready (neither moved nor acted), moved, forced (force-marched), acted.
Status = Literal["routed", "tired", "hidden", "held", "ready", "moved", "forced", "acted"]


@dataclass(frozen=True)
class SkillCard:
    id: str
    name: str  # an English msgid
    passive: bool
    # Turns until it can be used again (0: ready); None when the side looking cannot know.
    cooldown: int | None


@dataclass(frozen=True)
class HeroCard:
    id: str
    name: str  # as the content names him (i18n.name gives the reader's script)
    leadership: int
    martial: int
    aura: int


@dataclass(frozen=True)
class FormationCard:
    unit_id: str
    side: str
    # None when nobody in particular looks (a spectator sees everything).
    relation: Relation | None
    type_id: str
    type_name: str  # an English msgid
    faction: str
    men: int
    max_men: int
    morale: int
    full_morale: int  # the type's morale when fresh
    rout_threshold: int
    fatigue: int
    experience: int
    max_experience: int
    movement: int  # movement points this turn
    forced_movement: int | None  # with a forced march; None when too tired to force one
    melee: bool  # fights formed troops next door
    siege: bool  # may assault a fortress
    missile_range: int  # 0: no missiles
    ammo: int | None  # missiles left; None: without limit (or no missiles)
    thunder_range: int  # hexes to the centre of a palm-thunder strike; 0: no area weapon
    charges: int | None  # palm-thunder charges left; None: no area weapon
    hero: HeroCard | None
    skills: tuple[SkillCard, ...]
    effects: tuple[str, ...]  # ids of the temporary effects on it (EFFECT_NAMES)
    statuses: tuple[Status, ...]

    @property
    def routed(self) -> bool:
        return "routed" in self.statuses


def relation(state: GameState, viewer: str | None, side: str) -> Relation | None:
    if viewer is None:
        return None
    if viewer == side:
        return "own"
    if are_allied(state, viewer, side):
        return "ally"
    return "enemy" if are_enemies(state, viewer, side) else "neutral"


def formation_card(
    state: GameState, rules: Ruleset, viewer: str | None, unit_id: str, seen: Set[str]
) -> FormationCard | None:
    """The card of ``unit_id`` as ``viewer`` may read it (None: everything is told), or None
    when it is not in ``seen`` (the formations the viewer sees) or not on the field."""
    f = state.formations.get(unit_id)
    if f is None or (viewer is not None and unit_id not in seen):
        return None
    rel = relation(state, viewer, f.side)
    insider = rel in (None, "own", "ally")  # its own commanders, or a spectator
    utype = rules.units[f.type]
    hero = rules.heroes.get(f.hero) if f.hero is not None else None
    missiles = utype.range if utype.ranged > 0 else 0
    thunder = max(1, utype.range) if utype.area_power > 0 else 0
    return FormationCard(
        unit_id=f.id,
        side=f.side,
        relation=rel,
        type_id=f.type,
        type_name=utype.name,
        faction=utype.faction,
        men=f.men,
        max_men=f.max_men,
        morale=f.morale,
        full_morale=utype.morale,
        rout_threshold=utype.rout_threshold,
        fatigue=f.fatigue,
        experience=f.experience,
        max_experience=MAX_EXPERIENCE,
        movement=movement_points(f, rules),
        forced_movement=movement_points(f, rules, forced=True) if f.fatigue <= MAX_FATIGUE_TO_FORCE else None,
        melee="no_line_combat" not in utype.abilities,
        siege="siege" in utype.abilities,
        missile_range=missiles,
        ammo=f.ammo if missiles else None,
        thunder_range=thunder,
        charges=f.charges if thunder else None,
        hero=None if hero is None else HeroCard(hero.id, hero.name, hero.leadership, hero.martial, hero.aura),
        skills=tuple(
            SkillCard(s.id, s.name, s.passive, f.cooldowns.get(s.id, 0) if insider else None)
            for s in skill_marks.formation_skills(rules, f)
        ),
        effects=tuple(e for e in sorted(f.effects) if e in EFFECT_NAMES),
        statuses=_statuses(state, f, insider),
    )


def _statuses(state: GameState, f: Formation, insider: bool) -> tuple[Status, ...]:
    out: list[Status] = []
    if f.routed:
        out.append("routed")
    if f.fatigue >= TIRED_FATIGUE:
        out.append("tired")
    if not insider:
        return tuple(out)
    if f.hidden:
        out.append("hidden")
    if f.group is not None and f.group in state.side(f.side).held_groups:
        out.append("held")
    # What it did this turn means something only while its side is on the move: the flags of
    # a side that waits tell what it did in its last turn.
    if f.side == state.active_side.id and not f.routed:
        if not f.moved and not f.acted:
            out.append("ready")
        if f.moved and not f.acted:
            out.append("moved")
        if f.forced:
            out.append("forced")
        if f.acted:
            out.append("acted")
    return tuple(out)
