"""Aiming palm thunder: the odds shown beside the pointer before the click that throws it
(where it can be thrown and what it would strike: ``session.aim``)."""

from __future__ import annotations

import pygame

from ..core.combat import Forecast
from ..i18n import _, format_men, ngettext
from .map_marks import draw_tip


def draw_thunder_tip(surface: pygame.Surface, odds: list[tuple[str, Forecast]], pointer: tuple[int, int]) -> None:
    """How many formations the blast would strike and the losses to expect, by the pointer."""
    if not odds:
        return
    low = sum(f.defender_losses[0] for _id, f in odds)
    mid = sum(f.defender_losses[1] for _id, f in odds)
    high = sum(f.defender_losses[2] for _id, f in odds)
    lines = [
        ngettext("Palm thunder strikes {n} formation", "Palm thunder strikes {n} formations", len(odds)).format(
            n=len(odds)
        ),
        _("Enemy losses about {mid} ({low}–{high})").format(
            mid=format_men(mid), low=format_men(low), high=format_men(high)
        ),
        _("No blow comes back. Click to throw, Esc to put it away."),
    ]
    draw_tip(surface, lines, pointer)
