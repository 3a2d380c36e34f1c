"""``duel_refused``: a hero turns down an enemy hero's challenge (``by`` that hero, if given), for
the ``times``-th time. In a scenario with such an event the state counts each hero's refusals
(``GameState.refusals``); elsewhere it keeps none, so those games save and hash as before."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import TriggerSpec, of_kind
from ..events import DuelRefused, Event
from ..msgid import N_
from ..state import Formation, GameState

if TYPE_CHECKING:
    from ..table import Table


class OnDuelRefused(TriggerSpec, names={"hero": "hero", "by": "hero"}, told=N_("{hero} refuses a challenge")):
    kind: Literal["duel_refused"] = "duel_refused"
    hero: str
    by: str | None = None
    times: int = Field(1, ge=1)

    def _counts(self, refuser: str | None, challenger: str | None) -> bool:
        return refuser == self.hero and (self.by is None or challenger == self.by)

    def refused(self, state: GameState) -> int:
        """The refusals this trigger counts so far."""
        out = 0
        for key, n in state.refusals.items():
            refuser, _, challenger = key.partition("/")
            out += n if self._counts(refuser, challenger) else 0
        return out

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        for e in of_kind(seen, (DuelRefused,)):
            refuser, challenger = formations.get(e.target), formations.get(e.challenger)
            if refuser is not None and self._counts(refuser.hero, challenger.hero if challenger else None):
                return self.refused(table.state) >= self.times
        return False

    def next_refusal_fires(self, state: GameState, refuser: str, challenger: str | None) -> bool:
        """Whether ``refuser`` turning down ``challenger`` once more would set this off."""
        return self._counts(refuser, challenger) and self.refused(state) + 1 >= self.times


def note_refusal(table: Table, refuser: Formation, challenger: Formation) -> None:
    """Count a refusal, in a scenario whose events wait for refusals."""
    if refuser.hero is None or not any(isinstance(spec.when, OnDuelRefused) for spec in table.scenario.events):
        return
    key = f"{refuser.hero}/{challenger.hero or ''}"
    table.state.refusals[key] = table.state.refusals.get(key, 0) + 1


KIND = OnDuelRefused
