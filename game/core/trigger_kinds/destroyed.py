"""``destroyed``: a formation is destroyed, any of a side's is, or the last of a group is."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..action_kinds.reinforce import fielded
from ..event_kind import Teller, TriggerHint, of_kind
from ..events import Destroyed, Event
from ..msgid import N_
from ._selection import Selection

if TYPE_CHECKING:
    from ..table import Table


class OnDestroyed(Selection, told=N_("a formation of the {side} is destroyed")):
    """``unit`` is destroyed, any formation of ``side`` is, or the last of ``units`` is."""

    kind: Literal["destroyed"] = "destroyed"

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        gone = of_kind(seen, (Destroyed,))
        if not self.units:
            return any(e.unit == self.unit or e.side == self.side for e in gone)
        if not any(e.unit in self.units for e in gone):
            return False
        arrived, formations = fielded(table.scenario, table.state), table.state.formations
        return all(u in arrived and u not in formations for u in self.units)

    def befell(self, tell: Teller, count: int) -> str:
        return tell.ngettext("{units} is destroyed", "{units} are destroyed to the last", count)

    def hint(self) -> TriggerHint:
        return TriggerHint(lost=tuple(u for u in (self.unit, *self.units) if u))


KIND = OnDestroyed
