"""Drawing helpers for the text pages between battles (campaign menu, briefing, camp)."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIImage, UIScrollingContainer

from .fonts import font
from .hud import GOLD, MUTED, PANEL_BG, TEXT
from .narration import wrap

BACKGROUND = (20, 22, 26)


def panel(surface: pygame.Surface, rect: pygame.Rect, border: tuple[int, int, int] = (94, 83, 64)) -> None:
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill(PANEL_BG)
    surface.blit(layer, rect.topleft)
    pygame.draw.rect(surface, border, rect, 1, border_radius=4)


def modal_panel(surface: pygame.Surface, box: pygame.Rect, shade_alpha: int) -> None:
    """A panel over everything: the window darkened by ``shade_alpha``, a gold-edged box on it."""
    shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, shade_alpha))
    surface.blit(shade, (0, 0))
    panel(surface, box, border=GOLD)


def paragraph(
    surface: pygame.Surface,
    text: str,
    x: int,
    y: int,
    width: int,
    size: int = 17,
    colour: tuple[int, int, int] = TEXT,
    bold: bool = False,
    max_y: int | None = None,
) -> int:
    """Draw ``text`` wrapped to ``width``; returns the y below it. Lines past ``max_y`` are cut
    with an ellipsis rather than drawn over what lies below."""
    f = font(size, bold)
    step = f.get_linesize() + 2
    lines = wrap(text, size, width, bold)
    for i, line in enumerate(lines):
        if max_y is not None and y + 2 * step > max_y and i < len(lines) - 1:
            surface.blit(f.render(line.rstrip() + " …", True, colour), (x, y))
            return y + step
        surface.blit(f.render(line, True, colour), (x, y))
        y += step
    return y


def paragraph_height(text: str, width: int, size: int = 17, bold: bool = False) -> int:
    """The height ``paragraph`` takes to draw ``text`` at ``width``."""
    return len(wrap(text, size, width, bold)) * (font(size, bold).get_linesize() + 2)


def heading(
    surface: pygame.Surface, text: str, x: int, y: int, size: int = 22, colour: tuple[int, int, int] = GOLD
) -> int:
    f = font(size, True)
    surface.blit(f.render(text, True, colour), (x, y))
    return y + f.get_linesize() + 4


def heading_height(size: int = 22) -> int:
    """The height ``heading`` takes."""
    return font(size, True).get_linesize() + 4


def muted(surface: pygame.Surface, text: str, x: int, y: int, size: int = 15) -> int:
    f = font(size)
    surface.blit(f.render(text, True, MUTED), (x, y))
    return y + f.get_linesize() + 2


def show_scrolled(
    surface: pygame.Surface, scroller: UIScrollingContainer, manager: pygame_gui.UIManager, old: UIImage | None
) -> UIImage:
    """Show a drawn page in ``scroller`` in place of ``old``, scrolled to its top."""
    if old is not None:
        old.kill()
    image = UIImage(pygame.Rect((0, 0), surface.get_size()), surface, manager, container=scroller)
    scroller.set_scrollable_area_dimensions(surface.get_size())
    bar = scroller.vert_scroll_bar
    if bar is not None:
        bar.set_scroll_from_start_percentage(0.0)
    return image
