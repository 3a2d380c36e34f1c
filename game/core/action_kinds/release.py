"""``release``: a held group of a side may move and fight from now on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..event_kind import NO_ACTION_HINT, ActionHint, ActionKind, ActionSpec, References, Teller
from ..events import Event, GroupReleased

if TYPE_CHECKING:
    from ..table import Table


class Release(ActionSpec):
    """A held group of ``side`` may move and fight from now on."""

    kind: Literal["release"] = "release"
    side: str
    group: str


class ReleaseKind(ActionKind[Release]):
    name = "release"
    model = Release

    def check(self, action: Release, refs: References) -> None:
        refs.side("side", action.side)
        side = refs.sides.get(action.side)
        if side is not None and action.group not in side.held_groups:
            refs.fail("group", f"{action.side!r} holds no group {action.group!r}")

    def run(self, table: Table, action: Release) -> list[Event]:
        side = table.state.side(action.side)
        if action.group not in side.held_groups:
            return []
        side.held_groups.remove(action.group)
        return [GroupReleased(group=action.group, side=action.side)]

    def describe(self, event: Event, tell: Teller) -> str | None:
        return None  # the story tells it (a narration beside it), the log does not

    def hint(self, action: Release) -> ActionHint:
        return NO_ACTION_HINT


KIND = ReleaseKind()
