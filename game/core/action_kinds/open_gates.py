"""``open_gates``: ``side`` opens its fortress gates to ``to`` (and to ``to``'s allies)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionSpec, References
from ..events import Event, GatesOpened
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OpenGates(
    ActionSpec, names={"side": "side", "to": "side"}, tells=GatesOpened, told=N_("{side} opens its gates to {to}")
):
    kind: Literal["open_gates"] = "open_gates"
    side: str
    to: str

    def check(self, refs: References) -> None:
        super().check(refs)
        refs.about_side(self.side, lambda side: side.gates is not None, "side", f"{self.side!r} holds no gates")

    def run(self, table: Table) -> list[Event]:
        holder = table.state.side(self.side)
        if self.to in holder.gates_open_to:
            return []
        holder.gates_open_to.append(self.to)
        return [GatesOpened(side=self.side, to=self.to)]


KIND = OpenGates
