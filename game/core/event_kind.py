"""What every scenario trigger kind and action kind is made of (README "Scenario events").

A kind module defines the pydantic model of its table (discriminated on ``kind``) and a
``TriggerKind`` or ``ActionKind`` that checks a table against the map and the ruleset (through
``References``, which names the file, object and field of each error), works it in the rules,
tells it in words (through a ``Teller``: the msgids are here, the screens translate them) and
says what the computer general may read from it (a hint).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .kinds import N_

if TYPE_CHECKING:
    from .board import Board
    from .events import Event
    from .rules import Ruleset
    from .scenario import FormationSpec, Scenario, SideSpec
    from .state import GameState
    from .table import Table

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class Spec(BaseModel):
    """A table of a scenario file: unknown fields are errors, and it never changes."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class TriggerSpec(Spec):
    """The ``when`` of a scenario event."""

    kind: str


class ActionSpec(Spec):
    """One entry of an event's ``do``."""

    kind: str


def exactly_one(spec: BaseModel, names: tuple[str, ...]) -> None:
    given = [n for n in names if getattr(spec, n)]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(names)}")


class References(Protocol):
    """What a scenario's tables may refer to, and where an error goes: each method reports one
    problem with the field it is given (relative to the table being checked)."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def board(self) -> Board: ...
    @property
    def sides(self) -> dict[str, SideSpec]: ...
    @property
    def first_side(self) -> str: ...
    @property
    def turn_limit(self) -> int: ...
    @property
    def formations(self) -> dict[str, FormationSpec]: ...
    @property
    def groups(self) -> set[str]: ...

    def fail(self, field: str, message: str) -> None: ...
    def side(self, field: str, side: str | None) -> None: ...
    def unit(self, field: str, unit: str | None) -> None: ...
    def units(self, field: str, units: Sequence[str]) -> None: ...
    def hero(self, field: str, hero: str | None) -> None: ...
    def region(self, field: str, region: str) -> None: ...
    def objective(self, field: str, objective: str) -> None: ...


class Teller(Protocol):
    """How a screen has a kind told: it translates the kind's msgids and names what they name."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def state(self) -> GameState: ...

    def text(self, message: str) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int) -> str: ...
    def side(self, side_id: str) -> str: ...
    def hero(self, hero_id: str) -> str: ...
    def men(self, count: int) -> str: ...
    def units(self, unit_ids: Sequence[str]) -> tuple[str, int]:
        """The formations' names run together, and how many they are."""
        ...

    def objective_owners(self) -> set[str]:
        """The sides whose objectives the event being told turns on."""
        ...


@dataclass(frozen=True)
class TriggerHint:
    """What a general reads from a trigger: the ground whose taking fires it, and the
    formations whose rout all at once, or whose loss, sets it off."""

    # (region, side that must stand there, only unopposed, formations it waits for or () for any)
    ground: tuple[str, str, bool, tuple[str, ...]] | None = None
    routed_together: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()

    def selects(self, unit_id: str) -> bool:
        """Whether standing ``unit_id`` on the ground may fire it."""
        return self.ground is not None and (not self.ground[3] or unit_id in self.ground[3])


@dataclass(frozen=True)
class ActionHint:
    """What a general reads from an action: the side it makes win or lose, the objective it
    achieves, and whether it settles an objective or the battle."""

    wins: str | None = None
    loses: str | None = None
    achieves: str | None = None
    decisive: bool = False


NO_TRIGGER_HINT = TriggerHint()
# What is told of a trigger the story has no words for.
UNTOLD = N_("events on the field decided the battle")
NO_ACTION_HINT = ActionHint()

W = TypeVar("W", bound=TriggerSpec)
A = TypeVar("A", bound=ActionSpec)


class TriggerKind(ABC, Generic[W]):
    """A trigger kind: ``test`` says whether the action just applied (its events in ``seen``, with
    those the events it set off produced) has met it."""

    name: ClassVar[str]
    model: ClassVar[type[Any]]

    @abstractmethod
    def check(self, when: W, refs: References) -> None: ...

    @abstractmethod
    def test(self, table: Table, when: W, seen: Sequence[Event]) -> bool: ...

    @abstractmethod
    def describe(self, when: W, tell: Teller) -> str:
        """What set the event off, as a clause ("Yue Fei's riders are destroyed")."""

    @abstractmethod
    def hint(self, when: W) -> TriggerHint: ...


class ActionKind(ABC, Generic[A]):
    """An action kind: ``run`` carries it out when its event fires and returns the events."""

    name: ClassVar[str]
    model: ClassVar[type[Any]]

    @abstractmethod
    def check(self, action: A, refs: References) -> None: ...

    @abstractmethod
    def run(self, table: Table, action: A) -> list[Event]: ...

    @abstractmethod
    def describe(self, event: Event, tell: Teller) -> str | None:
        """The log line for an event this kind produced (None: another kind's, or none)."""

    @abstractmethod
    def hint(self, action: A) -> ActionHint: ...


def of_kind(seen: Sequence[Event], kinds: tuple[type[Any], ...]) -> list[Any]:
    """The events in ``seen`` of the given types."""
    return [e for e in seen if isinstance(e, kinds)]
