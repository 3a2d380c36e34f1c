"""Generate the hexagonal terrain tileset (game/assets/tiles/terrain.png + .tsx).

Tiles are pointy-top hexagons, 56 x 64 px, for a Tiled hexagonal map with
hexsidelength 32 and staggeraxis y. Everything is drawn procedurally with
pygame.draw; the output is deterministic (fixed seeds).

Usage: python tools/make_tileset.py [--out-dir game/assets/tiles]
"""

from __future__ import annotations

import argparse
import math
import os
import random
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

TILE_W, TILE_H = 56, 64
CX, CY = TILE_W // 2, TILE_H // 2
TERRAINS: tuple[str, ...] = (
    "plain",
    "steppe",
    "farmland",
    "road",
    "forest",
    "hills",
    "mountain",
    "valley",
    "river",
    "ford",
    "marsh",
    "loess",
    "village",
    "town",
    "fortress",
    "palace",
)
OUTLINE = (20, 24, 16)
OUTLINE_ALPHA = 0.35

Color = tuple[int, int, int]
Surface = pygame.Surface
Painter = Callable[[Surface, random.Random], None]

# Shared palette.
GRASS: Color = (132, 186, 84)
GRASS_DARK: Color = (108, 160, 66)
GRASS_LIGHT: Color = (156, 204, 104)
WATER: Color = (52, 112, 196)
WATER_LIGHT: Color = (128, 180, 236)
INK: Color = (40, 34, 28)


def inside_hex(px: float, py: float) -> bool:
    """True if the point lies inside the pointy-top hexagon of a tile."""
    if not 0.0 <= px <= TILE_W:
        return False
    half = TILE_H / 4 + (CX - abs(px - CX)) * (TILE_H / 4) / CX
    return abs(py - CY) <= half


def pixel_in_hex(x: int, y: int) -> bool:
    """Pixel-centre test: neighbouring tiles partition the plane exactly."""
    return inside_hex(x + 0.5, y + 0.5)


def shade(c: Color, f: float) -> Color:
    """Scale a colour (f < 1 darkens, f > 1 lightens)."""
    return tuple(max(0, min(255, round(v * f))) for v in c)  # type: ignore[return-value]


def speckle(s: Surface, rng: random.Random, n: int, colors: list[Color], size: int = 1) -> None:
    """Sprinkle n small squares of the given colours."""
    for _ in range(n):
        x, y = rng.randrange(TILE_W), rng.randrange(TILE_H)
        s.fill(rng.choice(colors), (x, y, size, size))


def wave(s: Surface, color: Color, x0: int, x1: int, y: int, amp: float, width: int = 2) -> None:
    """A short sine-shaped stroke from x0 to x1 around height y."""
    pts = [(x, y + amp * math.sin((x - x0) / (x1 - x0) * 2 * math.pi)) for x in range(x0, x1 + 1)]
    pygame.draw.lines(s, color, False, pts, width)


def grass(s: Surface, rng: random.Random, base: Color = GRASS) -> None:
    s.fill(base)
    speckle(s, rng, 70, [shade(base, 0.9), shade(base, 1.08)], 2)


# --- terrain painters ---------------------------------------------------------


def paint_plain(s: Surface, rng: random.Random) -> None:
    grass(s, rng, GRASS_LIGHT)
    for _ in range(7):
        x, y = rng.randrange(10, 46), rng.randrange(12, 54)
        pygame.draw.line(s, GRASS_DARK, (x, y), (x - 1, y - 3))
        pygame.draw.line(s, GRASS_DARK, (x + 2, y), (x + 3, y - 3))


def paint_steppe(s: Surface, rng: random.Random) -> None:
    base = (196, 188, 104)
    s.fill(base)
    speckle(s, rng, 80, [shade(base, 0.92), shade(base, 1.06)], 2)
    tuft = (124, 124, 52)
    for x, y in [(14, 20), (32, 16), (44, 28), (20, 34), (36, 40), (12, 46), (28, 52), (46, 46)]:
        for dx in (-3, 0, 3):
            pygame.draw.line(s, tuft, (x, y), (x + dx, y - 5), 1)


