"""``turn``: the start of a given turn for a side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_TRIGGER_HINT, References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event, TurnEnded
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnTurn(TriggerSpec):
    """The start of turn ``turn`` for ``side`` (None: the first side in turn order)."""

    kind: Literal["turn"] = "turn"
    turn: int = Field(ge=1)
    side: str | None = None


class Turn(TriggerKind[OnTurn]):
    name = "turn"
    model = OnTurn

    def check(self, when: OnTurn, refs: References) -> None:
        refs.side("side", when.side)
        if when.turn > refs.turn_limit:
            refs.fail("turn", f"after the last turn ({refs.turn_limit})")
        elif when.turn == 1 and (when.side or refs.first_side) == refs.first_side:
            refs.fail("turn", "the first side's turn 1 begins before any event is checked; use the briefing")

    def test(self, table: Table, when: OnTurn, seen: Sequence[Event]) -> bool:
        side = when.side or table.state.sides[0].id
        return any(isinstance(e, TurnEnded) and e.turn == when.turn and e.next_side == side for e in seen)

    def describe(self, when: OnTurn, tell: Teller) -> str:
        return tell.text(N_("the turn set for it, turn {n}, has come")).format(n=when.turn)

    def hint(self, when: OnTurn) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = Turn()
