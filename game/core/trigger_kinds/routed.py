"""``routed``: a formation routs, any of a side's does, or a host is broken: every one of it routed
or gone, or (``standing_at_most``) all but a small share of its men."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Self

from pydantic import Field, model_validator

from ..action_kinds.reinforce import fielded
from ..event_kind import Teller, TriggerHint, of_kind
from ..events import Event, Routed
from ..msgid import N_
from ._selection import Selection

if TYPE_CHECKING:
    from ..table import Table


class OnRouted(Selection, told=N_("a formation of the {side} breaks")):
    """``unit`` routs, any formation of ``side`` routs, or ``units`` are broken: the men still
    standing in their unrouted formations are at most ``standing_at_most`` of the men they took the
    field with (0, the default: every one of them routed or gone)."""

    kind: Literal["routed"] = "routed"
    # A host is broken once no more than this share of its men still stands in order: a general
    # who keeps one formation out of the fight cannot hold off the breaking of a host that has
    # otherwise run (A3's Wanyan Liang kept his guard back, and the coalition could never win).
    standing_at_most: float = Field(0.0, ge=0.0, lt=1.0)

    @model_validator(mode="after")
    def _share_of_a_host(self) -> Self:
        if self.standing_at_most and not self.units:
            raise ValueError("standing_at_most needs units: the host whose men are counted")
        return self

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        if self.units:
            # A state, not a moment: an event that waits (``after``) for what comes first in the
            # story still fires once those formations are broken, whenever they broke.
            standing = sum(formations[u].men for u in self.units if u in formations and not formations[u].routed)
            if standing and not self.standing_at_most:
                return False  # the cheap test first: this is asked after every action
            arrived = fielded(table.scenario, table.state)
            if not all(u in arrived for u in self.units):
                return False
            return standing <= self.standing_at_most * sum(arrived[u] for u in self.units)
        return any(e.unit == self.unit or e.side == self.side for e in of_kind(seen, (Routed,)))

    def hint(self) -> TriggerHint:
        return TriggerHint(routed_together=self.units, standing_share=self.standing_at_most)

    def describe(self, tell: Teller) -> str:
        if not self.standing_at_most:
            return super().describe(tell)
        listed, _count = tell.units(list(self.units))
        told = tell.text(N_("{units} are broken: no more than {percent} percent of their men still stand in order"))
        return told.format(units=listed, percent=round(self.standing_at_most * 100))

    def befell(self, tell: Teller, count: int) -> str:
        return tell.ngettext("{units} is broken", "{units} are broken or gone", count)


KIND = OnRouted
