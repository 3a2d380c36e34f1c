"""``routed``: a formation routs, any of a side's does, or every one of a host is broken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..action_kinds.reinforce import fielded
from ..event_kind import Teller, TriggerHint, TriggerSpec, exactly_one, of_kind
from ..events import Event, Routed
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnRouted(TriggerSpec, names={"unit": "unit", "units": "units", "side": "side"}):
    """``unit`` routs, any formation of ``side`` routs, or every one of ``units`` is routed or gone."""

    kind: Literal["routed"] = "routed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnRouted:
        exactly_one(self, ("unit", "units", "side"))
        return self

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

    def describe(self, tell: Teller) -> str:
        if self.side is not None:
            return tell.text(N_("a formation of the {side} breaks")).format(side=tell.side(self.side))
        listed, count = tell.units([self.unit] if self.unit else list(self.units))
        return tell.ngettext("{units} is broken", "{units} are broken or gone", count).format(units=listed)

    def hint(self) -> TriggerHint:
        return TriggerHint(routed_together=self.units)


KIND = OnRouted
