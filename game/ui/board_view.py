"""Drawing the battlefield: pre-rendered terrain, overlays and army banners.

Terrain is rendered once per zoom level into one surface; a frame blits the visible part and
draws overlays and tokens on top. Under fog of war the terrain surface gets the fog baked in
(black where the viewing side never looked, dimmed where it is not looking now), rebuilt only
when what the side sees changes; formations and souls it cannot see are not drawn. Given the
scenario's places, the ground also carries their names and the objective regions' borders
(``place_marks``), under the banners.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pygame

from ..core import duel
from ..core.hexgrid import Hex, distance
from ..core.places import MapPlaces
from ..core.rules import Ruleset, TerrainType
from ..core.state import Formation, GameState
from ..i18n import format_men_short
from ..view.side_view import Fog
from .banners import Banners
from .camera import Camera, Projection
from .geometry import MapGeometry
from .place_marks import PlaceMarks
from .soul_mark import SOUL_COLOUR, soul_mark
from .threat_overlay import draw_threat
from .tileset import terrain_tiles

BACKGROUND = (24, 26, 30)
REACH_FILL = (255, 255, 255, 70)
REACH_EDGE = (255, 255, 255, 150)
# The border round everything the chosen formation can march to: its range at a glance.
REACH_BORDER = (255, 224, 120)
PATH_COLOUR = (255, 236, 140)
TARGET_COLOUR = (235, 60, 50)
# Two heroes in single combat: their hexes ringed and blades crossed between them.
DUEL_COLOUR = (236, 190, 70)
# Fog of war: never seen, and seen before but out of sight now.
FOG_UNEXPLORED = (8, 9, 12, 255)
FOG_DIM = (10, 12, 24, 140)


@dataclass
class Overlays:
    """What the battle screen wants highlighted this frame."""

    reachable: frozenset[Hex] = frozenset()
    path: list[Hex] = field(default_factory=list)
    targets: frozenset[Hex] = frozenset()
    selected: Hex | None = None
    hover: Hex | None = None
    last_move: list[Hex] = field(default_factory=list)
    # The names of the map's places, and the borders of the regions the objectives turn on
    # (drawn only when the view was given the scenario's places).
    place_names: bool = True
    objective_outlines: bool = True
    # Where the enemies in sight could strike next turn, and one enemy formation's own reach
    # (``SideView.threat.hexes``, ``SideView.enemy_reach``; ``ThreatToggle.overlay`` gives both).
    threat: frozenset[Hex] = frozenset()
    enemy_reach: frozenset[Hex] = frozenset()
    # Formations drawn away from their hex while they move (map pixels; ``motion.Motion``).
    token_at: dict[str, tuple[float, float]] = field(default_factory=dict)


# The kept picture reaches this share of the view beyond each edge, so a pan redraws it rarely.
STILL_MARGIN = 0.35
# Copying a view-wide part of a much wider picture is about twice as slow as copying whole rows
# (measured: the cost doubles once the source is 2048 pixels wide), so a picture wider than
# BAND_WIDTH is not blitted whole: a frame blits a band of it a margin larger than the view,
# cut again when the view leaves the band.
BAND_MARGIN = 48
BAND_WIDTH = 2016


# What the kept picture shows (``BoardView._still_key``).
StillKey = tuple[object, ...]


@dataclass(frozen=True)
class _Offset:
    """A camera for drawing into the kept picture: the same zoom, its own top left."""

    zoom: float
    x: float
    y: float

    def to_screen(self, map_pos: tuple[float, float]) -> tuple[float, float]:
        return map_pos[0] * self.zoom - self.x, map_pos[1] * self.zoom - self.y


class BoardView:
    def __init__(
        self,
        geometry: MapGeometry,
        board_terrain: Mapping[Hex, TerrainType],
        rules: Ruleset,
        places: MapPlaces | None = None,
    ) -> None:
        """``places``: the scenario's place names and objective regions
        (``game.core.places.map_places(scenario)``); without them none are drawn."""
        self.geometry = geometry
        self.terrain = board_terrain
        self.rules = rules
        # The border of the reach last drawn (``_reach_border``).
        self._border_key: tuple[frozenset[Hex], Hex | None] | None = None
        self._border: list[tuple[Hex, int]] = []
        self.place_marks = PlaceMarks(geometry, places) if places is not None else None
        self._terrain_cache: dict[float, pygame.Surface] = {}
        self._fog_key: tuple[float, frozenset[Hex], frozenset[Hex]] | None = None
        self._fogged: pygame.Surface | None = None
        self.banners = Banners(geometry, rules)
        # The picture of what stays put while the view pans: (what it shows, where, the picture).
        self._still: tuple[StillKey, pygame.Rect, pygame.Surface] | None = None
        # The band of it the frames blit from (where, the band; ``BAND_MARGIN``).
        self._band: tuple[pygame.Rect, pygame.Surface] | None = None

    # -- terrain --------------------------------------------------------------------------

    def terrain_surface(self, zoom: float) -> pygame.Surface:
        cached = self._terrain_cache.get(zoom)
        if cached is not None:
            return cached
        tiles = terrain_tiles()
        lay = self.geometry.layout
        tw, th = round(lay.tile_width * zoom), round(lay.tile_height * zoom)
        scaled = {k: pygame.transform.smoothscale(v, (tw + 1, th + 1)) for k, v in tiles.items()}
        w, h = self.geometry.pixel_size
        surf = pygame.Surface((round(w * zoom) + 2, round(h * zoom) + 2))
        surf.fill(BACKGROUND)
        # Draw row by row so lower rows overlap upper ones the way Tiled renders them.
        for h_ in sorted(self.terrain, key=lambda x: (x.r, x.q)):
            x, y = self.geometry.top_left(h_)
            surf.blit(scaled[self.terrain[h_].id], (round(x * zoom), round(y * zoom)))
        if len(self._terrain_cache) > 3:
            self._terrain_cache.clear()
        self._terrain_cache[zoom] = surf
        return surf

    def fogged_surface(self, zoom: float, fog: Fog) -> pygame.Surface:
        """The terrain with the fog baked in; kept until the fog or the zoom changes."""
        key = (zoom, fog.visible, fog.explored)
        if self._fog_key == key and self._fogged is not None:
            return self._fogged
        surf = self.terrain_surface(zoom).copy()
        # One layer of whole hexes: shared edges are filled once, so no seams and no double dimming.
        layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        for h in self.terrain:
            if h not in fog.visible:
                colour = FOG_DIM if h in fog.explored else FOG_UNEXPLORED
                pygame.draw.polygon(layer, colour, self.geometry.corners(h, zoom))
        surf.blit(layer, (0, 0))
        self._fog_key, self._fogged = key, surf
        return surf

    # -- frame ----------------------------------------------------------------------------

    def draw(
        self,
        target: pygame.Surface,
        camera: Camera,
        state: GameState,
        overlays: Overlays,
        dim_done_for: str | None = None,
        fog: Fog | None = None,
    ) -> None:
        """The board as ``camera`` sees it. Everything that stays put while the view pans (the
        ground, places, shaded hexes, souls and the banners standing still) is drawn into a
        picture a margin larger than the view and kept until the game, the overlays or the zoom
        change or the view leaves it; a frame blits it and draws only what follows the pointer
        (the path, the hover) and the banners in motion."""
        view = pygame.Rect(round(camera.x), round(camera.y), *target.get_size())
        key = self._still_key(camera, state, overlays, dim_done_for, fog)
        if self._still is None or self._still[0] != key or not self._still[1].contains(view):
            area = view.inflate(view.width * STILL_MARGIN * 2, view.height * STILL_MARGIN * 2)
            picture = pygame.Surface(area.size)
            if pygame.display.get_surface() is not None:
                picture = picture.convert()  # the window's own format blits fastest
            self._draw_still(picture, _Offset(camera.zoom, area.x, area.y), state, overlays, dim_done_for, fog)
            self._still, self._band = (key, area, picture), None
        band, picture = self._still_band(view)
        target.blit(picture, (band.x - view.x, band.y - view.y))
        if len(overlays.path) > 1:
            self._draw_path(target, camera, overlays.path, PATH_COLOUR)
        if overlays.hover is not None and overlays.hover in self.terrain:
            pygame.draw.polygon(target, (255, 255, 255), self._poly(camera, overlays.hover, 0.98), 1)
        moving = [
            f for f in state.formations.values() if f.id in overlays.token_at and (fog is None or f.id in fog.shown)
        ]
        for f in moving:
            bar = self.banners.draw(
                target, camera, f, selected=overlays.selected == f.pos, centre=overlays.token_at[f.id]
            )
            if camera.zoom >= 0.75:
                self.banners.draw_strength(target, f, bar, camera.zoom)

    def _still_band(self, view: pygame.Rect) -> tuple[pygame.Rect, pygame.Surface]:
        """Where and what to blit for ``view``: the kept picture itself while it is hardly wider
        than the view, else a band of it a little larger than the view."""
        assert self._still is not None
        _key, area, picture = self._still
        if area.width <= BAND_WIDTH:
            return area, picture
        if self._band is None or not self._band[0].contains(view):
            band = view.inflate(2 * BAND_MARGIN, 2 * BAND_MARGIN).clamp(area)
            cut = self._band[1] if self._band is not None and self._band[1].get_size() == band.size else None
            if cut is None:  # a new surface only when the size changes: allocating one costs more
                cut = pygame.Surface(band.size, 0, picture)
            cut.blit(picture, (area.x - band.x, area.y - band.y))
            self._band = (band, cut)
        return self._band

    def redraw(self) -> None:
        """Draw everything afresh on the next frame (the kept picture is dropped)."""
        self._still = self._band = None

    @staticmethod
    def _still_key(
        camera: Camera, state: GameState, ov: Overlays, dim_done_for: str | None, fog: Fog | None
    ) -> StillKey:
        """What the kept picture shows: it is drawn again when any of it changes."""
        return (
            camera.zoom,
            id(state),
            state.action_index,
            len(state.formations),
            id(fog),
            ov.reachable,
            ov.targets,
            ov.selected,
            tuple(ov.last_move),
            ov.threat,
            ov.enemy_reach,
            ov.place_names,
            ov.objective_outlines,
            frozenset(ov.token_at),
            dim_done_for,
        )

    def _draw_still(
        self,
        target: pygame.Surface,
        camera: Projection,
        state: GameState,
        overlays: Overlays,
        dim_done_for: str | None,
        fog: Fog | None,
    ) -> None:
        target.fill(BACKGROUND)
        terrain = self.terrain_surface(camera.zoom) if fog is None else self.fogged_surface(camera.zoom, fog)
        target.blit(terrain, (-round(camera.x), -round(camera.y)))
        shown = [
            f
            for f in sorted(state.formations.values(), key=lambda f: (f.pos.r, f.pos.q))
            if (fog is None or f.id in fog.shown) and f.id not in overlays.token_at
        ]
        self._draw_places(target, camera, state, overlays, fog, shown)
        self._draw_overlays(target, camera, overlays)
        self._draw_souls(target, camera, state, None if fog is None else fog.visible)
        self._draw_duels(target, camera, state, shown)
        labels: list[tuple[Formation, pygame.Rect]] = []
        for f in shown:
            done = dim_done_for == f.side and f.moved and f.acted
            labels.append((f, self.banners.draw(target, camera, f, selected=overlays.selected == f.pos, done=done)))
        # Strengths last: in a packed line the next row's banners would cover them.
        if camera.zoom >= 0.75:
            for f, bar in labels:
                self.banners.draw_strength(target, f, bar, camera.zoom)

    def duels_shown(self, state: GameState, shown: list[Formation]) -> list[tuple[Formation, Formation]]:
        """The pairs of heroes locked in single combat, both in sight, each pair once."""
        ids = {f.id for f in shown}
        pairs = []
        for f in shown:
            other = duel.opponent(state, f)
            if other is not None and other.id in ids and f.id < other.id:
                pairs.append((f, other))
        return pairs

    def _draw_duels(self, target: pygame.Surface, camera: Projection, state: GameState, shown: list[Formation]) -> None:
        """A duel in progress stays marked for as long as it lasts: both hexes ringed in gold and
        crossed blades between them, so the whole field can see the heroes are fighting."""
        width = max(2, round(3 * camera.zoom))
        for a, b in self.duels_shown(state, shown):
            for h in (a.pos, b.pos):
                pygame.draw.polygon(target, DUEL_COLOUR, self._poly(camera, h, 0.98), width)
            (ax, ay), (bx, by) = (
                camera.to_screen(self.geometry.centre(a.pos)),
                camera.to_screen(self.geometry.centre(b.pos)),
            )
            mx, my = (ax + bx) / 2, (ay + by) / 2
            arm = max(6.0, 12 * camera.zoom)
            for dx in (-arm, arm):  # two blades crossed over the shared edge
                pygame.draw.line(target, (20, 16, 8), (mx - dx, my - arm), (mx + dx, my + arm), width + 2)
                pygame.draw.line(target, DUEL_COLOUR, (mx - dx, my - arm), (mx + dx, my + arm), width)

    def _draw_places(
        self,
        target: pygame.Surface,
        camera: Projection,
        state: GameState,
        overlays: Overlays,
        fog: Fog | None,
        shown: list[Formation],
    ) -> None:
        """Objective outlines and place names: on the ground, under everything else."""
        marks = self.place_marks
        if marks is None:
            return
        explored = None if fog is None else fog.explored
        if overlays.objective_outlines:
            marks.draw_outlines(target, camera, state, explored)
        else:
            marks.drawn_outlines = []
        if overlays.place_names:
            marks.draw_names(target, camera, explored, [self.banners.footprint(f, camera.zoom) for f in shown])
        else:
            marks.drawn_names = []

    def _poly(self, camera: Projection, h: Hex, shrink: float = 1.0) -> list[tuple[float, float]]:
        return [(x - camera.x, y - camera.y) for x, y in self.geometry.corners(h, camera.zoom, shrink)]

    def _draw_overlays(self, target: pygame.Surface, camera: Projection, ov: Overlays) -> None:
        draw_threat(target, self.geometry, camera, ov.threat, ov.enemy_reach)
        if ov.reachable:
            layer = pygame.Surface(target.get_size(), pygame.SRCALPHA)
            for h in ov.reachable:
                pts = self._poly(camera, h, 0.96)
                pygame.draw.polygon(layer, REACH_FILL, pts)
                pygame.draw.polygon(layer, REACH_EDGE, pts, 1)
            target.blit(layer, (0, 0))
            width = max(2, round(3 * camera.zoom))
            for h, i in self._reach_border(ov.reachable, ov.selected):
                pts = self._poly(camera, h)
                pygame.draw.line(target, REACH_BORDER, pts[i], pts[(i + 1) % 6], width)
        for h in ov.targets:
            pygame.draw.polygon(target, TARGET_COLOUR, self._poly(camera, h, 0.92), max(2, round(3 * camera.zoom)))
        if len(ov.last_move) > 1:
            self._draw_path(target, camera, ov.last_move, (200, 200, 200), dashed=True)

    def _reach_border(self, reachable: frozenset[Hex], origin: Hex | None) -> list[tuple[Hex, int]]:
        """The hex sides (hex, corner index) between the reach and the hexes outside it, worked
        out once per reach."""
        key = (reachable, origin)
        if self._border_key != key:
            area = reachable | ({origin} if origin is not None else set())
            sides = []
            for h in area:
                cx, cy = self.geometry.centre(h)
                corners = self.geometry.corners(h)
                for i in range(6):
                    (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 6]
                    mx, my = (ax + bx) / 2, (ay + by) / 2
                    across = self.geometry.hex_at(2 * mx - cx, 2 * my - cy)  # the centre beyond that side
                    if across not in area:
                        sides.append((h, i))
            self._border_key, self._border = key, sides
        return self._border

    def _draw_path(
        self,
        target: pygame.Surface,
        camera: Projection,
        path: list[Hex],
        colour: tuple[int, int, int],
        dashed: bool = False,
    ) -> None:
        pts = [camera.to_screen(self.geometry.centre(h)) for h in path]
        width = max(2, round(4 * camera.zoom))
        if dashed:
            # A path clipped by the fog has gaps: only neighbouring hexes are joined.
            for h0, h1, a, b in zip(path[:-1], path[1:], pts[:-1], pts[1:], strict=True):
                if distance(h0, h1) == 1:
                    pygame.draw.line(target, colour, a, b, max(1, width // 2))
        else:
            pygame.draw.lines(target, colour, False, pts, width)
            pygame.draw.circle(target, colour, pts[-1], width * 2)

    def _draw_souls(
        self, target: pygame.Surface, camera: Projection, state: GameState, visible: frozenset[Hex] | None
    ) -> None:
        size = max(10, round(12 * camera.zoom))
        for key in state.field_souls:
            count = state.souls_at(key)  # souls on a hex are kept per side that lost them
            if count <= 0:
                continue
            h = Hex.parse(key)
            if visible is not None and h not in visible:
                continue
            cx, cy = camera.to_screen(self.geometry.centre(h))
            cy += self.geometry.layout.tile_height * 0.28 * camera.zoom
            label = self.banners.glyph(format_men_short(count), size, SOUL_COLOUR)
            mark = soul_mark(label, size)
            target.blit(mark, mark.get_rect(center=(cx, cy)))
