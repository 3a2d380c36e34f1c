"""The data that defines the game's pieces: terrain, unit types, heroes and factions.

These are validated pydantic models; ``game.content`` fills them from TOML files. Display
names are English msgids that the UI translates with gettext.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

Colour = tuple[int, int, int]
# A formation's experience is counted in battles fought, up to this.
MAX_EXPERIENCE = 10

Ability = Literal[
    "skirmisher",  # ignores enemy zones of control
    "infiltrator",  # ignores zones of control and is hard to see
    "ambush",  # may hide in forest, hills and passes
    "charge",  # cavalry charge over open ground
    "no_line_combat",  # may not attack formed troops
    "siege",  # may assault a fortress
    "soul",  # made of souls: a routed formation can be bagged whole
    "sword_spirit",  # one of the twelve spirits of the Sealing Sword
]


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class TerrainType(_Strict):
    id: str
    name: str
    # Movement points needed to enter, per movement class; a class that is missing cannot enter.
    # Each cost is at least 1; a bad one is reported as ``move_cost.<class>``.
    move_cost: dict[str, Annotated[int, Field(ge=1)]] = Field(default_factory=dict)
    # Percent added to the defence of a formation standing here (negative is a penalty).
    defence: int = Field(0, ge=-50, le=300)
    # Open ground lets cavalry charge.
    open: bool = True
    # Formations with the ambush ability can hide here.
    cover: bool = False
    # Hides what lies beyond it from sight (the hex itself can be seen).
    blocks_sight: bool = False
    # Extra hexes of sight for a formation standing here (high ground).
    vision_bonus: int = Field(0, ge=0, le=3)
    # Only formations with the siege ability may attack a formation standing here.
    fortress: bool = False


class UnitType(_Strict):
    id: str
    name: str
    # One character shown on the banner when no hero leads the formation.
    char: str = Field(min_length=1, max_length=1)
    faction: str
    move_class: str
    movement: int = Field(ge=1, le=20)
    # Fighting power per man in melee; an elite is worth an order of magnitude more than a levy.
    melee: float = Field(gt=0, le=100)
    # Toughness per man: damage taken is divided by this.
    defence: float = Field(gt=0, le=100)
    vision: int = Field(3, ge=1, le=12)
    morale: int = Field(70, ge=1, le=100)
    rout_threshold: int = Field(25, ge=0, le=100)
    capture_rate: float = Field(0.1, ge=0, le=10)
    fatigue_rate: float = Field(1.0, ge=0, le=10)
    # Missile power per man, range in hexes and shots per battle (None: unlimited).
    ranged: float = Field(0.0, ge=0, le=100)
    range: int = Field(0, ge=0, le=6)
    ammo: int | None = Field(None, ge=0, le=99)
    # An area weapon (palm thunder): power per man against a hex and its neighbours, charges per battle.
    area_power: float = Field(0.0, ge=0, le=100)
    area_charges: int = Field(0, ge=0, le=9)
    abilities: tuple[Ability, ...] = ()
    description: str = ""


class Hero(_Strict):
    id: str
    name: str
    # The character painted on the banner of the formation he leads.
    surname: str = Field(min_length=1, max_length=1)
    faction: str
    # Percent added to the power of the formation he leads.
    leadership: int = Field(ge=0, le=100)
    martial: int = Field(ge=1, le=100)
    # Radius in hexes of the leadership aura around his formation.
    aura: int = Field(2, ge=0, le=6)
    skills: tuple[str, ...] = ()
    description: str = ""


SkillTarget = Literal[
    "self",  # the hero's own formation
    "ally_area",  # his side's formations within the radius around him
    "enemy",  # an enemy formation within range
    "hex",  # a hex within range
    "none",  # the whole side, no aim
]


class Skill(_Strict):
    """A hero's signature skill (or a troop type's special order). Numbers are signed percents
    or morale points; which of them an effect kind reads is documented beside each field."""

    id: str
    name: str
    description: str = Field(min_length=1)
    # What it does: the name of a kind in game.core.skill_kinds (the content loader checks it).
    effect: str = Field(min_length=1)
    # Passive skills work on their own and cannot be used as an action.
    passive: bool = False
    target: SkillTarget = "self"
    # Turns before the skill can be used again (0: every turn).
    cooldown: int = Field(0, ge=0, le=20)
    # Turns a temporary effect lasts: 1 is until the start of the side's next turn.
    duration: int = Field(1, ge=1, le=10)
    # Hexes to an enemy or hex target.
    range: int = Field(0, ge=0, le=12, validate_default=True)
    # Hexes of the area around the hero (ally_area, passive auras); 0 means his leadership aura.
    radius: int = Field(0, ge=0, le=12)
    # Using it is the formation's action for the turn.
    acts: bool = False
    # Only before the formation moves this turn.
    before_move: bool = False
    # The formation stands fast: using it ends its movement for the turn.
    holds: bool = False
    # Percent power for the formations affected (sealing_sword: away from the bearer; verse;
    # sword_surge: added to the Sealing Sword bonus; downhill_charge: of a blow struck downhill).
    power: int = Field(0, ge=-100, le=300)
    # Sealing Sword: percent power within the bearer's aura.
    near_power: int = Field(0, ge=-100, le=300)
    # Percent defence for the formation affected (hold_hill).
    defence: int = Field(0, ge=-100, le=300)
    # Morale change of the formations affected or of the target (a blow is negative). For
    # ``reform``: how far above its rout threshold a re-formed formation's morale is set.
    morale: int = Field(0, ge=-100, le=100)
    # Morale change of the user's friends within the radius (officer_kills), or of the target's
    # friends within the radius when its hero is wounded (raid).
    area_morale: int = Field(0, ge=-100, le=100)
    # raid: morale change of the target when the raid fails.
    fail_morale: int = Field(0, ge=-100, le=100)
    # downhill_charge: morale the enemy struck from above loses to the shock of the charge.
    shock: int = Field(0, ge=0, le=100)
    # raid: base percent chance, plus the raider's martial, minus the target hero's.
    chance: int = Field(0, ge=0, le=100)
    # raid: the martial skill of a raiding formation that no hero leads.
    martial: int = Field(50, ge=1, le=100)
    # reform: hexes around the hero from which the side's wandering souls rejoin.
    souls_radius: int = Field(0, ge=0, le=6)
    # ride_light: loads of baggage left on each hex.
    loads: int = Field(1, ge=1, le=99)
    # Only formations of these unit types (or movement classes) are affected; empty: all.
    affects: tuple[str, ...] = ()
    move_classes: tuple[str, ...] = ()
    # Every formation of these unit types has the skill, led by a hero or not.
    granted_to: tuple[str, ...] = ()
    # The skill works only in formations of these unit types; empty: any.
    only_units: tuple[str, ...] = ()
    # The formation must stand on one of these terrain types to use it.
    stand_on: tuple[str, ...] = ()
    # ride_light: terrain types the baggage is left on.
    drop_on: tuple[str, ...] = ()
    # sealing_sword: the hero who bears the sword.
    bearer: str | None = None

    @field_validator("range")
    @classmethod
    def _aimed_skills_have_range(cls, value: int, info: ValidationInfo) -> int:
        target = info.data.get("target")
        if target in ("enemy", "hex") and value < 1:
            raise ValueError(f"a skill aimed at {target!r} needs a range of at least 1")
        return value


class Faction(_Strict):
    id: str
    name: str
    colour: Colour
    # A darker or contrasting colour for banner trim and text.
    trim: Colour
    # Its uncaptured dead drift back into its nearest formation instead of fading away.
    souls_return: bool = False
    # Its troops never stop to loot abandoned baggage.
    disciplined: bool = False


class Ruleset(_Strict):
    """Everything a scenario is built from. ``version`` goes into every game record."""

    version: str
    terrain: dict[str, TerrainType]
    units: dict[str, UnitType]
    heroes: dict[str, Hero]
    factions: dict[str, Faction]
    skills: dict[str, Skill] = Field(default_factory=dict)


class RulesKey:
    """A ruleset as a cache key: that very object, not an equal one (a ruleset holds dicts, so it
    has no hash of its own). A ruleset never changes once loaded; a key kept in a cache holds it,
    so its id is not taken by another while the key lives."""

    __slots__ = ("rules",)

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules

    def __hash__(self) -> int:
        # Identity's hash: it only finds the entry again, it never decides anything.
        return object.__hash__(self.rules)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RulesKey) and other.rules is self.rules
