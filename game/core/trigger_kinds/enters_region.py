"""``enters_region``: a formation of a side stands in a region (taken unopposed, if asked)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event
from ..kinds import N_
from ..sides import are_enemies

if TYPE_CHECKING:
    from ..table import Table


class OnEntersRegion(TriggerSpec):
    """A formation of ``side`` (only ``unit``, or any of ``units``, if given) stands in
    ``region`` after an action.

    With ``unopposed`` it fires only while no enemy of ``side`` stands there too: the region
    has been taken, not merely reached.
    """

    kind: Literal["enters_region"] = "enters_region"
    region: str
    side: str
    unit: str | None = None
    units: tuple[str, ...] = ()
    unopposed: bool = False

    def selects(self, unit_id: str) -> bool:
        if self.unit is not None:
            return unit_id == self.unit
        return not self.units or unit_id in self.units


class EntersRegion(TriggerKind[OnEntersRegion]):
    name = "enters_region"
    model = OnEntersRegion

    def check(self, when: OnEntersRegion, refs: References) -> None:
        refs.region("region", when.region)
        refs.side("side", when.side)
        refs.unit("unit", when.unit)
        refs.units("units", when.units)
        region = refs.board.regions.get(when.region, frozenset())
        for f in refs.formations.values():
            if f.side == when.side and when.selects(f.id) and f.pos in region:
                refs.fail("region", f"{f.id} starts inside {when.region!r}, so the event would fire at once")
                break

    def test(self, table: Table, when: OnEntersRegion, seen: Sequence[Event]) -> bool:
        state = table.state
        region = table.board.regions.get(when.region, frozenset())
        inside = [f for f in state.formations.values() if f.pos in region]
        if not any(f.side == when.side and when.selects(f.id) for f in inside):
            return False
        return not (when.unopposed and any(are_enemies(state, when.side, f.side) for f in inside))

    def describe(self, when: OnEntersRegion, tell: Teller) -> str:
        region = tell.scenario.board.regions.get(when.region, frozenset())
        formations = tell.state.formations.values()
        inside = sorted(f.id for f in formations if f.pos in region and f.side == when.side)
        there, count = tell.units([u for u in inside if when.selects(u)] or inside)
        if not count:
            there, count = tell.text(N_("the {side}")).format(side=tell.side(when.side)), 1
        if when.unopposed:
            return tell.ngettext(
                "{units} breaks through to its goal unopposed", "{units} break through to their goal unopposed", count
            ).format(units=there)
        return tell.ngettext("{units} reaches its goal", "{units} reach their goal", count).format(units=there)

    def hint(self, when: OnEntersRegion) -> TriggerHint:
        units = (when.unit,) if when.unit is not None else when.units
        return TriggerHint(ground=(when.region, when.side, when.unopposed, units))


KIND = EntersRegion()
