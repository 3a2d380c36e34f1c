"""``reveal``: hidden formations (one, or a whole group) come out of hiding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from .. import vision
from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller, exactly_one
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class Reveal(ActionSpec):
    """Hidden formations (one ``unit`` or a whole ``group``) come out of hiding."""

    kind: Literal["reveal"] = "reveal"
    unit: str | None = None
    group: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> Reveal:
        exactly_one(self, ("unit", "group"))
        return self


class RevealKind(ActionKind[Reveal]):
    name = "reveal"
    model = Reveal

    def check(self, action: Reveal, refs: References) -> None:
        refs.unit("unit", action.unit)
        if action.group is not None and action.group not in refs.groups:
            refs.fail("group", f"no formation is in group {action.group!r}")

    def run(self, table: Table, action: Reveal) -> list[Event]:
        events: list[Event] = []
        for f in sorted(table.state.formations.values(), key=lambda x: x.id):
            chosen = f.id == action.unit if action.unit else f.group == action.group
            if chosen and f.hidden:
                f.hidden = False
                events += vision.revealed(f)
        return events

    def describe(self, event: Event, tell: Teller) -> str | None:
        return None  # its Revealed is told as every ambush sprung is, by the log itself

    def hint(self, action: Reveal) -> ActionHint:
        return NO_ACTION_HINT


KIND = RevealKind()
