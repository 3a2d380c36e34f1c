"""A scenario's map in miniature, for the save list: terrain only, so it tells no secrets."""

from __future__ import annotations

from functools import lru_cache

import pygame

from ..content.scenarios import load_scenario
from .tileset import terrain_tiles


@lru_cache(maxsize=32)
def map_thumbnail(scenario_id: str, size: tuple[int, int]) -> pygame.Surface | None:
    """Each hex as a cell of its terrain's average colour, odd rows shifted half a cell (as the
    hexes are), scaled to fit ``size``; None if the scenario does not load."""
    try:
        board = load_scenario(scenario_id).scenario.board
    except Exception:  # noqa: BLE001 - an unloadable scenario simply has no picture
        return None
    colours = {tid: pygame.transform.average_color(tile)[:3] for tid, tile in terrain_tiles().items()}
    cell = 4
    surf = pygame.Surface((board.width * cell + cell // 2, board.height * cell))
    surf.fill((20, 22, 26))
    for row in range(board.height):
        shift = cell // 2 if (row % 2 == 1) == board.stagger_odd else 0
        for col in range(board.width):
            h = board.at_offset(col, row)
            if h not in board:
                continue
            colour = colours.get(board.terrain_at(h).id, (90, 90, 90))
            surf.fill(colour, pygame.Rect(col * cell + shift, row * cell, cell, cell))
    width, height = size
    scale = min(width / surf.get_width(), height / surf.get_height())
    return pygame.transform.smoothscale(
        surf, (max(1, int(surf.get_width() * scale)), max(1, int(surf.get_height() * scale)))
    )
