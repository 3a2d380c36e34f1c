"""What a Tiled map must be before pytmx reads it: the geometry is checked, never assumed.

pytmx reads whatever it is given and guesses the rest (a missing stagger index is "even", a
missing side length is 0, a layer longer than the map makes more rows); a guess moves every
formation. So the map's XML is read first and every attribute the board depends on is checked
here, each problem one ``ContentError`` that names its cause.
"""

from __future__ import annotations

import base64
import binascii
import logging
import math
import zlib
from pathlib import Path
from xml.etree import ElementTree

from .errors import ContentError, error

# pytmx logs its own complaints before raising; the game words every problem itself, in one line.
logging.getLogger("pytmx").addHandler(logging.NullHandler())
logging.getLogger("pytmx").propagate = False

MAX_MAP_BYTES = 16 * 1024 * 1024
MAX_MAP_SIDE = 256  # hexes across or down
MAX_TILE_PIXELS = 1024
LAYER_FORMATS = {("csv", None), ("base64", None), ("base64", "zlib"), ("base64", "gzip")}


def check_map_file(path: Path, errors: list[ContentError]) -> bool:
    """Whether the map's geometry is one the game reads exactly; appends an error per problem."""
    before = len(errors)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        errors.append(error(path, "-", "-", f"file not found: {path.name}"))
        return False
    except OSError as exc:
        errors.append(error(path, "-", "-", f"cannot read map: {exc.strerror or exc}"))
        return False
    if size > MAX_MAP_BYTES:
        errors.append(error(path, "-", "-", f"too large for a map ({size} bytes; at most {MAX_MAP_BYTES})"))
        return False
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as exc:
        errors.append(error(path, "-", "-", f"not valid TMX/XML: {exc}"))
        return False
    except (OSError, ValueError, LookupError) as exc:  # LookupError: an unknown encoding
        errors.append(error(path, "-", "-", f"cannot read map: {exc}"))
        return False
    if root.tag != "map":
        errors.append(error(path, "-", "-", f"not a Tiled map (the document is <{root.tag}>, not <map>)"))
        return False
    _check_header(path, root, errors)
    if len(errors) > before:
        return False
    _check_tilesets(path, root, errors)
    _check_properties(path, root, errors)
    _check_layers(path, root, errors)
    _check_objects(path, root, errors)
    return len(errors) == before


def _whole(
    path: Path, node: ElementTree.Element, obj: str, name: str, low: int, high: int, errors: list[ContentError]
) -> int | None:
    """A whole-number attribute within [low, high]; None (and an error) otherwise."""
    text = node.get(name)
    if text is None:
        errors.append(error(path, obj, name, f"missing (a whole number from {low} to {high})"))
        return None
    try:
        value = int(text)
    except ValueError:
        errors.append(error(path, obj, name, f"must be a whole number from {low} to {high}, not {_shown(text)}"))
        return None
    if not low <= value <= high:
        errors.append(error(path, obj, name, f"must be from {low} to {high}, not {value}"))
        return None
    return value


def _check_header(path: Path, root: ElementTree.Element, errors: list[ContentError]) -> None:
    orientation = root.get("orientation")
    if orientation != "hexagonal":
        errors.append(error(path, "map", "orientation", f"must be hexagonal, not {_shown(orientation)}"))
        return
    if root.get("staggeraxis") != "y":
        errors.append(error(path, "map", "staggeraxis", "must be 'y' (pointy-top hexes)"))
    stagger = root.get("staggerindex")
    if stagger not in ("odd", "even"):
        errors.append(error(path, "map", "staggerindex", f"must be 'odd' or 'even', not {_shown(stagger)}"))
    infinite = root.get("infinite", "0")
    if infinite not in ("0", "1"):
        errors.append(error(path, "map", "infinite", f"must be 0 or 1, not {_shown(infinite)}"))
    elif infinite == "1" or root.find(".//data/chunk") is not None:
        errors.append(
            error(path, "map", "infinite", "infinite maps are not supported: turn 'Infinite' off in Map Properties")
        )
    _whole(path, root, "map", "width", 1, MAX_MAP_SIDE, errors)
    _whole(path, root, "map", "height", 1, MAX_MAP_SIDE, errors)
    _whole(path, root, "map", "tilewidth", 1, MAX_TILE_PIXELS, errors)
    tile_height = _whole(path, root, "map", "tileheight", 1, MAX_TILE_PIXELS, errors)
    if tile_height is not None:
        _whole(path, root, "map", "hexsidelength", 1, tile_height, errors)


