"""``side_wiped_out``: the last formation of a side is destroyed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import TriggerSpec, of_kind
from ..events import Destroyed, Event
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OnSideWipedOut(TriggerSpec, names={"side": "side"}, told=N_("the {side} has no formations left")):
    """The last formation of ``side`` is destroyed."""

    kind: Literal["side_wiped_out"] = "side_wiped_out"
    side: str

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        if not any(e.side == self.side for e in of_kind(seen, (Destroyed,))):
            return False
        return not any(f.side == self.side for f in table.state.formations.values())


KIND = OnSideWipedOut
