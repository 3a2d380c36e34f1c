"""Screen geometry of the hex map: the same pixel layout as the Tiled map, scaled by zoom."""

from __future__ import annotations

import math

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
