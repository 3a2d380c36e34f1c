"""What a record may show to someone watching it."""

from __future__ import annotations

from .model import GameRecord
from .seats import Seats


def hides_each_side(record: GameRecord) -> bool:
    """Whether watching ``record`` would show players what they must not see: a battle between
    two or more people at one screen that is not over, where each side's army stays hidden from
    the other (a record without a snapshot cannot show that its battle ended, so it counts as
    running)."""
    humans = Seats(record.seats).humans()
    if len(humans) < 2:
        return False
    return record.snapshot is None or not record.snapshot.state.over
