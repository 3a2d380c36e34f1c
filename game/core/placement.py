"""Where a formation arriving on the field is put: the hexes a reinforcement or the camp's
muster names, and the nearest of them (or around them) that will take it."""

from __future__ import annotations

from collections.abc import Callable

from .board import Board
from .hexgrid import Hex, distance, from_centre, neighbours
from .offsets import parse_offset


def placement_area(board: Board, at: str) -> tuple[frozenset[Hex], Hex] | None:
    """The hexes a reinforcement ``at`` names and the one it prefers (the region's middle)."""
    offset = parse_offset(at)
    if offset is not None:
        h = board.at_offset(*offset)
        return (frozenset({h}), h) if h in board else None
    area = board.regions.get(at)
    if not area:
        return None
    return area, from_centre(area)[0]


def nearest_free(board: Board, area: frozenset[Hex], anchor: Hex, ok: Callable[[Hex], bool]) -> Hex | None:
    """The first acceptable hex of ``area``, else of the rings around it, nearest ``anchor`` first."""
    layer = set(area)
    seen = set(area)
    while layer:
        for h in sorted(layer, key=lambda x: (distance(x, anchor), x)):
            if ok(h):
                return h
        nxt: set[Hex] = set()
        for h in layer:
            for n in neighbours(h):
                if n in board and n not in seen:
                    seen.add(n)
                    nxt.add(n)
        layer = nxt
    return None
