"""``victory``: the game ends now and ``side`` wins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table

# GameOver reason when an event decides the battle.
REASON_EVENT = "scenario_event"


class Victory(ActionSpec, names={"side": "side"}):
    kind: Literal["victory"] = "victory"
    side: str

    def run(self, table: Table) -> list[Event]:
        return table.finish(self.side, REASON_EVENT)

    def hint(self) -> ActionHint:
        return ActionHint(wins=self.side, decisive=True)


KIND = Victory
