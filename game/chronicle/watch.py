"""Watching a game for the chronicle's set pieces: which came, on which turn, by whom, how many.

A ``ChronicleWatch`` is told the events of every action with the state after it (a match's
listener does that) and, once the battle is over, ``finish`` is called. It only reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.events import Event
from ..core.state import GameState
from .spec import Fired, Happened, SetPiece, Survives


@dataclass(frozen=True)
class Occurrence:
    """A set piece as it came in one game."""

    turn: int  # the turn it came on (for ``happened`` over turns: the turn it was complete)
    side: str  # the side whose turn it was
    who: str | None = None  # a unit or hero id, where the sign names one
    count: int | None = None  # how many (men, stragglers, souls), where the sign counts


@dataclass
class _Progress:
    """What a ``happened`` sign has seen so far."""

    turns: list[int] = field(default_factory=list)
    who: str | None = None
    count: int = 0


def matches(sign: Happened, event: Event) -> bool:
    """Whether one engine event is of the sign's kind with its values."""
    if event.kind != sign.event:
        return False
    for name, wanted in sign.where.items():
        value = getattr(event, name, None)
        if isinstance(wanted, list):
            if value not in wanted:
                return False
        elif value != wanted:
            return False
    for name, least in sign.at_least.items():
        value = getattr(event, name, None)
        if isinstance(value, tuple | list):  # a list of ids: how many it names
            value = len(value)
        if not isinstance(value, int | float) or value < least:
            return False
    return True


class ChronicleWatch:
    """The set pieces of one battle, watched as it is played (or re-run from its record)."""

    def __init__(self, pieces: Sequence[SetPiece]) -> None:
        self.pieces = tuple(pieces)
        self.occurred: dict[str, Occurrence] = {}
        self._fired_seen = 0
        self._progress: dict[str, _Progress] = {p.id: _Progress() for p in self.pieces}
        self._finished = False

    def seen(self, events: Sequence[Event], state: GameState) -> None:
        """Take in one action's events, ``state`` being the game just after it."""
        new_fired = state.fired_events[self._fired_seen :]
        self._fired_seen = len(state.fired_events)
        for piece in self.pieces:
            if piece.id in self.occurred:
                continue
            sign = piece.when
            if isinstance(sign, Fired) and sign.event in new_fired:
                self.occurred[piece.id] = Occurrence(state.turn, state.active_side.id)
            elif isinstance(sign, Happened):
                self._happened(piece.id, sign, events, state)

    def _happened(self, piece_id: str, sign: Happened, events: Sequence[Event], state: GameState) -> None:
        progress = self._progress[piece_id]
        for event in events:
            if not matches(sign, event):
                continue
            if state.turn not in progress.turns:
                progress.turns.append(state.turn)
            if progress.who is None and sign.who is not None:
                who: Any = getattr(event, sign.who, None)
                progress.who = who if isinstance(who, str) else None
            if sign.count is not None:
                number: Any = getattr(event, sign.count, 0)
                progress.count += len(number) if isinstance(number, tuple | list) else int(number or 0)
        if len(progress.turns) >= sign.on_turns:
            count = progress.count if sign.count is not None else None
            self.occurred[piece_id] = Occurrence(state.turn, state.active_side.id, progress.who, count)

    def finish(self, state: GameState) -> None:
        """The battle is over: judge the signs read from how it ended."""
        if self._finished:
            return
        self._finished = True
        for piece in self.pieces:
            sign = piece.when
            if piece.id in self.occurred or not isinstance(sign, Survives):
                continue
            formation = state.formations.get(sign.unit)
            if formation is not None and formation.men > 0:
                self.occurred[piece.id] = Occurrence(state.turn, state.active_side.id, sign.unit, formation.men)

    def report(self) -> list[tuple[SetPiece, Occurrence | None]]:
        """Every set piece in the chronicle's order, with how it came (None: it did not)."""
        return [(p, self.occurred.get(p.id)) for p in self.pieces]
