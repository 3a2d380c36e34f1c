"""Formations in motion on the map: a march slides along the road it took, hex by hex; a blow
shows the attacker lunging at the defender. Presentation only: it is built from the events the
viewer witnessed after the engine has applied them, moves nothing in the game, and the same
events play at any speed or none ("instant")."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from ..core.events import Attacked, Event, Fled, Moved, Routed, SoulsCaptured
from ..core.hexgrid import Hex, neighbours
from .camera import Camera
from .geometry import MapGeometry

# Seconds a formation takes to cross one hex, by the speed setting; 0 shows no motion at all.
HEX_SECONDS: dict[str, float] = {"slow": 0.22, "normal": 0.12, "fast": 0.06, "instant": 0.0}
# A lunge lasts this many hexes' worth of time and reaches this far toward the defender.
LUNGE_HEXES = 2.5
LUNGE_REACH = 0.4
# A rout shudders this many map pixels either way; missiles and souls fly for this many hexes' time.
SHAKE_PX = 6.0
FLIGHT_HEXES = 3.0
MISSILE = (245, 235, 200)
THUNDER = (255, 170, 60)
SOUL = (200, 225, 255)

Point = tuple[float, float]


@dataclass
class Glide:
    """One formation's movement along ``points`` (map pixels), over ``duration`` seconds; a
    lunge goes out and comes back."""

    points: list[Point]
    duration: float
    lunge: bool = False
    shake: bool = False  # a formation breaking: it shudders where it stands
    age: float = 0.0

    def at(self) -> Point:
        t = min(1.0, self.age / self.duration) if self.duration > 0 else 1.0
        if self.shake:
            x, y = self.points[0]
            return x + SHAKE_PX * math.sin(t * math.pi * 8) * (1 - t), y
        if self.lunge:
            (ax, ay), (bx, by) = self.points
            reach = LUNGE_REACH * math.sin(math.pi * t)
            return ax + (bx - ax) * reach, ay + (by - ay) * reach
        legs = len(self.points) - 1
        if legs <= 0:
            return self.points[-1]
        s = t * legs
        i = min(int(s), legs - 1)
        f = s - i
        (ax, ay), (bx, by) = self.points[i], self.points[i + 1]
        return ax + (bx - ax) * f, ay + (by - ay) * f

    @property
    def done(self) -> bool:
        return self.age >= self.duration


@dataclass
class Flight:
    """Things flying from one point to another: a volley's arrows, a thunderbolt, souls drawn
    into the pouch. ``count`` of them, spread a little, each a dot of ``colour``."""

    start: Point
    end: Point
    duration: float
    colour: tuple[int, int, int]
    count: int = 1
    size: float = 3.0
    age: float = 0.0

    @property
    def done(self) -> bool:
        return self.age >= self.duration


class Motion:
    def __init__(self, geometry: MapGeometry) -> None:
        self.geometry = geometry
        self.glides: dict[str, Glide] = {}
        self.flights: list[Flight] = []

    def play(self, events: list[Event], speed: str, where: Callable[[str], Hex | None]) -> None:
        """Motion for the witnessed ``events`` at ``speed`` (a key of HEX_SECONDS); ``where``
        finds a formation's hex before the action."""
        per_hex = HEX_SECONDS.get(speed, HEX_SECONDS["normal"])
        if per_hex <= 0:
            return
        centre = self.geometry.centre
        for ev in events:
            if isinstance(ev, (Moved, Fled)) and len(ev.path) > 1:
                points = [centre(h) for h in ev.path]
                self.glides[ev.unit] = Glide(points, per_hex * (len(points) - 1))
            elif isinstance(ev, Attacked):
                a, d = where(ev.unit), where(ev.target)
                if a is None or d is None:
                    continue
                if ev.mode == "melee" and ev.unit not in self.glides:
                    self.glides[ev.unit] = Glide([centre(a), centre(d)], per_hex * LUNGE_HEXES, lunge=True)
                elif ev.mode != "melee":
                    blast = ev.mode == "blast"
                    colour, count, size = (THUNDER, 1, 7.0) if blast else (MISSILE, 6, 2.5)
                    self.flights.append(Flight(centre(a), centre(d), per_hex * FLIGHT_HEXES, colour, count, size))
            elif isinstance(ev, Routed) and (at := where(ev.unit)) is not None:
                self.glides[ev.unit] = Glide([centre(at)], per_hex * LUNGE_HEXES * 2, shake=True)
            elif isinstance(ev, SoulsCaptured) and ev.count and (at := where(ev.unit)) is not None:
                for h in neighbours(at):
                    self.flights.append(Flight(centre(h), centre(at), per_hex * FLIGHT_HEXES, SOUL, 3, 3.0))

    @property
    def active(self) -> bool:
        return bool(self.glides or self.flights)

    def positions(self) -> dict[str, Point]:
        """Where each formation in motion is drawn now (map pixels)."""
        return {unit: glide.at() for unit, glide in self.glides.items()}

    def tick(self, dt: float) -> None:
        for glide in self.glides.values():
            glide.age += dt
        self.glides = {unit: g for unit, g in self.glides.items() if not g.done}
        for flight in self.flights:
            flight.age += dt
        self.flights = [f for f in self.flights if not f.done]

    def finish(self) -> None:
        """Everything at its end at once (input during an animation is never kept waiting)."""
        self.glides.clear()
        self.flights.clear()

    def draw(self, surface: pygame.Surface, camera: Camera) -> None:
        """What flies over the board (the banners in motion are drawn by the board itself)."""
        spread = self.geometry.layout.tile_width * 0.18
        for f in self.flights:
            t = min(1.0, f.age / f.duration)
            (ax, ay), (bx, by) = f.start, f.end
            for i in range(f.count):
                lag = i / max(1, f.count) * 0.35
                u = max(0.0, min(1.0, (t - lag) / (1 - lag))) if t > lag else 0.0
                if u <= 0.0 or u >= 1.0:
                    continue
                side = (i - (f.count - 1) / 2) * spread / max(1, f.count)
                arc = math.sin(math.pi * u) * spread * 0.8  # missiles climb and fall
                x = ax + (bx - ax) * u + side
                y = ay + (by - ay) * u - arc
                sx, sy = camera.to_screen((x, y))
                pygame.draw.circle(surface, f.colour, (int(sx), int(sy)), max(2, int(f.size * camera.zoom)))
