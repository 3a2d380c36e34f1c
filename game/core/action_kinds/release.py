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
        side = refs.sides.get(self.side)
        if side is not None and self.group not in side.held_groups:
            refs.fail("group", f"{self.side!r} holds no group {self.group!r}")

    def run(self, table: Table) -> list[Event]:
        side = table.state.side(self.side)
        if self.group not in side.held_groups:
            return []
        side.held_groups.remove(self.group)
        return [GroupReleased(group=self.group, side=self.side)]


KIND = Release
