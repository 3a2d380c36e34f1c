"""Mirror a Tiled hexagonal map east to west: terrain, regions, place names and formations.

A pointy-top map staggered on y shifts every other row half a hex to the right. Reflected in a
vertical line, the shifted rows become the unshifted ones, so the exact mirror of a map with
``staggerindex="odd"`` is the map with ``staggerindex="even"`` whose every row is read backwards:
hex (col, row) goes to (width - 1 - col, row), every hex keeps its six neighbours, and no
column is lost or invented. Objects are reflected in pixels about the map's middle, which puts
a formation's point on the mirrored hex and a region's rectangle over the mirrored hexes.

The file is edited as text, so everything the mirror does not touch stays byte for byte.

    python tools/mirror_map.py game/maps/a1_valley_mouth.tmx [--out FILE]
        [--rename OLD=NEW ...] [--relabel "Old label=New label" ...]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

_MAP_TAG = re.compile(r"<map\b[^>]*>")
_DATA = re.compile(r'(<data encoding="csv">\s*\n)(.*?)(\n\s*</data>)', re.S)
_OBJECT_TAG = re.compile(r"<object\b[^>]*?/?>")
_POLY = re.compile(r'(<poly(?:gon|line) points=")([^"]*)(")')


def _attr(tag: str, name: str) -> str | None:
    m = re.search(rf'\b{name}="([^"]*)"', tag)
    return m.group(1) if m else None


def _set_attr(tag: str, name: str, value: str) -> str:
    return re.sub(rf'\b{name}="[^"]*"', f'{name}="{value}"', tag, count=1)


def _num(value: float) -> str:
    """A coordinate as Tiled writes it: an integer without a point, else a short decimal."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def mirror_text(text: str, renames: dict[str, str] | None = None, relabels: dict[str, str] | None = None) -> str:
    """The mirrored map, from the text of a .tmx file."""
    renames, relabels = renames or {}, relabels or {}
    map_tag = _MAP_TAG.search(text)
    if map_tag is None:
        raise ValueError("no <map> element")
    tag = map_tag.group(0)
    if _attr(tag, "orientation") != "hexagonal" or _attr(tag, "staggeraxis") != "y":
        raise ValueError("only hexagonal maps staggered on y can be mirrored")
    cols, tile_w = int(_attr(tag, "width") or 0), float(_attr(tag, "tilewidth") or 0)
    flipped = "even" if (_attr(tag, "staggerindex") or "odd") == "odd" else "odd"
    text = text.replace(tag, _set_attr(tag, "staggerindex", flipped), 1)
    # The staggered map is half a tile wider than its columns.
    width_px = cols * tile_w + tile_w / 2

    def mirror_rows(m: re.Match[str]) -> str:
        rows = m.group(2).split("\n")
        out = []
        for i, row in enumerate(rows):
            cells = row.rstrip(",").split(",")
            if len(cells) != cols:
                raise ValueError(f"terrain row {i} has {len(cells)} cells, not {cols}")
            out.append(",".join(reversed(cells)) + ("," if row.endswith(",") else ""))
        return m.group(1) + "\n".join(out) + m.group(3)

    text, n = _DATA.subn(mirror_rows, text)
    if n == 0:
        raise ValueError("no CSV tile layer to mirror")

    def mirror_object(m: re.Match[str]) -> str:
        obj = m.group(0)
        x, w = float(_attr(obj, "x") or 0), float(_attr(obj, "width") or 0)
        obj = _set_attr(obj, "x", _num(width_px - x - w))
        name = _attr(obj, "name")
        if name in renames:
            obj = _set_attr(obj, "name", renames[name])
        return obj

    text = _OBJECT_TAG.sub(mirror_object, text)

    def mirror_points(m: re.Match[str]) -> str:
        points = []
        for pair in m.group(2).split():
            px, py = pair.split(",")
            points.append(f"{_num(-float(px))},{py}")
        return m.group(1) + " ".join(points) + m.group(3)

    text = _POLY.sub(mirror_points, text)
    for old, new in relabels.items():
        text = text.replace(f'<property name="label" value="{old}"/>', f'<property name="label" value="{new}"/>')
    return text


def _pairs(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        old, sep, new = item.partition("=")
        if not sep:
            raise SystemExit(f"expected OLD=NEW, not {item!r}")
        out[old] = new
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("map", type=Path)
    parser.add_argument("--out", type=Path, help="where to write (default: over the map)")
    parser.add_argument("--rename", action="append", default=[], help="OLD=NEW object name (region id)")
    parser.add_argument("--relabel", action="append", default=[], help="'Old=New' place name")
    args = parser.parse_args(argv)
    text = args.map.read_text(encoding="utf-8")
    mirrored = mirror_text(text, _pairs(args.rename), _pairs(args.relabel))
    (args.out or args.map).write_text(mirrored, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
