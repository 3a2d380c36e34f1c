"""``cuts_line``: a formation has wedged itself into the gap in a side's line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_TRIGGER_HINT, UNTOLD, References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event
from ..hexgrid import distance

if TYPE_CHECKING:
    from ..table import Table


class OnCutsLine(TriggerSpec):
    """``unit`` has cut ``side``'s line in two: it stands next to a formation of ``side``, in the
    gap between it and another of ``side``'s formations (not next to it, no more than ``reach``
    away), no farther from that other than the first is."""

    kind: Literal["cuts_line"] = "cuts_line"
    unit: str
    side: str
    reach: int = Field(6, ge=2, le=20)


class CutsLine(TriggerKind[OnCutsLine]):
    name = "cuts_line"
    model = OnCutsLine

    def check(self, when: OnCutsLine, refs: References) -> None:
        refs.unit("unit", when.unit)
        refs.side("side", when.side)

    def test(self, table: Table, when: OnCutsLine, seen: Sequence[Event]) -> bool:
        state = table.state
        cutter = state.formations.get(when.unit)
        if cutter is None or cutter.routed:
            return False
        line = [f for f in state.formations_of(when.side) if not f.routed]
        at = cutter.pos
        for a in line:
            if distance(a.pos, at) != 1:
                continue
            for b in line:
                apart = distance(a.pos, b.pos)
                # In contact with one, in the gap between it and another no farther off: wedged in.
                if b.id != a.id and 2 <= apart <= when.reach and distance(b.pos, at) <= apart:
                    return True
        return False

    def describe(self, when: OnCutsLine, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnCutsLine) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = CutsLine()
