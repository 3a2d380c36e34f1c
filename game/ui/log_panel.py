"""The side panel of the replay screens: a title, then the newest lines of a log that fit."""

from __future__ import annotations

import pygame

from .fonts import font
from .hud import GOLD, MUTED, PANEL_BG, TEXT
from .narration import wrap
from .scale import px

LINE_SIZE = 14


def panel_width(window_width: int) -> int:
    """How wide the side panel is in a window this wide: grown with the UI's scale, but never
    past a quarter of the window (nor below its width at 100%)."""
    base = 300 if window_width >= 1100 else 250
    return max(base, min(px(base), window_width // 4))


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
