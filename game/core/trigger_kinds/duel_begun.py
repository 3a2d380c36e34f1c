"""``duel_begun``: a hero has met an enemy hero in single combat (a challenge accepted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import TriggerSpec, of_kind
from ..events import DuelBegun, Event

if TYPE_CHECKING:
    from ..table import Table


class OnDuelBegun(TriggerSpec, names={"hero": "hero"}):
    kind: Literal["duel_begun"] = "duel_begun"
    hero: str

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        duels = of_kind(seen, (DuelBegun,))
        return any(
            self.hero in {formations[u].hero for u in (e.challenger, e.target) if u in formations} for e in duels
        )


KIND = OnDuelBegun
