"""What the chronicles tell of a battle, as data: its set pieces and how a game shows each one.

A set piece is a moment the story turns on (the defile holding, the Hegemon-King's charge, the
downhill charge from Tang Huai's hill). Each names what the chronicle says happened and one
sign, read from the engine's events and the state, that it happened in a game:

* ``fired``: a scenario event fired (the scenario already tells the moment when it comes);
* ``happened``: an engine event of a kind, with fields equal to given values and numbers (or
  lists' lengths) at least given values, on at least ``on_turns`` different turns (a duel fought over turns);
* ``survives``: a formation is still on the field when the battle ends.

The signs only read the game; they never change it, so watching costs nothing in a record.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Scalar = str | int | bool


class _Sign(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class Fired(_Sign):
    kind: Literal["fired"] = "fired"
    event: str  # a scenario event's id


class Happened(_Sign):
    kind: Literal["happened"] = "happened"
    event: str  # an engine event's kind, as in game.core.events ("skill_used", "attacked", ...)
    # Fields that must equal a value, or one of a list of values.
    where: dict[str, Scalar | list[Scalar]] = Field(default_factory=dict)
    # Numeric fields that must be at least a value (a list field: how many it holds).
    at_least: dict[str, int] = Field(default_factory=dict)
    # The set piece counts once matching events came on this many different turns.
    on_turns: int = Field(1, ge=1, le=100)
    # The field naming who did it (a unit or hero id), and the field counting how many.
    who: str | None = None
    count: str | None = None
    # What the count counts, for the debriefing's words.
    counting: Literal["men", "formations"] = "men"


class Survives(_Sign):
    kind: Literal["survives"] = "survives"
    unit: str  # a formation's id in the scenario


Sign = Annotated[Fired | Happened | Survives, Field(discriminator="kind")]


class SetPiece(BaseModel):
    """One moment of a battle as the chronicle tells it."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    id: str = ""  # the key of its table
    title: str = Field(min_length=1, max_length=80)
    # What the chronicle says happened (an English msgid, the game's own words).
    history: str = Field(min_length=1, max_length=600)
    when: Sign
