"""``routed``: a formation routs, any of a side's does, or every one of a host is broken."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..action_kinds.reinforce import fielded
from ..event_kind import References, Teller, TriggerHint, TriggerKind, TriggerSpec, exactly_one, of_kind
from ..events import Event, Routed
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnRouted(TriggerSpec):
    """``unit`` routs, any formation of ``side`` routs, or every one of ``units`` is routed or gone."""

    kind: Literal["routed"] = "routed"
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> OnRouted:
        exactly_one(self, ("unit", "units", "side"))
        return self


class RoutedKind(TriggerKind[OnRouted]):
    name = "routed"
    model = OnRouted

    def check(self, when: OnRouted, refs: References) -> None:
        refs.unit("unit", when.unit)
        refs.units("units", when.units)
        refs.side("side", when.side)

    def test(self, table: Table, when: OnRouted, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        if when.units:
            # A state, not a moment: an event that waits (``after``) for what comes first in the
            # story still fires once those formations are all broken, whenever they broke.
            if not all(u not in formations or formations[u].routed for u in when.units):
                return False  # the cheap test first: this is asked after every action
            arrived = fielded(table.scenario, table.state)
            return all(u in arrived for u in when.units)
        return any(e.unit == when.unit or e.side == when.side for e in of_kind(seen, (Routed,)))

    def describe(self, when: OnRouted, tell: Teller) -> str:
        if when.side is not None:
            return tell.text(N_("a formation of the {side} breaks")).format(side=tell.side(when.side))
        listed, count = tell.units([when.unit] if when.unit else list(when.units))
        return tell.ngettext("{units} is broken", "{units} are broken or gone", count).format(units=listed)

    def hint(self, when: OnRouted) -> TriggerHint:
        return TriggerHint(routed_together=when.units)


KIND = RoutedKind()
