"""The mutable state of one game, as pydantic models so it can be saved, hashed and checked.

Only what changes during play lives here; the board and the ruleset are fixed by the scenario
and the content version recorded with the game.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from .hexgrid import Hex

Role = Literal["player", "enemy", "neutral"]


class Formation(BaseModel):
    model_config = ConfigDict(defer_build=True)

    id: str
    side: str
    type: str
    men: int = Field(ge=0)
    max_men: int = Field(ge=1)
    morale: int = Field(ge=0, le=100)
    fatigue: int = Field(0, ge=0, le=100)
    experience: int = Field(0, ge=0)
    hero: str | None = None
    pos: Hex
    moved: bool = False
    acted: bool = False
    # Broken: flees at the start of its turn, cannot attack or hold a zone of control.
    routed: bool = False
    # Missiles and area-weapon charges left (None: the type shoots without limit).
    ammo: int | None = None
    charges: int = Field(0, ge=0)
    # Hidden in ambush: unseen by enemies until one comes adjacent or it attacks.
    hidden: bool = False
    # The scenario group it belongs to; held groups stand still until an event releases them.
    group: str | None = None
    # Hexes of open ground crossed in this turn's move (a cavalry charge needs two).
    charge_run: int = 0
    # Moved by forced march this turn.
    forced: bool = False
    # Skill id -> turns until it can be used again.
    cooldowns: dict[str, int] = Field(default_factory=dict)
    # Temporary effect id -> the turn number at whose start (for this side) it ends.
    effects: dict[str, int] = Field(default_factory=dict)


class PendingDuel(BaseModel):
    """A challenge waiting for the challenged side's answer."""

    model_config = ConfigDict(defer_build=True)

    challenger: str
    target: str


class SideState(BaseModel):
    model_config = ConfigDict(defer_build=True)

    id: str
    faction: str
    role: Role
    # Who commands the side is not part of the rules state (``record.seats``).
    # Souls bagged into this side's qiankun pouch.
    pouch: int = Field(0, ge=0)
    men_start: int = Field(0, ge=0)
    # Other sides this side fights beside (never attacks, shares no fog).
    allies: list[str] = Field(default_factory=list)
    # For a neutral side: the sides that attacked it and are now its enemies.
    hostile_to: list[str] = Field(default_factory=list)
    # For a side holding a fortress: the region of its gates (fortress hexes there are shut to
    # other sides) and the sides they are open to, with those sides' allies.
    gates: str | None = None
    gates_open_to: list[str] = Field(default_factory=list)
    # Scenario groups of this side that hold still until released.
    held_groups: list[str] = Field(default_factory=list)
    # Hexes this side has ever seen, as sorted "q,r" keys.
    explored: list[str] = Field(default_factory=list)


class GameState(BaseModel):
    model_config = ConfigDict(defer_build=True)

    scenario_id: str
    turn: int = Field(1, ge=1)
    turn_limit: int = Field(ge=1)
    # Sides in turn order; ``active`` indexes the side whose turn it is.
    sides: list[SideState]
    active: int = 0
    formations: dict[str, Formation]
    # Wandering souls left on the field: "q,r" -> side id the dead fought for -> count.
    field_souls: dict[str, dict[str, int]] = Field(default_factory=dict)
    # Souls that left the game without being bagged (faded away).
    faded_souls: int = Field(0, ge=0)
    # Men brought in by reinforcements after the start (for the conservation of men and souls).
    men_entered: int = Field(0, ge=0)
    # Heroes wounded in duels or by raids; they have left the field.
    wounded_heroes: list[str] = Field(default_factory=list)
    pending_duel: PendingDuel | None = None
    # Abandoned baggage on the road: "q,r" -> loads.
    baggage: dict[str, int] = Field(default_factory=dict)
    # Scenario events that have fired (each fires once) and objective id -> status.
    fired_events: list[str] = Field(default_factory=list)
    objectives: dict[str, str] = Field(default_factory=dict)
    # Objective id -> men of its tally struck down by the formations its ``tally_by`` names
    # (``game.core.tallies``). Left out of the JSON form while empty, so that a game of a
    # scenario without such a tally saves and hashes as it did before there were any.
    tallies: dict[str, int] = Field(default_factory=dict)
    # "refusing hero/challenging hero" -> challenges refused so far, kept only in a scenario whose
    # events wait for refusals (``trigger_kinds.duel_refused``); left out of the JSON form while
    # empty, like the tallies.
    refusals: dict[str, int] = Field(default_factory=dict)
    # Number of actions applied so far; the RNG stream of the next action.
    action_index: int = 0
    winner: str | None = None
    over: bool = False
    end_reason: str | None = None

    @model_serializer(mode="wrap")
    def _without_empty_counts(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for field in ("tallies", "refusals"):
            if not getattr(self, field):
                data.pop(field, None)
        return data

    # -- queries -------------------------------------------------------------------------

    @property
    def active_side(self) -> SideState:
        return self.sides[self.active]

    def side(self, side_id: str) -> SideState:
        for s in self.sides:
            if s.id == side_id:
                return s
        raise KeyError(side_id)

    def occupancy(self) -> dict[Hex, str]:
        """Formation id by hex."""
        return {f.pos: f.id for f in self.formations.values()}

    def formations_of(self, side_id: str) -> list[Formation]:
        """The side's formations in a stable order (by id)."""
        return [self.formations[k] for k in sorted(self.formations) if self.formations[k].side == side_id]

    def men_of(self, side_id: str) -> int:
        return sum(f.men for f in self.formations.values() if f.side == side_id)

    def souls_on_field(self) -> int:
        return sum(sum(by_side.values()) for by_side in self.field_souls.values())

    def souls_at(self, key: str) -> int:
        return sum(self.field_souls.get(key, {}).values())

    def pouches(self) -> int:
        return sum(s.pouch for s in self.sides)

    def men_total(self) -> int:
        return sum(f.men for f in self.formations.values())

    def men_accounted(self) -> int:
        """Men alive plus every soul they became; always equals the men that ever took the field."""
        return self.men_total() + self.souls_on_field() + self.pouches() + self.faded_souls

    def men_ever(self) -> int:
        return sum(s.men_start for s in self.sides) + self.men_entered

    def formation_at(self, h: Hex) -> Formation | None:
        for f in self.formations.values():
            if f.pos == h:
                return f
        return None


def copy_state(state: GameState) -> GameState:
    """An exact deep copy: a JSON round trip, several times faster than ``copy.deepcopy``."""
    return GameState.model_validate_json(state.model_dump_json())


def state_hash(state: GameState) -> str:
    """A stable digest of the state: the same on every run, process and PYTHONHASHSEED.

    The JSON form sorts every key, so neither dict insertion order nor hash order matters.
    """
    return json_digest(state.model_dump(mode="json"))


def json_digest(data: object) -> str:
    """The digest of a state's JSON form (``state_hash``), for a form a record's hashes extend."""
    payload = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:16]
