"""The replay timeline: a bar from the first action to the last with a mark where each side's
turn starts (a taller one, numbered where there is room, where each game turn starts); a click
or a drag on it asks for that action. Drawn by hand: no pygame_gui widget carries marks."""

from __future__ import annotations

import pygame

from ..record.replay_cursor import TurnMark
from .fonts import font
from .hud import GOLD, MUTED, TEXT

BAR_BG = (46, 50, 60)
BAR_DONE = (143, 107, 42)
MARK = (120, 120, 130)
# Fewest pixels between two numbered turn marks.
LABEL_GAP = 34


class Timeline:
    def __init__(self, rect: pygame.Rect) -> None:
        self.rect = rect
        self.dragging = False

    def _x(self, index: int, length: int) -> int:
        inner = self.rect.inflate(-12, 0)
        return inner.left + round(inner.width * index / max(1, length))

    def index_at(self, x: int, length: int) -> int:
        """The action index under screen column ``x``."""
        inner = self.rect.inflate(-12, 0)
        frac = (x - inner.left) / max(1, inner.width)
        return max(0, min(length, round(frac * length)))

    def handle(self, event: pygame.event.Event, length: int) -> int | None:
        """The action a click or drag asks for, or None if the event is not for the timeline."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self.dragging = True
            return self.index_at(event.pos[0], length)
        if event.type == pygame.MOUSEMOTION and self.dragging:
            return self.index_at(event.pos[0], length)
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            self.dragging = False
            return self.index_at(event.pos[0], length)
        return None

    def draw(self, surface: pygame.Surface, marks: list[TurnMark], position: int, length: int) -> None:
        r = self.rect
        bar = pygame.Rect(r.left, r.centery - 4, r.width, 8)
        pygame.draw.rect(surface, BAR_BG, bar, border_radius=4)
        done = pygame.Rect(bar.left, bar.top, self._x(position, length) - bar.left, bar.height)
        pygame.draw.rect(surface, BAR_DONE, done, border_radius=4)
        # A mark for every side-turn when they are far enough apart, else for game turns only.
        per_side = len(marks) <= r.width // 6
        last_label = -LABEL_GAP
        small = font(12)
        for k, m in enumerate(marks):
            new_turn = k == 0 or marks[k - 1].turn != m.turn
            if not new_turn and not per_side:
                continue
            x = self._x(m.index, length)
            tall = new_turn
            top = r.top if tall else r.centery - 6
            pygame.draw.line(surface, TEXT if tall else MARK, (x, top), (x, r.centery + 6), 1)
            if tall and x - last_label >= LABEL_GAP and x + 10 < r.right:
                label = small.render(str(m.turn), True, MUTED)
                surface.blit(label, (x + 2, r.bottom - label.get_height() + 2))
                last_label = x
        knob = self._x(position, length)
        pygame.draw.circle(surface, GOLD, (knob, r.centery), 7)
        pygame.draw.circle(surface, (30, 30, 30), (knob, r.centery), 7, 1)
