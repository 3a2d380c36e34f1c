"""``souls``: a side's qiankun pouch holds so many souls."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_TRIGGER_HINT, References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnSouls(TriggerSpec):
    """The side's qiankun pouch holds at least ``at_least`` souls."""

    kind: Literal["souls"] = "souls"
    side: str
    at_least: int = Field(ge=1)


class SoulsKind(TriggerKind[OnSouls]):
    name = "souls"
    model = OnSouls

    def check(self, when: OnSouls, refs: References) -> None:
        refs.side("side", when.side)

    def test(self, table: Table, when: OnSouls, seen: Sequence[Event]) -> bool:
        return table.state.side(when.side).pouch >= when.at_least

    def describe(self, when: OnSouls, tell: Teller) -> str:
        # The pouch as it stands, told in the language's numbers by the screen.
        return tell.text(N_("the {side} has bagged {n} souls")).format(
            side=tell.side(when.side), n=tell.men(tell.state.side(when.side).pouch)
        )

    def hint(self, when: OnSouls) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = SoulsKind()
