"""``objectives_done``: every one of a list of objectives has been achieved."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from ..event_kind import NO_TRIGGER_HINT, References, Teller, TriggerHint, TriggerKind, TriggerSpec
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class OnObjectivesDone(TriggerSpec):
    """Every objective in ``done`` has been achieved (for victories that need several)."""

    kind: Literal["objectives_done"] = "objectives_done"
    done: tuple[str, ...] = Field(min_length=1)


class ObjectivesDone(TriggerKind[OnObjectivesDone]):
    name = "objectives_done"
    model = OnObjectivesDone

    def check(self, when: OnObjectivesDone, refs: References) -> None:
        for k, o in enumerate(when.done):
            refs.objective(f"done[{k}]", o)

    def test(self, table: Table, when: OnObjectivesDone, seen: Sequence[Event]) -> bool:
        return all(table.state.objectives.get(o) == "done" for o in when.done)

    def describe(self, when: OnObjectivesDone, tell: Teller) -> str:
        owners = tell.objective_owners()
        count = len(when.done)
        if len(owners) == 1:
            return tell.ngettext(
                "the {side} achieves its objective", "the {side} achieves its objectives", count
            ).format(side=tell.side(owners.pop()))
        return tell.ngettext("the objective is achieved", "the objectives are achieved", count)

    def hint(self, when: OnObjectivesDone) -> TriggerHint:
        return NO_TRIGGER_HINT


KIND = ObjectivesDone()
