"""What every scenario trigger kind and action kind is made of (README "Scenario events").

A kind is one pydantic model in a module of its own (``game.core.trigger_kinds``,
``game.core.action_kinds``), discriminated on ``kind``. The model holds all there is to know of
its kind: what its fields name (``names``: checked against the map and the ruleset through
``References``, which says file, object and field of each error, and named in words through a
``Teller``), its working in the rules (``test`` or ``run``), its words (``told``, a msgid the
screens translate, or ``describe``) and what the computer general may read from it (``hint``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from string import Formatter
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from .msgid import N_

if TYPE_CHECKING:
    from .board import Board
    from .events import Event
    from .rules import Ruleset
    from .scenario import FormationSpec, Scenario, SideSpec
    from .state import GameState
    from .table import Table

Id = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]

# What a field of a kind names: a side, a formation (or a list of them), a hero, a region, an
# objective.
Named = Literal["side", "unit", "units", "hero", "region", "objective"]

# What is told of a trigger the story has no words for.
UNTOLD = N_("events on the field decided the battle")


class References(Protocol):
    """What a scenario's tables may refer to, and where an error goes: each method reports one
    problem with the field it is given (relative to the table being checked)."""

    rules: Ruleset
    board: Board
    sides: dict[str, SideSpec]  # by id
    first_side: str
    turn_limit: int
    formations: dict[str, FormationSpec]  # those on the map at the start, by id
    groups: set[str]
    # Whether the event waits for a later turn (``from_turn``), so what holds at the start does
    # not fire it at once.
    waits: bool

    def fail(self, field: str, message: str) -> None: ...
    def side(self, field: str, side: str | None) -> None: ...
    def unit(self, field: str, unit: str | None) -> None: ...
    def units(self, field: str, units: Sequence[str]) -> None: ...
    def hero(self, field: str, hero: str | None) -> None: ...
    def region(self, field: str, region: str) -> None: ...
    def objective(self, field: str, objective: str) -> None: ...
    def about_side(self, side: str, holds: Callable[[SideSpec], bool], field: str, message: str) -> None:
        """Fails ``field`` with ``message`` where ``side`` is a side the scenario has and ``holds``
        is false of it (an unknown side is reported by ``side``)."""
        ...


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
    # The share of the host's men that may still stand in order when it counts as broken (0:
    # every formation of it must be routed).
    standing_share: float = 0.0
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


class Spec(BaseModel):
    """A table of a scenario file: unknown fields are errors, and it never changes."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, populate_by_name=True)


class Kind(Spec):
    """A trigger or action kind: a table whose ``kind`` names it, and whose fields name things
    in the scenario (``names``), each checked the same way."""

    kind: str
    names: ClassVar[Mapping[str, Named]] = {}

    def __init_subclass__(cls, names: Mapping[str, Named] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if names is not None:
            cls.names = names

    def check(self, refs: References) -> None:
        """Every name the table gives is one the scenario knows (a kind adds its own checks)."""
        for attr, what in self.names.items():
            field = type(self).model_fields[attr].alias or attr
            value = getattr(self, attr)
            if what == "units":
                refs.units(field, value)
            elif value is not None:
                getattr(refs, what)(field, value)


class TriggerSpec(Kind):
    """The ``when`` of a scenario event."""

    told: ClassVar[str] = UNTOLD

    def __init_subclass__(cls, told: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if told is not None:
            cls.told = told

    @abstractmethod
    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        """Whether the action just applied (its events in ``seen``, with those the events it set
        off produced) has met the trigger."""

    def describe(self, tell: Teller) -> str:
        """What set the event off, as a clause ("Yue Fei's riders are destroyed"): ``told`` with
        the sides and heroes it names."""
        words = {
            a: getattr(tell, w)(getattr(self, a))
            for a, w in self.names.items()
            if w in ("side", "hero") and getattr(self, a) is not None
        }
        return tell.text(self.told).format(**words)

    def hint(self) -> TriggerHint:
        return TriggerHint()


class ActionSpec(Kind):
    """One entry of an event's ``do``. A kind whose event the log tells names it (``tells``)
    and the line (``told``), whose every field in braces is a side of that event."""

    tells: ClassVar[type[Any] | None] = None
    told: ClassVar[str] = ""

    def __init_subclass__(cls, tells: type[Any] | None = None, told: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if tells is not None:
            cls.tells, cls.told = tells, told

    @abstractmethod
    def run(self, table: Table) -> list[Event]:
        """Carry it out as its event fires; the events it makes."""

    @classmethod
    def describe(cls, event: Event, tell: Teller) -> str | None:
        """The log line for an event this kind makes (None: another kind's, or one the log
        tells otherwise)."""
        if cls.tells is None or not isinstance(event, cls.tells):
            return None
        sides = {
            name: tell.side(getattr(event, name)) for _text, name, _spec, _conv in Formatter().parse(cls.told) if name
        }
        return tell.text(cls.told).format(**sides)

    def hint(self) -> ActionHint:
        return ActionHint()


def exactly_one(spec: BaseModel, names: tuple[str, ...]) -> None:
    given = [n for n in names if getattr(spec, n)]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(names)}")


def of_kind(seen: Sequence[Event], kinds: tuple[type[Any], ...]) -> list[Any]:
    """The events in ``seen`` of the given types."""
    return [e for e in seen if isinstance(e, kinds)]
