"""A finished battle's set pieces, read by re-running its record with a watch.

A game loaded from a save holds only a snapshot of where it stands, so what came earlier is
found by playing the record again through the one re-run there is (``Rerun``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..content.chronicle import set_pieces
from ..content.scenarios import LoadedScenario
from ..core.events import Event
from ..core.state import GameState
from ..record.model import GameRecord
from ..record.rerun import Rerun
from .spec import SetPiece
from .watch import ChronicleWatch, Occurrence


class Watcher(Protocol):
    def seen(self, events: Sequence[Event], state: GameState) -> None: ...


def set_pieces_of(
    record: GameRecord, loaded: LoadedScenario, also: Sequence[Watcher] = ()
) -> list[tuple[SetPiece, Occurrence | None]]:
    """Every set piece of the record's scenario, with how it came in this game (None: it did
    not). A record that stops replaying is read up to where it stops. ``also``: other watchers
    told every action of the same re-run (the battle's figures), so the record is played once."""
    watch = ChronicleWatch(set_pieces(loaded.scenario.id))
    if not watch.pieces and not also:
        return []
    rerun = Rerun(record, loaded)
    watchers: list[Watcher] = [watch, *also]

    def each(events: list[Event]) -> None:
        for w in watchers:
            w.seen(events, rerun.state)

    rerun.run(each=each)
    if rerun.state.over:
        watch.finish(rerun.state)
    return watch.report()
