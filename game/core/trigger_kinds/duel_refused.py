"""``duel_refused``: a hero turns down an enemy hero's challenge (``by`` that hero, if given)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import TriggerSpec, of_kind
from ..events import DuelRefused, Event
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OnDuelRefused(TriggerSpec, names={"hero": "hero", "by": "hero"}, told=N_("{hero} refuses a challenge")):
    kind: Literal["duel_refused"] = "duel_refused"
    hero: str
    by: str | None = None

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        for e in of_kind(seen, (DuelRefused,)):
            refuser, challenger = formations.get(e.target), formations.get(e.challenger)
            if refuser is None or refuser.hero != self.hero:
                continue
            if self.by is None or (challenger is not None and challenger.hero == self.by):
                return True
        return False


KIND = OnDuelRefused
