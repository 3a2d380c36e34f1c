"""``morale``: news runs through ``side``'s army: every formation of it still standing gains or
(when ``delta`` is negative) loses morale; ``text`` (an English msgid) is the reason the log shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import morale
from ..event_kind import ActionSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class Shake(ActionSpec, names={"side": "side"}):
    kind: Literal["morale"] = "morale"
    side: str
    delta: int = Field(ge=-100, le=100)
    text: str = Field(min_length=1)

    def run(self, table: Table) -> list[Event]:
        events: list[Event] = []
        for f in (f for f in table.state.formations_of(self.side) if not f.routed):
            events += morale.change_morale(table.rules, f, self.delta, self.text)
        return events + morale.check_routs(table.state, table.rules)


KIND = Shake
