"""Scenario events as data: a trigger (``when``), optional conditions, and actions (``do``).

A scenario file lists them as ``[[events]]`` tables; ``game.core.triggers`` checks them after
every action and fires each at most once. Both unions are discriminated on ``kind`` so a file
names exactly one trigger or action per table, and an unknown kind is a content error.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
ObjectiveStatus = Literal["open", "done", "failed"]

# A reinforcement's ``at`` is a region name or a Tiled offset "col,row".
_OFFSET = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")


def parse_offset(at: str) -> tuple[int, int] | None:
    """The (col, row) of an offset ``at`` such as "12,7"; None when it names a region."""
    m = _OFFSET.match(at)
    return (int(m.group(1)), int(m.group(2))) if m else None


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


def _exactly_one(spec: BaseModel, names: tuple[str, ...]) -> None:
    given = [n for n in names if getattr(spec, n)]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(names)}")


# -- triggers ----------------------------------------------------------------------------------


class OnTurn(_Spec):
    """The start of turn ``turn`` for ``side`` (None: the first side in turn order)."""

    kind: Literal["turn"] = "turn"
    turn: int = Field(ge=1)
    side: str | None = None


class OnEntersRegion(_Spec):
    """A formation of ``side`` (only ``unit``, or any of ``units``, if given) stands in
    ``region`` after an action.

    With ``unopposed`` it fires only while no enemy of ``side`` stands there too: the region
    has been taken, not merely reached.
    """

    kind: Literal["enters_region"] = "enters_region"
    region: str
    side: str
    unit: str | None = None
    units: tuple[str, ...] = ()
    unopposed: bool = False

    def selects(self, unit_id: str) -> bool:
        if self.unit is not None:
            return unit_id == self.unit
        return not self.units or unit_id in self.units


class OnRouted(_Spec):
    """``unit`` routs, any formation of ``side`` routs, or every one of ``units`` is routed or gone."""

    kind: Literal["routed"] = "routed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnRouted:
        _exactly_one(self, ("unit", "units", "side"))
        return self


class OnDestroyed(_Spec):
    """``unit`` is destroyed, any formation of ``side`` is, or the last of ``units`` is."""

    kind: Literal["destroyed"] = "destroyed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnDestroyed:
        _exactly_one(self, ("unit", "units", "side"))
        return self


class OnHeroWounded(_Spec):
    kind: Literal["hero_wounded"] = "hero_wounded"
    hero: str


class OnSouls(_Spec):
    """The side's qiankun pouch holds at least ``at_least`` souls."""

    kind: Literal["souls"] = "souls"
    side: str
    at_least: int = Field(ge=1)


class OnSideWipedOut(_Spec):
    """The last formation of ``side`` is destroyed."""

    kind: Literal["side_wiped_out"] = "side_wiped_out"
    side: str


class OnFallen(_Spec):
    """At least ``at_least`` men of ``units`` have fallen (a tally of souls struck down): the
    men each had when it took the field less those it has now."""

    kind: Literal["fallen"] = "fallen"
    units: tuple[str, ...] = Field(min_length=1)
    at_least: int = Field(ge=1)


class OnSkillUsed(_Spec):
    """A formation (only ``unit``, if given) uses the skill ``skill`` (an order given on the field)."""

    kind: Literal["skill_used"] = "skill_used"
    skill: str
    unit: str | None = None


class OnObjectivesDone(_Spec):
    """Every objective in ``done`` has been achieved (for victories that need several)."""

    kind: Literal["objectives_done"] = "objectives_done"
    done: tuple[str, ...] = Field(min_length=1)


class OnCutsLine(_Spec):
    """``unit`` has cut ``side``'s line in two: it stands next to a formation of ``side``, in the
    gap between it and another of ``side``'s formations (not next to it, no more than ``reach``
    away), no farther from that other than the first is."""

    kind: Literal["cuts_line"] = "cuts_line"
    unit: str
    side: str
    reach: int = Field(6, ge=2, le=20)


class OnDuelBegun(_Spec):
    """``hero`` has met an enemy hero in single combat (a challenge accepted)."""

    kind: Literal["duel_begun"] = "duel_begun"
    hero: str


class OnOfficersSlain(_Spec):
    """At least ``at_least`` named officers of ``side``'s formations have been cut down."""

    kind: Literal["officers_slain"] = "officers_slain"
    side: str
    at_least: int = Field(ge=1)


class OnCharge(_Spec):
    """``unit`` (or any of ``units``) charges: rides over open ground into a melee blow at a
    formation (one of ``targets``, if given). The Hegemon-King's charge into the host."""

    kind: Literal["charge"] = "charge"
    unit: str | None = None
    units: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_selector(self) -> OnCharge:
        _exactly_one(self, ("unit", "units"))
        return self


