"""What happened, returned by the engine for animation, logs and scenario triggers."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .hexgrid import Hex


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True)


class Moved(_Event):
    kind: Literal["moved"] = "moved"
    unit: str
    path: tuple[Hex, ...]


class Attacked(_Event):
    kind: Literal["attacked"] = "attacked"
    unit: str
    target: str
    attacker_losses: int
    defender_losses: int


class Destroyed(_Event):
    kind: Literal["destroyed"] = "destroyed"
    unit: str
    side: str
    at: Hex


class SoulsReleased(_Event):
    kind: Literal["souls_released"] = "souls_released"
    at: Hex
    count: int


class TurnEnded(_Event):
    kind: Literal["turn_ended"] = "turn_ended"
    side: str
    next_side: str
    turn: int


class GameOver(_Event):
    kind: Literal["game_over"] = "game_over"
    winner: str | None
    reason: str


Event = Annotated[
    Moved | Attacked | Destroyed | SoulsReleased | TurnEnded | GameOver,
    Field(discriminator="kind"),
]
