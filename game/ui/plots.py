"""Charts in the game's own look: a line chart of figures over the turns, and a bar chart.

Drawn straight onto a surface with pygame (no plotting library): dark panel, muted grid, the
factions' banner colours for the lines and bars, numbers written as the reader's language
counts men (``format_men``). The layout arithmetic (``nice_ticks``) is pure and tested.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from ..i18n import format_men
from .fonts import font
from .hud import GOLD, MUTED, TEXT
from .scale import px

PANEL = (28, 31, 38)
GRID = (58, 62, 72)
AXIS = (110, 110, 104)
TITLE_SIZE = 16
LABEL_SIZE = 12


@dataclass(frozen=True)
class Series:
    name: str
    colour: tuple[int, int, int]
    values: tuple[int, ...]


@dataclass(frozen=True)
class Bar:
    label: str
    colour: tuple[int, int, int]
    value: int


def nice_ticks(top: int, most: int = 5) -> list[int]:
    """Grid values from 0 up to at least ``top`` in steps of 1, 2 or 5 times a power of ten, at
    most ``most`` steps: the lines a reader can count along."""
    if top <= 0:
        return [0, 1]
    step = 1
    while True:
        for m in (1, 2, 5):
            s = step * m
            if -(-top // s) <= most:
                return [s * i for i in range(-(-top // s) + 1)]
        step *= 10


def _brighter(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A banner colour lifted so a thin line of it reads on the dark panel."""
    r, g, b = colour
    return (min(255, r // 2 + 110), min(255, g // 2 + 110), min(255, b // 2 + 110))


def _panel(target: pygame.Surface, rect: pygame.Rect, title: str) -> pygame.Rect:
    """The chart's panel and title; returns the room left for the chart itself."""
    pygame.draw.rect(target, PANEL, rect, border_radius=6)
    pygame.draw.rect(target, GRID, rect, width=1, border_radius=6)
    head = font(TITLE_SIZE, bold=True).render(title, True, GOLD)
    target.blit(head, (rect.x + px(10), rect.y + px(6)))
    top = rect.y + px(10) + head.get_height()
    return pygame.Rect(rect.x + px(10), top, rect.width - px(20), rect.bottom - top - px(8))


def line_chart(
    target: pygame.Surface, rect: pygame.Rect, title: str, turns: Sequence[int], series: Sequence[Series]
) -> None:
    """Each series as a line over the turns (turn 0 is the start), with a legend under it."""
    room = _panel(target, rect, title)
    small = font(LABEL_SIZE)
    line_h = small.get_linesize()
    legend_h = line_h + px(4)
    top = max((v for s in series for v in s.values), default=0)
    ticks = nice_ticks(top)
    labels = [small.render(format_men(t), True, MUTED) for t in ticks]
    left = room.x + max(label.get_width() for label in labels) + px(6)
    plot = pygame.Rect(left, room.y + line_h // 2, room.right - left - px(4), room.height - line_h * 2 - legend_h)
    if plot.width < 20 or plot.height < 20:
        return
    y_max = ticks[-1] or 1
    span = max(1, len(turns) - 1)

    def at(i: int, v: int) -> tuple[int, int]:
        return (plot.x + round(plot.width * i / span), plot.bottom - round(plot.height * v / y_max))

    for t, label in zip(ticks, labels, strict=True):
        y = at(0, t)[1]
        pygame.draw.line(target, GRID, (plot.x, y), (plot.right, y))
        target.blit(label, (plot.x - px(4) - label.get_width(), y - label.get_height() // 2))
    pygame.draw.line(target, AXIS, plot.bottomleft, plot.bottomright)
    # Turn numbers along the bottom, as many as fit.
    every = max(1, -(-len(turns) * small.size("88")[0] * 2 // max(1, plot.width)))
    for i, turn in enumerate(turns):
        if i % every and i != len(turns) - 1:
            continue
        mark = small.render(str(turn), True, MUTED)
        x = at(i, 0)[0]
        target.blit(mark, (x - mark.get_width() // 2, plot.bottom + px(2)))
    for s in series:
        colour = _brighter(s.colour)
        points = [at(i, v) for i, v in enumerate(s.values)]
        if len(points) > 1:
            pygame.draw.lines(target, colour, False, points, max(2, px(2)))
        for p in points[-1:]:
            pygame.draw.circle(target, colour, p, max(3, px(3)))
    # The legend: a swatch and each series' name with its last figure.
    x = plot.x
    y = plot.bottom + line_h + px(4)
    for s in series:
        last = s.values[-1] if s.values else 0
        text = small.render(f"{s.name}  {format_men(last)}", True, TEXT)
        if x + text.get_width() + px(18) > room.right and x > plot.x:
            break
        pygame.draw.rect(target, _brighter(s.colour), (x, y + line_h // 2 - px(3), px(12), px(6)))
        target.blit(text, (x + px(16), y))
        x += text.get_width() + px(30)


def bar_chart(
    target: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    bars: Sequence[Bar],
    more: Callable[[int], str] | None = None,
) -> None:
    """One bar a row, in the order given, as many rows as fit; ``more(n)`` says that n did not."""
    room = _panel(target, rect, title)
    small = font(LABEL_SIZE)
    row_h = small.get_linesize() + px(6)
    rows = max(0, room.height // row_h)
    shown = list(bars[:rows]) if len(bars) <= rows else list(bars[: max(0, rows - 1)])
    label_w = min(room.width // 2, max((small.size(b.label)[0] for b in shown), default=0) + px(8))
    top = max((b.value for b in shown), default=1) or 1
    value_w = max((small.size(format_men(b.value))[0] for b in shown), default=0) + px(8)
    bar_room = room.width - label_w - value_w
    y = room.y
    for b in shown:
        name = small.render(b.label, True, TEXT)
        if name.get_width() > label_w - px(8):  # a long name is cut, not run into its bar
            name = name.subsurface((0, 0, label_w - px(8), name.get_height()))
        target.blit(name, (room.x, y + (row_h - name.get_height()) // 2))
        length = max(1, round(bar_room * b.value / top))
        pygame.draw.rect(target, _brighter(b.colour), (room.x + label_w, y + px(3), length, row_h - px(6)))
        figure = small.render(format_men(b.value), True, MUTED)
        target.blit(figure, (room.x + label_w + length + px(4), y + (row_h - figure.get_height()) // 2))
        y += row_h
    if len(shown) < len(bars) and more is not None:
        target.blit(small.render(more(len(bars) - len(shown)), True, MUTED), (room.x, y + px(2)))
