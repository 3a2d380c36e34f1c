"""The data that defines the game's pieces: terrain, unit types, heroes and factions.

These are validated pydantic models; ``game.content`` fills them from TOML files. Display
names are English msgids that the UI translates with gettext.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Colour = tuple[int, int, int]

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
    model_config = ConfigDict(extra="forbid", frozen=True)


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
