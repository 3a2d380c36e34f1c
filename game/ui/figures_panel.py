"""The battle in figures on the result screen: men on the field and souls bagged over the turns
for each side, and the men each formation lost, drawn as one picture for the space given."""

from __future__ import annotations

import pygame

from ..i18n import _, ngettext
from ..view.battle_figures import BattleFigures
from .plots import Bar, Series, bar_chart, line_chart
from .scale import px

GAP = 12
# Below this width the two line charts stack over the losses instead of standing beside them.
WIDE = 1100


def figures_picture(
    size: tuple[int, int],
    figures: BattleFigures,
    side_names: dict[str, str],
    side_colours: dict[str, tuple[int, int, int]],
    formation_names: dict[str, str],
) -> pygame.Surface:
    """The three charts laid out in ``size``: side by side when the width allows, else the two
    line charts over the losses."""
    w, h = size
    picture = pygame.Surface(size, pygame.SRCALPHA)
    gap = px(GAP)

    def series(values: dict[str, tuple[int, ...]]) -> list[Series]:
        return [Series(side_names[s], side_colours[s], values[s]) for s in figures.sides]

    if w >= px(WIDE):
        third = (w - 2 * gap) // 3
        men_rect = pygame.Rect(0, 0, third, h)
        souls_rect = pygame.Rect(third + gap, 0, third, h)
        loss_rect = pygame.Rect(2 * (third + gap), 0, w - 2 * (third + gap), h)
    else:
        top_h = (h - gap) * 11 // 20
        half = (w - gap) // 2
        men_rect = pygame.Rect(0, 0, half, top_h)
        souls_rect = pygame.Rect(half + gap, 0, w - half - gap, top_h)
        loss_rect = pygame.Rect(0, top_h + gap, w, h - top_h - gap)
    line_chart(picture, men_rect, _("Men on the field, turn by turn"), figures.turns, series(figures.men))
    line_chart(picture, souls_rect, _("Souls in the pouch, turn by turn"), figures.turns, series(figures.souls))
    bars = [
        Bar(formation_names.get(loss.formation, "?"), side_colours[loss.side], loss.lost) for loss in figures.losses
    ]

    def more(n: int) -> str:
        return ngettext("and {n} more formation", "and {n} more formations", n).format(n=n)

    bar_chart(picture, loss_rect, _("Men lost, by formation"), bars, more)
    return picture
