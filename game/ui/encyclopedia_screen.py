"""The encyclopedia on screen: the categories along the top, the entries of one down the left,
the chosen entry on the right (its figures as a table, then its words), scrolling when long.

Opened over the current screen (the help's Encyclopedia button; in battle, a click on a
formation's card opens its troops' entry, a click on a row of the legend the entry it names);
Back or Esc return. Up and Down go through the entries, Left and Right through the categories.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UIScrollingContainer

from .. import i18n
from ..content.campaigns import load_campaigns
from ..content.ruleset import load_ruleset
from ..content.scenarios import load_scenario, scenario_ids
from ..i18n import _
from ..view.encyclopedia import CATEGORIES, Entry, entries
from .fonts import font
from .help_pages import souls_text
from .hud import GOLD, MUTED, TEXT
from .narration import wrap
from .pages import BACKGROUND, panel, show_scrolled
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App

MARGIN = 16
BUTTON_H = 32
GAP = 6
TITLE_SIZE = 26
TEXT_SIZE = 17
FACT_SIZE = 16
SCROLLBAR_W = 20
LIST_W = (190, 300)
MAX_WIDTH = 1360
MEASURE = 700


@lru_cache(maxsize=4)
def all_entries(lang: str, script: str | None) -> tuple[Entry, ...]:
    """Every entry in the current language (``lang`` and the names' ``script`` key the cache)."""
    scenarios = [load_scenario(s).scenario for s in scenario_ids()]
    per_coin = min((c.souls_per_coin for c in load_campaigns().campaigns.values()), default=25)
    return tuple(entries(load_ruleset(), scenarios, souls_text, per_coin))


class EncyclopediaScene(Scene):
    def __init__(self, app: App, entry: str | None = None) -> None:
        everything = all_entries(i18n.language(), i18n.story_script())
        ids = [e.id for e in everything]
        # An entry's id, or a category's (its first entry).
        first = next((e.id for e in everything if e.category == entry), None)
        self.entry_id = entry if entry in ids else first or ids[0]
        self.image: UIImage | None = None
        super().__init__(app)

    # -- what there is --------------------------------------------------------------------

    def entries(self) -> tuple[Entry, ...]:
        return all_entries(i18n.language(), i18n.story_script())

    def entry(self) -> Entry:
        return next(e for e in self.entries() if e.id == self.entry_id)

    def category_entries(self, category: str) -> list[Entry]:
        return [e for e in self.entries() if e.category == category]

    # -- layout ---------------------------------------------------------------------------

    def build(self) -> None:
        w, h = self.app.size
        left = max(MARGIN, (w - px(MAX_WIDTH)) // 2)
        right = w - left
        y = MARGIN + font(TITLE_SIZE, True).get_linesize() + 8
        self.title_pos = (left, MARGIN)
        # The categories in a row (two rows if the window is narrow).
        tab_font = self.manager.get_theme().get_font(["button"])
        self.category_buttons: dict[UIButton, str] = {}
        x = left
        for cid, title in CATEGORIES:
            tw = tab_font.get_rect(_(title)).width + px(28)
            if x + tw > right and x > left:
                x, y = left, y + px(BUTTON_H) + GAP
            button = UIButton(pygame.Rect(x, y, tw, px(BUTTON_H)), _(title), self.manager)
            self.category_buttons[button] = cid
            x += tw + GAP
        y += px(BUTTON_H) + MARGIN
        lw = self._list_width()
        back_h = px(40)
        self.back_button = UIButton(pygame.Rect(left, h - MARGIN - back_h, lw, back_h), _("Back"), self.manager)
        list_rect = pygame.Rect(left, y, lw, h - MARGIN - back_h - GAP - y)
        self.list = UIScrollingContainer(list_rect, self.manager, allow_scroll_x=False)
        self.list_rect = list_rect
        x = left + lw + MARGIN
        self.page_rect = pygame.Rect(x, y, right - x, h - MARGIN - y)
        self.scroller = UIScrollingContainer(self.page_rect.inflate(-16, -16), self.manager, allow_scroll_x=False)
        self.entry_buttons: dict[UIButton, str] = {}
        self.image = None
        self.show(self.entry_id)

    def _list_width(self) -> int:
        widest = max(font(15).size(e.title)[0] for e in self.entries()) + px(24) + SCROLLBAR_W
        return max(px(LIST_W[0]), min(widest, px(LIST_W[1]), self.app.size[0] * 3 // 10))

    def _fill_list(self, category: str) -> None:
        for button in self.entry_buttons:
            button.kill()
        self.entry_buttons = {}
        inner = self.list_rect.width - SCROLLBAR_W
        y = 0
        for e in self.category_entries(category):
            rect = pygame.Rect(0, y, inner, px(BUTTON_H))
            button = UIButton(rect, e.title, self.manager, container=self.list, object_id="#page_tab")
            self.entry_buttons[button] = e.id
            y += px(BUTTON_H) + 2
        self.list.set_scrollable_area_dimensions((inner, y))
        self.listed = category

    def show(self, entry_id: str) -> None:
        """Put ``entry_id`` on the right, scrolled to its top; light it and its category."""
        self.entry_id = entry_id
        entry = self.entry()
        if not self.entry_buttons or self.listed != entry.category:
            self._fill_list(entry.category)
        surface = render_entry(entry, self.page_rect.width - 16 - SCROLLBAR_W - 8)
        self.image = show_scrolled(surface, self.scroller, self.manager, self.image)
        for button, eid in self.entry_buttons.items():
            button.select() if eid == entry_id else button.unselect()
        for button, cid in self.category_buttons.items():
            button.select() if cid == entry.category else button.unselect()

    # -- events ---------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back_button:
                self.app.back()
            elif event.ui_element in self.entry_buttons:
                self.show(self.entry_buttons[event.ui_element])
            elif event.ui_element in self.category_buttons:
                self.show(self.category_entries(self.category_buttons[event.ui_element])[0].id)
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)

    def _key(self, key: int) -> None:
        entry = self.entry()
        here = [e.id for e in self.category_entries(entry.category)]
        cats = [c for c, _title in CATEGORIES]
        if key == pygame.K_ESCAPE:
            self.app.back()
        elif key in (pygame.K_UP, pygame.K_DOWN):
            step = 1 if key == pygame.K_DOWN else -1
            self.show(here[(here.index(entry.id) + step) % len(here)])
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            step = 1 if key == pygame.K_RIGHT else -1
            category = cats[(cats.index(entry.category) + step) % len(cats)]
            self.show(self.category_entries(category)[0].id)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BACKGROUND)
        title = font(TITLE_SIZE, True).render(_("Encyclopedia"), True, GOLD)
        surface.blit(title, self.title_pos)
        panel(surface, self.page_rect)


def render_entry(entry: Entry, width: int) -> pygame.Surface:
    """An entry drawn ``width`` pixels wide and as tall as it needs: its title, its figures in
    two columns, then its paragraphs."""
    blocks: list[tuple[int, int, pygame.Surface]] = []
    heading = font(24, True).render(entry.title, True, GOLD)
    blocks.append((0, 0, heading))
    y = heading.get_height() + 12
    measure = min(width, px(MEASURE))
    if entry.facts:
        what_font, value_font = font(FACT_SIZE, True), font(FACT_SIZE)
        what_w = min(measure * 2 // 5, max(what_font.size(name)[0] for name, _v in entry.facts) + px(16))
        step = value_font.get_linesize() + 2
        for name, value in entry.facts:
            blocks.append((0, y, what_font.render(name, True, MUTED)))
            lines = wrap(value, FACT_SIZE, measure - what_w - FACT_SIZE)
            for i, line in enumerate(lines):
                blocks.append((what_w, y + i * step, value_font.render(line, True, TEXT)))
            y += max(1, len(lines)) * step + 4
        y += 10
    text_font = font(TEXT_SIZE)
    step = text_font.get_linesize() + 3
    for para in entry.text:
        for line in wrap(para, TEXT_SIZE, measure - TEXT_SIZE):
            blocks.append((0, y, text_font.render(line, True, TEXT)))
            y += step
        y += 10
    surface = pygame.Surface((width, y + 12), pygame.SRCALPHA)
    for x, by, picture in blocks:
        surface.blit(picture, (x, by))
    return surface
