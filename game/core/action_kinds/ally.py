"""``ally``: ``side`` and ``with`` fight side by side from now on; any war between them ends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import ActionSpec, References
from ..events import Event, SidesAllied
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class Ally(
    ActionSpec, names={"side": "side", "with_": "side"}, tells=SidesAllied, told=N_("{side} and {ally} are now allies")
):
    kind: Literal["ally"] = "ally"
    side: str
    with_: str = Field(alias="with")

    def check(self, refs: References) -> None:
        super().check(refs)
        if self.side == self.with_:
            refs.fail("with", "a side cannot ally with itself")

    def run(self, table: Table) -> list[Event]:
        a, b = table.state.side(self.side), table.state.side(self.with_)
        if b.id in a.allies and a.id in b.allies:
            return []
        for one, other in ((a, b), (b, a)):
            if other.id not in one.allies:
                one.allies.append(other.id)
            if other.id in one.hostile_to:
                one.hostile_to.remove(other.id)
        return [SidesAllied(side=a.id, ally=b.id)]


KIND = Ally
