"""``routed``: a formation routs, any of a side's does, or every one of a host is broken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..action_kinds.reinforce import fielded
from ..event_kind import Teller, TriggerHint, of_kind
from ..events import Event, Routed
from ..msgid import N_
from ._selection import Selection

if TYPE_CHECKING:
    from ..table import Table


class OnRouted(Selection, told=N_("a formation of the {side} breaks")):
    """``unit`` routs, any formation of ``side`` routs, or every one of ``units`` is routed or gone."""

    kind: Literal["routed"] = "routed"

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        if self.units:
            # A state, not a moment: an event that waits (``after``) for what comes first in the
            # story still fires once those formations are all broken, whenever they broke.
            if not all(u not in formations or formations[u].routed for u in self.units):
                return False  # the cheap test first: this is asked after every action
            arrived = fielded(table.scenario, table.state)
            return all(u in arrived for u in self.units)
        return any(e.unit == self.unit or e.side == self.side for e in of_kind(seen, (Routed,)))

    def hint(self) -> TriggerHint:
        return TriggerHint(routed_together=self.units)

    def befell(self, tell: Teller, count: int) -> str:
        return tell.ngettext("{units} is broken", "{units} are broken or gone", count)


KIND = OnRouted
