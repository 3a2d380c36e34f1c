"""``defeat``: the battle ends now and a side loses; its enemy wins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event
from ..sides import are_allied, are_enemies
from ..state import GameState
from .victory import REASON_EVENT

if TYPE_CHECKING:
    from ..table import Table


class Defeat(ActionSpec):
    """The game ends now and ``side`` loses: its enemy wins (see ``defeat_winner``)."""

    kind: Literal["defeat"] = "defeat"
    side: str


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


class DefeatKind(ActionKind[Defeat]):
    name = "defeat"
    model = Defeat

    def check(self, action: Defeat, refs: References) -> None:
        refs.side("side", action.side)

    def run(self, table: Table, action: Defeat) -> list[Event]:
        return table.finish(defeat_winner(table.state, action.side), REASON_EVENT)

    def describe(self, event: Event, tell: Teller) -> str | None:
        return None  # the end of the battle is told by the log and the result screen

    def hint(self, action: Defeat) -> ActionHint:
        return ActionHint(loses=action.side, decisive=True)


KIND = DefeatKind()
