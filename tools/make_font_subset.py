"""Cut the Noto Sans CJK SC/TC fonts down to the characters Qiankun needs.

Source: NotoSansCJK-Regular.ttc from the Debian package fonts-noto-cjk.
Writes game/assets/fonts/NotoSansSC-Qiankun.otf, NotoSansTC-Qiankun.otf and OFL.txt.

Usage: python tools/make_font_subset.py [--source PATH] [--out-dir game/assets/fonts]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import NoReturn

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_PACKAGE = "fonts-noto-cjk"
DEFAULT_SOURCES = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    Path("/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc"),
)
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
# Output file name -> family name of the face inside the collection.
FACES = {
    "NotoSansSC-Qiankun.otf": "Noto Sans CJK SC",
    "NotoSansTC-Qiankun.otf": "Noto Sans CJK TC",
}
DROP_FEATURES = {"locl", "vert", "vrt2", "vkrn", "vpal", "valt", "vhal", "vchw"}
# Folders and file types scanned for characters used by the game.
TEXT_DIRS = ("game",)  # the maps, assets and catalogs are inside the package
TEXT_SUFFIXES = {".toml", ".tmx", ".po", ".pot", ".py", ".json", ".txt"}
# Copyright header of the upstream noto-cjk LICENSE file.
NOTO_COPYRIGHT = (
    "Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.\n"
    "Noto is a trademark of Google Inc."
)


def fail(message: str) -> NoReturn:
    """Print a one-line error and exit with status 2."""
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def span(first: int, last: int) -> set[str]:
    return {chr(c) for c in range(first, last + 1)}


def decode_dbcs(codec: str, first: int, last: int, trails: list[range]) -> set[str]:
    """Decode every two-byte code from `first` to `last` (inclusive), skipping invalid ones."""
    chars: set[str] = set()
    for lead in range(first >> 8, (last >> 8) + 1):
        for trail in (t for r in trails for t in r):
            code = lead << 8 | trail
            if not first <= code <= last:
                continue
            with contextlib.suppress(UnicodeDecodeError):
                chars.add(bytes((lead, trail)).decode(codec))
    return chars


def gb2312_level1() -> set[str]:
    return decode_dbcs("gb2312", 0xB0A1, 0xD7FE, [range(0xA1, 0xFF)])


def big5_level1() -> set[str]:
    return decode_dbcs("big5", 0xA440, 0xC67E, [range(0x40, 0x7F), range(0xA1, 0xFF)])


def game_text_chars(root: Path) -> set[str]:
    """Every non-ASCII character in the game's text files (code, data, maps, translations)."""
    chars: set[str] = set()
    for folder in TEXT_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in TEXT_SUFFIXES and path.is_file():
                text = path.read_text(encoding="utf-8", errors="ignore")
                chars.update(c for c in text if ord(c) >= 0xA0)
    return chars


def wanted_chars(root: Path) -> tuple[set[str], set[str]]:
    """All characters to keep, and the subset of them that the game's own files use."""
    chars = span(0x20, 0x7E) | span(0xA0, 0xFF)
    chars |= span(0x2010, 0x2027) | span(0x2030, 0x203A) | span(0x2190, 0x2193)
    chars |= set("▲▼◆●○■□★☆")
    chars |= span(0x3000, 0x303F) | span(0xFF01, 0xFF5E)
    game = game_text_chars(root)
    return chars | gb2312_level1() | big5_level1() | game, game


def find_source(explicit: Path | None) -> Path:
    candidates = [explicit] if explicit else list(DEFAULT_SOURCES)
    for path in candidates:
        if path.is_file():
            return path
    where = ", ".join(str(p) for p in candidates)
    fail(
        f"source font not found ({where}); install the Debian package {DEBIAN_PACKAGE} "
        f"(apt-get install {DEBIAN_PACKAGE}) or pass --source PATH"
    )


def face_index(source: Path, family: str) -> int:
    """Index of the face whose family name is `family` in a .ttc (0 for a plain font)."""
    if source.suffix.lower() not in {".ttc", ".otc"}:
        return 0
    collection = TTCollection(str(source), lazy=True)
    for i, font in enumerate(collection.fonts):
        name = font["name"]
        if family in (name.getDebugName(16), name.getDebugName(1)):
            return i
    fail(f"no face named {family!r} in {source}")


def subset_face(source: Path, family: str, chars: set[str], out: Path) -> set[str]:
    """Write the subset of one face; return the requested characters it lacks."""
    font = TTFont(str(source), fontNumber=face_index(source, family))
    cmap = font.getBestCmap()
    options = subset.Options()
    options.hinting = False
    options.desubroutinize = True  # measured: slightly smaller here
    options.notdef_outline = True
    options.name_IDs = ["*"]  # keep copyright, trademark and licence records
    options.name_languages = ["*"]
    # Each face's cmap already yields its own regional glyph shapes and the game only sets
    # text horizontally, so language (locl) and vertical variants would just double the size.
    options.layout_features = [f for f in options.layout_features if f not in DROP_FEATURES]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in chars))
    subsetter.subset(font)
    font.save(str(out))
    return {c for c in chars if ord(c) not in cmap}


def ofl_text() -> str:
    """The SIL OFL 1.1 text from the Debian copyright file, without DEP-5 indentation."""
    if not DEBIAN_COPYRIGHT.is_file():
        fail(f"{DEBIAN_COPYRIGHT} not found; install the Debian package {DEBIAN_PACKAGE}")
    for para in DEBIAN_COPYRIGHT.read_text(encoding="utf-8").split("\n\n"):
        head, _, body = para.partition("\n")
        if head.strip() == "License: SIL-1.1" and body:
            lines = [line[1:] for line in body.splitlines()]
            return "\n".join("" if line == "." else line for line in lines).strip("\n")
    fail(f"no SIL-1.1 licence text in {DEBIAN_COPYRIGHT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, help="NotoSansCJK-Regular.ttc (default: Debian path)")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "game" / "assets" / "fonts")
    args = parser.parse_args()

    source = find_source(args.source)
    licence = ofl_text()
    chars, game = wanted_chars(ROOT)
    out_dir: Path = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    print(f"source {source}: {len(chars)} characters requested ({len(game)} from game files)")
    for filename, family in FACES.items():
        out = out_dir / filename
        missing = subset_face(source, family, chars, out)
        print(
            f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) from {family!r}; "
            f"{len(missing)} requested characters are not in the source"
        )
        lost = "".join(sorted(missing & game))
        if lost:
            print(f"warning: {family} lacks characters used by the game: {lost}")
    (out_dir / "OFL.txt").write_text(
        f"{NOTO_COPYRIGHT}\n\nThis Font Software is licensed under the SIL Open Font License, "
        f"Version 1.1.\nThis license is copied below, and is also available with a FAQ at:\n"
        f"https://openfontlicense.org\n\n{licence}\n",
        encoding="utf-8",
    )
    print(f"wrote {out_dir / 'OFL.txt'}")


if __name__ == "__main__":
    main()
