"""A scenario's content packed small enough to travel inside a save: its scenario file, its
Tiled map and the tilesets the map names, and the game's unit, terrain, hero, faction and skill
data. A save that carries it still loads, plays and replays exactly after the game's own maps
or data have changed: the battle goes on in the world it began in.

``pack(loaded)`` gives the bundle as text (zlib-compressed JSON in base64); ``unpack(bundle)``
loads it again as a ``LoadedScenario`` (its ``rules`` the bundle's own). A bundle is untrusted
input: its paths stay inside a temporary folder, its size is bounded, and whatever is wrong is a
``BundleError`` of one line.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import posixpath
import tempfile
import unicodedata
import xml.etree.ElementTree as ET
import zlib
from functools import lru_cache
from pathlib import Path

from .errors import ContentErrors
from .ruleset import RULESET_FILES, load_ruleset_from
from .scenarios import LoadedScenario, load_scenario_file

BUNDLE_FORMAT = 1
# Far above any real bundle (the shipped ones unpack to under 100 KB); a bound on what a
# hostile save can make the game write to disk.
MAX_UNPACKED_BYTES = 4 * 1024 * 1024
DATA_FOLDER = "data"
MAPS_FOLDER = "maps"
# Longer than any path the game packs; the file system's own limit is not a bundle's business.
MAX_PATH_CHARS = 200


class BundleError(ValueError):
    """A bundle that cannot be read back; the message says why in one line."""


def pack(loaded: LoadedScenario) -> str | None:
    """The scenario's content as a bundle, or None when it cannot be carried: a file it needs
    lies outside the folders a bundle can hold (a tileset elsewhere on the disk), or it was not
    read from files at all."""
    data_dir = loaded.rules_dir
    if data_dir is None:
        return None
    files: dict[str, str] = {}
    try:
        for name in RULESET_FILES:
            files[f"{DATA_FOLDER}/{name}"] = (data_dir / name).read_text(encoding="utf-8")
        files[f"{MAPS_FOLDER}/{loaded.toml_path.name}"] = loaded.toml_path.read_text(encoding="utf-8")
        map_text = loaded.map_path.read_text(encoding="utf-8")
        files[f"{MAPS_FOLDER}/{loaded.map_path.name}"] = map_text
        for source in _tileset_sources(map_text):
            inside = _inside(posixpath.join(MAPS_FOLDER, source))
            if inside is None:
                return None
            files[inside] = (loaded.map_path.parent / source).read_text(encoding="utf-8")
    except OSError:
        return None  # a scenario made in memory (tests, benchmarks) has no files to carry
    raw = json.dumps({"format": BUNDLE_FORMAT, "files": files}, sort_keys=True).encode("utf-8")
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def unpack(bundle: str) -> LoadedScenario:
    """The scenario a bundle holds, loaded with the bundle's own data (kept per bundle, so a
    save loaded twice unpacks once). BundleError says why a bundle cannot be read."""
    return _unpack(hashlib.sha256(bundle.encode("utf-8")).hexdigest(), bundle)


@lru_cache(maxsize=8)
def _unpack(_digest: str, bundle: str) -> LoadedScenario:
    files = _files(bundle)
    maps = [p for p in files if p.startswith(f"{MAPS_FOLDER}/") and p.endswith(".toml")]
    if len(maps) != 1:
        raise BundleError(f"it holds {len(maps)} scenario files, not one")
    try:
        with tempfile.TemporaryDirectory(prefix="qiankun-bundle-") as folder:
            root = Path(folder)
            for path, text in files.items():
                target = root / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            try:
                rules = load_ruleset_from(root / DATA_FOLDER)
                return load_scenario_file(root / maps[0], rules)
            except ContentErrors as exc:
                # Named as the bundle names it, not by the temporary folder it was unpacked in.
                where = str(exc.errors[0]).replace(f"{root}{os.sep}", "")
                raise BundleError(f"its content does not load: {where}") from None
    except BundleError:
        raise
    except OSError as exc:  # a full or read-only temporary folder, a file over a folder
        raise BundleError(f"it cannot be unpacked: {exc.strerror or exc}") from None
    except (ValueError, UnicodeError) as exc:  # whatever ``_files`` did not foresee stays one line
        raise BundleError(f"it cannot be unpacked: {_first_line(exc)}") from None


def _files(bundle: str) -> dict[str, str]:
    """The bundle's files by path, every path checked to stay inside the bundle."""
    try:
        packed = base64.b64decode(bundle.encode("ascii"), validate=True)
        unzip = zlib.decompressobj()
        raw = unzip.decompress(packed, MAX_UNPACKED_BYTES)
        if unzip.unconsumed_tail:
            raise BundleError(f"it unpacks to more than {MAX_UNPACKED_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
    except BundleError:
        raise
    except (binascii.Error, UnicodeError, zlib.error, ValueError, RecursionError):
        raise BundleError("it is not a content bundle") from None
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT or not isinstance(data.get("files"), dict):
        raise BundleError("it is not a content bundle of a format this game reads")
    files: dict[str, str] = {}
    for path, text in data["files"].items():
        inside = _inside(path) if isinstance(path, str) else None
        if inside is None or not isinstance(text, str):
            raise BundleError(f"it names a file outside itself: {str(path)[:60]!r}")
        if not _writable(inside) or len(inside) > MAX_PATH_CHARS:
            raise BundleError(f"it names a file no folder can hold: {inside[:60]!r}")
        if not _writable(text, controls=False):
            raise BundleError(f"its file {inside[:60]!r} is not text")
        files[inside] = text
    return files


def _writable(text: str, controls: bool = True) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogate) and, with ``controls``,
    holds no control character (a NUL ends a file name, a newline splits a message)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not controls or not any(unicodedata.category(c) == "Cc" for c in text)


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:120]


def _inside(path: str) -> str | None:
    """``path`` normalised, or None if it would leave the bundle's folder."""
    norm = posixpath.normpath(path)
    if norm.startswith(("/", "..")) or "\\" in norm or ":" in norm or norm in (".", ""):
        return None
    return norm


def _tileset_sources(map_text: str) -> list[str]:
    """The external tilesets a Tiled map names (``<tileset source="...">``)."""
    try:
        root = ET.fromstring(map_text)
    except ET.ParseError:
        return []
    return sorted({t.get("source", "") for t in root.iter("tileset") if t.get("source")})


def same_content(saved: str, current: str) -> bool:
    """Whether two content versions (``<game>+<data digest>/<scenario digest>``) name the same
    maps and data, whichever version of the game computed them."""

    def maps_and_data(version: str) -> str:
        _game, plus, rest = version.partition("+")
        return rest if plus else version

    return maps_and_data(saved) == maps_and_data(current)
