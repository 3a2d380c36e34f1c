"""Screen geometry of the hex map: the same pixel layout as the Tiled map, scaled by zoom."""

from __future__ import annotations

import math
from collections.abc import Container, Iterable

from ..content.tmx import HexLayout
from ..core.hexgrid import Hex, axial_to_offset, offset_to_axial


class MapGeometry:
    """Pixel positions of hexes in unscaled map space (as in Tiled) and back."""

    def __init__(self, layout: HexLayout, width: int, height: int) -> None:
        self.layout = layout
        self.width = width
        self.height = height

    @property
    def pixel_size(self) -> tuple[int, int]:
        lay = self.layout
        w = self.width * lay.tile_width + lay.tile_width / 2
        h = (self.height - 1) * lay.row_height + lay.tile_height
        return math.ceil(w), math.ceil(h)

    def centre(self, h: Hex) -> tuple[float, float]:
        col, row = axial_to_offset(h, self.layout.stagger_odd)
        return self.layout.centre(col, row)

    def top_left(self, h: Hex) -> tuple[float, float]:
        cx, cy = self.centre(h)
        return cx - self.layout.tile_width / 2, cy - self.layout.tile_height / 2

    def hex_at(self, x: float, y: float) -> Hex:
        col, row = self.layout.offset_at(x, y)
        return offset_to_axial(col, row, self.layout.stagger_odd)

    def corners(self, h: Hex, zoom: float = 1.0, shrink: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of a pointy-top hex in map pixels times ``zoom``."""
        cx, cy = self.centre(h)
        hw = self.layout.tile_width / 2 * shrink
        hh = self.layout.tile_height / 2 * shrink
        qh = (self.layout.tile_height - self.layout.side_length) / 2 * shrink
        pts = [
            (cx, cy - hh),
            (cx + hw, cy - hh + qh),
            (cx + hw, cy + hh - qh),
            (cx, cy + hh),
            (cx - hw, cy + hh - qh),
            (cx - hw, cy - hh + qh),
        ]
        return [(x * zoom, y * zoom) for x, y in pts]


def outline_paths(
    geometry: MapGeometry, hexes: Iterable[Hex], shown: Container[Hex] | None = None
) -> list[list[tuple[float, float]]]:
    """The outer edges of a set of hexes as polylines in map pixels: one closed loop (first
    point repeated last) per border, or open pieces when only the edges of ``shown`` hexes
    are wanted (a region partly under fog of war). Edges two hexes of the set share are inside."""
    owner: dict[frozenset[tuple[float, float]], Hex | None] = {}
    for h in hexes:
        pts = [(round(x, 2), round(y, 2)) for x, y in geometry.corners(h)]
        for i in range(6):
            edge = frozenset((pts[i], pts[(i + 1) % 6]))
            owner[edge] = None if edge in owner else h
    edges = [tuple(e) for e, h in owner.items() if h is not None and (shown is None or h in shown)]
    ends: dict[tuple[float, float], list[int]] = {}
    for i, (a, b) in enumerate(edges):
        ends.setdefault(a, []).append(i)
        ends.setdefault(b, []).append(i)
    used = [False] * len(edges)
    paths: list[list[tuple[float, float]]] = []
    # Open pieces start at a loose end; what is left is closed loops.
    starts = [p for p, es in ends.items() if len(es) % 2] + list(ends)
    for start in starts:
        while any(not used[i] for i in ends[start]):
            path = [start]
            here = start
            while True:
                nxt = next((i for i in ends[here] if not used[i]), None)
                if nxt is None:
                    break
                used[nxt] = True
                a, b = edges[nxt]
                here = b if a == here else a
                path.append(here)
            paths.append(path)
    return paths
