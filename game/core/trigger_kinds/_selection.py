"""What ``routed`` and ``destroyed`` share: they pick one formation, every one of a host, or any
formation of a side."""

from __future__ import annotations

from abc import abstractmethod
from typing import Self

from pydantic import model_validator

from ..event_kind import Teller, TriggerSpec, exactly_one


class Selection(TriggerSpec, names={"unit": "unit", "units": "units", "side": "side"}):
    unit: str | None = None
    units: tuple[str, ...] = ()
    side: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> Self:
        exactly_one(self, ("unit", "units", "side"))
        return self

    def describe(self, tell: Teller) -> str:
        """``told`` of a side's formation, else what befell the formations named."""
        if self.side is not None:
            return tell.text(self.told).format(side=tell.side(self.side))
        listed, count = tell.units([self.unit] if self.unit else list(self.units))
        return self.befell(tell, count).format(units=listed)

    @abstractmethod
    def befell(self, tell: Teller, count: int) -> str:
        """What befell ``count`` of the formations named, a message with ``{units}``."""
