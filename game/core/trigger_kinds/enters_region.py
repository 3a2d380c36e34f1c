"""``enters_region``: a formation of a side stands in a region (taken unopposed, if asked)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import References, Teller, TriggerHint, TriggerSpec
from ..events import Event
from ..msgid import N_
from ..sides import are_enemies

if TYPE_CHECKING:
    from ..table import Table


class OnEntersRegion(TriggerSpec, names={"region": "region", "side": "side", "unit": "unit", "units": "units"}):
    """A formation of ``side`` (only ``unit``, or any of ``units``, if given) stands in
    ``region`` after an action.

    With ``unopposed`` it fires only while no enemy of ``side`` stands there too: the region
    has been taken, not merely reached. With ``unbroken`` a routed formation there does not
    count: the side still stands there in order, not merely runs through.
    """

    kind: Literal["enters_region"] = "enters_region"
    region: str
    side: str
    unit: str | None = None
    units: tuple[str, ...] = ()
    unopposed: bool = False
    unbroken: bool = False

    def selects(self, unit_id: str) -> bool:
        if self.unit is not None:
            return unit_id == self.unit
        return not self.units or unit_id in self.units

    def check(self, refs: References) -> None:
        super().check(refs)
        if refs.waits:  # standing there from the start is what it asks (B1's rear guard at nightfall)
            return
        region = refs.board.regions.get(self.region, frozenset())
        for f in refs.formations.values():
            if f.side == self.side and self.selects(f.id) and f.pos in region:
                refs.fail("region", f"{f.id} starts inside {self.region!r}, so the event would fire at once")
                break

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        state = table.state
        region = table.board.regions.get(self.region, frozenset())
        inside = [f for f in state.formations.values() if f.pos in region]
        if not any(f.side == self.side and self.selects(f.id) and not (self.unbroken and f.routed) for f in inside):
            return False
        return not (self.unopposed and any(are_enemies(state, self.side, f.side) for f in inside))

    def describe(self, tell: Teller) -> str:
        region = tell.scenario.board.regions.get(self.region, frozenset())
        formations = tell.state.formations.values()
        inside = sorted(f.id for f in formations if f.pos in region and f.side == self.side)
        there, count = tell.units([u for u in inside if self.selects(u)] or inside)
        if not count:
            there, count = tell.text(N_("the {side}")).format(side=tell.side(self.side)), 1
        if self.unopposed:
            return tell.ngettext(
                "{units} breaks through to its goal unopposed", "{units} break through to their goal unopposed", count
            ).format(units=there)
        return tell.ngettext("{units} reaches its goal", "{units} reach their goal", count).format(units=there)

    def hint(self) -> TriggerHint:
        units = (self.unit,) if self.unit is not None else self.units
        return TriggerHint(ground=(self.region, self.side, self.unopposed, units))


KIND = OnEntersRegion