def paint_farmland(s: Surface, rng: random.Random) -> None:
    soil, crop = (160, 112, 62), (116, 164, 64)
    s.fill(soil)
    # Diagonal bands of alternating crop and ploughed soil with furrows.
    for i, k in enumerate(range(-TILE_H, TILE_W + TILE_H, 8)):
        pts = [(k, 0), (k + 8, 0), (k + 8 - TILE_H * 0.6, TILE_H), (k - TILE_H * 0.6, TILE_H)]
        pygame.draw.polygon(s, crop if i % 2 else soil, pts)
        pygame.draw.line(s, shade(soil, 0.7), (k, 0), (k - TILE_H * 0.6, TILE_H), 1)
    # A field boundary (dirt path) across the fields.
    pygame.draw.line(s, (214, 188, 130), (0, 38), (TILE_W, 26), 3)


def paint_road(s: Surface, rng: random.Random) -> None:
    grass(s, rng)
    dirt = (218, 196, 142)
    s.fill(shade(dirt, 0.75), (0, 24, TILE_W, 16))
    s.fill(dirt, (0, 25, TILE_W, 14))
    for y in (29, 35):
        pygame.draw.line(s, shade(dirt, 0.85), (0, y), (TILE_W, y), 1)
    for _ in range(12):
        x, y = rng.randrange(TILE_W), rng.randrange(26, 38)
        s.fill(shade(dirt, 0.8), (x, y, 1, 1))


