"""``morale``: news runs through a side's army and every formation of it gains or loses heart."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from .. import morale
from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class Shake(ActionSpec):
    """News runs through ``side``'s army: every formation of it still standing gains or (when
    ``delta`` is negative) loses morale; ``text`` (an English msgid) is the reason the log shows."""

    kind: Literal["morale"] = "morale"
    side: str
    delta: int = Field(ge=-100, le=100)
    text: str = Field(min_length=1)


class ShakeKind(ActionKind[Shake]):
    name = "morale"
    model = Shake

    def check(self, action: Shake, refs: References) -> None:
        refs.side("side", action.side)

    def run(self, table: Table, action: Shake) -> list[Event]:
        events: list[Event] = []
        for f in table.state.formations_of(action.side):
            if not f.routed:
                events += morale.change_morale(table.rules, f, action.delta, action.text)
        return events + morale.check_routs(table.state, table.rules)

    def describe(self, event: Event, tell: Teller) -> str | None:
        return None  # each change of heart is told with its reason, as every other is

    def hint(self, action: Shake) -> ActionHint:
        return NO_ACTION_HINT


KIND = ShakeKind()