def _check_tilesets(path: Path, root: ElementTree.Element, errors: list[ContentError]) -> None:
    for i, node in enumerate(root.findall("tileset")):
        obj = f"tileset {node.get('name') or node.get('source') or i + 1}"
        _whole(path, node, obj, "firstgid", 1, 1 << 29, errors)
        source = node.get("source")
        if source is None:
            _check_tileset(path, node, obj, errors)
            continue
        if not source.lower().endswith(".tsx"):
            message = f"external tileset {_shown(source)} is not a .tsx file: save it as TSX"
            errors.append(error(path, obj, "source", message))
        elif not (path.parent / source).is_file():
            errors.append(error(path, obj, "source", f"tileset file {_shown(source)} not found beside the map"))
        else:
            tsx = path.parent / source
            try:
                tileset = ElementTree.parse(tsx).getroot()
            except (ElementTree.ParseError, OSError, ValueError, LookupError) as exc:
                errors.append(error(tsx, "-", "-", f"not a readable tileset: {exc}"))
                continue
            if tileset.tag != "tileset":
                errors.append(error(tsx, "-", "-", f"not a Tiled tileset (the document is <{tileset.tag}>)"))
            else:
                _check_tileset(tsx, tileset, "tileset", errors)
                _check_properties(tsx, tileset, errors)


def _check_tileset(path: Path, node: ElementTree.Element, obj: str, errors: list[ContentError]) -> None:
    """What pytmx needs of a tileset: its images' sizes, whole-number tile ids and animation frames
    (an old tileset without them would fail deep inside pytmx)."""
    for image in node.iter("image"):
        where = f"{obj} image {Path(image.get('source') or '?').name}"
        _whole(path, image, where, "width", 1, 1 << 16, errors) and _whole(
            path, image, where, "height", 1, 1 << 16, errors
        )
    for tile in node.findall("tile"):
        where = f"{obj} tile {tile.get('id') or '?'}"
        _whole(path, tile, where, "id", 0, 1 << 29, errors)
        for frame in tile.iter("frame"):
            _whole(path, frame, where, "tileid", 0, 1 << 29, errors)
            _whole(path, frame, where, "duration", 0, 1 << 31, errors)


# Property types pytmx converts, and how (it words a bad value poorly, or misreads it).
_BOOLS = {"true", "false", "1", "0"}


def _check_properties(path: Path, root: ElementTree.Element, errors: list[ContentError]) -> None:
    """Every typed custom property holds a value of its type (class properties, which need the
    project's custom types, are not read)."""
    for node in root.iter():
        props = node.find("properties")
        if props is None or node.tag == "property":
            continue
        owner = node.get("name") or f"{node.tag} {node.get('id') or '?'}"
        for prop in props.findall("property"):
            name, kind, value = prop.get("name") or "?", prop.get("type", "string"), prop.get("value")
            if kind == "class":
                errors.append(error(path, owner, name, "class properties are not supported: use plain values"))
            elif kind not in ("string", "color", "file", "enum", "int", "object", "float", "bool"):
                errors.append(error(path, owner, name, f"unknown property type {_shown(kind)}"))
            elif kind != "string" and value is None:
                errors.append(error(path, owner, name, f"a {kind} property needs a value"))
            elif kind in ("int", "object") and not _is_int(value):
                errors.append(error(path, owner, name, f"must be a whole number, not {_shown(value)}"))
            elif kind == "float" and not _is_finite(value):
                errors.append(error(path, owner, name, f"must be a finite number, not {_shown(value)}"))
            elif kind == "bool" and value not in _BOOLS:
                errors.append(error(path, owner, name, f"must be true or false, not {_shown(value)}"))


