"""The help: the keys and mouse, and short illustrated pages on the rules that decide battles.

Opened over the current screen (F1 in battle, the battle menu, the main menu's Help); Back, Esc
or F1 again return to it. The page titles are listed on the left; the page on the right
scrolls when it is longer than the window. Up and Down change the page. Credits, beside Back,
opens the list of the game's assets and their licences.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UIScrollingContainer

from .. import i18n
from ..content.ruleset import load_ruleset
from ..i18n import _
from .fonts import font
from .help_diagrams import SKETCHES
from .help_pages import PAGE_IDS, PAGES, key_rows, page
from .hud import GOLD, MUTED, TEXT
from .narration import wrap
from .pages import BACKGROUND, panel, show_scrolled
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App

MARGIN = 16
BUTTON_H = 34
GAP = 6
TITLE_SIZE = 26
# The page list's width: wide enough for the longest title, within reason for the window; the
# titles' font size and padding are the theme's (#page_tab).
LIST_W = (180, 300)
TAB_FONT = 16
TAB_PADDING = 12
SCROLLBAR_W = 20
# The help's width at most, and its text's: long lines are hard to follow.
MAX_WIDTH = 1360
MEASURE = 700
TEXT_SIZE = 17
SCROLL_STEP = 0.25  # of the page, per Page Up / Page Down


def list_width(size: tuple[int, int]) -> int:
    """The page list's width: the longest title's, within a share of the window."""
    widest = max(font(TAB_FONT).size(_(p.title))[0] for p in PAGES) + 2 * TAB_PADDING + 8
    return max(px(LIST_W[0]), min(widest, px(LIST_W[1]), size[0] * 3 // 10))


def sketch_zoom(width: int) -> float:
    """The sketch's scale for a page ``width`` pixels wide."""
    if width >= 1100:
        return 1.25
    return 1.0 if width >= 620 else 0.75


