"""Reading Tiled hexagonal maps with pytmx (no display needed).

Conventions a map follows (the README's "Maps" section says the same for map authors):

* orientation ``hexagonal``, ``staggeraxis="y"``, ``staggerindex`` odd or even;
* a tile layer named ``terrain`` whose tiles carry their terrain id in a ``terrain`` property
  (or, failing that, in the tile's Tiled ``class``/``type``);
* objects whose Tiled class (``class`` in Tiled 1.9+, ``type`` before) is ``formation``: the
  object name is the formation id, properties ``side``, ``unit``, ``men`` and optional
  ``hero``, ``max_men``, ``hidden`` (bool: starts in ambush) and ``group`` (string); the hex
  is the one under the object's point or centre;
* objects of class ``region``: the name is the region id, the hexes are those whose centres lie
  inside the rectangle or polygon; an optional ``label`` property is the place name drawn on
  the board (English, translated through gettext). Several objects may make up one region.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytmx

from ..core.board import Board
from ..core.hexgrid import Hex, axial_to_offset, offset_to_axial
from ..core.rules import Ruleset, TerrainType
from .errors import ContentError, error
from .tmx_checks import check_map_file

# A region's place name as Tiled writes it, and what is left of an object once it is gone.
_LABEL_PROPERTY = re.compile(rb'\r?\n[ \t]*<property name="label"(?: type="string")? value="[^"]*"/>')
_EMPTY_PROPERTIES = re.compile(rb"\r?\n[ \t]*<properties>\r?\n[ \t]*</properties>")
_EMPTY_OBJECT = re.compile(rb'(?<=")>\r?\n[ \t]*</object>')


def played_bytes(path: Path) -> bytes:
    """The map's bytes without its place names, for the scenario's content version: a name is
    shown, never played, so naming or renaming a place keeps the scenario's saves loadable. A
    map without names is returned unchanged."""
    data = path.read_bytes()
    data = _LABEL_PROPERTY.sub(b"", data)
    data = _EMPTY_PROPERTIES.sub(b"", data)
    return _EMPTY_OBJECT.sub(b"/>", data)


@dataclass(frozen=True)
class HexLayout:
    """Tiled's pixel geometry for a staggered pointy-top hex map."""

    tile_width: float
    tile_height: float
    side_length: float
    stagger_odd: bool

    @property
    def row_height(self) -> float:
        return (self.tile_height + self.side_length) / 2

    def centre(self, col: int, row: int) -> tuple[float, float]:
        shifted = (row % 2 == 1) == self.stagger_odd
        x = col * self.tile_width + (self.tile_width / 2 if shifted else 0.0) + self.tile_width / 2
        y = row * self.row_height + self.tile_height / 2
        return x, y

    def offset_at(self, x: float, y: float) -> tuple[int, int]:
        """The (col, row) of the hex containing pixel (x, y): the nearest centre."""
        row0 = int(y // self.row_height)
        best: tuple[float, int, int] | None = None
        for row in (row0 - 1, row0, row0 + 1):
            col0 = int(x // self.tile_width)
            for col in (col0 - 1, col0, col0 + 1):
                cx, cy = self.centre(col, row)
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, col, row)
        assert best is not None
        return best[1], best[2]


@dataclass(frozen=True)
class PlacedFormation:
    """A formation object read from the map, before validation against the ruleset."""

    id: str
    fields: dict[str, Any]
    pos: Hex


@dataclass
class TmxMap:
    board: Board
    layout: HexLayout
    formations: list[PlacedFormation]


def object_class(obj: Any) -> str:
    """The Tiled class of an object: ``class`` (Tiled 1.9+) or ``type`` (older)."""
    return str(getattr(obj, "class", None) or getattr(obj, "type", None) or "")


def _terrain_of_tile(props: dict[str, Any] | None) -> str | None:
    if not props:
        return None
    for key in ("terrain", "class", "type"):
        value = props.get(key)
        if value:
            return str(value)
    return None


def _point_in_polygon(x: float, y: float, points: list[tuple[float, float]]) -> bool:
    inside = False
    n = len(points)
    for i in range(n):
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


def _object_anchor(obj: Any) -> tuple[float, float]:
    """The pixel a formation object points at: its point, or the centre of its box."""
    x, y = float(obj.x), float(obj.y)
    w, h = float(obj.width or 0), float(obj.height or 0)
    if getattr(obj, "gid", 0):
        return x + w / 2, y - h / 2  # tile objects are anchored at their bottom-left
    return x + w / 2, y + h / 2


def load_tmx(path: Path, rules: Ruleset, errors: list[ContentError]) -> TmxMap | None:
    """Read a map; on failure append errors and return None."""
    if not check_map_file(path, errors):
        return None
    try:
        tm = pytmx.TiledMap(str(path))
    except FileNotFoundError as exc:
        errors.append(error(path, "-", "-", f"file not found: {exc.filename or path.name}"))
        return None
    except ElementTree.ParseError as exc:
        errors.append(error(path, "-", "-", f"not valid TMX/XML: {exc}"))
        return None
    except Exception as exc:  # pytmx raises many kinds on malformed content
        reason = str(exc).splitlines()[0] if str(exc).strip() else "pytmx gave no reason"
        errors.append(error(path, "-", "-", f"cannot read map: {type(exc).__name__}: {reason}"))
        return None

    if tm.orientation != "hexagonal":
        errors.append(error(path, "map", "orientation", f"must be hexagonal, not {tm.orientation!r}"))
        return None
    if tm.staggeraxis != "y":
        errors.append(error(path, "map", "staggeraxis", "must be 'y' (pointy-top hexes)"))
        return None
    stagger_odd = tm.staggerindex == "odd"  # checked: "odd" or "even"
    layout = HexLayout(float(tm.tilewidth), float(tm.tileheight), float(tm.hexsidelength), stagger_odd)

    layer = next(
        (
            lyr
            for lyr in tm.layers  # hidden in the editor is still part of the map
            if isinstance(lyr, pytmx.TiledTileLayer) and lyr.name == "terrain"
        ),
        None,
    )
    if layer is None:
        errors.append(error(path, "terrain", "-", "no tile layer named 'terrain'"))
        return None

    terrain: dict[Hex, TerrainType] = {}
    # One error per kind of tile gone wrong, at the first hex it is on: a bad tile painted over
    # a hundred hexes is one problem, not a hundred.
    problems: dict[tuple[str, str], tuple[str, int]] = {}
    for col, row, gid in layer.iter_data():
        if not gid:
            problem = ("tile", "empty hex: every hex needs terrain")
        else:
            tid = _terrain_of_tile(tm.get_tile_properties_by_gid(gid))
            if tid is not None and tid in rules.terrain:
                terrain[offset_to_axial(col, row, stagger_odd)] = rules.terrain[tid]
                continue
            if tid is None:
                problem = ("tile", f"tile {gid} has no 'terrain' property")
            else:
                problem = ("terrain", f"unknown terrain {tid!r}")
        where, count = problems.get(problem, (f"terrain@{col},{row}", 0))
        problems[problem] = (where, count + 1)
    for (field, message), (where, count) in list(problems.items())[:20]:
        more = f" (and {count - 1} more hex{'es' if count > 2 else ''} like it)" if count > 1 else ""
        errors.append(error(path, where, field, message + more))
    if problems:
        return None

    regions: dict[str, set[Hex]] = {}
    labels: dict[str, str] = {}
    formations: list[PlacedFormation] = []
    # Every hex's centre in pixels, worked out once, when the first region asks.
    centres: dict[Hex, tuple[float, float]] | None = None
    seen_ids: set[str] = set()
    for group in tm.objectgroups:
        for obj in group:
            cls = object_class(obj)
            name = str(obj.name or "")
            if cls == "formation":
                if not name:
                    errors.append(error(path, f"object {obj.id}", "name", "a formation needs a name (its id)"))
                    continue
                if name in seen_ids:
                    errors.append(error(path, name, "name", "duplicate formation id"))
                    continue
                seen_ids.add(name)
                col, row = layout.offset_at(*_object_anchor(obj))
                pos = offset_to_axial(col, row, stagger_odd)
                formations.append(PlacedFormation(name, dict(obj.properties), pos))
            elif cls == "region":
                if not name:
                    errors.append(error(path, f"object {obj.id}", "name", "a region needs a name"))
                    continue
                if centres is None:
                    centres = {h: layout.centre(*axial_to_offset(h, stagger_odd)) for h in terrain}
                regions.setdefault(name, set()).update(_region_hexes(obj, centres))
                _read_label(path, name, obj, labels, errors)

    for name, hexes in regions.items():
        if not hexes:
            errors.append(error(path, name, "shape", "region covers no hex centre"))
    board = Board(
        tm.width,
        tm.height,
        terrain,
        {k: frozenset(v) for k, v in regions.items()},
        stagger_odd,
        labels,
    )
    return TmxMap(board, layout, formations)


def _read_label(path: Path, region: str, obj: Any, labels: dict[str, str], errors: list[ContentError]) -> None:
    """A region object's ``label``: text to show, the same on every object of the region."""
    if "label" not in obj.properties:
        return
    value = obj.properties["label"]
    label = "" if value is None else str(value)  # pytmx reads an empty value as None
    # Kept even when it is refused below, so the region is not also reported as unnamed.
    if labels.setdefault(region, label) != label:
        errors.append(error(path, region, "label", f"{label!r} differs from {labels[region]!r} on another object"))
    elif not label.strip():
        errors.append(error(path, region, "label", "must be a place name, not empty"))
    elif label != label.strip() or "\n" in label:
        errors.append(error(path, region, "label", "must be one line without leading or trailing spaces"))


def _region_hexes(obj: Any, centres: dict[Hex, tuple[float, float]]) -> set[Hex]:
    """The hexes whose centre lies in the region object (a rectangle or a polygon); ``centres``
    holds every hex's centre in pixels (worked out once per map)."""
    points = getattr(obj, "points", None)
    if points:
        polygon = [(float(p[0]), float(p[1])) for p in points]
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        return {
            h
            for h, (cx, cy) in centres.items()
            if x0 <= cx <= x1 and y0 <= cy <= y1 and _point_in_polygon(cx, cy, polygon)
        }
    x0, y0 = obj.x, obj.y
    x1, y1 = x0 + (obj.width or 0), y0 + (obj.height or 0)
    return {h for h, (cx, cy) in centres.items() if x0 <= cx <= x1 and y0 <= cy <= y1}
