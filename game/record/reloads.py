"""Reloads that went back in a game between people at one screen: kept by the match's record
beside the seats, outside every hash, so that the side that did not reload is told at its next
hand-over who went back, from which turn, and how many orders were undone."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Reload(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid")

    # The side whose player loaded the earlier save (the one whose eyes were on the screen).
    by: str = Field(max_length=100)
    # The turn the game stood at, and the turn of the save loaded.
    from_turn: int = Field(ge=1)
    to_turn: int = Field(ge=1)
    # How many orders (every action, ends of turns included) the reload took back.
    undone: int = Field(ge=1)
    # The sides already told of it.
    told: list[str] = Field(default_factory=list)


def untold(reloads: list[Reload], side: str) -> list[Reload]:
    """The reloads by another side that ``side`` has not been told of; they count as told now."""
    news = [r for r in reloads if r.by != side and side not in r.told]
    for reload in news:
        reload.told.append(side)
    return news
