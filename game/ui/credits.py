"""The credits: every asset the game is made of, who made it and its licence (credits_list.py).

Opened over the help (its Credits button); Back or Esc return to it. The list scrolls (the wheel,
Up, Down, Page Up, Page Down) when it is longer than the window.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UIScrollingContainer

from ..i18n import _
from .credits_list import CREDITS
from .fonts import font
from .hud import GOLD, MUTED, TEXT
from .narration import wrap
from .pages import BACKGROUND, panel
from .scale import px
from .scene import Scene

MARGIN = 16
TITLE_SIZE = 26
HEADING_SIZE = 20
TEXT_SIZE = 16
MEASURE = 760
SCROLLBAR_W = 20
# Keys that scroll the list, by the share of its height they move it.
SCROLL_KEYS = {pygame.K_PAGEDOWN: 0.25, pygame.K_PAGEUP: -0.25, pygame.K_DOWN: 0.08, pygame.K_UP: -0.08}


class CreditsScene(Scene):
    def build(self) -> None:
        w, h = self.app.size
        width = min(w - 2 * MARGIN, px(MEASURE) + 2 * MARGIN + SCROLLBAR_W)
        left = (w - width) // 2
        top = MARGIN + font(TITLE_SIZE, True).get_linesize() + 10
        self.title_pos = (left, MARGIN)
        self.back_button = UIButton(pygame.Rect(left, h - MARGIN - px(40), px(160), px(40)), _("Back"), self.manager)
        self.page_rect = pygame.Rect(left, top, width, self.back_button.rect.top - 10 - top)
        self.scroller = UIScrollingContainer(self.page_rect.inflate(-16, -16), self.manager, allow_scroll_x=False)
        surface = credits_page(self.page_rect.width - 16 - SCROLLBAR_W - 8)
        UIImage(pygame.Rect((0, 0), surface.get_size()), surface, self.manager, container=self.scroller)
        self.scroller.set_scrollable_area_dimensions(surface.get_size())

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.back_button
        if pressed or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
            self.app.back()
        elif event.type == pygame.KEYDOWN and event.key in SCROLL_KEYS:
            self.scroll(SCROLL_KEYS[event.key])

    def scroll(self, fraction: float) -> None:
        """Scroll the list by ``fraction`` of its height (to its top or bottom at most)."""
        bar = self.scroller.vert_scroll_bar
        if bar is None or not bar.visible:
            return
        bar.set_scroll_from_start_percentage(
            min(max(0.0, bar.start_percentage + fraction), 1.0 - bar.visible_percentage)
        )

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        surface.blit(font(TITLE_SIZE, True).render(_("Credits"), True, GOLD), self.title_pos)
        panel(surface, self.page_rect)


def credits_page(width: int) -> pygame.Surface:
    """Every credit: its heading, who made it, its licence and its files, ``width`` pixels wide."""
    blocks: list[tuple[int, pygame.Surface]] = []
    y = 0

    def lines(text: str, size: int, colour: tuple[int, int, int], bold: bool = False) -> None:
        nonlocal y
        f = font(size, bold)
        for line in wrap(text, size, width - size, bold=bold):
            blocks.append((y, f.render(line, True, colour)))
            y += f.get_linesize() + 2

    for credit in CREDITS:
        lines(_(credit.what), HEADING_SIZE, GOLD, bold=True)
        y += 2
        lines(_(credit.origin), TEXT_SIZE, TEXT)
        lines(_("Licence: {licence}").format(licence=_(credit.licence)), TEXT_SIZE, TEXT)
        if credit.files:
            lines(", ".join(credit.files), TEXT_SIZE - 2, MUTED)
        y += 14
    surface = pygame.Surface((width, max(1, y)), pygame.SRCALPHA)
    for by, what in blocks:
        surface.blit(what, (0, by))
    return surface
