"""``open_gates``: ``side`` opens its fortress gates to ``to`` (and to ``to``'s allies)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionSpec, References, Teller
from ..events import Event, GatesOpened
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OpenGates(ActionSpec, names={"side": "side", "to": "side"}):
    kind: Literal["open_gates"] = "open_gates"
    side: str
    to: str

    def check(self, refs: References) -> None:
        super().check(refs)
        side = refs.sides.get(self.side)
        if side is not None and side.gates is None:
            refs.fail("side", f"{self.side!r} holds no gates")

    def run(self, table: Table) -> list[Event]:
        holder = table.state.side(self.side)
        if self.to in holder.gates_open_to:
            return []
        holder.gates_open_to.append(self.to)
        return [GatesOpened(side=self.side, to=self.to)]

    @classmethod
    def describe(cls, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, GatesOpened):
            return None
        told = tell.text(N_("{side} opens its gates to {to}"))
        return told.format(side=tell.side(event.side), to=tell.side(event.to))


KIND = OpenGates
