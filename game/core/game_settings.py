"""The choices made before a battle that change how it plays (how well the computer plays, a
campaign's army): part of every record. Who commands each side is not among them: it changes
no rule (``record.seats``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .roster import Roster

Difficulty = Literal["easy", "normal", "hard"]
DIFFICULTIES: tuple[str, ...] = ("easy", "normal", "hard")


class GameSettings(BaseModel):
    """Choices made before the battle that change how it plays; part of every record."""

    # A setting it does not know is refused, not dropped (a save's ``controllers`` of format 3
    # and older is moved out by the migration).
    model_config = ConfigDict(defer_build=True, extra="forbid")

    # The computer's level for every side not named in ``difficulties``.
    difficulty: str = "normal"
    difficulties: dict[str, Difficulty] = Field(default_factory=dict)
    # Optional cap on turns below the scenario's own limit (headless simulations).
    max_turns: int | None = Field(None, ge=1)
    # A campaign battle: what the campaign's side carries in from the battles before.
    roster: Roster | None = None

    def difficulty_of(self, side_id: str) -> str:
        return self.difficulties.get(side_id, self.difficulty)
