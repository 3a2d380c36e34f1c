"""Everything a player (human, AI or replay) can do, as data.

Actions are a discriminated union on ``kind`` so a record's action list round-trips through
JSON exactly.
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar, cast, dataclass_transform

from pydantic import ConfigDict, Field, TypeAdapter
from pydantic.dataclasses import dataclass

from .hexgrid import Hex

# Slotted, frozen dataclasses rather than models: a long record holds thousands of actions, and
# a dataclass is built from JSON in half the time of a model, which is most of loading a save.
_Cls = TypeVar("_Cls")


@dataclass_transform(frozen_default=True, kw_only_default=True)  # so type checkers see the fields
def _action(cls: type[_Cls]) -> type[_Cls]:
    built = dataclass(frozen=True, slots=True, kw_only=True, config=ConfigDict(extra="forbid", defer_build=True))(cls)
    return cast("type[_Cls]", built)


@_action
class Move:
    """Move a formation to a hex along the cheapest path; ``forced`` marches further at a fatigue cost."""

    kind: Literal["move"] = "move"
    unit: str
    to: Hex
    forced: bool = False


@_action
class Attack:
    """Attack an adjacent enemy formation in melee."""

    kind: Literal["attack"] = "attack"
    unit: str
    target: str


@_action
class Fire:
    """Shoot at an enemy formation within range; no retaliation."""

    kind: Literal["fire"] = "fire"
    unit: str
    target: str


@_action
class Blast:
    """Use an area weapon (palm thunder) on a hex within range: it and its neighbours are hit."""

    kind: Literal["blast"] = "blast"
    unit: str
    at: Hex


@_action
class Capture:
    """Bag the wandering souls on the unit's hex and its neighbours into the side's pouch."""

    kind: Literal["capture"] = "capture"
    unit: str


@_action
class Rest:
    """Spend the turn resting: fatigue falls and morale rises."""

    kind: Literal["rest"] = "rest"
    unit: str


@_action
class UseSkill:
    """A hero's signature skill, aimed at a formation or a hex where the skill needs one."""

    kind: Literal["skill"] = "skill"
    unit: str
    skill: str
    target: str | None = None
    at: Hex | None = None


@_action
class Challenge:
    """The hero of ``unit`` challenges the hero of the adjacent enemy ``target`` to a duel."""

    kind: Literal["challenge"] = "challenge"
    unit: str
    target: str


@_action
class AnswerDuel:
    """The challenged side accepts or refuses the pending duel."""

    kind: Literal["answer_duel"] = "answer_duel"
    accept: bool


@_action
class EndTurn:
    kind: Literal["end_turn"] = "end_turn"


Action = Annotated[
    Move | Attack | Fire | Blast | Capture | Rest | UseSkill | Challenge | AnswerDuel | EndTurn,
    Field(discriminator="kind"),
]

# Built when first used, as every model of the game is (``defer_build``): the main menu needs none.
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action, config=ConfigDict(defer_build=True))
ACTION_LIST_ADAPTER: TypeAdapter[list[Action]] = TypeAdapter(list[Action], config=ConfigDict(defer_build=True))
