"""``officers_slain``: so many of a side's named officers have been cut down."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import officers
from ..event_kind import TriggerSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class OnOfficersSlain(TriggerSpec, names={"side": "side"}):
    """At least ``at_least`` named officers of ``side``'s formations have been cut down."""

    kind: Literal["officers_slain"] = "officers_slain"
    side: str
    at_least: int = Field(ge=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return len(officers.slain(table, self.side)) >= self.at_least


KIND = OnOfficersSlain
