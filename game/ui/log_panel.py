"""The side panel of the replay screens: a title, then the newest lines of a log that fit."""

from __future__ import annotations

import pygame

from .fonts import font
from .hud import GOLD, MUTED, PANEL_BG, TEXT, TOP_BAR_H
from .narration import wrap
from .scale import px

LINE_SIZE = 14


def panel_width(window_width: int) -> int:
    """How wide the side panel is in a window this wide: grown with the UI's scale, but never
    past a quarter of the window (nor below its width at 100%)."""
    base = 300 if window_width >= 1100 else 250
    return max(base, min(px(base), window_width // 4))


def map_beside_panel(size: tuple[int, int], controls_h: int) -> pygame.Rect:
    """Where a replay screen of ``size`` draws the map: left of the side panel, above
    ``controls_h`` pixels of controls."""
    w, h = size
    return pygame.Rect(0, 0, w - panel_width(w), h - controls_h)


def panel_rect(size: tuple[int, int], controls_h: int) -> pygame.Rect:
    """Where the side panel stands in a window of ``size``: at its right, from below the top bar
    down to ``controls_h`` pixels of controls."""
    w, h = size
    pw = panel_width(w)
    return pygame.Rect(w - pw, px(TOP_BAR_H), pw, h - px(TOP_BAR_H) - controls_h)


def draw_controls_strip(surface: pygame.Surface, controls_h: int) -> pygame.Rect:
    """Draw the empty strip of controls, ``controls_h`` pixels along the bottom; its rect."""
    w, h = surface.get_size()
    rect = pygame.Rect(0, h - controls_h, w, controls_h)
    surface.fill((26, 28, 34), rect)
    pygame.draw.line(surface, (70, 66, 56), rect.topleft, rect.topright)
    return rect


def draw_log_panel(
    surface: pygame.Surface, rect: pygame.Rect, top: int, title: str, lines: list[tuple[str, bool]], empty: str
) -> None:
    """Fill ``rect`` with the panel's backdrop and write ``title`` at ``top``, then the lines
    (text, fresh) that fit below it, newest last: fresh ones in full colour, older ones muted;
    ``empty`` when there are none."""
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill(PANEL_BG)
    surface.blit(layer, rect.topleft)
    pygame.draw.line(surface, (70, 66, 56), rect.topleft, rect.bottomleft)
    x, y = rect.left + 12, top
    head = font(16, bold=True).render(title, True, GOLD)
    surface.blit(head, (x, y))
    y += head.get_height() + 6
    f = font(LINE_SIZE)
    lh = f.get_linesize()
    width = rect.width - 28
    wrapped = [(part, fresh) for text, fresh in lines for part in wrap(text, LINE_SIZE, width)]
    if not wrapped:
        wrapped = [(part, False) for part in wrap(empty, LINE_SIZE, width)]
    room = max(0, (rect.bottom - 8 - y) // lh)
    for text, fresh in wrapped[-room:] if room else []:
        surface.blit(f.render(text, True, TEXT if fresh else MUTED), (x, y))
        y += lh
