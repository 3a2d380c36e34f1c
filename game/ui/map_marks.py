"""What an action did, marked on the map where it happened: losses floating up from both sides
of a fight, a rout, souls bagged, enemies spotted. Presentation only: built from the events the
viewing side witnessed, it never touches the game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ..core.events import (
    Attacked,
    Destroyed,
    DuelBegun,
    DuelFought,
    Event,
    Moved,
    OfficerSlain,
    Reinforced,
    Revealed,
    Routed,
    SkillUsed,
    SoulsCaptured,
)
from ..core.hexgrid import Hex
from ..i18n import _, format_men
from .camera import Camera
from .fonts import font, map_font
from .geometry import MapGeometry
from .hud import BAD, GOLD

# Seconds a mark stays; it rises and fades over that time.
LIFETIME = 1.8
RISE = 28  # pixels, at zoom 1
SPOTTED = (250, 210, 90)


@dataclass
class Mark:
    at: Hex
    text: str
    colour: tuple[int, int, int]
    age: float = 0.0
    ring: bool = False  # a ring round the hex as well (a mark on the hex, not only words)


class MapMarks:
    def __init__(self, geometry: MapGeometry) -> None:
        self.geometry = geometry
        self.marks: list[Mark] = []

    def add(self, at: Hex, text: str, colour: tuple[int, int, int], ring: bool = False) -> None:
        # Marks on one hex stack upward instead of over each other.
        stacked = sum(1 for m in self.marks if m.at == at and m.age < 0.3)
        self.marks.append(Mark(at, text, colour, age=-0.25 * stacked, ring=ring))

    def from_events(self, events: list[Event], where: Callable[[str], Hex | None]) -> None:
        """Marks for the witnessed ``events``; ``where`` finds a formation's hex (also for one
        destroyed by the action: the caller keeps the positions from before it)."""
        for ev in events:
            if isinstance(ev, Attacked):
                self._loss(where(ev.target), ev.defender_losses)
                self._loss(where(ev.unit), ev.attacker_losses)
            elif isinstance(ev, Routed) and (at := where(ev.unit)) is not None:
                self.add(at, _("Routed!"), BAD, ring=True)
            elif isinstance(ev, Destroyed):
                self.add(ev.at, _("Destroyed"), BAD, ring=True)
            elif isinstance(ev, SoulsCaptured) and ev.count and (at := where(ev.unit)) is not None:
                self.add(at, _("+{n} souls").format(n=format_men(ev.count)), GOLD, ring=True)
            elif isinstance(ev, Revealed) and (at := where(ev.unit)) is not None:
                self.add(at, _("Spotted!"), SPOTTED, ring=True)
            elif isinstance(ev, Moved) and ev.interrupted and ev.path:
                self.add(ev.path[-1], _("Halted"), SPOTTED)
            elif isinstance(ev, SkillUsed) and ev.at is not None:
                self.add(ev.at, "", GOLD, ring=True)
            elif isinstance(ev, DuelFought) and (at := where(ev.target)) is not None:
                self.add(at, _("Duel"), GOLD, ring=True)
            elif isinstance(ev, DuelBegun):
                for unit in (ev.challenger, ev.target):
                    if (at := where(unit)) is not None:
                        self.add(at, "", GOLD, ring=True)
            elif isinstance(ev, OfficerSlain) and (at := where(ev.unit)) is not None:
                self.add(at, _(ev.name), GOLD)
            elif isinstance(ev, Reinforced):
                for unit in ev.units:
                    if (at := where(unit)) is not None:
                        self.add(at, _("Arrives"), SPOTTED, ring=True)

    def _loss(self, at: Hex | None, men: int) -> None:
        if at is not None and men > 0:
            self.add(at, f"−{format_men(men)}", BAD)

    @property
    def active(self) -> bool:
        return bool(self.marks)

    def clear(self) -> None:
        self.marks.clear()

    def tick(self, dt: float) -> None:
        for m in self.marks:
            m.age += dt
        self.marks = [m for m in self.marks if m.age < LIFETIME]

    def draw(self, surface: pygame.Surface, camera: Camera) -> None:
        half = self.geometry.layout.tile_width / 2 * camera.zoom
        for m in self.marks:
            if m.age < 0:
                continue
            fade = max(0.0, 1.0 - m.age / LIFETIME)
            cx, cy = camera.to_screen(self.geometry.centre(m.at))
            if m.ring:
                radius = int(half * (0.8 + 0.3 * m.age / LIFETIME))
                pygame.draw.circle(surface, m.colour, (int(cx), int(cy)), radius, max(1, int(3 * fade)))
            if m.text:
                size = max(14, int(18 * min(1.4, camera.zoom)))
                text = map_font(size, True).render(m.text, True, m.colour)
                shadow = map_font(size, True).render(m.text, True, (0, 0, 0))
                text.set_alpha(int(255 * fade))
                shadow.set_alpha(int(200 * fade))
                y = cy - half * 0.4 - RISE * camera.zoom * (m.age / LIFETIME)
                x = cx - text.get_width() / 2
                surface.blit(shadow, (x + 1, y + 1))
                surface.blit(text, (x, y))


def draw_tip(surface: pygame.Surface, lines: list[str], pointer: tuple[int, int]) -> pygame.Rect:
    """A small box of lines beside the pointer, kept inside the window."""
    f = font(15)
    rendered = [f.render(line, True, (237, 230, 214)) for line in lines]
    w = max(r.get_width() for r in rendered) + 20
    h = sum(r.get_height() + 2 for r in rendered) + 14
    box = pygame.Rect(pointer[0] + 18, pointer[1] + 18, w, h)
    box.clamp_ip(surface.get_rect())
    layer = pygame.Surface(box.size, pygame.SRCALPHA)
    layer.fill((22, 24, 30, 235))
    surface.blit(layer, box.topleft)
    pygame.draw.rect(surface, GOLD, box, 1, border_radius=4)
    y = box.y + 7
    for r in rendered:
        surface.blit(r, (box.x + 10, y))
        y += r.get_height() + 2
    return box
