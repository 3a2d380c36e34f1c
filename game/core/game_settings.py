"""The choices made before a battle that change how it plays (who commands each side, how well
the computer plays, a campaign's army): part of every record."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .roster import Roster
from .state import Controller

Difficulty = Literal["easy", "normal", "hard"]
DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard")


class GameSettings(BaseModel):
    """Choices made before the battle that change how it plays; part of every record."""

    controllers: dict[str, Controller] = Field(default_factory=dict)
    # The computer's level for every side not named in ``difficulties``.
    difficulty: str = "normal"
    difficulties: dict[str, Difficulty] = Field(default_factory=dict)
    # Optional cap on turns below the scenario's own limit (headless simulations).
    max_turns: int | None = Field(None, ge=1)
    # A campaign battle: what the campaign's side carries in from the battles before.
    roster: Roster | None = None

    def difficulty_of(self, side_id: str) -> str:
        return self.difficulties.get(side_id, self.difficulty)
