"""Everything a player (human, AI or replay) can do, as data.

Actions are a discriminated union on ``kind`` so a record's action list round-trips through
JSON exactly.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from .hexgrid import Hex


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Move(_Action):
    """Move a formation to a hex along the cheapest path."""

    kind: Literal["move"] = "move"
    unit: str
    to: Hex


class Attack(_Action):
    """Attack an adjacent enemy formation."""

    kind: Literal["attack"] = "attack"
    unit: str
    target: str


class EndTurn(_Action):
    kind: Literal["end_turn"] = "end_turn"


Action = Annotated[Move | Attack | EndTurn, Field(discriminator="kind")]

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
ACTION_LIST_ADAPTER: TypeAdapter[list[Action]] = TypeAdapter(list[Action])
