"""``hero_wounded``: a hero is wounded and carried from the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_TRIGGER_HINT, References, Teller, TriggerHint, TriggerKind, TriggerSpec, of_kind
from ..events import Event, HeroWounded
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table


class OnHeroWounded(TriggerSpec):
    kind: Literal["hero_wounded"] = "hero_wounded"
    hero: str


class HeroWoundedKind(TriggerKind[OnHeroWounded]):
    name = "hero_wounded"
    model = OnHeroWounded

    def check(self, when: OnHeroWounded, refs: References) -> None:
        refs.hero("hero", when.hero)

    def test(self, table: Table, when: OnHeroWounded, seen: Sequence[Event]) -> bool:
        return any(e.hero == when.hero for e in of_kind(seen, (HeroWounded,)))

    def describe(self, when: OnHeroWounded, tell: Teller) -> str:
        return tell.text(N_("{hero} is wounded and carried from the field")).format(hero=tell.hero(when.hero))

    def hint(self, when: OnHeroWounded) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = HeroWoundedKind()
