"""``charge``: a formation rides over open ground into a melee blow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from ..event_kind import (
    NO_TRIGGER_HINT,
    UNTOLD,
    References,
    Teller,
    TriggerHint,
    TriggerKind,
    TriggerSpec,
    exactly_one,
    of_kind,
)
from ..events import Attacked, Event

if TYPE_CHECKING:
    from ..table import Table


class OnCharge(TriggerSpec):
    """``unit`` (or any of ``units``) charges: rides over open ground into a melee blow at a
    formation (one of ``targets``, if given). The Hegemon-King's charge into the host."""

    kind: Literal["charge"] = "charge"
    unit: str | None = None
    units: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_selector(self) -> OnCharge:
        exactly_one(self, ("unit", "units"))
        return self


class Charge(TriggerKind[OnCharge]):
    name = "charge"
    model = OnCharge

    def check(self, when: OnCharge, refs: References) -> None:
        refs.unit("unit", when.unit)
        refs.units("units", when.units)
        refs.units("targets", when.targets)

    def test(self, table: Table, when: OnCharge, seen: Sequence[Event]) -> bool:
        chargers = {when.unit} if when.unit else set(when.units)
        return any(
            e.charge and e.unit in chargers and (not when.targets or e.target in when.targets)
            for e in of_kind(seen, (Attacked,))
        )

    def describe(self, when: OnCharge, tell: Teller) -> str:
        return tell.text(UNTOLD)

    def hint(self, when: OnCharge) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = Charge()
