"""The title screen's picture, drawn the way a battle is: the valley mouth of the first battle
with both armies' banners on it, darkened toward the edges, under the game's name in large
characters and a red seal. Nothing is read from an image file of its own.

The picture is drawn once per window size (``TitleArt.backdrop``); the menu draws it every frame."""

from __future__ import annotations

import pygame

from ..content.errors import ContentErrors
from ..record.match import new_match
from .board_view import Overlays
from .fonts import map_font
from .hud import GOLD
from .map_view import MapView
from .scale import px

# The battle the title shows: the coalition's ambush in the valley, both hosts on the field.
TITLE_SCENARIO = "a1_valley_mouth"
# Any fixed seed: the picture is the scenario's opening, which no dice change.
TITLE_SEED = 1
BACKGROUND = (20, 22, 26)
SEAL_RED = (170, 40, 34)
INK = (16, 14, 12)


class TitleArt:
    def __init__(self) -> None:
        self._backdrop: pygame.Surface | None = None

    def backdrop(self, size: tuple[int, int]) -> pygame.Surface:
        """The field under the menu, for a window of ``size`` (kept until the size changes)."""
        if self._backdrop is None or self._backdrop.get_size() != size:
            self._backdrop = _field(size)
        return self._backdrop


def _field(size: tuple[int, int]) -> pygame.Surface:
    """The first battle's field at its opening, the map filling the window, shaded so the menu
    and the name read over it."""
    surface = pygame.Surface(size)
    surface.fill(BACKGROUND)
    try:
        match = new_match(TITLE_SCENARIO, {}, seed=TITLE_SEED)
    except (KeyError, ContentErrors):
        return surface  # a damaged scenario leaves the plain background: the menu still works
    view = MapView(match.loaded, match.engine.rules, surface.get_rect())
    # Close enough that the banners read, far enough that both hosts are in the picture.
    target = 1.0 if size[0] >= 1600 else 0.75
    middle = (size[0] / 2, size[1] / 2)
    while view.camera.zoom < target and view.camera.zoom_at(1, middle):
        pass
    while view.camera.zoom > target and view.camera.zoom_at(-1, middle):
        pass
    view.centre_on_formations(match.state.formations.values())
    # The armies right of the middle, clear of the menu at the left.
    view.camera.pan(-size[0] * 0.15, 0)
    view.draw(surface, match.state, Overlays(place_names=False, objective_outlines=False))
    _shade(surface)
    return surface


def _shade(surface: pygame.Surface) -> None:
    """The field dimmed, most at the left where the menu stands and toward the top and bottom:
    a coarse grid of shades, smoothly scaled up to the window."""
    w, h = surface.get_size()
    cols, rows = 32, 18
    grid = pygame.Surface((cols, rows), pygame.SRCALPHA)
    for cx in range(cols):
        across = max(0.0, 1 - cx / (cols * 0.55))  # 1 at the left edge, 0 past the middle
        for cy in range(rows):
            edge = max(0.0, 1 - min(cy, rows - 1 - cy) / (rows * 0.2))
            alpha = 110 + 120 * across + 60 * edge
            grid.set_at((cx, cy), (*INK, min(235, round(alpha))))
    surface.blit(pygame.transform.smoothscale(grid, (w, h)), (0, 0))


def draw_name(surface: pygame.Surface, x: int, y: int, size: int) -> pygame.Rect:
    """乾坤 in large gold characters with a dark edge, and a red seal with 魂 beside them: the
    rectangle they take."""
    face = map_font(size, bold=True)
    glyphs = face.render("乾坤", True, GOLD)
    edge = face.render("乾坤", True, INK)
    for dx, dy in ((-2, 0), (2, 0), (0, -2), (0, 2), (3, 4)):
        surface.blit(edge, (x + dx, y + dy))
    surface.blit(glyphs, (x, y))
    seal_size = max(px(24), size // 3)
    seal = pygame.Rect(
        x + glyphs.get_width() + px(10), y + glyphs.get_height() - seal_size - px(12), seal_size, seal_size
    )
    pygame.draw.rect(surface, SEAL_RED, seal, border_radius=max(2, seal_size // 10))
    mark = map_font(round(seal_size * 0.72), bold=True).render("魂", True, (245, 225, 200))
    surface.blit(mark, mark.get_rect(center=seal.center))
    return pygame.Rect(x, y, seal.right - x, glyphs.get_height())
