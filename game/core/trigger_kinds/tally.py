"""``tally``: an objective's tally has reached so many men (see ``game.core.tallies``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import TriggerSpec
from ..events import Event
from ..msgid import N_
from ..tallies import tally_men

if TYPE_CHECKING:
    from ..table import Table


class OnTally(TriggerSpec, names={"objective": "objective"}, told=N_("the tally of a feat has been reached")):
    """The tally of ``objective`` counts at least ``at_least`` men: with the objective's
    ``tally_by``, only those its named formations struck down."""

    kind: Literal["tally"] = "tally"
    objective: str
    at_least: int = Field(ge=1)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        objective = next((o for o in table.scenario.objective_specs if o.id == self.objective), None)
        return objective is not None and tally_men(table.scenario, table.state, objective) >= self.at_least


KIND = OnTally
