"""``release``: a held group of a side may move and fight from now on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import ActionSpec, References
from ..events import Event, GroupReleased

if TYPE_CHECKING:
    from ..table import Table


class Release(ActionSpec, names={"side": "side"}):
    kind: Literal["release"] = "release"
    side: str
    group: str

    def check(self, refs: References) -> None:
        super().check(refs)
        held = f"{self.side!r} holds no group {self.group!r}"
        refs.about_side(self.side, lambda side: self.group in side.held_groups, "group", held)

    def run(self, table: Table) -> list[Event]:
        side = table.state.side(self.side)
        if self.group not in side.held_groups:
            return []
        side.held_groups.remove(self.group)
        return [GroupReleased(group=self.group, side=self.side)]


KIND = Release
