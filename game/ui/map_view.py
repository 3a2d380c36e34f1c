"""The map on screen: the board's geometry and picture, the camera, and how the pointer and the
keys move it (drag to pan, the wheel to zoom, arrows or WASD to pan, + and − to zoom). The
battle, the replay viewer and the hotseat replay each show their map through one of these."""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from ..content.scenarios import LoadedScenario
from ..core.hexgrid import Hex
from ..core.places import map_places
from ..core.rules import Ruleset
from ..core.state import Formation, GameState
from ..view.side_view import Fog
from .board_view import BoardView, Overlays
from .camera import Camera
from .geometry import MapGeometry
from .scale import ui_scale

PAN_SPEED = 700.0  # pixels per second for keyboard panning
DRAG_THRESHOLD = 6  # pixels the pointer moves before a press is a drag, not a click
PAN_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_a, pygame.K_d, pygame.K_w, pygame.K_s)
ZOOM_KEYS = {pygame.K_PLUS: 1, pygame.K_EQUALS: 1, pygame.K_KP_PLUS: 1, pygame.K_MINUS: -1, pygame.K_KP_MINUS: -1}


class MapView:
    def __init__(self, loaded: LoadedScenario, rules: Ruleset, area: pygame.Rect) -> None:
        board = loaded.scenario.board
        self.geometry = MapGeometry(loaded.layout, board.width, board.height)
        self.board = BoardView(self.geometry, board.terrain, rules, places=map_places(loaded.scenario))
        self.area = pygame.Rect(area)
        # The board starts at the UI's scale, so the map grows with the text on a large screen.
        self.camera = Camera(self.geometry.pixel_size, self.area.size, zoom=ui_scale())
        self._press: tuple[int, int] | None = None
        self.dragging = False

    # -- where things are ----------------------------------------------------------------------

    def resize(self, area: pygame.Rect) -> None:
        """The part of the window the map takes (its top left stays the window's)."""
        self.area = pygame.Rect(area)
        self.camera.resize(self.area.size)

    def hex_at(self, pos: tuple[float, float]) -> Hex:
        return self.geometry.hex_at(*self.camera.to_map((pos[0] - self.area.x, pos[1] - self.area.y)))

    def on_screen(self, h: Hex) -> tuple[float, float]:
        x, y = self.camera.to_screen(self.geometry.centre(h))
        return x + self.area.x, y + self.area.y

    def centre_on(self, h: Hex) -> None:
        self.camera.centre_on(self.geometry.centre(h))

    def centre_on_formations(self, formations: Iterable[Formation]) -> None:
        points = [self.geometry.centre(f.pos) for f in formations]
        if points:
            self.camera.centre_on((sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)))

    def bring_into(self, h: Hex, free: pygame.Rect) -> None:
        """Pan so ``h`` stands in the middle of ``free`` (a part of the window)."""
        x, y = self.on_screen(h)
        self.camera.pan(x - free.centerx, y - free.centery)

    # -- input ---------------------------------------------------------------------------------

    def pointer(self, event: pygame.event.Event, on_panel: bool = False) -> Hex | None:
        """Drag with the left button pans, the wheel zooms at the pointer; a left click that did
        not drag gives the hex clicked. ``on_panel``: the pointer is on something drawn over the
        map, which takes presses and the wheel."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            inside = self.area.collidepoint(event.pos) and not on_panel
            self._press = event.pos if inside else None
            self.dragging = False
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            clicked = self._press is not None and not self.dragging
            self._press, self.dragging = None, False
            if clicked:
                return self.hex_at(event.pos)
        elif event.type == pygame.MOUSEMOTION and self._press is not None and (event.buttons[0] or event.buttons[1]):
            dx, dy = event.pos[0] - self._press[0], event.pos[1] - self._press[1]
            if self.dragging or abs(dx) + abs(dy) > DRAG_THRESHOLD:
                self.dragging = True
                self.camera.pan(-event.rel[0], -event.rel[1])
        elif event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.area.collidepoint(pos) and not on_panel:
                self.camera.zoom_at(1 if event.y > 0 else -1, (pos[0] - self.area.x, pos[1] - self.area.y))
        return None

    def zoom_key(self, key: int) -> bool:
        """+ and − zoom at the middle of the map; True when ``key`` was one of them."""
        step = ZOOM_KEYS.get(key)
        if step is not None:
            self.camera.zoom_at(step, (self.area.width / 2, self.area.height / 2))
        return step is not None

    @staticmethod
    def keys_held() -> bool:
        """Whether a key that pans the map is held down (the map moves without new input)."""
        keys = pygame.key.get_pressed()
        return any(keys[k] for k in PAN_KEYS)

    def pan_keys(self, dt: float) -> None:
        """Arrows or WASD held down pan the map."""
        keys = pygame.key.get_pressed()
        dx = (keys[pygame.K_RIGHT] or keys[pygame.K_d]) - (keys[pygame.K_LEFT] or keys[pygame.K_a])
        dy = (keys[pygame.K_DOWN] or keys[pygame.K_s]) - (keys[pygame.K_UP] or keys[pygame.K_w])
        if dx or dy:
            self.camera.pan(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)

    # -- drawing -------------------------------------------------------------------------------

    def draw(
        self,
        surface: pygame.Surface,
        state: GameState,
        overlays: Overlays,
        fog: Fog | None = None,
        dim_done_for: str | None = None,
    ) -> None:
        target = surface if self.area == surface.get_rect() else surface.subsurface(self.area)
        self.board.draw(target, self.camera, state, overlays, dim_done_for=dim_done_for, fog=fog)
