"""``ally``: two sides fight side by side from now on; any war between them ends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event, SidesAllied
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class Ally(ActionSpec):
    """``side`` and ``with`` fight side by side from now on; any war between them ends."""

    kind: Literal["ally"] = "ally"
    side: str
    with_: str = Field(alias="with")


class AllyKind(ActionKind[Ally]):
    name = "ally"
    model = Ally

    def check(self, action: Ally, refs: References) -> None:
        refs.side("side", action.side)
        refs.side("with", action.with_)
        if action.side == action.with_:
            refs.fail("with", "a side cannot ally with itself")

    def run(self, table: Table, action: Ally) -> list[Event]:
        state = table.state
        a, b = state.side(action.side), state.side(action.with_)
        if b.id in a.allies and a.id in b.allies:
            return []
        for one, other in ((a, b), (b, a)):
            if other.id not in one.allies:
                one.allies.append(other.id)
            if other.id in one.hostile_to:
                one.hostile_to.remove(other.id)
        return [SidesAllied(side=a.id, ally=b.id)]

    def describe(self, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, SidesAllied):
            return None
        return tell.text(N_("{side} and {ally} are now allies")).format(
            side=tell.side(event.side), ally=tell.side(event.ally)
        )

    def hint(self, action: Ally) -> ActionHint:
        return NO_ACTION_HINT


KIND = AllyKind()
