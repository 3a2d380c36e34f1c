"""tools/mirror_map.py: the east-west mirror of a staggered hex map keeps every hex's neighbours,
every formation's hex and every region's hexes, and mirroring twice gives the map back."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from game.content.errors import ContentError
from game.content.ruleset import load_ruleset
from game.content.tmx import TmxMap, load_tmx
from game.core.hexgrid import Hex, neighbours
from game.paths import MAPS_DIR, TILES_DIR

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from mirror_map import mirror_text  # noqa: E402

MAPS = sorted(MAPS_DIR.glob("*.tmx"))


def _load(text: str, folder: Path, name: str) -> TmxMap:
    # The map names its tileset relative to maps/: point it at the real one from anywhere.
    text = text.replace('source="../assets/tiles/terrain.tsx"', f'source="{TILES_DIR / "terrain.tsx"}"')
    path = folder / name
    path.write_text(text, encoding="utf-8")
    errors: list[ContentError] = []
    tmx = load_tmx(path, load_ruleset(), errors)
    assert errors == [] and tmx is not None
    return tmx


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_the_mirror_keeps_hexes_neighbours_regions_and_formations(path: Path, tmp_path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    before = _load(text, tmp_path, "before.tmx")
    after = _load(mirror_text(text), tmp_path, "after.tmx")
    b, a = before.board, after.board
    assert (a.width, a.height) == (b.width, b.height) and a.stagger_odd != b.stagger_odd

    def image(h: Hex) -> Hex:
        col, row = b.offset(h)
        return a.at_offset(b.width - 1 - col, row)

    assert {image(h) for h in b.hexes()} == set(a.hexes())
    for h in b.hexes():
        assert a.terrain_at(image(h)) == b.terrain_at(h)
        # Hexes next to each other stay next to each other, and no others become so.
        assert {image(n) for n in neighbours(h) if n in b} == {n for n in neighbours(image(h)) if n in a}
    assert {k: {image(h) for h in v} for k, v in b.regions.items()} == dict(a.regions)
    assert a.labels == b.labels
    assert {f.id: image(f.pos) for f in before.formations} == {f.id: f.pos for f in after.formations}
    # East and west trade places: a hex west of another is east of it in the mirror.
    west, east = b.at_offset(0, 0), b.at_offset(b.width - 1, 0)
    assert a.terrain_at(a.at_offset(b.width - 1, 0)) == b.terrain_at(west)
    assert a.terrain_at(a.at_offset(0, 0)) == b.terrain_at(east)


def test_mirroring_twice_gives_the_same_file_and_names_can_change() -> None:
    text = (MAPS_DIR / "a1_valley_mouth.tmx").read_text(encoding="utf-8")
    assert mirror_text(mirror_text(text)) == text
    renamed = mirror_text(text, {"valley": "gorge"}, {"Inner Valley": "Gorge"})
    assert 'name="gorge"' in renamed and 'value="Gorge"' in renamed and 'name="valley"' not in renamed
