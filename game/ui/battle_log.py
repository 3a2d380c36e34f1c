"""The battle log on the battle screen: the whole battle's lines, the newest shown at the bottom
left above the orders bar, scrolled with the mouse wheel over it (or Page Up / Page Down), and
expanded to most of the window's height with L or its small button.

Lines are wrapped to the panel's width (``narration.wrap``, which breaks Chinese between any two
characters), never cut. The component draws itself and reads its own input: ``handle`` returns
True for an event it used, which the screen then leaves alone (a wheel over the log scrolls it
instead of zooming the map; a click on it selects nothing beneath).
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame

from .. import i18n
from ..i18n import _
from .fonts import font
from .hud import GOLD, LOG_BOTTOM, MUTED, PANEL_BG, PANEL_W, TEXT, TOP_BAR_H
from .narration import wrap
from .scale import px

LINE_SIZE = 15
TITLE_SIZE = 13
# Rows shown when collapsed (as many as the old six-line log), and rows a wheel notch moves.
COLLAPSED_ROWS = 6
WHEEL_ROWS = 3
MAX_WIDTH = 560
MIN_WIDTH = 260
PAD = 8
BUTTON = 16
BAR_W = 6
GUTTER = BUTTON + 6  # the right-hand strip with the button and the scrollbar
TRACK = (60, 62, 70)
THUMB = (150, 145, 130)


def log_area(size: tuple[int, int]) -> pygame.Rect:
    """Where the log may be drawn in a window of ``size``: bottom left, from under the top bar
    to just above the orders bar, leaving the right side to the unit panel."""
    w, h = size
    width = max(MIN_WIDTH, min(MAX_WIDTH, w - px(PANEL_W) - 60))
    top = px(TOP_BAR_H) + 8
    return pygame.Rect(6, top, width, h - px(LOG_BOTTOM) + 4 - top)


class BattleLog:
    def __init__(self) -> None:
        self._lines: list[str] = []
        # The lines wrapped to the panel: (row text, index of its line), for _wrapped_for.
        self._rows: list[tuple[str, int]] = []
        self._wrapped_for: tuple[int, str] | None = None
        self._widest = 0
        # Rows of newer lines hidden below the view (0: the newest line is shown).
        self.scroll = 0
        self.expanded = False
        # Set while earlier lines are being recalled (a game just loaded): said at the top.
        self.recalling = False
        # Where the panel, its button and its scrollbar were last drawn (input is read there).
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._button = pygame.Rect(0, 0, 0, 0)
        self._track = pygame.Rect(0, 0, 0, 0)
        self._thumb = pygame.Rect(0, 0, 0, 0)
        self._room = COLLAPSED_ROWS
        self._pressed = False
        self._grab: int | None = None  # where on the thumb it was grabbed, while dragged

    # -- contents -----------------------------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    def add(self, line: str) -> None:
        """A new line at the bottom. A reader scrolled back keeps reading where they were."""
        self._lines.append(line)
        if self._wrapped_for is not None:
            rows = self._wrap(line, self._wrapped_for[0])
            self._rows += [(row, len(self._lines) - 1) for row in rows]
            if self.scroll:
                self.scroll += len(rows)

    def extend(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.add(line)

    def recall(self, lines: Iterable[str]) -> None:
        """Earlier lines (the battle before a save was loaded), put above those already here. The
        rows below the view stay as many, so a reader scrolled back keeps their place."""
        self._lines[:0] = list(lines)
        self.recalling = False
        wrapped_for, self._wrapped_for = self._wrapped_for, None
        if wrapped_for is not None:
            self._rows_for(wrapped_for[0])

    def clear(self) -> None:
        self._lines = []
        self._rows = []
        self._wrapped_for = None
        self.scroll = 0

    def toggle(self) -> None:
        """Expand or collapse (the view is fitted to its new size when next drawn)."""
        self.expanded = not self.expanded

    # -- scrolling ------------------------------------------------------------------------------

    def _total(self) -> int:
        """Rows there are to show: the lines', and the note while earlier ones are recalled."""
        return len(self._rows) + (1 if self.recalling else 0)

    def max_scroll(self) -> int:
        return max(0, self._total() - self._room)

    def scroll_by(self, rows: int) -> None:
        """Positive: back toward older lines; negative: toward the newest."""
        self.scroll = max(0, min(self.max_scroll(), self.scroll + rows))

    # -- input ----------------------------------------------------------------------------------

    def covers(self, pos: tuple[int, int]) -> bool:
        return self.rect.collidepoint(pos)

    def handle(self, event: pygame.event.Event) -> bool:
        """React to ``event`` if it is for the log; True if it was (the screen ignores it then)."""
        if event.type == pygame.KEYDOWN:
            return self._key(event.key)
        if event.type == pygame.MOUSEWHEEL:
            if not self.covers(pygame.mouse.get_pos()):
                return False
            self.scroll_by(event.y * WHEEL_ROWS)
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            if not self.covers(event.pos):
                return False
            self._pressed = True
            if event.button == 1:
                self._click(event.pos)
            return True  # the wheel's button twins (4, 5) too: MOUSEWHEEL has scrolled already
        if event.type == pygame.MOUSEBUTTONUP:
            used = self._pressed
            self._pressed = False
            self._grab = None
            return used
        if event.type == pygame.MOUSEMOTION and self._grab is not None:
            self._drag(event.pos[1])
            return True
        return False

    def _key(self, key: int) -> bool:
        if key == pygame.K_l:
            self.toggle()
            return True
        if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN) and self._total() > self._room:
            page = max(1, self._room - 1)
            self.scroll_by(page if key == pygame.K_PAGEUP else -page)
            return True
        return False

    def _click(self, pos: tuple[int, int]) -> None:
        if self._button.collidepoint(pos):
            self.toggle()
        elif self._thumb.collidepoint(pos):
            self._grab = pos[1] - self._thumb.top
        elif self._track.collidepoint(pos):
            page = max(1, self._room - 1)
            self.scroll_by(page if pos[1] < self._thumb.top else -page)

    def _drag(self, y: int) -> None:
        assert self._grab is not None
        span = self._track.height - self._thumb.height
        if span <= 0:
            return
        share = (y - self._grab - self._track.top) / span  # 0 at the oldest, 1 at the newest
        self.scroll = max(0, min(self.max_scroll(), round((1 - share) * self.max_scroll())))

    # -- drawing --------------------------------------------------------------------------------

    def _wrap(self, line: str, width: int) -> list[str]:
        rows = wrap(line, LINE_SIZE, width)
        f = font(LINE_SIZE)
        self._widest = max([self._widest, *(f.size(row)[0] for row in rows)])
        return rows

    def _rows_for(self, width: int) -> list[tuple[str, int]]:
        key = (width, i18n.language())
        if self._wrapped_for != key:
            self._widest = 0
            self._rows = [(row, i) for i, line in enumerate(self._lines) for row in self._wrap(line, width)]
            self._wrapped_for = key
        return self._rows

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Draw into the bottom of ``area`` (``log_area``, or less where the objectives stand):
        collapsed, the newest rows that fit, and nothing where not one fits; expanded, as many
        as the area holds."""
        if not self._lines and not self.recalling:
            self.rect = pygame.Rect(0, 0, 0, 0)
            return
        f = font(LINE_SIZE)
        lh = f.get_linesize()
        rows = self._rows_for(area.width - PAD - GUTTER)
        head_h = max(BUTTON, font(TITLE_SIZE).get_linesize()) + 4
        if not self.expanded and area.height < head_h + lh + 2 * PAD:
            self.rect = pygame.Rect(0, 0, 0, 0)  # no room for a row: the panels above hold the corner
            return
        fit = max(1, (area.height - head_h - 2 * PAD) // lh)
        self._room = fit if self.expanded else min(COLLAPSED_ROWS, fit)
        self.scroll = min(self.scroll, self.max_scroll())
        every = ([(_("Recalling the battle so far…"), -1)] if self.recalling else []) + rows
        end = len(every) - self.scroll
        shown = every[max(0, end - self._room) : end]
        title = font(TITLE_SIZE).render(_("Event log"), True, MUTED)  # as the replay viewer names it
        hint = font(TITLE_SIZE).render(_("L: collapse") if self.expanded else _("L: expand"), True, MUTED)
        width = min(area.width, max(self._widest + PAD + GUTTER, title.get_width() + hint.get_width() + GUTTER + 30))
        height = head_h + len(shown) * lh + 2 * PAD
        self.rect = pygame.Rect(area.left, area.bottom - height, width, height)
        # Expanded, it lies over the objectives panel: opaque, so the two texts do not mingle.
        _backdrop(surface, self.rect, opaque=self.expanded)
        # The head: the title, the key's hint and the button.
        top = self.rect.top + PAD // 2
        surface.blit(title, (self.rect.left + PAD, top + (head_h - title.get_height()) // 2))
        self._button = pygame.Rect(self.rect.right - GUTTER + 2, top + (head_h - BUTTON) // 2, BUTTON, BUTTON)
        surface.blit(hint, hint.get_rect(midright=(self._button.left - 6, self._button.centery)))
        _arrow_button(surface, self._button, up=not self.expanded)
        # The rows, newest last: the newest line in full colour, older ones muted.
        y = top + head_h + PAD // 2
        newest = len(self._lines) - 1
        for text, index in shown:
            colour = TEXT if index == newest else MUTED
            surface.blit(f.render(text, True, colour), (self.rect.left + PAD, y))
            y += lh
        self._scrollbar(surface, pygame.Rect(self._button.centerx - BAR_W // 2, top + head_h, BAR_W, 0), y)

    def _scrollbar(self, surface: pygame.Surface, track: pygame.Rect, bottom: int) -> None:
        """A track and a thumb under the button when there is more than the view shows."""
        track.height = bottom - track.top
        total = self._total()
        if total <= self._room or track.height < 8:
            self._track = self._thumb = pygame.Rect(0, 0, 0, 0)
            return
        thumb_h = max(10, track.height * self._room // total)
        # Scroll 0 (the newest) puts the thumb at the bottom of the track.
        share = 1 - self.scroll / max(1, self.max_scroll())
        thumb = pygame.Rect(track.left, track.top + round((track.height - thumb_h) * share), track.width, thumb_h)
        pygame.draw.rect(surface, TRACK, track, border_radius=3)
        pygame.draw.rect(surface, THUMB, thumb, border_radius=3)
        # The track is easier to hit a little wider than it is drawn.
        self._track = track.inflate(8, 0)
        self._thumb = thumb.inflate(8, 0)


def _arrow_button(surface: pygame.Surface, box: pygame.Rect, up: bool) -> None:
    """A small framed arrow (drawn, so no font needs the glyph): up to expand, down to shrink."""
    pygame.draw.rect(surface, (48, 50, 58), box, border_radius=3)
    pygame.draw.rect(surface, GOLD, box, 1, border_radius=3)
    cx, cy, d = box.centerx, box.centery, box.width // 4
    points = [(cx - d - 1, cy + d // 2 + 1), (cx + d + 1, cy + d // 2 + 1), (cx, cy - d)]
    if not up:
        points = [(x, 2 * cy - y) for x, y in points]
    pygame.draw.polygon(surface, GOLD, points)


def _backdrop(surface: pygame.Surface, rect: pygame.Rect, opaque: bool = False) -> None:
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    layer.fill((*PANEL_BG[:3], 255) if opaque else PANEL_BG)
    surface.blit(layer, rect.topleft)
