"""``charge``: a formation rides over open ground into a melee blow (the Hegemon-King's charge
into the host)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..event_kind import TriggerSpec, exactly_one, of_kind
from ..events import Attacked, Event

if TYPE_CHECKING:
    from ..table import Table


class OnCharge(TriggerSpec, names={"unit": "unit", "units": "units", "targets": "units"}):
    """``unit`` (or any of ``units``) charges: rides over open ground into a melee blow at a
    formation (one of ``targets``, if given)."""

    kind: Literal["charge"] = "charge"
    unit: str | None = None
    units: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_selector(self) -> OnCharge:
        exactly_one(self, ("unit", "units"))
        return self

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        chargers = {self.unit} if self.unit else set(self.units)
        blows = [e for e in of_kind(seen, (Attacked,)) if e.charge and e.unit in chargers]
        return any(not self.targets or e.target in self.targets for e in blows)


KIND = OnCharge
