"""``reveal``: hidden formations (one ``unit`` or a whole ``group``) come out of hiding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from .. import vision
from ..event_kind import ActionSpec, References, exactly_one
from ..events import Event

if TYPE_CHECKING:
    from ..table import Table


class Reveal(ActionSpec, names={"unit": "unit"}):
    kind: Literal["reveal"] = "reveal"
    unit: str | None = None
    group: str | None = None

    @model_validator(mode="after")
    def _one_selector(self) -> Reveal:
        exactly_one(self, ("unit", "group"))
        return self

    def check(self, refs: References) -> None:
        super().check(refs)
        if self.group is not None and self.group not in refs.groups:
            refs.fail("group", f"no formation is in group {self.group!r}")

    def run(self, table: Table) -> list[Event]:
        events: list[Event] = []
        for f in sorted(table.state.formations.values(), key=lambda x: x.id):
            chosen = f.id == self.unit if self.unit else f.group == self.group
            if chosen and f.hidden:
                f.hidden = False
                events += vision.revealed(f)
        return events


KIND = Reveal
