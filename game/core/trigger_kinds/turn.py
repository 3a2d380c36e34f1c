"""``turn``: the start of a given turn for a side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import References, Teller, TriggerSpec
from ..events import Event, TurnEnded
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OnTurn(TriggerSpec, names={"side": "side"}):
    """The start of turn ``turn`` for ``side`` (None: the first side in turn order)."""

    kind: Literal["turn"] = "turn"
    turn: int = Field(ge=1)
    side: str | None = None

    def check(self, refs: References) -> None:
        super().check(refs)
        if self.turn > refs.turn_limit:
            refs.fail("turn", f"after the last turn ({refs.turn_limit})")
        elif self.turn == 1 and (self.side or refs.first_side) == refs.first_side:
            refs.fail("turn", "the first side's turn 1 begins before any event is checked; use the briefing")

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        side = self.side or table.state.sides[0].id
        return any(isinstance(e, TurnEnded) and e.turn == self.turn and e.next_side == side for e in seen)

    def describe(self, tell: Teller) -> str:
        return tell.text(N_("the turn set for it, turn {n}, has come")).format(n=self.turn)


KIND = OnTurn
