"""Scenario events as data: a trigger (``when``), optional conditions, and actions (``do``).

A scenario file lists them as ``[[events]]`` tables; ``game.core.triggers`` checks them after
every action and fires each at most once. Each trigger and action kind is a module of
``game.core.trigger_kinds`` or ``game.core.action_kinds``; the unions here are made from those
registries and discriminated on ``kind``, so a file names exactly one trigger or action per table
and an unknown kind is a content error. The kinds' models are named here too, for the modules
that look at a scenario's events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import Field

from .action_kinds import ACTIONS
from .action_kinds.ally import Ally
from .action_kinds.defeat import Defeat
from .action_kinds.morale import Shake
from .action_kinds.narrate import Narrate
from .action_kinds.objective import ObjectiveStatus, SetObjective
from .action_kinds.open_gates import OpenGates
from .action_kinds.reinforce import Reinforce, ReinforcementSpec
from .action_kinds.release import Release
from .action_kinds.reveal import Reveal
from .action_kinds.victory import Victory
from .event_kind import ActionSpec, Id, Spec, TriggerSpec
from .offsets import parse_offset
from .trigger_kinds import TRIGGERS
from .trigger_kinds.bagged import OnBagged
from .trigger_kinds.charge import OnCharge
from .trigger_kinds.cuts_line import OnCutsLine
from .trigger_kinds.destroyed import OnDestroyed
from .trigger_kinds.duel_begun import OnDuelBegun
from .trigger_kinds.duel_refused import OnDuelRefused
from .trigger_kinds.enters_region import OnEntersRegion
from .trigger_kinds.fallen import OnFallen
from .trigger_kinds.hero_wounded import OnHeroWounded
from .trigger_kinds.objectives_done import OnObjectivesDone
from .trigger_kinds.officers_slain import OnOfficersSlain
from .trigger_kinds.routed import OnRouted
from .trigger_kinds.side_wiped_out import OnSideWipedOut
from .trigger_kinds.skill_used import OnSkillUsed
from .trigger_kinds.souls import OnSouls
from .trigger_kinds.turn import OnTurn

__all__ = [
    "ACTION_KINDS",
    "TRIGGER_KINDS",
    "Ally",
    "Defeat",
    "EventAction",
    "EventSpec",
    "Narrate",
    "ObjectiveStatus",
    "OnBagged",
    "OnCharge",
    "OnCutsLine",
    "OnDestroyed",
    "OnDuelBegun",
    "OnDuelRefused",
    "OnEntersRegion",
    "OnFallen",
    "OnHeroWounded",
    "OnObjectivesDone",
    "OnOfficersSlain",
    "OnRouted",
    "OnSideWipedOut",
    "OnSkillUsed",
    "OnSouls",
    "OnTurn",
    "OpenGates",
    "Reinforce",
    "ReinforcementSpec",
    "Release",
    "Reveal",
    "SetObjective",
    "Shake",
    "Trigger",
    "Victory",
    "parse_offset",
]

TRIGGER_KINDS: tuple[str, ...] = TRIGGERS.names()
ACTION_KINDS: tuple[str, ...] = ACTIONS.names()


def _union(models: list[type[Any]]) -> Any:
    """The discriminated union of the registered models (pydantic reads it; mypy sees the base)."""
    return Annotated[Union[tuple(models)], Field(discriminator="kind")]  # noqa: UP007


if TYPE_CHECKING:
    Trigger = TriggerSpec
    EventAction = ActionSpec
else:
    Trigger = _union(list(TRIGGERS))
    EventAction = _union(list(ACTIONS))


class EventSpec(Spec):
    """One scenario event: when ``when`` matches and the conditions hold, ``do`` runs, once."""

    id: Id
    when: Trigger
    # Empty for a marker: an event that only notes a moment for others' ``after`` and ``unless``.
    actions: tuple[EventAction, ...] = Field((), alias="do")
    # Only while from_turn <= turn <= until_turn.
    from_turn: int | None = Field(None, ge=1)
    until_turn: int | None = Field(None, ge=1)
    # Only during this side's turns: a state that counts when that side's turn begins (A1's host
    # still before the defile at its last turn), not while the other side may yet change it.
    during: str | None = None
    # Only once all of ``after`` have fired, and never once any of ``unless`` has.
    after: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
    # What the result screen says decided the battle when this event ends it, where its trigger
    # alone would not tell it (a clause; without it, the trigger's own words).
    reason: str | None = Field(None, min_length=1)
