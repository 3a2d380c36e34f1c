"""The mark of wandering souls on the map and in the legend: a pale wisp and their number on a
dark pill ringed in the souls' colour. It is drawn unlike any banner, so that it is never read
as a formation (the soul levy's banner carries the character 魂)."""

from __future__ import annotations

import math

import pygame

SOUL_COLOUR = (170, 235, 255)
PILL = (20, 30, 50)


def wisp(size: int) -> pygame.Surface:
    """A flame-shaped wisp ``size`` pixels high: a round head and a tail that flickers upward."""
    w, h = max(6, round(size * 0.7)), max(8, size)
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = w / 2
    head = (w / 2, h - r)
    # The tail: from the sides of the head up to a point, slightly bent like a flame.
    tail = [(head[0] - r * math.cos(a), head[1] - r * math.sin(a)) for a in (0.0, 0.6, 1.2)]
    tail += [(w * 0.62, 0.0)]
    tail += [(head[0] + r * math.cos(a), head[1] - r * math.sin(a)) for a in (1.4, 0.7, 0.0)]
    pygame.draw.polygon(surf, (*SOUL_COLOUR, 150), tail)
    pygame.draw.circle(surf, (*SOUL_COLOUR, 235), (round(head[0]), round(head[1])), max(2, round(r)))
    pygame.draw.circle(surf, (255, 255, 255, 235), (round(head[0]), round(head[1])), max(1, round(r * 0.45)))
    return surf


def soul_mark(label: pygame.Surface | None, size: int) -> pygame.Surface:
    """The mark: a wisp ``size`` pixels high, then ``label`` (the count) if any, on a ringed pill."""
    icon = wisp(size)
    gap = 3 if label is not None else 0
    inner_w = icon.get_width() + gap + (label.get_width() if label is not None else 0)
    inner_h = max(icon.get_height(), label.get_height() if label is not None else 0)
    surf = pygame.Surface((inner_w + 10, inner_h + 4), pygame.SRCALPHA)
    box = surf.get_rect()
    pygame.draw.rect(surf, PILL, box, border_radius=box.height // 2)
    pygame.draw.rect(surf, SOUL_COLOUR, box, 1, border_radius=box.height // 2)
    surf.blit(icon, icon.get_rect(midleft=(5, box.centery)))
    if label is not None:
        surf.blit(label, label.get_rect(midleft=(5 + icon.get_width() + gap, box.centery)))
    return surf
