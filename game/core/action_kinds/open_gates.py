"""``open_gates``: a side opens its fortress gates to another (and to its allies)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event, GatesOpened
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OpenGates(ActionSpec):
    """``side`` opens its fortress gates to ``to`` (and to ``to``'s allies)."""

    kind: Literal["open_gates"] = "open_gates"
    side: str
    to: str


class OpenGatesKind(ActionKind[OpenGates]):
    name = "open_gates"
    model = OpenGates

    def check(self, action: OpenGates, refs: References) -> None:
        refs.side("side", action.side)
        refs.side("to", action.to)
        side = refs.sides.get(action.side)
        if side is not None and side.gates is None:
            refs.fail("side", f"{action.side!r} holds no gates")

    def run(self, table: Table, action: OpenGates) -> list[Event]:
        holder = table.state.side(action.side)
        if action.to in holder.gates_open_to:
            return []
        holder.gates_open_to.append(action.to)
        return [GatesOpened(side=action.side, to=action.to)]

    def describe(self, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, GatesOpened):
            return None
        return tell.text(N_("{side} opens its gates to {to}")).format(
            side=tell.side(event.side), to=tell.side(event.to)
        )

    def hint(self, action: OpenGates) -> ActionHint:
        return NO_ACTION_HINT


KIND = OpenGatesKind()
