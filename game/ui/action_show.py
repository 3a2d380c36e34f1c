"""What the viewer witnessed of an action, shown on the map: marks where blows fell and
formations broke, the marches played out, a pouch counted up, the enemies that halted a march
spotted, and a computer's action brought into the open part of the map."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ..core.events import Attacked, Event, Moved, SoulsCaptured
from ..core.hexgrid import Hex
from ..core.state import GameState
from ..i18n import _
from ..session import Outcome
from .hud import Hud
from .map_marks import SPOTTED, MapMarks
from .map_view import MapView
from .motion import Motion

Where = Callable[[str], Hex | None]


class ActionShow:
    def __init__(self, map_view: MapView, marks: MapMarks, motion: Motion) -> None:
        self.map = map_view
        self.marks = marks
        self.motion = motion

    def play(self, outcome: Outcome, state: GameState, speed: str, hud: Hud, follow_into: pygame.Rect | None) -> None:
        """Show ``outcome``'s events at ``speed`` (the motion setting); with ``follow_into``, bring
        the action into that part of the window if it is not there already."""
        events = list(outcome.events)

        def where(unit: str) -> Hex | None:
            f = state.formations.get(unit)
            return outcome.before.get(unit) or (f.pos if f is not None else None)

        self.marks.from_events(events, where)
        self.motion.play(events, speed, where)
        for ev in events:
            if isinstance(ev, SoulsCaptured) and ev.side in outcome.pouches and speed != "instant":
                hud.count_up(ev.side, outcome.pouches[ev.side])
        for fid in outcome.spotted:  # what stopped the march
            self.marks.add(state.formations[fid].pos, _("Spotted!"), SPOTTED, ring=True)
        if follow_into is not None and events:
            self.follow(events, where, follow_into)

    def follow(self, events: list[Event], where: Where, free: pygame.Rect) -> None:
        """Bring the first placed event into ``free`` (the map not under a panel), unless it is
        already well inside."""
        for ev in events:
            at = ev.path[-1] if isinstance(ev, Moved) and ev.path else where(getattr(ev, "target", None) or "")
            if at is None and isinstance(ev, (Moved, Attacked)):
                at = where(ev.unit)
            if at is None:
                continue
            if not free.inflate(-120, -120).collidepoint(self.map.on_screen(at)):
                self.map.bring_into(at, free)
            return
