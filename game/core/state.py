"""The mutable state of one game, as pydantic models so it can be saved, hashed and checked.

Only what changes during play lives here; the board and the ruleset are fixed by the scenario
and the content version recorded with the game.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, Field

from .hexgrid import Hex

Role = Literal["player", "enemy", "neutral"]
Controller = Literal["human", "ai"]


class Formation(BaseModel):
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


class SideState(BaseModel):
    id: str
    faction: str
    role: Role
    controller: Controller
    # Souls bagged into this side's qiankun pouch.
    pouch: int = Field(0, ge=0)
    men_start: int = Field(0, ge=0)


class GameState(BaseModel):
    scenario_id: str
    turn: int = Field(1, ge=1)
    turn_limit: int = Field(ge=1)
    # Sides in turn order; ``active`` indexes the side whose turn it is.
    sides: list[SideState]
    active: int = 0
    formations: dict[str, Formation]
    # Wandering souls left on the field, keyed by "q,r".
    field_souls: dict[str, int] = Field(default_factory=dict)
    # Souls that left the game without being bagged (faded away or drifted back to a host).
    faded_souls: int = 0
    # Number of actions applied so far; the RNG stream of the next action.
    action_index: int = 0
    winner: str | None = None
    over: bool = False
    end_reason: str | None = None

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
        return sum(self.field_souls.values())


def state_hash(state: GameState) -> str:
    """A stable digest of the state: the same on every run, process and PYTHONHASHSEED.

    The JSON form sorts every key, so neither dict insertion order nor hash order matters.
    """
    payload = json.dumps(state.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()[:16]