class OnBagged(_Spec):
    """A routed soul formation among ``units`` is bagged whole by a capture: caught, not cut down
    (the broken host herded into the bag)."""

    kind: Literal["bagged"] = "bagged"
    units: tuple[str, ...] = Field(min_length=1)


Trigger = Annotated[
    OnTurn
    | OnEntersRegion
    | OnRouted
    | OnDestroyed
    | OnHeroWounded
    | OnSouls
    | OnSideWipedOut
    | OnObjectivesDone
    | OnCutsLine
    | OnDuelBegun
    | OnOfficersSlain
    | OnFallen
    | OnSkillUsed
    | OnCharge
    | OnBagged,
    Field(discriminator="kind"),
]
TRIGGER_KINDS: tuple[str, ...] = (
    "turn",
    "enters_region",
    "routed",
    "destroyed",
    "hero_wounded",
    "souls",
    "side_wiped_out",
    "objectives_done",
    "cuts_line",
    "duel_begun",
    "officers_slainfallen",
    "skill_used",
    "charge",
    "bagged",
)


# -- actions -----------------------------------------------------------------------------------


class ReinforcementSpec(_Spec):
    """A formation that arrives during the battle, placed on the nearest free hex of ``at``."""

    id: str = Field(min_length=1)
    type: str
    men: int = Field(ge=1)
    max_men: int | None = Field(None, ge=1)
    hero: str | None = None
    at: str = Field(min_length=1)
    hidden: bool = False
    group: str | None = None


class Reinforce(_Spec):
    kind: Literal["reinforce"] = "reinforce"
    side: str
    formations: tuple[ReinforcementSpec, ...] = Field(min_length=1)


class Reveal(_Spec):
    """Hidden formations (one ``unit`` or a whole ``group``) come out of hiding."""

    kind: Literal["reveal"] = "reveal"
    unit: str | None = None
    group: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> Reveal:
        _exactly_one(self, ("unit", "group"))
        return self


class Release(_Spec):
    """A held group of ``side`` may move and fight from now on."""

    kind: Literal["release"] = "release"
    side: str
    group: str


class Narrate(_Spec):
    """A pop-up with ``text`` (an English msgid), spoken by the hero ``speaker`` if given."""

    kind: Literal["narrate"] = "narrate"
    text: str = Field(min_length=1)
    speaker: str | None = None


class SetObjective(_Spec):
    kind: Literal["objective"] = "objective"
    id: str
    status: ObjectiveStatus


class Victory(_Spec):
    """The game ends now and ``side`` wins."""

    kind: Literal["victory"] = "victory"
    side: str


class Defeat(_Spec):
    """The game ends now and ``side`` loses: its enemy wins (see ``triggers.defeat_winner``)."""

    kind: Literal["defeat"] = "defeat"
    side: str


class OpenGates(_Spec):
    """``side`` opens its fortress gates to ``to`` (and to ``to``'s allies)."""

    kind: Literal["open_gates"] = "open_gates"
    side: str
    to: str


class Ally(_Spec):
    """``side`` and ``with`` fight side by side from now on; any war between them ends."""

    kind: Literal["ally"] = "ally"
    side: str
    with_: str = Field(alias="with")


class Shake(_Spec):
    """News runs through ``side``'s army: every formation of it still standing gains or (when
    ``delta`` is negative) loses morale; ``text`` (an English msgid) is the reason the log shows."""

    kind: Literal["morale"] = "morale"
    side: str
    delta: int = Field(ge=-100, le=100)
    text: str = Field(min_length=1)


EventAction = Annotated[
    Reinforce | Reveal | Release | Narrate | SetObjective | Victory | Defeat | OpenGates | Ally | Shake,
    Field(discriminator="kind"),
]
ACTION_KINDS: tuple[str, ...] = (
    "reinforce",
    "reveal",
    "release",
    "narrate",
    "objective",
    "victory",
    "defeat",
    "open_gates",
    "ally",
    "morale",
)


# -- events ------------------------------------------------------------------------------------


class EventSpec(_Spec):
    """One scenario event: when ``when`` matches and the conditions hold, ``do`` runs, once."""

    id: Id
    when: Trigger
    actions: tuple[EventAction, ...] = Field(alias="do", min_length=1)
    # Only while from_turn <= turn <= until_turn.
    from_turn: int | None = Field(None, ge=1)
    until_turn: int | None = Field(None, ge=1)
    # Only once all of ``after`` have fired, and never once any of ``unless`` has.
    after: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()
