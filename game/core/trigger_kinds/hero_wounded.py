"""``hero_wounded``: a hero is wounded and carried from the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import TriggerSpec, of_kind
from ..events import Event, HeroWounded
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table


class OnHeroWounded(TriggerSpec, names={"hero": "hero"}, told=N_("{hero} is wounded and carried from the field")):
    kind: Literal["hero_wounded"] = "hero_wounded"
    hero: str

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return any(e.hero == self.hero for e in of_kind(seen, (HeroWounded,)))


KIND = OnHeroWounded
