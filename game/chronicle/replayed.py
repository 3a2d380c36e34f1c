"""A finished battle's set pieces, read by re-running its record with a watch.

A game loaded from a save holds only a snapshot of where it stands, so what came earlier is
found by playing the record again through the one re-run there is (``Rerun``).
"""

from __future__ import annotations

from ..content.chronicle import set_pieces
from ..content.scenarios import LoadedScenario
from ..record.model import GameRecord
from ..record.rerun import Rerun
from .spec import SetPiece
from .watch import ChronicleWatch, Occurrence


def set_pieces_of(record: GameRecord, loaded: LoadedScenario) -> list[tuple[SetPiece, Occurrence | None]]:
    """Every set piece of the record's scenario, with how it came in this game (None: it did
    not). A record that stops replaying is read up to where it stops."""
    watch = ChronicleWatch(set_pieces(loaded.scenario.id))
    if not watch.pieces:
        return []
    rerun = Rerun(record, loaded)
    rerun.run(each=lambda events: watch.seen(events, rerun.state))
    if rerun.state.over:
        watch.finish(rerun.state)
    return watch.report()
