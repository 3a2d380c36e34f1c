"""``cuts_line``: a formation has wedged itself into the gap in a side's line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import TriggerSpec
from ..events import Event
from ..hexgrid import distance

if TYPE_CHECKING:
    from ..table import Table


class OnCutsLine(TriggerSpec, names={"unit": "unit", "side": "side"}):
    """``unit`` has cut ``side``'s line in two: it stands next to a formation of ``side``, in the
    gap between it and another of ``side``'s formations (not next to it, no more than ``reach``
    away), no farther from that other than the first is."""

    kind: Literal["cuts_line"] = "cuts_line"
    unit: str
    side: str
    reach: int = Field(6, ge=2, le=20)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        state = table.state
        cutter = state.formations.get(self.unit)
        if cutter is None or cutter.routed:
            return False
        line = [f for f in state.formations_of(self.side) if not f.routed]
        at = cutter.pos
        for a in (a for a in line if distance(a.pos, at) == 1):
            for b in line:
                apart = distance(a.pos, b.pos)
                # In contact with one, in the gap between it and another no farther off: wedged in.
                if b.id != a.id and 2 <= apart <= self.reach and distance(b.pos, at) <= apart:
                    return True
        return False


KIND = OnCutsLine
