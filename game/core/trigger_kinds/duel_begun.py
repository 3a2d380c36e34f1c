"""``duel_begun``: a hero has met an enemy hero in single combat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_TRIGGER_HINT, UNTOLD, References, Teller, TriggerHint, TriggerKind, TriggerSpec, of_kind
from ..events import DuelBegun, Event

if TYPE_CHECKING:
    from ..table import Table


class OnDuelBegun(TriggerSpec):
    """``hero`` has met an enemy hero in single combat (a challenge accepted)."""

    kind: Literal["duel_begun"] = "duel_begun"
    hero: str


class DuelBegunKind(TriggerKind[OnDuelBegun]):
    name = "duel_begun"
    model = OnDuelBegun

    def check(self, when: OnDuelBegun, refs: References) -> None:
        refs.hero("hero", when.hero)

    def test(self, table: Table, when: OnDuelBegun, seen: Sequence[Event]) -> bool:
        formations = table.state.formations
        for e in of_kind(seen, (DuelBegun,)):
            heroes = {formations[u].hero for u in (e.challenger, e.target) if u in formations}
            if when.hero in heroes:
                return True
        return False

    def describe(self, when: OnDuelBegun, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnDuelBegun) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = DuelBegunKind()
