"""The minimap: the whole battlefield in a corner of the battle screen, with the camera's view
as a rectangle. Clicking or dragging on it moves the view there.

It shows what the viewing side knows, given as a ``Fog`` the way the board takes it: ground
never seen is black, ground seen before but out of sight now is dimmed, and only the formations
in ``fog.shown`` get a dot (in their faction's colour). The terrain picture, each hex in the
average colour of its tile, is drawn once per size; the fog is laid over it again only when
what the side sees changes. A frame blits that picture and draws the dots and the rectangle.

It never reaches into the battle: a click goes to ``on_move`` as a position in (unscaled) map
pixels, where the battle centres its camera, and ``handle`` says which events it used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

import pygame

from ..core.hexgrid import Hex
from ..core.rules import Ruleset, TerrainType
from ..core.state import Formation
from ..view.side_view import Fog
from .board_view import FOG_UNEXPLORED
from .camera import Camera
from .geometry import MapGeometry
from .hud import shade
from .scale import px
from .tileset import terrain_tiles

# Hexes are drawn this many times larger, then smoothed down: no seams between tiny hexes.
SUPERSAMPLE = 3
MARGIN = 14  # from the window's right edge
# Room kept free under it: End turn, the two view buttons over it (enemy reach, legend) and
# the terrain line above them.
BOTTOM_GAP = 178
FRAME = 4
BORDER = (94, 83, 64)
VIEW_COLOUR = (255, 240, 180)
# Explored ground out of sight: the terrain colour dimmed this much (as the board dims it).
DIM = 0.45


def minimap_rect(size: tuple[int, int], map_size: tuple[int, int]) -> pygame.Rect:
    """Where the minimap goes in a window of ``size``: bottom right, above the End turn button
    and the terrain line, sized to the window and shaped like the map."""
    w, h = size
    max_w = px(160 if w < 1000 else 220 if w < 1500 else 320)
    max_h = h * 0.2
    scale = min(max_w / map_size[0], max_h / map_size[1])
    mw, mh = round(map_size[0] * scale), round(map_size[1] * scale)
    return pygame.Rect(w - px(MARGIN) - mw, h - px(BOTTOM_GAP) - mh, mw, mh)


@lru_cache(maxsize=1)
def terrain_colours() -> dict[str, tuple[int, int, int]]:
    """Each terrain's colour on the minimap: the average of its tile's opaque pixels."""
    colours = {}
    for terrain, tile in terrain_tiles().items():
        r, g, b, _a = pygame.transform.average_color(tile, consider_alpha=True)
        colours[terrain] = (int(r), int(g), int(b))
    return colours


class Minimap:
    def __init__(
        self,
        geometry: MapGeometry,
        terrain: dict[Hex, TerrainType],
        rules: Ruleset,
        on_move: Callable[[tuple[float, float]], None],
    ) -> None:
        self.geometry = geometry
        self.terrain = terrain
        self.rules = rules
        self.on_move = on_move
        self.rect = pygame.Rect(0, 0, 0, 0)
        # Off while something more pressing lies over its corner (a tall forecast panel).
        self.visible = True
        self.dragging = False
        self._base: pygame.Surface | None = None
        self._fog_key: tuple[object, ...] | None = None
        self._fogged: pygame.Surface | None = None
        # The terrain with the dots on it: (what it shows, the picture); only the view moves.
        self._dotted: tuple[tuple[object, ...], pygame.Surface] | None = None

    # -- layout ---------------------------------------------------------------------------------

    def place(self, size: tuple[int, int]) -> None:
        """Fit it to a window of ``size`` (the pictures are redrawn at the new size)."""
        rect = minimap_rect(size, self.geometry.pixel_size)
        if rect.size != self.rect.size:
            self._base = None
            self._fogged = None
            self._fog_key = None
            self._dotted = None
        self.rect = rect

    @property
    def scale(self) -> float:
        """Minimap pixels per map pixel."""
        return self.rect.width / self.geometry.pixel_size[0]

    @property
    def dot_radius(self) -> int:
        """A formation's dot: about a hex across, readable on a small minimap, never a blot."""
        return min(5, max(2, round(self.geometry.layout.tile_width * self.scale * 0.5)))

    def to_map(self, pos: tuple[int, int]) -> tuple[float, float]:
        """A point on the minimap (screen pixels) as a map position, kept on the map."""
        mw, mh = self.geometry.pixel_size
        x = (pos[0] - self.rect.left) / self.scale
        y = (pos[1] - self.rect.top) / self.scale
        return min(max(x, 0.0), float(mw)), min(max(y, 0.0), float(mh))

    def to_minimap(self, map_pos: tuple[float, float]) -> tuple[float, float]:
        return self.rect.left + map_pos[0] * self.scale, self.rect.top + map_pos[1] * self.scale

    # -- pictures -------------------------------------------------------------------------------

    def _draw_hexes(self, colour_of: Callable[[Hex], tuple[int, int, int] | None]) -> pygame.Surface:
        """The map at the minimap's size with each hex in ``colour_of(hex)`` (None: left out)."""
        k = self.scale * SUPERSAMPLE
        big = pygame.Surface((self.rect.width * SUPERSAMPLE + 1, self.rect.height * SUPERSAMPLE + 1))
        big.fill(FOG_UNEXPLORED[:3])
        for h in self.terrain:
            colour = colour_of(h)
            if colour is not None:
                pygame.draw.polygon(big, colour, self.geometry.corners(h, k))
        small = pygame.transform.smoothscale(big, self.rect.size)
        # In the window's own pixel format it blits several times faster.
        return small.convert() if pygame.display.get_surface() is not None else small

    def terrain_picture(self) -> pygame.Surface:
        """The whole map's terrain, drawn once per size."""
        if self._base is None:
            colours = terrain_colours()
            self._base = self._draw_hexes(lambda h: colours.get(self.terrain[h].id, (90, 90, 90)))
        return self._base

    def fogged_picture(self, fog: Fog) -> pygame.Surface:
        """The terrain as ``fog``'s side knows it; drawn again only when that changes."""
        key = (self.rect.size, fog.visible, fog.explored)
        if self._fog_key != key or self._fogged is None:
            colours = terrain_colours()

            def colour_of(h: Hex) -> tuple[int, int, int] | None:
                if h not in fog.explored and h not in fog.visible:
                    return None  # never seen: stays black
                c = colours.get(self.terrain[h].id, (90, 90, 90))
                return c if h in fog.visible else (round(c[0] * DIM), round(c[1] * DIM), round(c[2] * DIM + 8))

            self._fogged = self._draw_hexes(colour_of)
            self._fog_key = key
        return self._fogged

    # -- frame ----------------------------------------------------------------------------------

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        formations: Iterable[Formation],
        fog: Fog | None = None,
        selected: Hex | None = None,
    ) -> None:
        """The minimap with a dot for each formation the viewer sees (``fog.shown``; all of them
        when ``fog`` is None) and the camera's view."""
        if not self.visible:
            return
        frame = self.rect.inflate(2 * FRAME, 2 * FRAME)
        surface.blit(shade(frame.size), frame.topleft)
        pygame.draw.rect(surface, BORDER, frame, 1, border_radius=3)
        dots = tuple((f.pos, self.rules.units[f.type].faction) for f in formations if fog is None or f.id in fog.shown)
        key = (self.rect.size, None if fog is None else (fog.visible, fog.explored), dots, selected)
        if self._dotted is None or self._dotted[0] != key:
            self._dotted = (key, self._draw_dots(fog, dots, selected))
        surface.blit(self._dotted[1], self.rect.topleft)
        clip = surface.get_clip()
        surface.set_clip(self.rect)
        # The part of the map the camera shows.
        x0, y0 = self.to_minimap(camera.to_map((0, 0)))
        x1, y1 = self.to_minimap(camera.to_map((camera.view_w, camera.view_h)))
        view = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)).clip(self.rect)
        if view.width > 0 and view.height > 0:
            pygame.draw.rect(surface, VIEW_COLOUR, view, 1)
        surface.set_clip(clip)

    def _draw_dots(self, fog: Fog | None, dots: tuple[tuple[Hex, str], ...], selected: Hex | None) -> pygame.Surface:
        """The terrain as the viewer knows it with a dot for each formation in ``dots``."""
        picture = (self.terrain_picture() if fog is None else self.fogged_picture(fog)).copy()
        radius = self.dot_radius
        for pos, faction_id in dots:
            faction = self.rules.factions[faction_id]
            centre = self.to_minimap(self.geometry.centre(pos))
            centre = (centre[0] - self.rect.x, centre[1] - self.rect.y)
            # Ringed in the faction's trim: a dark banner colour still shows on dim ground.
            pygame.draw.circle(picture, faction.trim, centre, radius + 1)
            pygame.draw.circle(picture, faction.colour, centre, radius)
            if selected is not None and pos == selected:
                pygame.draw.circle(picture, VIEW_COLOUR, centre, radius + 3, 1)
        return picture

    # -- input ----------------------------------------------------------------------------------

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.visible and self.rect.inflate(2 * FRAME, 2 * FRAME).collidepoint(pos)

    def handle(self, event: pygame.event.Event) -> bool:
        """A press or a drag on the minimap moves the view (``on_move``); True for an event it
        used, which the screen then leaves alone (the wheel over it does not zoom the map)."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            if not self.covers(event.pos):
                return False
            if event.button == 1:
                self.dragging = True
                self.on_move(self.to_map(event.pos))
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            if event.buttons[0]:
                self.on_move(self.to_map(event.pos))
            else:
                self.dragging = False  # released outside the window
            return True
        if event.type == pygame.MOUSEBUTTONUP:
            was = self.dragging
            self.dragging = False
            return was
        if event.type == pygame.MOUSEWHEEL:
            return self.covers(pygame.mouse.get_pos())
        return False
