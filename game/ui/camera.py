"""The view onto the map: a pan offset and a zoom level, kept inside sensible bounds."""

from __future__ import annotations

from typing import Protocol

ZOOM_LEVELS = (0.5, 0.625, 0.75, 1.0, 1.25, 1.5, 2.0)


class Projection(Protocol):
    """Where map pixels land on a surface: all that drawing asks of a camera (a ``Camera``, or
    the board view's offset into the picture it keeps)."""

    @property
    def zoom(self) -> float: ...

    @property
    def x(self) -> float: ...

    @property
    def y(self) -> float: ...

    def to_screen(self, map_pos: tuple[float, float]) -> tuple[float, float]: ...


class Camera:
    def __init__(self, map_size: tuple[int, int], view_size: tuple[int, int], zoom: float = 1.0) -> None:
        """``zoom``: the level to start at (the nearest of ZOOM_LEVELS)."""
        self.map_w, self.map_h = map_size
        self.view_w, self.view_h = view_size
        self.zoom_index = min(range(len(ZOOM_LEVELS)), key=lambda i: abs(ZOOM_LEVELS[i] - zoom))
        # Top-left of the view in zoomed map pixels.
        self.x = 0.0
        self.y = 0.0
        self.clamp()

    @property
    def zoom(self) -> float:
        return ZOOM_LEVELS[self.zoom_index]

    def resize(self, view_size: tuple[int, int]) -> None:
        self.view_w, self.view_h = view_size
        self.clamp()

    def clamp(self) -> None:
        """Keep some of the map in view; centre a map smaller than the view."""
        w, h = self.map_w * self.zoom, self.map_h * self.zoom
        margin = 80
        if w + 2 * margin <= self.view_w:
            self.x = (w - self.view_w) / 2
        else:
            self.x = min(max(self.x, -margin), w - self.view_w + margin)
        if h + 2 * margin <= self.view_h:
            self.y = (h - self.view_h) / 2
        else:
            self.y = min(max(self.y, -margin), h - self.view_h + margin)

    def pan(self, dx: float, dy: float) -> None:
        self.x += dx
        self.y += dy
        self.clamp()

    def zoom_at(self, steps: int, screen_pos: tuple[float, float]) -> bool:
        """Zoom by ``steps`` levels keeping the map point under ``screen_pos`` in place."""
        new_index = min(max(self.zoom_index + steps, 0), len(ZOOM_LEVELS) - 1)
        if new_index == self.zoom_index:
            return False
        mx, my = self.to_map(screen_pos)
        self.zoom_index = new_index
        self.x = mx * self.zoom - screen_pos[0]
        self.y = my * self.zoom - screen_pos[1]
        self.clamp()
        return True

    def centre_on(self, map_pos: tuple[float, float]) -> None:
        self.x = map_pos[0] * self.zoom - self.view_w / 2
        self.y = map_pos[1] * self.zoom - self.view_h / 2
        self.clamp()

    def to_map(self, screen_pos: tuple[float, float]) -> tuple[float, float]:
        """Screen pixel to unscaled map pixel."""
        return (screen_pos[0] + self.x) / self.zoom, (screen_pos[1] + self.y) / self.zoom

    def to_screen(self, map_pos: tuple[float, float]) -> tuple[float, float]:
        return map_pos[0] * self.zoom - self.x, map_pos[1] * self.zoom - self.y
