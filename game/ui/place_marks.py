"""Place names and objective outlines on the board.

The names of a scenario's places (``game.core.places``) are drawn on the ground, under the army
banners, in a font that grows with the zoom and a dark rim that keeps them readable on any
terrain. They never overlap: the most important are placed first, each on the first spot of its
region that is clear of the names already placed (and, if it can be, of the banners), and a name
with no room left is not drawn, so zooming out drops the lesser ones. The regions the objectives
still turn on get their border drawn as a line.

Under fog of war a name is drawn only on ground the viewing side has explored, and an outline
only along explored hexes. Rendered names and zoomed outlines are cached; the layout is worked
out again only when the zoom, the language, the explored ground or the banners' hexes change.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache

import pygame

from .. import i18n
from ..core.hexgrid import Hex
from ..core.places import MapPlaces, Place
from ..core.state import GameState
from .camera import Projection
from .fonts import font_path
from .geometry import MapGeometry, outline_paths

NAME_COLOUR = (244, 236, 214)
OBJECTIVE_NAME_COLOUR = (255, 206, 96)
RIM_COLOUR = (16, 13, 10)
OUTLINE_COLOUR = (255, 176, 56)
OUTLINE_SHADOW = (20, 14, 8)
# Room kept clear around a name, in screen pixels.
NAME_MARGIN = 2
# (x, y, w, h) in zoomed map pixels.
Box = tuple[int, int, int, int]
# How many spots of a region (nearest its centre first) are tried before a name settles for
# lying under a banner.
CLEAR_TRIES = 24


def name_size(zoom: float) -> int:
    """The pixel size of place names at a zoom level: readable when far out, never huge."""
    return max(13, min(32, round(17 * zoom)))


@lru_cache(maxsize=32)
def _face(path: str, size: int, outline: int) -> pygame.font.Font:
    f = pygame.font.Font(path, size)
    f.bold = True
    f.outline = outline
    return f


def render_name(text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """``text`` with a dark rim all round it."""
    rim = max(1, round(size / 9))
    path = str(font_path())
    back = _face(path, size, rim).render(text, True, RIM_COLOUR)
    front = _face(path, size, 0).render(text, True, colour)
    back.blit(front, (rim, rim))
    return back


class PlaceMarks:
    """Draws one scenario's place names and objective outlines onto the board."""

    def __init__(self, geometry: MapGeometry, places: MapPlaces) -> None:
        self.geometry = geometry
        self.places = places
        self._names: dict[tuple[str, int, tuple[int, int, int], str], pygame.Surface] = {}
        self._layout_key: tuple[object, ...] | None = None
        self._layout: list[tuple[Place, pygame.Rect]] = []
        self._outlines: dict[tuple[str, float, frozenset[Hex] | None], list[list[tuple[float, float]]]] = {}
        # What the last frame drew, for tests and for the battle screen to ask about.
        self.drawn_names: list[str] = []
        self.drawn_outlines: list[str] = []

    # -- names ----------------------------------------------------------------------------

    def name_surface(self, place: Place, zoom: float) -> pygame.Surface:
        """The rendered name of ``place`` at ``zoom`` (cached per language and size)."""
        # In the reader's script, as the objectives that name the place are.
        text = i18n._(place.label)
        colour = OBJECTIVE_NAME_COLOUR if place.objective else NAME_COLOUR
        key = (text, name_size(zoom), colour, i18n.language())
        surf = self._names.get(key)
        if surf is None:
            if len(self._names) > 256:
                self._names.clear()
            surf = render_name(text, key[1], colour)
            self._names[key] = surf
        return surf

    def layout(
        self, zoom: float, explored: frozenset[Hex] | None, banners: Collection[Box] = ()
    ) -> list[tuple[Place, pygame.Rect]]:
        """Where each name goes this frame, in zoomed map pixels; places left out have no room
        (or are not explored). ``banners``: what the formations drawn over the names cover
        (``Banners.footprint``)."""
        texts = tuple(i18n._(p.label) for p in self.places.places)
        key = (zoom, i18n.language(), texts, explored, frozenset(banners))
        if key == self._layout_key:
            return self._layout
        placed: list[tuple[Place, pygame.Rect]] = []
        taken: list[pygame.Rect] = []
        blocked = [pygame.Rect(b) for b in banners]
        for place in self.places.places:
            spots = [h for h in place.candidates if explored is None or h in explored]
            if not spots:
                continue
            size = self.name_surface(place, zoom).get_size()
            rects = [self._name_box(h, size, zoom) for h in spots]
            free = [r for r in rects if r.inflate(NAME_MARGIN * 2, NAME_MARGIN * 2).collidelist(taken) < 0]
            clear = [r for r in free[:CLEAR_TRIES] if r.collidelist(blocked) < 0]
            chosen = clear[0] if clear else free[0] if free else None
            if chosen is not None:
                placed.append((place, chosen))
                taken.append(chosen)
        self._layout_key, self._layout = key, placed
        return placed

    def _name_box(self, h: Hex, size: tuple[int, int], zoom: float) -> pygame.Rect:
        """A name centred on ``h``, kept inside the map where the region lies at its edge."""
        cx, cy = self.geometry.centre(h)
        rect = pygame.Rect(0, 0, *size)
        rect.center = (round(cx * zoom), round(cy * zoom))
        w, h_ = self.geometry.pixel_size
        return rect.clamp(pygame.Rect(0, 0, round(w * zoom), round(h_ * zoom)))

    def draw_names(
        self, target: pygame.Surface, camera: Projection, explored: frozenset[Hex] | None, banners: Iterable[Box] = ()
    ) -> None:
        self.drawn_names = []
        view = target.get_rect()
        for place, rect in self.layout(camera.zoom, explored, frozenset(banners)):
            on_screen = rect.move(-round(camera.x), -round(camera.y))
            if on_screen.colliderect(view):
                target.blit(self.name_surface(place, camera.zoom), on_screen)
                self.drawn_names.append(place.region)

    # -- outlines -------------------------------------------------------------------------

    def outline(self, region: str, zoom: float, explored: frozenset[Hex] | None) -> list[list[tuple[float, float]]]:
        """The border of an objective region at ``zoom``, along its explored hexes only."""
        hexes = self.places.objective_regions[region]
        shown = None if explored is None else hexes & explored
        key = (region, zoom, shown)
        paths = self._outlines.get(key)
        if paths is None:
            if len(self._outlines) > 64:
                self._outlines.clear()
            paths = [[(x * zoom, y * zoom) for x, y in p] for p in outline_paths(self.geometry, hexes, shown)]
            self._outlines[key] = paths
        return paths

    def draw_outlines(
        self, target: pygame.Surface, camera: Projection, state: GameState, explored: frozenset[Hex] | None
    ) -> None:
        self.drawn_outlines = []
        width = max(2, round(3 * camera.zoom))
        ox, oy = round(camera.x), round(camera.y)
        for region in sorted(self.places.live_objective_regions(state)):
            paths = self.outline(region, camera.zoom, explored)
            if not paths:
                continue
            for colour, w in ((OUTLINE_SHADOW, width + 2), (OUTLINE_COLOUR, width)):
                for path in paths:
                    pts = [(x - ox, y - oy) for x, y in path]
                    pygame.draw.lines(target, colour, False, pts, w)
                    for p in pts:  # round the joints that wide lines leave notched
                        pygame.draw.circle(target, colour, p, w / 2)
            self.drawn_outlines.append(region)
