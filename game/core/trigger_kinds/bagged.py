"""``bagged``: a routed soul formation is caught whole by a capture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_TRIGGER_HINT, UNTOLD, References, Teller, TriggerHint, TriggerKind, TriggerSpec, of_kind
from ..events import Event, SoulsCaptured

if TYPE_CHECKING:
    from ..table import Table


class OnBagged(TriggerSpec):
    """A routed soul formation among ``units`` is bagged whole by a capture: caught, not cut down
    (the broken host herded into the bag)."""

    kind: Literal["bagged"] = "bagged"
    units: tuple[str, ...] = Field(min_length=1)


class Bagged(TriggerKind[OnBagged]):
    name = "bagged"
    model = OnBagged

    def check(self, when: OnBagged, refs: References) -> None:
        refs.units("units", when.units)

    def test(self, table: Table, when: OnBagged, seen: Sequence[Event]) -> bool:
        return any(u in when.units for e in of_kind(seen, (SoulsCaptured,)) for u in e.bagged_units)

    def describe(self, when: OnBagged, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnBagged) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = Bagged()
