"""``objective``: an objective is achieved, failed or open again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionSpec, Teller
from ..events import Event, ObjectiveChanged
from ..msgid import N_

if TYPE_CHECKING:
    from ..table import Table

ObjectiveStatus = Literal["open", "done", "failed"]

# The log's words for each status.
_TOLD = {
    "done": N_("Objective achieved: {text}"),
    "failed": N_("Objective failed: {text}"),
    "open": N_("Objective open again: {text}"),
}


class SetObjective(ActionSpec, names={"id": "objective"}):
    kind: Literal["objective"] = "objective"
    id: str
    status: ObjectiveStatus

    def run(self, table: Table) -> list[Event]:
        objectives = table.state.objectives
        if objectives.get(self.id) == self.status:
            return []
        objectives[self.id] = self.status
        return [ObjectiveChanged(objective=self.id, status=self.status)]

    @classmethod
    def describe(cls, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, ObjectiveChanged):
            return None
        spec = next((o for o in tell.scenario.objective_specs if o.id == event.objective), None)
        text = tell.text(spec.text) if spec is not None else event.objective
        template = _TOLD.get(event.status)
        return (tell.text(template) if template else "{text}").format(text=text)

    def hint(self) -> ActionHint:
        return ActionHint(achieves=self.id if self.status == "done" else None, decisive=True)


KIND = SetObjective
