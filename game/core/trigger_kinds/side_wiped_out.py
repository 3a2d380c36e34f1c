"""``side_wiped_out``: the last formation of a side is destroyed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_TRIGGER_HINT, References, Teller, TriggerHint, TriggerKind, TriggerSpec, of_kind
from ..events import Destroyed, Event
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnSideWipedOut(TriggerSpec):
    """The last formation of ``side`` is destroyed."""

    kind: Literal["side_wiped_out"] = "side_wiped_out"
    side: str


class SideWipedOut(TriggerKind[OnSideWipedOut]):
    name = "side_wiped_out"
    model = OnSideWipedOut

    def check(self, when: OnSideWipedOut, refs: References) -> None:
        refs.side("side", when.side)

    def test(self, table: Table, when: OnSideWipedOut, seen: Sequence[Event]) -> bool:
        if not any(e.side == when.side for e in of_kind(seen, (Destroyed,))):
            return False
        return not any(f.side == when.side for f in table.state.formations.values())

    def describe(self, when: OnSideWipedOut, tell: Teller) -> str:
        return tell.text(N_("the {side} has no formations left")).format(side=tell.side(when.side))

    def hint(self, when: OnSideWipedOut) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = SideWipedOut()
