"""``victory``: the battle ends now and a side wins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table

# GameOver reason when an event decides the battle.
REASON_EVENT = "scenario_event"


class Victory(ActionSpec):
    """The game ends now and ``side`` wins."""

    kind: Literal["victory"] = "victory"
    side: str


class VictoryKind(ActionKind[Victory]):
    name = "victory"
    model = Victory

    def check(self, action: Victory, refs: References) -> None:
        refs.side("side", action.side)

    def run(self, table: Table, action: Victory) -> list[Event]:
        return table.finish(action.side, REASON_EVENT)

    def describe(self, event: Event, tell: Teller) -> str | None:
        return None  # the end of the battle is told by the log and the result screen

    def hint(self, action: Victory) -> ActionHint:
        return ActionHint(wins=action.side, decisive=True)


KIND = VictoryKind()