def tree_conifer(s: Surface, x: int, y: int, h: int) -> None:
    """Conifer with its base centre at (x, y)."""
    dark, mid = (28, 74, 38), (46, 104, 52)
    s.fill((90, 60, 36), (x - 1, y - 2, 3, 3))
    for i, w in enumerate((h // 2, h // 2 - 2)):
        top = y - 2 - h + i * (h // 3)
        bot = y - 2 - i * (h // 4)
        pygame.draw.polygon(s, mid, [(x, top), (x + w, bot), (x - w, bot)])
        pygame.draw.polygon(s, dark, [(x, top), (x + w, bot), (x, bot)])


def paint_forest(s: Surface, rng: random.Random) -> None:
    base = (62, 118, 54)
    s.fill(base)
    speckle(s, rng, 80, [shade(base, 0.8), shade(base, 1.1)], 2)
    for x, y, h in [
        (17, 24, 16),
        (39, 24, 16),
        (28, 40, 18),
        (12, 50, 15),
        (44, 50, 15),
        (28, 62, 14),
    ]:
        tree_conifer(s, x, y, h)


def hump(s: Surface, x: int, y: int, w: int, h: int, col: Color) -> None:
    """A rounded hill: half ellipse with a lit left and shaded right side."""
    rect = pygame.Rect(x - w // 2, y - h, w, h * 2)
    clip = s.get_clip()
    s.set_clip(pygame.Rect(0, 0, TILE_W, y))
    pygame.draw.ellipse(s, shade(col, 0.72), rect)
    pygame.draw.ellipse(s, col, rect.inflate(-4, -4).move(-2, 0))
    pygame.draw.ellipse(s, shade(col, 1.22), pygame.Rect(x - w // 4, y - h + 4, w // 4, h // 2))
    pygame.draw.ellipse(s, shade(col, 0.55), rect, 1)
    s.set_clip(clip)


def paint_hills(s: Surface, rng: random.Random) -> None:
    grass(s, rng, (146, 166, 88))
    col = (150, 150, 78)
    hump(s, 18, 34, 30, 16, col)
    hump(s, 38, 30, 30, 18, col)
    hump(s, 28, 52, 36, 18, col)


def peak(s: Surface, x: int, base_y: int, w: int, h: int) -> None:
    """Rocky triangular peak with a shaded east face and a snow cap."""
    lit, dark, snow = (164, 158, 152), (92, 88, 86), (248, 250, 252)
    top = (x, base_y - h)
    pygame.draw.polygon(s, lit, [top, (x - w // 2, base_y), (x, base_y)])
    pygame.draw.polygon(s, dark, [top, (x + w // 2, base_y), (x, base_y)])
    cap = h * 0.38
    cw = w / 2 * cap / h
    pygame.draw.polygon(
        s,
        snow,
        [
            top,
            (x + cw, base_y - h + cap),
            (x + cw / 3, base_y - h + cap - 3),
            (x - cw / 3, base_y - h + cap + 1),
            (x - cw, base_y - h + cap),
        ],
    )
    pygame.draw.lines(s, INK, False, [(x - w // 2, base_y), top, (x + w // 2, base_y)], 2)


def paint_mountain(s: Surface, rng: random.Random) -> None:
    base = (118, 114, 110)
    s.fill(base)
    speckle(s, rng, 90, [shade(base, 0.8), shade(base, 1.15)], 2)
    peak(s, 16, 44, 28, 26)
    peak(s, 40, 46, 28, 24)
    peak(s, 28, 56, 36, 40)


def paint_valley(s: Surface, rng: random.Random) -> None:
    rim, lit, shadow = (122, 156, 78), (150, 142, 92), (84, 84, 54)
    floor = (226, 210, 162)
    s.fill(rim)
    speckle(s, rng, 50, [shade(rim, 0.88), shade(rim, 1.1)], 2)
    for y in range(TILE_H):
        # The valley meanders gently from the top vertex to the bottom one.
        cx = round(CX + 4 * math.sin(y / TILE_H * 2 * math.pi))
        s.fill(lit, (cx - 21, y, 15, 1))
        s.fill(shadow, (cx + 6, y, 15, 1))
        s.fill(floor, (cx - 6, y, 12, 1))
        s.fill(INK, (cx - 22, y, 2, 1))
        s.fill(INK, (cx + 20, y, 2, 1))
        s.fill(shade(floor, 0.7), (cx - 7, y, 1, 1))
        s.fill(shade(floor, 0.7), (cx + 6, y, 1, 1))
        # Hachures: wedges running down-slope, thick at the rim.
        if y % 6 == 3:
            pygame.draw.polygon(s, shade(lit, 0.6), [(cx - 20, y - 1), (cx - 20, y + 2), (cx - 8, y + 1)])
            pygame.draw.polygon(s, shade(shadow, 0.6), [(cx + 19, y - 1), (cx + 19, y + 2), (cx + 7, y + 1)])


def paint_river(s: Surface, rng: random.Random) -> None:
    s.fill(WATER)
    speckle(s, rng, 40, [shade(WATER, 0.9)], 2)
    for i, y in enumerate(range(12, 60, 10)):
        off = 6 if i % 2 else 0
        wave(s, WATER_LIGHT, 4 + off, 24 + off, y, 2.0)
        wave(s, WATER_LIGHT, 30 + off, 50 + off, y + 4, 2.0)


def paint_ford(s: Surface, rng: random.Random) -> None:
    paint_river(s, rng)
    shallow, sand = (108, 176, 196), (226, 206, 150)
    # Sandy crossing running across the river, edged by shallow water.
    s.fill(shallow, (14, 0, 28, TILE_H))
    s.fill(sand, (19, 0, 18, TILE_H))
    for y in (8, 22, 36, 50):
        pygame.draw.ellipse(s, (138, 126, 108), (23, y, 10, 6))
        pygame.draw.ellipse(s, INK, (23, y, 10, 6), 1)
    pygame.draw.line(s, shade(sand, 0.75), (19, 0), (19, TILE_H), 1)
    pygame.draw.line(s, shade(sand, 0.75), (36, 0), (36, TILE_H), 1)


def paint_marsh(s: Surface, rng: random.Random) -> None:
    base = (92, 112, 64)
    s.fill(base)
    speckle(s, rng, 80, [shade(base, 0.85), shade(base, 1.12)], 2)
    pool = (70, 118, 140)
    for r in [(6, 16, 20, 9), (30, 22, 20, 8), (12, 36, 22, 9), (34, 44, 16, 8), (16, 52, 18, 6)]:
        pygame.draw.ellipse(s, pool, r)
        pygame.draw.ellipse(s, shade(pool, 1.35), pygame.Rect(r).inflate(-8, -5).move(-2, -1))
    reed, head = (54, 66, 32), (112, 74, 40)
    for x, y in [
        (26, 20),
        (30, 19),
        (8, 30),
        (12, 29),
        (40, 36),
        (44, 35),
        (24, 48),
        (28, 47),
        (44, 56),
    ]:
        pygame.draw.line(s, reed, (x, y + 6), (x, y - 4), 2)
        s.fill(head, (x - 1, y - 5, 2, 4))


def paint_loess(s: Surface, rng: random.Random) -> None:
    base = (206, 162, 92)
    s.fill(base)
    speckle(s, rng, 60, [shade(base, 0.92), shade(base, 1.05)], 2)
    # Stacked terraces: dark riser line with a lit edge beneath.
    for i, y in enumerate(range(8, TILE_H, 9)):
        bend = 3 if i % 2 else -3
        pts = [(x, y + bend * math.sin(x / TILE_W * math.pi)) for x in range(0, TILE_W + 1, 4)]
        pygame.draw.lines(s, (150, 104, 50), False, pts, 3)
        pygame.draw.lines(s, (232, 198, 134), False, [(x, yy + 2) for x, yy in pts], 1)


def house(s: Surface, x: int, y: int, w: int = 12, roof: Color = (170, 64, 44)) -> None:
    """Small house with its bottom-left corner at (x, y)."""
    wall = (230, 212, 170)
    h = w * 2 // 3
    pygame.draw.rect(s, wall, (x, y - h, w, h))
    pygame.draw.rect(s, INK, (x, y - h, w, h), 1)
    s.fill(INK, (x + w // 2 - 1, y - h // 2, 3, h // 2))
    pygame.draw.polygon(s, roof, [(x - 2, y - h), (x + w + 2, y - h), (x + w - 2, y - h - 6), (x + 2, y - h - 6)])
    pygame.draw.polygon(s, INK, [(x - 2, y - h), (x + w + 2, y - h), (x + w - 2, y - h - 6), (x + 2, y - h - 6)], 1)


def paint_village(s: Surface, rng: random.Random) -> None:
    grass(s, rng)
    pygame.draw.line(s, (206, 186, 134), (0, 48), (TILE_W, 44), 3)
    house(s, 8, 32, 14)
    house(s, 32, 28, 14)
    house(s, 20, 50, 14)


def paint_town(s: Surface, rng: random.Random) -> None:
    grass(s, rng, GRASS_DARK)
    wall, paving, roof = (168, 158, 140), (204, 192, 166), (74, 82, 102)
    area = pygame.Rect(6, 12, 44, 42)
    pygame.draw.rect(s, paving, area, border_radius=6)
    pygame.draw.rect(s, wall, area, 4, border_radius=6)
    pygame.draw.rect(s, INK, area, 1, border_radius=6)
    for x, y in [(12, 26), (24, 24), (36, 26), (12, 38), (30, 38), (18, 50), (36, 50)]:
        house(s, x, y, 9, roof)


def paint_fortress(s: Surface, rng: random.Random) -> None:
    grass(s, rng, (118, 140, 80))
    stone, dark = (150, 150, 154), (88, 88, 96)
    yard = pygame.Rect(12, 16, 32, 34)
    ring = yard.inflate(10, 10)
    pygame.draw.rect(s, stone, ring)
    pygame.draw.rect(s, (170, 146, 104), yard)
    pygame.draw.rect(s, INK, ring, 1)
    pygame.draw.rect(s, dark, yard, 1)
    # Battlements (merlons) along the outer edge.
    for x in range(ring.left, ring.right, 6):
        s.fill(stone, (x, ring.top - 3, 4, 3))
        pygame.draw.rect(s, INK, (x, ring.top - 3, 4, 4), 1)
    for y in range(ring.top + 2, ring.bottom - 2, 6):
        for x in (ring.left - 3, ring.right - 1):
            s.fill(stone, (x, y, 4, 4))
            pygame.draw.rect(s, INK, (x, y, 4, 4), 1)
    # Corner towers.
    for x, y in [ring.topleft, ring.topright, ring.bottomleft, ring.bottomright]:
        r = pygame.Rect(0, 0, 10, 10)
        r.center = (x, y)
        pygame.draw.rect(s, shade(stone, 0.9), r)
        pygame.draw.rect(s, INK, r, 1)
    # Gate in the south wall.
    gate = pygame.Rect(CX - 4, ring.bottom - 9, 8, 9)
    pygame.draw.rect(s, (36, 28, 24), gate, border_top_left_radius=4, border_top_right_radius=4)
    # Keep with a banner.
    pygame.draw.rect(s, shade(stone, 1.1), (22, 24, 12, 12))
    pygame.draw.rect(s, INK, (22, 24, 12, 12), 1)
    pygame.draw.line(s, INK, (28, 24), (28, 14), 1)
    pygame.draw.polygon(s, (196, 40, 36), [(28, 14), (35, 17), (28, 20)])


def paint_palace(s: Surface, rng: random.Random) -> None:
    s.fill((214, 200, 170))
    speckle(s, rng, 40, [(200, 186, 156)], 2)
    red, gold, gold_dark = (184, 36, 30), (236, 186, 48), (168, 118, 24)
    # Stone terrace.
    pygame.draw.rect(s, (236, 232, 220), (6, 44, 44, 10))
    pygame.draw.rect(s, INK, (6, 44, 44, 10), 1)
    # Red hall with columns.
    pygame.draw.rect(s, red, (12, 30, 32, 14))
    for x in range(15, 44, 6):
        pygame.draw.line(s, shade(red, 0.6), (x, 31), (x, 43), 1)
    pygame.draw.rect(s, INK, (12, 30, 32, 14), 1)
    # Double golden roof with upturned eaves.
    lower = [(4, 32), (52, 32), (46, 24), (10, 24)]
    upper = [(10, 22), (46, 22), (40, 12), (16, 12)]
    for poly in (lower, upper):
        pygame.draw.polygon(s, gold, poly)
        pygame.draw.polygon(s, gold_dark, poly, 1)
    s.fill(red, (16, 20, 24, 3))
    pygame.draw.line(s, gold_dark, (18, 12), (38, 12), 2)
    for x, y in [(4, 32), (52, 32), (10, 22), (46, 22)]:
        pygame.draw.line(s, gold_dark, (x, y), (x + (-2 if x < CX else 2), y - 3), 2)
    # Steps up the terrace.
    s.fill((250, 248, 240), (24, 44, 8, 10))


PAINTERS: dict[str, Painter] = {
    "plain": paint_plain,
    "steppe": paint_steppe,
    "farmland": paint_farmland,
    "road": paint_road,
    "forest": paint_forest,
    "hills": paint_hills,
    "mountain": paint_mountain,
    "valley": paint_valley,
    "river": paint_river,
    "ford": paint_ford,
    "marsh": paint_marsh,
    "loess": paint_loess,
    "village": paint_village,
    "town": paint_town,
    "fortress": paint_fortress,
    "palace": paint_palace,
}


# --- assembly -----------------------------------------------------------------


def make_tile(index: int, name: str) -> Surface:
    """Paint one terrain and cut it to the hexagon, with a thin outline."""
    art = Surface((TILE_W, TILE_H), pygame.SRCALPHA)
    PAINTERS[name](art, random.Random(1000 + index))
    tile = Surface((TILE_W, TILE_H), pygame.SRCALPHA)
    for y in range(TILE_H):
        for x in range(TILE_W):
            r, g, b, _ = art.get_at((x, y))
            if not pixel_in_hex(x, y):
                # Transparent, but keep the colour so smooth scaling has no dark fringe.
                tile.set_at((x, y), (r, g, b, 0))
                continue
            edge = not all(pixel_in_hex(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if edge:
                a = OUTLINE_ALPHA
                r, g, b = (round(c * (1 - a) + o * a) for c, o in zip((r, g, b), OUTLINE, strict=True))
            tile.set_at((x, y), (r, g, b, 255))
    return tile


def write_tsx(path: Path, image_name: str, width: int, height: int) -> None:
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="{TILE_W}" '
        f'tileheight="{TILE_H}" tilecount="{len(TERRAINS)}" columns="{len(TERRAINS)}">',
        f' <image source={quoteattr(image_name)} width="{width}" height="{height}"/>',
    ]
    for i, name in enumerate(TERRAINS):
        lines += [
            f' <tile id="{i}" type={quoteattr(name)}>',
            "  <properties>",
            f'   <property name="terrain" value={quoteattr(name)}/>',
            "  </properties>",
            " </tile>",
        ]
    lines.append("</tileset>")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    root = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=root / "game" / "assets" / "tiles")
    args = parser.parse_args()
    out: Path = args.out_dir
    out.mkdir(parents=True, exist_ok=True)

    tiles = [make_tile(i, name) for i, name in enumerate(TERRAINS)]
    sheet = Surface((TILE_W * len(tiles), TILE_H), pygame.SRCALPHA)
    sheet.fill((0, 0, 0, 0))
    for i, tile in enumerate(tiles):
        sheet.blit(tile, (i * TILE_W, 0))
    pygame.image.save(sheet, out / "terrain.png")
    write_tsx(out / "terrain.tsx", "terrain.png", sheet.get_width(), sheet.get_height())

    # Preview: 8 x 2 grid at 2x, transparent gaps between tiles.
    cols, gap = 8, 8
    rows = math.ceil(len(tiles) / cols)
    preview = Surface((cols * (TILE_W * 2 + gap) - gap, rows * (TILE_H * 2 + gap) - gap), pygame.SRCALPHA)
    preview.fill((0, 0, 0, 0))
    for i, tile in enumerate(tiles):
        big = pygame.transform.scale(tile, (TILE_W * 2, TILE_H * 2))
        preview.blit(big, ((i % cols) * (TILE_W * 2 + gap), (i // cols) * (TILE_H * 2 + gap)))
    pygame.image.save(preview, out / "terrain_preview.png")
    print(f"wrote {len(tiles)} tiles to {out}")


if __name__ == "__main__":
    main()
