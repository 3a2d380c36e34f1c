"""``objectives_done``: every one of a list of objectives has been achieved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import References, Teller, TriggerSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class OnObjectivesDone(TriggerSpec):
    """Every objective in ``done`` has been achieved (for victories that need several)."""

    kind: Literal["objectives_done"] = "objectives_done"
    done: tuple[str, ...] = Field(min_length=1)

    def check(self, refs: References) -> None:
        for k, o in enumerate(self.done):
            refs.objective(f"done[{k}]", o)

    def test(self, table: Table, seen: Sequence[Event]) -> bool:
        return all(table.state.objectives.get(o) == "done" for o in self.done)

    def describe(self, tell: Teller) -> str:
        owners, count = tell.objective_owners(), len(self.done)
        if len(owners) != 1:
            return tell.ngettext("the objective is achieved", "the objectives are achieved", count)
        mine = tell.ngettext("the {side} achieves its objective", "the {side} achieves its objectives", count)
        return mine.format(side=tell.side(owners.pop()))


KIND = OnObjectivesDone
