"""Aiming palm thunder: where it can be thrown, what it would strike, and the odds shown beside
the pointer before the click that throws it."""

from __future__ import annotations

from collections.abc import Collection

import pygame

from ..core.board import Board
from ..core.combat import Forecast
from ..core.hexgrid import Hex, distance, neighbours
from ..core.rules import Ruleset
from ..core.state import Formation
from ..i18n import _, format_men, ngettext
from .map_marks import draw_tip


def thunder_range(board: Board, rules: Ruleset, f: Formation) -> frozenset[Hex]:
    """The hexes ``f`` can throw its palm thunder at (as the engine allows a blast)."""
    reach = max(1, rules.units[f.type].range)
    return frozenset(h for h in board.terrain if 1 <= distance(f.pos, h) <= reach)


def struck(at: Hex, seen: Collection[Hex]) -> frozenset[Hex]:
    """The hexes a blast at ``at`` strikes, as far as the thrower can see them."""
    return frozenset(h for h in (at, *neighbours(at)) if h in seen)


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
