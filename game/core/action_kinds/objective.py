"""``objective``: an objective is achieved, failed or open again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event, ObjectiveChanged
from ..kinds import N_

if TYPE_CHECKING:
    from ..table import Table

ObjectiveStatus = Literal["open", "done", "failed"]

# The log's words for each status.
_TOLD = {
    "done": N_("Objective achieved: {text}"),
    "failed": N_("Objective failed: {text}"),
    "open": N_("Objective open again: {text}"),
}


class SetObjective(ActionSpec):
    kind: Literal["objective"] = "objective"
    id: str
    status: ObjectiveStatus


class ObjectiveKind(ActionKind[SetObjective]):
    name = "objective"
    model = SetObjective

    def check(self, action: SetObjective, refs: References) -> None:
        refs.objective("id", action.id)

    def run(self, table: Table, action: SetObjective) -> list[Event]:
        objectives = table.state.objectives
        if objectives.get(action.id) == action.status:
            return []
        objectives[action.id] = action.status
        return [ObjectiveChanged(objective=action.id, status=action.status)]

    def describe(self, event: Event, tell: Teller) -> str | None:
        if not isinstance(event, ObjectiveChanged):
            return None
        spec = next((o for o in tell.scenario.objective_specs if o.id == event.objective), None)
        text = tell.text(spec.text) if spec is not None else event.objective
        template = _TOLD.get(event.status)
        return (tell.text(template) if template else "{text}").format(text=text)

    def hint(self, action: SetObjective) -> ActionHint:
        return ActionHint(achieves=action.id if action.status == "done" else None, decisive=True)


KIND = ObjectiveKind()
