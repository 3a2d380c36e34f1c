"""Terrain tile images from the Tiled tileset in game/assets/tiles, by terrain id."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from functools import lru_cache

import pygame

from ..paths import TILES_DIR

TSX_PATH = TILES_DIR / "terrain.tsx"


def _terrain_ids(tsx: ElementTree.Element) -> dict[int, str]:
    ids: dict[int, str] = {}
    for tile in tsx.findall("tile"):
        tid = int(tile.get("id", "-1"))
        name = tile.get("class") or tile.get("type")
        for prop in tile.findall("properties/property"):
            if prop.get("name") == "terrain":
                name = prop.get("value")
        if name:
            ids[tid] = name
    return ids


@lru_cache(maxsize=1)
def terrain_tiles() -> dict[str, pygame.Surface]:
    """Each terrain's tile image (unscaled, with alpha)."""
    root = ElementTree.parse(TSX_PATH).getroot()
    tw, th = int(root.get("tilewidth", "0")), int(root.get("tileheight", "0"))
    columns = int(root.get("columns", "1"))
    image = root.find("image")
    if image is None:
        raise ValueError(f"{TSX_PATH}: no image")
    sheet = pygame.image.load(str(TSX_PATH.parent / image.get("source", "")))
    if pygame.display.get_surface() is not None:
        sheet = sheet.convert_alpha()
    tiles: dict[str, pygame.Surface] = {}
    for tid, name in _terrain_ids(root).items():
        rect = pygame.Rect((tid % columns) * tw, (tid // columns) * th, tw, th)
        tiles[name] = sheet.subsurface(rect).copy()
    return tiles
