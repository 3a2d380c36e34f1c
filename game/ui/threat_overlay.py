"""The enemy's reach on the map: every hex the enemies in sight could strike next turn, shaded,
and one enemy formation's own reach in a warmer tint, each ringed along its border. The hexes
come from the side's view (``SideView.threat``, ``SideView.enemy_reach``); this only draws them,
and the toggle that shows or hides them (a button and the H key)."""

from __future__ import annotations

from collections.abc import Iterable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..core.hexgrid import Hex
from ..i18n import _
from ..view.side_view import SideView
from .camera import Projection
from .geometry import MapGeometry
from .toggle import Switch

# Where the enemies could strike, and where the one enemy looked at could.
# A light wash, a ring inside every hex (so the shading never reads as the colour of the ground)
# and a line along the region's border.
THREAT_FILL = (215, 35, 25, 70)
THREAT_RING = (235, 55, 35, 190)
THREAT_EDGE = (245, 90, 60, 230)
REACH_FILL = (150, 60, 255, 90)
REACH_RING = (175, 110, 255, 210)
REACH_EDGE = (215, 175, 255, 245)
RING_SHRINK = 0.84
KEY = pygame.K_h

# The neighbour beyond each edge of a pointy-top hex, edge i running from corner i to i+1 of
# ``MapGeometry.corners`` (top, upper right, lower right, bottom, lower left, upper left).
EDGE_NEIGHBOURS = (Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1))


def on_screen(geometry: MapGeometry, camera: Projection, hexes: Iterable[Hex], size: tuple[int, int]) -> list[Hex]:
    """The hexes of ``hexes`` that show in a view of ``size`` (a hex's width of margin)."""
    lay = geometry.layout
    mx, my = lay.tile_width * camera.zoom, lay.tile_height * camera.zoom
    w, h = size
    out = []
    for hx in hexes:
        x, y = camera.to_screen(geometry.centre(hx))
        if -mx <= x <= w + mx and -my <= y <= h + my:
            out.append(hx)
    return out


def shade(
    layer: pygame.Surface,
    geometry: MapGeometry,
    camera: Projection,
    hexes: frozenset[Hex],
    fill: tuple[int, int, int, int],
    ring: tuple[int, int, int, int],
    edge: tuple[int, int, int, int],
) -> None:
    """Fill ``hexes`` on ``layer`` (written, not blended, so shared edges are not darkened
    twice), ring each inside, and draw the region's border: the edges with no hex of it beyond."""
    shown = on_screen(geometry, camera, hexes, layer.get_size())
    polys = {h: [(x - camera.x, y - camera.y) for x, y in geometry.corners(h, camera.zoom)] for h in shown}
    width = max(2, round(2 * camera.zoom))
    for h, pts in polys.items():
        pygame.draw.polygon(layer, fill, pts)
        inner = [(x - camera.x, y - camera.y) for x, y in geometry.corners(h, camera.zoom, RING_SHRINK)]
        pygame.draw.polygon(layer, ring, inner, max(1, width - 1))
    for h, pts in polys.items():
        for i, d in enumerate(EDGE_NEIGHBOURS):
            if Hex(h.q + d.q, h.r + d.r) not in hexes:
                pygame.draw.line(layer, edge, pts[i], pts[(i + 1) % 6], width)


def draw_threat(
    target: pygame.Surface,
    geometry: MapGeometry,
    camera: Projection,
    threat: frozenset[Hex],
    reach: frozenset[Hex] = frozenset(),
) -> None:
    """Shade the enemies' ``threat``, and over it one enemy's ``reach``, onto ``target``."""
    if not threat and not reach:
        return
    layer = pygame.Surface(target.get_size(), pygame.SRCALPHA)
    if threat:
        shade(layer, geometry, camera, threat, THREAT_FILL, THREAT_RING, THREAT_EDGE)
    if reach:
        shade(layer, geometry, camera, reach, REACH_FILL, REACH_RING, REACH_EDGE)
    target.blit(layer, (0, 0))


class ThreatToggle(Switch):
    """Whether the enemies' reach is shown: a button and the H key switch it.

    Wiring: ``build`` with the screen's manager and a rectangle; pass every event to ``handle``
    (True when it was the toggle's); ``overlay(view, looked_at)`` gives the hexes for the map's
    ``Overlays.threat`` and ``Overlays.enemy_reach``."""

    def __init__(self) -> None:
        super().__init__(KEY)

    def build(self, manager: pygame_gui.UIManager, rect: pygame.Rect) -> UIButton:
        self.button = UIButton(
            rect,
            _("Enemy reach"),
            manager,
            tool_tip_text=_(
                "H: shade every hex the enemies you see could strike in their next turn. "
                "Click an enemy to see its own reach."
            ),
        )
        self.mark()
        return self.button

    def overlay(self, view: SideView, looked_at: str | None = None) -> tuple[frozenset[Hex], frozenset[Hex]]:
        """(threat, enemy reach) to draw: the whole threat while the toggle is on, and the reach
        of ``looked_at`` (a formation clicked or hovered) whenever it is an enemy in sight."""
        threat = view.threat.hexes if self.on else frozenset()
        reach = view.enemy_reach(looked_at) if looked_at is not None else frozenset()
        return threat, reach
