"""``fallen``: so many men of a group of formations have been struck down (a tally)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import TriggerSpec
from ..events import Event
from ..tallies import fallen_men

if TYPE_CHECKING:
    from ..table import Table


class OnFallen(TriggerSpec, names={"units": "units"}):
    """At least ``at_least`` men of ``units`` have fallen (a tally of souls struck down): the
    men each had when it took the field less those it has now."""

    kind: Literal["fallen"] = "fallen"
    units: tuple[str, ...] = Field(min_length=1)
    at_least: int = Field(ge=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return fallen_men(table.scenario, table.state, self.units) >= self.at_least


KIND = OnFallen
