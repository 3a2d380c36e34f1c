"""``officers_slain``: so many of a side's named officers have been cut down."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import officers
from ..event_kind import NO_TRIGGER_HINT, UNTOLD, References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class OnOfficersSlain(TriggerSpec):
    """At least ``at_least`` named officers of ``side``'s formations have been cut down."""

    kind: Literal["officers_slain"] = "officers_slain"
    side: str
    at_least: int = Field(ge=1)


class OfficersSlain(TriggerKind[OnOfficersSlain]):
    name = "officers_slain"
    model = OnOfficersSlain

    def check(self, when: OnOfficersSlain, refs: References) -> None:
        refs.side("side", when.side)

    def test(self, table: Table, when: OnOfficersSlain, seen: Sequence[Event]) -> bool:
        return len(officers.slain(table, when.side)) >= when.at_least

    def describe(self, when: OnOfficersSlain, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnOfficersSlain) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = OfficersSlain()
