"""``destroyed``: a formation is destroyed, any of a side's is, or the last of a group is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..action_kinds.reinforce import fielded
from ..event_kind import References, Teller, TriggerHint, TriggerKind, TriggerSpec, exactly_one, of_kind
from ..events import Destroyed, Event
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnDestroyed(TriggerSpec):
    """``unit`` is destroyed, any formation of ``side`` is, or the last of ``units`` is."""

    kind: Literal["destroyed"] = "destroyed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnDestroyed:
        exactly_one(self, ("unit", "units", "side"))
        return self


class DestroyedKind(TriggerKind[OnDestroyed]):
    name = "destroyed"
    model = OnDestroyed

    def check(self, when: OnDestroyed, refs: References) -> None:
        refs.unit("unit", when.unit)
        refs.units("units", when.units)
        refs.side("side", when.side)

    def test(self, table: Table, when: OnDestroyed, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        gone = of_kind(seen, (Destroyed,))
        if when.units:
            if not any(e.unit in when.units for e in gone):
                return False
            arrived = fielded(table.scenario, table.state)
            return all(u in arrived and u not in formations for u in when.units)
        return any(e.unit == when.unit or e.side == when.side for e in gone)

    def describe(self, when: OnDestroyed, tell: Teller) -> str:
        if when.side is not None:
            return tell.text(N_("a formation of the {side} is destroyed")).format(side=tell.side(when.side))
        listed, count = tell.units([when.unit] if when.unit else list(when.units))
        return tell.ngettext("{units} is destroyed", "{units} are destroyed to the last", count).format(units=listed)

    def hint(self, when: OnDestroyed) -> TriggerHint:
        return TriggerHint(lost=tuple(u for u in (when.unit, *when.units) if u))


KIND = DestroyedKind()
