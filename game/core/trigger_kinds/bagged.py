"""``bagged``: a routed soul formation is caught whole by a capture: caught, not cut down (the
broken host herded into the bag)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import TriggerSpec, of_kind
from ..events import Event, SoulsCaptured

if TYPE_CHECKING:
    from ..table import Table


class OnBagged(TriggerSpec, names={"units": "units"}):
    kind: Literal["bagged"] = "bagged"
    units: tuple[str, ...] = Field(min_length=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return any(u in self.units for e in of_kind(seen, (SoulsCaptured,)) for u in e.bagged_units)


KIND = OnBagged
