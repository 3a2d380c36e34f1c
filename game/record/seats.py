"""Who commands each side of a battle: a person at this screen or the computer.

Seats are kept by the match beside the rules state, outside it and outside every hash: the same
actions make the same battle whoever gave them, so a game taken over from a replay under other
commanders starts from the record it was taken from, re-running nothing. A seat is a model of
its own so that what a side's seat may come to hold besides its commander (a digest of the pass
phrase that seals a side in a game between people at one screen) has a place in the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from .seal import Seal

Commander = Literal["human", "ai"]


class Seat(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    commander: Commander
    # The digest of the pass phrase a person commanding this side set (``seal``); None: open.
    seal: Seal | None = None


class _Side(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def role(self) -> str: ...


def default_commander(role: str) -> Commander:
    """Who commands a side nobody chose for: a person the player's side, the computer the others."""
    return "human" if role == "player" else "ai"


class Seats:
    """The seats of one battle, in the scenario's side order; read-only. Everything that asks
    whether a person commands a side asks ``is_human``."""

    def __init__(self, seats: Mapping[str, Seat]) -> None:
        self._seats = dict(seats)

    @classmethod
    def for_sides(cls, sides: Iterable[_Side], chosen: Mapping[str, Seat | Commander]) -> Seats:
        """A seat for every side: as ``chosen`` says, else by its role (``default_commander``)."""
        seats: dict[str, Seat] = {}
        for side in sides:
            choice = chosen.get(side.id)
            if isinstance(choice, Seat):
                seats[side.id] = choice
            else:
                seats[side.id] = Seat(commander=choice or default_commander(side.role))
        return cls(seats)

    def is_human(self, side_id: str) -> bool:
        seat = self._seats.get(side_id)
        return seat is not None and seat.commander == "human"

    def humans(self) -> list[str]:
        """The sides people command, in side order."""
        return [side for side, seat in self._seats.items() if seat.commander == "human"]

    def commanders(self) -> dict[str, Commander]:
        return {side: seat.commander for side, seat in self._seats.items()}

    def seal(self, side_id: str) -> Seal | None:
        """The pass phrase's digest that seals ``side_id``'s view, if its commander set one."""
        seat = self._seats.get(side_id)
        return seat.seal if seat is not None and seat.commander == "human" else None

    def sealed(self) -> bool:
        """Whether any side is sealed by a pass phrase."""
        return any(self.seal(side) is not None for side in self._seats)

    def for_record(self) -> dict[str, Seat]:
        """The seats as a record holds them."""
        return dict(self._seats)
