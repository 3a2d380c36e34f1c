"""The table of what a battle cost each side, as pygame_gui labels: one column per side, one row
per figure. Columns are sized by the theme's own fonts for the texts of the current language, and
a side's long name wraps onto more header lines rather than being cut.

Use: ``table = SummaryTable(manager, rows, names)``; read ``table.width``/``table.height`` (after
``fit(max_width)`` if room is short) to lay out the screen; ``build(x, y, container)`` makes a
panel of labels (themed ``#table``, with ``#table_stripe`` bands on every other row).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.core.interfaces import IContainerLikeInterface, IGUIFontInterface
from pygame_gui.elements import UILabel, UIPanel

from ..i18n import _, format_men
from ..view.summary import SideSummary
from .narration import wrap
from .scale import px

ROW_H = 28  # at 100% (``px``)
# Space around a cell's text, and the narrowest and widest a side's column is made.
PAD = 14
MIN_COL = 96
MAX_COL = 220


@dataclass(frozen=True)
class Figure:
    key: str
    label: str
    values: dict[str, str]


def _number(n: int | None) -> str:
    return "?" if n is None else format_men(n)


def figures(rows: list[SideSummary]) -> list[Figure]:
    """The rows of the table (men who arrived later only when some did, or may have)."""

    def row(key: str, label: str, pick: Callable[[SideSummary], int | None]) -> Figure:
        return Figure(key, label, {r.side: _number(pick(r)) for r in rows})

    out = [row("men_start", _("Men at the start"), lambda r: r.men_start)]
    if any(r.men_arrived != 0 for r in rows):
        out.append(row("men_arrived", _("Men who arrived later"), lambda r: r.men_arrived))
    out += [
        row("men_lost", _("Men lost"), lambda r: r.men_lost),
        row("men_standing", _("Men standing at the end"), lambda r: r.men_standing),
        row("souls_bagged", _("Souls bagged"), lambda r: r.souls_bagged),
        row("broken", _("Formations broken at the end"), lambda r: r.broken),
        row("destroyed", _("Formations destroyed"), lambda r: r.destroyed),
    ]
    return out


class SummaryTable:
    def __init__(self, manager: pygame_gui.UIManager, rows: list[SideSummary], names: dict[str, str]) -> None:
        """``rows``: the sides to show, in order; ``names``: side id -> its name on screen."""
        self.manager = manager
        self.sides = [r.side for r in rows]
        self.names = names
        self.figures = figures(rows)
        theme = manager.get_theme()
        self._label_font = theme.get_font(["label"])
        self._head_font = theme.get_font(["#table_head", "label"])
        self.line_h = self._head_font.get_rect("Ag國").height + 2
        self.row_h = px(ROW_H)
        self.label_w = max(self._text_w(self._label_font, f.label) for f in self.figures) + PAD
        self.cols: dict[str, int] = {}
        for side in self.sides:
            numbers = max(self._text_w(self._label_font, f.values[side]) for f in self.figures)
            name = min(self._text_w(self._head_font, names[side]), px(MAX_COL) - PAD)
            self.cols[side] = max(px(MIN_COL), max(numbers, name) + PAD)
        self.cells: dict[tuple[str, str], UILabel] = {}
        self.rect = pygame.Rect(0, 0, self.width, self.height)

    @staticmethod
    def _text_w(f: IGUIFontInterface, text: str) -> int:
        return f.get_rect(text).width if text else 0

    def _head_lines(self, side: str) -> list[str]:
        return wrap(self.names[side], 16, self.cols[side] - PAD)

    @property
    def width(self) -> int:
        return self.label_w + sum(self.cols.values())

    @property
    def head_h(self) -> int:
        return max((len(self._head_lines(s)) for s in self.sides), default=1) * self.line_h + 8

    @property
    def height(self) -> int:
        return self.head_h + self.row_h * len(self.figures) + 8

    def fit(self, max_width: int) -> None:
        """Narrow the side columns (their names wrap onto more lines) to fit ``max_width``."""
        spare = max_width - self.label_w
        if self.width <= max_width or not self.sides:
            return
        each = max(px(MIN_COL), spare // len(self.sides))
        self.cols = {s: min(w, each) for s, w in self.cols.items()}

    def build(self, x: int, y: int, container: IContainerLikeInterface | None = None) -> pygame.Rect:
        """The table as a panel at (x, y) of ``container`` (the window by default), so that it
        scrolls with a scrolling container; its rect (relative to the container)."""
        self.rect = pygame.Rect(x, y, self.width, self.height)
        self.panel = UIPanel(self.rect, manager=self.manager, container=container, object_id="#table")
        inside = self.panel
        ry = self.head_h
        for i in range(0, len(self.figures), 2):
            stripe = pygame.Rect(0, ry + i * self.row_h, self.width - 2, self.row_h)
            UIPanel(stripe, starting_height=0, manager=self.manager, container=inside, object_id="#table_stripe")
        cx = self.label_w
        for side in self.sides:
            col = self.cols[side]
            for i, line in enumerate(self._head_lines(side)):
                rect = pygame.Rect(cx, 4 + i * self.line_h, col - PAD // 2, self.line_h)
                UILabel(rect, line, self.manager, container=inside, object_id="#table_head")
            cx += col
        for fig in self.figures:
            rect = pygame.Rect(PAD // 2, ry, self.label_w - PAD // 2, self.row_h)
            UILabel(rect, fig.label, self.manager, container=inside)
            cx = self.label_w
            for side in self.sides:
                col = self.cols[side]
                rect = pygame.Rect(cx, ry, col - PAD // 2, self.row_h)
                self.cells[(fig.key, side)] = UILabel(
                    rect, fig.values[side], self.manager, container=inside, object_id="#table_number"
                )
                cx += col
            ry += self.row_h
        return self.rect
