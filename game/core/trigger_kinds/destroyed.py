"""``destroyed``: a formation is destroyed, any of a side's is, or the last of a group is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..action_kinds.reinforce import fielded
from ..event_kind import Teller, TriggerHint, TriggerSpec, exactly_one, of_kind
from ..events import Destroyed, Event
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnDestroyed(TriggerSpec, names={"unit": "unit", "units": "units", "side": "side"}):
    """``unit`` is destroyed, any formation of ``side`` is, or the last of ``units`` is."""

    kind: Literal["destroyed"] = "destroyed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnDestroyed:
        exactly_one(self, ("unit", "units", "side"))
        return self

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        gone = of_kind(seen, (Destroyed,))
        if not self.units:
            return any(e.unit == self.unit or e.side == self.side for e in gone)
        if not any(e.unit in self.units for e in gone):
            return False
        arrived, formations = fielded(table.scenario, table.state), table.state.formations
        return all(u in arrived and u not in formations for u in self.units)

    def describe(self, tell: Teller) -> str:
        if self.side is not None:
            return tell.text(N_("a formation of the {side} is destroyed")).format(side=tell.side(self.side))
        listed, count = tell.units([self.unit] if self.unit else list(self.units))
        return tell.ngettext("{units} is destroyed", "{units} are destroyed to the last", count).format(units=listed)

    def hint(self) -> TriggerHint:
        return TriggerHint(lost=tuple(u for u in (self.unit, *self.units) if u))


KIND = OnDestroyed