class HelpScene(Scene):
    def __init__(self, app: App, page: str | None = None) -> None:
        self.page_id = page if page in PAGE_IDS else PAGE_IDS[0]
        self.image: UIImage | None = None
        super().__init__(app)

    # -- layout ---------------------------------------------------------------------------

    def build(self) -> None:
        w, h = self.app.size
        lw = list_width(self.app.size)
        # On a wide screen the help keeps to a column in the middle: lines stay short to read.
        left = max(MARGIN, (w - px(MAX_WIDTH)) // 2)
        right = w - left
        y = MARGIN + font(TITLE_SIZE, True).get_linesize() + 10
        self.title_pos = (left, MARGIN)
        self.page_buttons: dict[UIButton, str] = {}
        # The tabs close up in a short window so that they keep clear of the buttons at the foot.
        foot = h - MARGIN - 2 * px(40) - 2 * GAP
        tab_h = min(px(BUTTON_H), (foot - y) // len(PAGES) - GAP)
        for p in PAGES:
            button = UIButton(pygame.Rect(left, y, lw, tab_h), _(p.title), self.manager, object_id="#page_tab")
            self.page_buttons[button] = p.id
            y += tab_h + GAP
        # Back, and beside it the credits (every asset's origin and licence), under the page list.
        half = (lw - GAP) // 2
        self.back_button = UIButton(pygame.Rect(left, h - MARGIN - px(40), half, px(40)), _("Back"), self.manager)
        self.credits_button = UIButton(
            pygame.Rect(left + lw - half, h - MARGIN - px(40), half, px(40)), _("Credits"), self.manager
        )
        # The encyclopedia above them: every kind of troops, ground, person and skill, with its figures.
        more = pygame.Rect(left, h - MARGIN - 2 * px(40) - GAP, lw, px(40))
        self.encyclopedia_button = UIButton(more, _("Encyclopedia"), self.manager)
        x = left + lw + MARGIN
        self.page_rect = pygame.Rect(x, MARGIN, right - x, h - 2 * MARGIN)
        self.scroller = UIScrollingContainer(self.page_rect.inflate(-16, -16), self.manager, allow_scroll_x=False)
        self.image = None
        self.show(self.page_id)

    def text_width(self) -> int:
        return self.page_rect.width - 16 - SCROLLBAR_W - 8

    def show(self, page_id: str) -> None:
        """Put ``page_id`` on the right, scrolled to its top, and light its title on the left."""
        self.page_id = page_id
        surface = render_page(page_id, self.text_width(), i18n.language(), px(100))
        self.image = show_scrolled(surface, self.scroller, self.manager, self.image)
        for button, pid in self.page_buttons.items():
            button.select() if pid == page_id else button.unselect()

    def scroll(self, fraction: float) -> None:
        """Scroll the page by ``fraction`` of its height (to its top or bottom at most)."""
        bar = self.scroller.vert_scroll_bar
        if bar is None or not bar.visible:
            return
        start = min(max(0.0, bar.start_percentage + fraction), 1.0 - bar.visible_percentage)
        bar.set_scroll_from_start_percentage(start)

    # -- events ---------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back_button:
                self.app.back()
            elif event.ui_element is self.credits_button:
                self.app.open("credits")
            elif event.ui_element is self.encyclopedia_button:
                self.app.open("encyclopedia")
            elif event.ui_element in self.page_buttons:
                self.show(self.page_buttons[event.ui_element])
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, key: int) -> None:
        index = PAGE_IDS.index(self.page_id)
        if key in (pygame.K_ESCAPE, pygame.K_F1):
            self.app.back()
        elif key == pygame.K_UP:
            self.show(PAGE_IDS[(index - 1) % len(PAGE_IDS)])
        elif key == pygame.K_DOWN:
            self.show(PAGE_IDS[(index + 1) % len(PAGE_IDS)])
        elif key == pygame.K_PAGEDOWN:
            self.scroll(SCROLL_STEP)
        elif key == pygame.K_PAGEUP:
            self.scroll(-SCROLL_STEP)
        elif key == pygame.K_HOME:
            self.scroll(-1.0)
        elif key == pygame.K_END:
            self.scroll(1.0)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        title = font(TITLE_SIZE, True).render(_("Help"), True, GOLD)
        surface.blit(title, self.title_pos)
        panel(surface, self.page_rect)


# -- the pages, drawn ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def render_page(page_id: str, width: int, lang: str, scale: int = 100) -> pygame.Surface:
    """A whole page (title, sketch, text), ``width`` pixels wide and as tall as it needs; ``lang``
    and ``scale`` (the UI scale, px(100)) key the cache: the text is drawn in the current ones."""
    rules = load_ruleset()
    p = page(page_id)
    blocks: list[tuple[int, int, pygame.Surface]] = []  # (x, y, what)
    y = 0
    heading = font(24, True).render(_(p.title), True, GOLD)
    blocks.append((0, y, heading))
    y += heading.get_height() + 12
    measure = min(width, px(MEASURE))
    paragraphs = p.text(rules)
    if page_id == "keys":
        y = _text(blocks, paragraphs, 0, y, measure) + 6
        y = _key_table(blocks, y, min(width, px(MEASURE + 120)))
    else:
        sketch = SKETCHES[page_id](rules, sketch_zoom(width))
        sw = sketch.get_width()
        if width >= px(MEASURE) // 2 + 24 + sw:
            # Side by side: the text on the left, the sketch beside it.
            measure = min(width - sw - 24, px(MEASURE))
            blocks.append((measure + 24, y, sketch))
            y = max(_text(blocks, paragraphs, 0, y, measure), y + sketch.get_height())
        else:
            blocks.append((0, y, sketch))
            y = _text(blocks, paragraphs, 0, y + sketch.get_height() + 14, measure)
    surface = pygame.Surface((width, y + 12), pygame.SRCALPHA)
    for x, by, what in blocks:
        surface.blit(what, (x, by))
    return surface


def _text(blocks: list[tuple[int, int, pygame.Surface]], paragraphs: list[str], x: int, y: int, width: int) -> int:
    f = font(TEXT_SIZE)
    step = f.get_linesize() + 3
    for para in paragraphs:
        # A closing mark may hang past the measure (it never starts a line): room is kept for it.
        for line in wrap(para, TEXT_SIZE, width - TEXT_SIZE):
            blocks.append((x, y, f.render(line, True, TEXT)))
            y += step
        y += 10
    return y


def _key_table(blocks: list[tuple[int, int, pygame.Surface]], y: int, width: int) -> int:
    """Two columns: the keys (or clicks), and what they do."""
    key_w = min(260, width * 2 // 5)
    do_w = width - key_w - 16
    keys_font, do_font = font(15, True), font(15)
    step = do_font.get_linesize() + 2
    for keys, does in key_rows():
        key_lines = wrap(keys, 15, key_w - 15, bold=True)
        do_lines = wrap(does, 15, do_w - 15)
        for i, line in enumerate(key_lines):
            blocks.append((0, y + 4 + i * step, keys_font.render(line, True, GOLD)))
        for i, line in enumerate(do_lines):
            blocks.append((key_w + 16, y + 4 + i * step, do_font.render(line, True, TEXT)))
        y += max(len(key_lines), len(do_lines)) * step + 8
        rule = pygame.Surface((width, 1))
        rule.fill(MUTED)
        rule.set_alpha(60)
        blocks.append((0, y, rule))
        y += 1
    return y
