"""``defeat``: the game ends now and ``side`` loses; its enemy wins (see ``defeat_winner``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionSpec
from ..events import Event
from ..sides import are_allied, are_enemies
from ..state import GameState
from .victory import REASON_EVENT

if TYPE_CHECKING:
    from ..table import Table


def defeat_winner(state: GameState, loser: str) -> str | None:
    """Who wins when ``loser`` is defeated by a scenario event.

    Its enemies among the fighting (non-neutral) sides win. If they are one side, or allies of
    one another, the winner named is the one with the player role, else the first in turn order.
    With no such enemy, or enemies who are not allied to each other, nobody wins.
    """
    enemies = [s for s in state.sides if s.role != "neutral" and are_enemies(state, loser, s.id)]
    if not enemies or not all(are_allied(state, enemies[0].id, s.id) for s in enemies):
        return None
    players = [s for s in enemies if s.role == "player"]
    return (players or enemies)[0].id


class Defeat(ActionSpec, names={"side": "side"}):
    kind: Literal["defeat"] = "defeat"
    side: str

    def run(self, table: Table) -> list[Event]:
        return table.finish(defeat_winner(table.state, self.side), REASON_EVENT)

    def hint(self) -> ActionHint:
        return ActionHint(loses=self.side, decisive=True)


KIND = Defeat
