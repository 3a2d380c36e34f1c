"""``souls``: a side's qiankun pouch holds so many souls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import Teller, TriggerSpec
from ..events import Event
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OnSouls(TriggerSpec, names={"side": "side"}, told=N_("the {side} has bagged {n} souls")):
    """The side's qiankun pouch holds at least ``at_least`` souls."""

    kind: Literal["souls"] = "souls"
    side: str
    at_least: int = Field(ge=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return table.state.side(self.side).pouch >= self.at_least

    def describe(self, tell: Teller) -> str:
        pouch = tell.men(tell.state.side(self.side).pouch)
        return tell.text(self.told).format(side=tell.side(self.side), n=pouch)


KIND = OnSouls
