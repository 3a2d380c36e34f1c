"""``fallen``: so many men of a group of formations have been struck down (a tally)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..action_kinds.reinforce import fielded
from ..event_kind import TriggerSpec
from ..events import Event
from ..scenario import Scenario
from ..state import GameState

if TYPE_CHECKING:
    from ..table import Table


def fallen_men(scenario: Scenario, state: GameState, units: Iterable[str]) -> int:
    """Men of ``units`` struck down so far: what each had when it took the field (at the start,
    or on arriving as a reinforcement) less what it has now; none for one not yet arrived, and
    never below none for one that has gathered souls back into its ranks."""
    wanted = set(units)
    start = {u: men for u, men in fielded(scenario, state).items() if u in wanted}
    formations = state.formations
    return sum(max(0, men - (formations[u].men if u in formations else 0)) for u, men in start.items())


class OnFallen(TriggerSpec, names={"units": "units"}):
    """At least ``at_least`` men of ``units`` have fallen (a tally of souls struck down): the
    men each had when it took the field less those it has now."""

    kind: Literal["fallen"] = "fallen"
    units: tuple[str, ...] = Field(min_length=1)
    at_least: int = Field(ge=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return fallen_men(table.scenario, table.state, self.units) >= self.at_least


KIND = OnFallen
