"""Formations in motion on the map: a march slides along the road it took, hex by hex; a blow
shows the attacker lunging at the defender. Presentation only: it is built from the events the
viewer witnessed after the engine has applied them, moves nothing in the game, and the same
events play at any speed or none ("instant")."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..core.events import Attacked, Event, Fled, Moved
from ..core.hexgrid import Hex
from .geometry import MapGeometry

# Seconds a formation takes to cross one hex, by the speed setting; 0 shows no motion at all.
HEX_SECONDS: dict[str, float] = {"slow": 0.22, "normal": 0.12, "fast": 0.06, "instant": 0.0}
# A lunge lasts this many hexes' worth of time and reaches this far toward the defender.
LUNGE_HEXES = 2.5
LUNGE_REACH = 0.4

Point = tuple[float, float]


@dataclass
class Glide:
    """One formation's movement along ``points`` (map pixels), over ``duration`` seconds; a
    lunge goes out and comes back."""

    points: list[Point]
    duration: float
    lunge: bool = False
    age: float = 0.0

    def at(self) -> Point:
        t = min(1.0, self.age / self.duration) if self.duration > 0 else 1.0
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


class Motion:
    def __init__(self, geometry: MapGeometry) -> None:
        self.geometry = geometry
        self.glides: dict[str, Glide] = {}

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
                if a is not None and d is not None and ev.unit not in self.glides:
                    self.glides[ev.unit] = Glide([centre(a), centre(d)], per_hex * LUNGE_HEXES, lunge=True)

    @property
    def active(self) -> bool:
        return bool(self.glides)

    def positions(self) -> dict[str, Point]:
        """Where each formation in motion is drawn now (map pixels)."""
        return {unit: glide.at() for unit, glide in self.glides.items()}

    def tick(self, dt: float) -> None:
        for glide in self.glides.values():
            glide.age += dt
        self.glides = {unit: g for unit, g in self.glides.items() if not g.done}

    def finish(self) -> None:
        """Everything at its end at once (input during an animation is never kept waiting)."""
        self.glides.clear()
