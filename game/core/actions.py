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
    """Move a formation to a hex along the cheapest path; ``forced`` marches further at a fatigue cost."""

    kind: Literal["move"] = "move"
    unit: str
    to: Hex
    forced: bool = False


class Attack(_Action):
    """Attack an adjacent enemy formation in melee."""

    kind: Literal["attack"] = "attack"
    unit: str
    target: str


class Fire(_Action):
    """Shoot at an enemy formation within range; no retaliation."""

    kind: Literal["fire"] = "fire"
    unit: str
    target: str


class Blast(_Action):
    """Use an area weapon (palm thunder) on a hex within range: it and its neighbours are hit."""

    kind: Literal["blast"] = "blast"
    unit: str
    at: Hex


class Capture(_Action):
    """Bag the wandering souls on the unit's hex and its neighbours into the side's pouch."""

    kind: Literal["capture"] = "capture"
    unit: str


class Rest(_Action):
    """Spend the turn resting: fatigue falls and morale rises."""

    kind: Literal["rest"] = "rest"
    unit: str


class UseSkill(_Action):
    """A hero's signature skill, aimed at a formation or a hex where the skill needs one."""

    kind: Literal["skill"] = "skill"
    unit: str
    skill: str
    target: str | None = None
    at: Hex | None = None


class Challenge(_Action):
    """The hero of ``unit`` challenges the hero of the adjacent enemy ``target`` to a duel."""

    kind: Literal["challenge"] = "challenge"
    unit: str
    target: str


class AnswerDuel(_Action):
    """The challenged side accepts or refuses the pending duel."""

    kind: Literal["answer_duel"] = "answer_duel"
    accept: bool


class EndTurn(_Action):
    kind: Literal["end_turn"] = "end_turn"


Action = Annotated[
    Move | Attack | Fire | Blast | Capture | Rest | UseSkill | Challenge | AnswerDuel | EndTurn,
    Field(discriminator="kind"),
]

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
ACTION_LIST_ADAPTER: TypeAdapter[list[Action]] = TypeAdapter(list[Action])