def _shown(text: str | None) -> str:
    """A value for a message: quoted, and cut short if it is long."""
    text = text or ""
    return repr(text if len(text) <= 40 else text[:40] + "...")


def _is_int(text: str | None) -> bool:
    try:
        int(text or "")
    except ValueError:
        return False
    return True


def _is_finite(text: str | None) -> bool:
    try:
        return math.isfinite(float(text or ""))
    except ValueError:
        return False


def _check_layers(path: Path, root: ElementTree.Element, errors: list[ContentError]) -> None:
    width, height = int(root.get("width", "0")), int(root.get("height", "0"))
    for node in root.iter("layer"):
        obj = f"layer {node.get('name') or node.get('id') or '?'}"
        bad = len(errors)
        for name, expected in (("width", width), ("height", height)):
            value = node.get(name)
            if value is not None and value != str(expected):
                errors.append(error(path, obj, name, f"{value} disagrees with the map's {name} {expected}"))
        data = node.find("data")
        if data is None:
            errors.append(error(path, obj, "data", "the layer has no data"))
            continue
        if data.find("chunk") is not None:
            continue  # said once, for the map
        encoding, compression = data.get("encoding"), data.get("compression")
        if encoding is None and data.find("tile") is not None:
            errors.append(
                error(path, obj, "data", "tiles stored as XML elements (an old Tiled format): save the layer as CSV")
            )
            continue
        if encoding is None or (encoding, compression) not in LAYER_FORMATS:
            wording = " ".join(str(v) for v in (encoding, compression) if v)
            what = f"layer format {wording!r} is not supported" if wording else "the layer data names no encoding"
            errors.append(error(path, obj, "data", f"{what}: save the layer as CSV"))
            continue
        if len(errors) > bad:
            continue
        count = _value_count(data.text or "", encoding, compression)
        if count is None:
            errors.append(error(path, obj, "data", f"the {encoding} layer data cannot be decoded"))
        elif count != width * height:
            errors.append(
                error(
                    path,
                    obj,
                    "data",
                    f"{count} tiles for a {width}x{height} map (needs {width * height}): "
                    "the layer and the map's size disagree",
                )
            )


def _value_count(text: str, encoding: str, compression: str | None) -> int | None:
    """How many tiles a layer's data holds; None when it cannot be decoded."""
    text = text.strip()
    if encoding == "csv":
        if not text:
            return 0
        values = text.split(",")
        if not all(v.strip().isdigit() for v in values):
            return None
        return len(values)
    try:
        raw = base64.b64decode(text, validate=False)
        if compression:
            # At most one tile more than the largest map: a bomb is cut short, not unpacked.
            wbits = 15 if compression == "zlib" else 31
            raw = zlib.decompressobj(wbits).decompress(raw, 4 * MAX_MAP_SIDE * MAX_MAP_SIDE + 4)
    except (binascii.Error, zlib.error, ValueError):
        return None
    return len(raw) // 4 if len(raw) % 4 == 0 else None


def _check_objects(path: Path, root: ElementTree.Element, errors: list[ContentError]) -> None:
    """Every object's position and size are finite numbers (``nan`` or ``inf`` place nothing)."""
    for node in root.iter("object"):
        obj = node.get("name") or f"object {node.get('id') or '?'}"
        for name in ("x", "y", "width", "height"):
            text = node.get(name)
            if text is None:
                continue
            try:
                value = float(text)
            except ValueError:
                errors.append(error(path, obj, name, f"must be a number, not {_shown(text)}"))
                continue
            if not math.isfinite(value) or abs(value) > 1e7:
                errors.append(error(path, obj, name, f"must be a finite number of pixels, not {_shown(text)}"))
        for shape in ("polygon", "polyline"):
            for poly in node.findall(shape):
                try:
                    coords = [float(c) for p in (poly.get("points") or "").split() for c in p.split(",")]
                except ValueError:
                    coords = [math.nan]
                if not coords or not all(math.isfinite(c) and abs(c) < 1e7 for c in coords):
                    errors.append(error(path, obj, "points", "must be pairs of finite numbers"))
