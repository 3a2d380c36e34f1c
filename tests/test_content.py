"""Content loading: the TOML ruleset, Tiled maps and scenario files, good and broken.

Every broken input must produce ContentErrors naming the file, the object and the field.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game import __version__
from game.content.errors import ContentError, ContentErrors
from game.content.ruleset import load_ruleset, load_ruleset_from
from game.content.scenarios import load_scenario_file
from game.content.tmx import HexLayout, TmxMap, load_tmx
from game.core.hexgrid import Hex, offset_to_axial
from game.core.rules import Ruleset
from game.paths import DATA_DIR, TILES_DIR

# -- the ruleset ------------------------------------------------------------------------------


def test_shipped_ruleset_loads_and_is_consistent() -> None:
    rules = load_ruleset()
    assert rules.version.startswith(f"{__version__}+")
    assert {"yuqing", "hailing", "zhenguo", "jin", "tangut"} <= set(rules.factions)
    for needed in ("han_soldier", "warrior", "divine_blade", "decapitation_squad", "retainer", "soul_levy"):
        assert needed in rules.units
    for key, u in rules.units.items():
        assert u.id == key and u.faction in rules.factions
    for key, h in rules.heroes.items():
        assert h.id == key and h.faction in rules.factions
    classes = {u.move_class for u in rules.units.values()}
    for t in rules.terrain.values():
        assert set(t.move_cost) <= classes and all(c >= 1 for c in t.move_cost.values())


def test_shipped_ruleset_has_the_designed_shape() -> None:
    """The rules: mountains stop cavalry, roads speed everyone, elites outclass levies tenfold."""
    rules = load_ruleset()
    t = rules.terrain
    assert "horse" not in t["mountain"].move_cost and "foot" in t["mountain"].move_cost
    for cls in ("foot", "horse"):
        assert t["road"].move_cost[cls] < t["plain"].move_cost[cls]
        assert t["ford"].move_cost[cls] < t["river"].move_cost[cls]
    u = rules.units
    assert u["han_soldier"].melee >= 10 * u["soul_levy"].melee
    assert "skirmisher" in u["divine_blade"].abilities
    assert u["retainer"].capture_rate > 5 * u["han_soldier"].capture_rate


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    d = tmp_path / "data"
    shutil.copytree(DATA_DIR, d)
    return d


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def errors_of(data_dir: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_ruleset_from(data_dir)
    errs = exc.value.errors
    assert errs
    assert str(exc.value).count("\n") == len(errs) - 1  # one line per error
    return errs


def only(errs: list[ContentError]) -> ContentError:
    assert len(errs) == 1, errs
    return errs[0]


def test_a_copy_of_the_shipped_data_loads(data_copy: Path) -> None:
    rules = load_ruleset_from(data_copy)
    assert rules == load_ruleset()


def test_negative_melee_names_file_object_and_field(data_copy: Path) -> None:
    edit(data_copy / "units.toml", "melee = 10.0", "melee = -1")
    e = only(errors_of(data_copy))
    assert e.file.endswith("units.toml") and e.object == "han_soldier" and e.field == "melee"
    assert "greater than 0" in e.message
    assert str(e) == f"{e.file}: han_soldier: melee: {e.message}"


def test_unknown_faction_of_a_unit(data_copy: Path) -> None:
    edit(data_copy / "units.toml", 'faction = "hailing"', 'faction = "atlantis"')
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.field) == ("units.toml", "soul_levy", "faction")
    assert "atlantis" in e.message


def test_unknown_faction_of_a_hero(data_copy: Path) -> None:
    edit(data_copy / "heroes.toml", 'faction = "jin"', 'faction = "song"')
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.field) == ("heroes.toml", "wanyan_wuzhu", "faction")


def test_unknown_field(data_copy: Path) -> None:
    edit(data_copy / "units.toml", "movement = 12\n", "movement = 12\nspeed = 3\n")  # decapitation_squad
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.field, e.message) == (
        "units.toml",
        "decapitation_squad",
        "speed",
        "unknown field",
    )


def test_unknown_field_in_a_faction(data_copy: Path) -> None:
    edit(data_copy / "factions.toml", "trim = [30, 30, 30]", "trim = [30, 30, 30]\nmotto = 'iron'")
    errs = errors_of(data_copy)
    assert errs[0] == ContentError(errs[0].file, "jin", "motto", "unknown field")
    assert Path(errs[0].file).name == "factions.toml"


def test_bad_toml_syntax_names_the_file(data_copy: Path) -> None:
    edit(data_copy / "heroes.toml", "[han_xin]", "[han_xin")
    e = only(errors_of(data_copy))
    assert Path(e.file).name == "heroes.toml"
    assert e.message.startswith("not valid TOML")
    assert "line" in e.message


def test_bad_move_cost_names_the_movement_class(data_copy: Path) -> None:
    edit(data_copy / "terrain.toml", "move_cost = { foot = 2, horse = 3 }", "move_cost = { foot = 0, horse = 3 }")
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.field) == ("terrain.toml", "farmland", "move_cost.foot")


def test_move_cost_for_a_class_no_unit_has(data_copy: Path) -> None:
    edit(data_copy / "terrain.toml", "move_cost = { foot = 8, horse = 14 }", "move_cost = { foot = 8, boat = 1 }")
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.field) == ("terrain.toml", "river", "move_cost.boat")


def test_table_name_and_id_must_agree(data_copy: Path) -> None:
    edit(data_copy / "units.toml", "[retainer]\n", '[retainer]\nid = "guest"\n')
    e = only(errors_of(data_copy))
    assert (e.object, e.field) == ("retainer", "id")


def test_top_level_values_must_be_tables(data_copy: Path) -> None:
    p = data_copy / "factions.toml"
    p.write_text("stray = 3\n" + p.read_text(encoding="utf-8"), encoding="utf-8")
    e = only(errors_of(data_copy))
    assert (Path(e.file).name, e.object, e.message) == ("factions.toml", "stray", "expected a table")


def test_missing_file_and_non_utf8_file(data_copy: Path) -> None:
    (data_copy / "heroes.toml").unlink()
    (data_copy / "factions.toml").write_bytes(b"\xff\xfe[bad]\n")
    errs = errors_of(data_copy)
    by_file = {Path(e.file).name: e for e in errs}
    assert by_file["heroes.toml"].message == "file not found"
    assert "factions.toml" in by_file
    # With no factions at all, every unit's faction is unknown, and each says so.
    assert any(e.object == "han_soldier" and e.field == "faction" for e in errs)


def test_every_problem_is_reported_in_one_run(data_copy: Path) -> None:
    edit(data_copy / "units.toml", "movement = 14", "movement = 0")  # warrior (first with 14)
    edit(data_copy / "heroes.toml", "martial = 60", 'martial = "high"')  # han_xin
    edit(data_copy / "terrain.toml", "defence = 60", "defence = 900")  # fortress
    errs = errors_of(data_copy)
    found = {(Path(e.file).name, e.object, e.field) for e in errs}
    assert found == {
        ("units.toml", "warrior", "movement"),
        ("heroes.toml", "han_xin", "martial"),
        ("terrain.toml", "fortress", "defence"),
    }


def test_content_version_follows_the_data(data_copy: Path) -> None:
    before = load_ruleset_from(data_copy).version
    edit(data_copy / "units.toml", "melee = 10.0", "melee = 11.0")
    after = load_ruleset_from(data_copy).version
    assert before != after and after.startswith(f"{__version__}+")


# -- Tiled maps -------------------------------------------------------------------------------

TSX_NAME = "tiles.tsx"
EXTRA_TILES = ("lava",)  # a terrain the ruleset does not know


def write_tileset(folder: Path, rules: Ruleset) -> dict[str, int]:
    """A tileset with one tile per terrain (the id in a property) and some odd tiles.

    Returns the gid of each terrain with firstgid 1; "?" is a tile with no terrain at all.
    """
    names = [*rules.terrain, *EXTRA_TILES]
    tiles = [
        f'<tile id="{i}"><properties><property name="terrain" value="{n}"/></properties></tile>'
        for i, n in enumerate(names)
    ]
    tiles.append(f'<tile id="{len(names)}"/>')
    count = len(names) + 1
    (folder / TSX_NAME).write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<tileset version="1.10" name="t" tilewidth="56" tileheight="64" tilecount="{count}" columns="{count}">\n'
        f' <image source="nowhere.png" width="{56 * count}" height="64"/>\n ' + "\n ".join(tiles) + "\n</tileset>\n",
        encoding="utf-8",
    )
    gids = {n: i + 1 for i, n in enumerate(names)}
    gids["?"] = count
    return gids


@dataclass
class MapSpec:
    """A hexagonal map to write: rows of terrain ids (None = empty hex) and raw object XML."""

    rows: list[list[str | None]]
    objects: list[str] = field(default_factory=list)
    orientation: str = "hexagonal"
    staggeraxis: str = "y"
    staggerindex: str = "odd"
    layer_name: str = "terrain"
    layer_visible: bool = True
    tileset: str = TSX_NAME
    gids: dict[str, int] | None = None


def write_map(path: Path, spec: MapSpec, gids: dict[str, int]) -> Path:
    gids = spec.gids or gids
    h = len(spec.rows)
    w = len(spec.rows[0])
    csv = ",\n".join(",".join(str(gids[c]) if c else "0" for c in row) for row in spec.rows)
    objects = "\n".join(spec.objects)
    path.write_text(
        f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="{spec.orientation}" renderorder="right-down"
 width="{w}" height="{h}" tilewidth="56" tileheight="64" hexsidelength="32"
 staggeraxis="{spec.staggeraxis}" staggerindex="{spec.staggerindex}" infinite="0" nextlayerid="3" nextobjectid="99">
 <tileset firstgid="1" source="{spec.tileset}"/>
 <layer id="1" name="{spec.layer_name}" width="{w}" height="{h}"{"" if spec.layer_visible else ' visible="0"'}>
  <data encoding="csv">
{csv}
</data>
 </layer>
 <objectgroup id="2" name="objects">
{objects}
 </objectgroup>
</map>
""",
        encoding="utf-8",
    )
    return path


LAYOUT = HexLayout(56.0, 64.0, 32.0, True)


def formation_xml(
    oid: int,
    name: str,
    col: int,
    row: int,
    *,
    side: str | None = "a",
    unit: str | None = "han_soldier",
    men: int | str | None = 1000,
    hero: str | None = None,
    max_men: int | None = None,
    tag: str = "class",
    layout: HexLayout = LAYOUT,
) -> str:
    x, y = layout.centre(col, row)
    # Off the exact centre, as a hand-placed point would be.
    x, y = x + 7, y - 5
    props = []
    for key, value in (("side", side), ("unit", unit), ("hero", hero)):
        if value is not None:
            props.append(f'<property name="{key}" value="{value}"/>')
    if men is not None:
        kind = ' type="int"' if isinstance(men, int) else ""
        props.append(f'<property name="men"{kind} value="{men}"/>')
    if max_men is not None:
        props.append(f'<property name="max_men" type="int" value="{max_men}"/>')
    return (
        f'  <object id="{oid}" name="{name}" {tag}="formation" x="{x}" y="{y}">'
        f"<properties>{''.join(props)}</properties><point/></object>"
    )


def region_xml(oid: int, name: str, x: float, y: float, w: float, h: float, tag: str = "class") -> str:
    return f'  <object id="{oid}" name="{name}" {tag}="region" x="{x}" y="{y}" width="{w}" height="{h}"/>'


GOOD_ROWS: list[list[str | None]] = [
    ["plain", "plain", "forest", "hills", "plain", "plain"],
    ["road", "road", "road", "mountain", "plain", "plain"],
    ["plain", "village", "plain", "mountain", "river", "ford"],
    ["plain", "plain", "marsh", "plain", "plain", "plain"],
]


@pytest.fixture
def map_dir(tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def gids(map_dir: Path) -> dict[str, int]:
    return write_tileset(map_dir, load_ruleset())


def load(path: Path) -> tuple[TmxMap | None, list[ContentError]]:
    errors: list[ContentError] = []
    result = load_tmx(path, load_ruleset(), errors)
    return result, errors


@pytest.mark.parametrize("stagger", ["odd", "even"])
def test_good_map_loads(map_dir: Path, gids: dict[str, int], stagger: str) -> None:
    odd = stagger == "odd"
    layout = HexLayout(56.0, 64.0, 32.0, odd)
    spec = MapSpec(
        GOOD_ROWS,
        [
            formation_xml(1, "han", 1, 1, layout=layout),
            formation_xml(2, "levy", 4, 3, side="b", unit="soul_levy", men=500, tag="type", layout=layout),
        ],
        staggerindex=stagger,
    )
    tmx, errors = load(write_map(map_dir / "good.tmx", spec, gids))
    assert errors == []
    assert tmx is not None
    board = tmx.board
    assert (board.width, board.height, board.stagger_odd) == (6, 4, odd)
    assert tmx.layout == layout
    assert len(board.terrain) == 24
    for row, cells in enumerate(GOOD_ROWS):
        for col, tid in enumerate(cells):
            assert board.terrain_at(offset_to_axial(col, row, odd)).id == tid
    # Both the Tiled 1.9+ 'class' and the older 'type' attribute mark a formation.
    placed = {p.id: p for p in tmx.formations}
    assert set(placed) == {"han", "levy"}
    assert placed["han"].pos == offset_to_axial(1, 1, odd)
    assert placed["levy"].pos == offset_to_axial(4, 3, odd)
    assert placed["han"].fields == {"side": "a", "unit": "han_soldier", "men": 1000}


def test_region_rectangle_holds_the_hexes_whose_centres_lie_inside(map_dir: Path, gids: dict[str, int]) -> None:
    # Row 0 centres are at y=32, row 1 at y=80 (shifted right by half a hex), row 2 at y=128.
    spec = MapSpec(
        GOOD_ROWS,
        [
            region_xml(1, "corner", 0, 0, 120, 90),
            region_xml(2, "strip", 0, 120, 400, 16, tag="type"),
            region_xml(3, "corner", 300, 150, 40, 40),  # a second shape adds to the same region
        ],
    )
    tmx, errors = load(write_map(map_dir / "regions.tmx", spec, gids))
    assert errors == [] and tmx is not None
    regions = tmx.board.regions
    corner = {offset_to_axial(c, r) for c, r in [(0, 0), (1, 0), (0, 1), (1, 1)]}
    x, y = LAYOUT.centre(5, 3)
    assert 300 <= x <= 340 and 150 <= y <= 190
    assert regions["corner"] == frozenset(corner | {offset_to_axial(5, 3)})
    assert regions["strip"] == frozenset(offset_to_axial(c, 2) for c in range(6))
    # Brute force over every hex centre agrees.
    for name, (rx, ry, rw, rh) in {"strip": (0, 120, 400, 16)}.items():
        inside = set()
        for r in range(4):
            for c in range(6):
                cx, cy = LAYOUT.centre(c, r)
                if rx <= cx <= rx + rw and ry <= cy <= ry + rh:
                    inside.add(offset_to_axial(c, r))
        assert regions[name] == frozenset(inside)


def test_region_polygon(map_dir: Path, gids: dict[str, int]) -> None:
    # A triangle with its right angle at the top right of the map: hexes above the diagonal.
    poly = '  <object id="1" name="tri" class="region" x="0" y="0"><polygon points="0,0 340,0 340,200"/></object>'
    tmx, errors = load(write_map(map_dir / "poly.tmx", MapSpec(GOOD_ROWS, [poly]), gids))
    assert errors == [] and tmx is not None
    expected = set()
    for r in range(4):
        for c in range(6):
            cx, cy = LAYOUT.centre(c, r)
            if cx < 340 and cy < cx * 200 / 340:
                expected.add(offset_to_axial(c, r))
    assert tmx.board.regions["tri"] == frozenset(expected)
    assert offset_to_axial(5, 0) in expected and offset_to_axial(0, 3) not in expected


def only_tmx_error(path: Path) -> ContentError:
    tmx, errors = load(path)
    assert len(errors) == 1, errors
    assert errors[0].file.endswith(path.name)
    return errors[0]


def test_orthogonal_map_is_refused(map_dir: Path, gids: dict[str, int]) -> None:
    e = only_tmx_error(write_map(map_dir / "ortho.tmx", MapSpec(GOOD_ROWS, orientation="orthogonal"), gids))
    assert (e.object, e.field) == ("map", "orientation")
    assert "hexagonal" in e.message


def test_flat_top_map_is_refused(map_dir: Path, gids: dict[str, int]) -> None:
    e = only_tmx_error(write_map(map_dir / "flat.tmx", MapSpec(GOOD_ROWS, staggeraxis="x"), gids))
    assert (e.object, e.field) == ("map", "staggeraxis")


def test_missing_terrain_layer(map_dir: Path, gids: dict[str, int]) -> None:
    e = only_tmx_error(write_map(map_dir / "nolayer.tmx", MapSpec(GOOD_ROWS, layer_name="ground"), gids))
    assert e.object == "terrain" and "terrain" in e.message


def test_terrain_layer_hidden_in_the_editor_still_counts(map_dir: Path, gids: dict[str, int]) -> None:
    tmx, errors = load(write_map(map_dir / "hidden.tmx", MapSpec(GOOD_ROWS, layer_visible=False), gids))
    assert errors == [] and tmx is not None
    assert tmx.board.terrain_at(offset_to_axial(2, 0)).id == "forest"


def test_empty_hex(map_dir: Path, gids: dict[str, int]) -> None:
    rows = [list(r) for r in GOOD_ROWS]
    rows[2][4] = None
    e = only_tmx_error(write_map(map_dir / "hole.tmx", MapSpec(rows), gids))
    assert (e.object, e.field) == ("terrain@4,2", "tile")
    assert "empty" in e.message


def test_unknown_terrain_and_tile_without_terrain(map_dir: Path, gids: dict[str, int]) -> None:
    rows = [list(r) for r in GOOD_ROWS]
    rows[0][5] = "lava"
    rows[3][0] = "?"
    tmx, errors = load(write_map(map_dir / "lava.tmx", MapSpec(rows), gids))
    by_obj = {e.object: e for e in errors}
    assert set(by_obj) == {"terrain@5,0", "terrain@0,3"}
    assert by_obj["terrain@5,0"].field == "terrain" and "lava" in by_obj["terrain@5,0"].message
    assert by_obj["terrain@0,3"].field == "tile"


def test_malformed_xml(map_dir: Path, gids: dict[str, int]) -> None:
    path = write_map(map_dir / "broken.tmx", MapSpec(GOOD_ROWS), gids)
    path.write_text(path.read_text(encoding="utf-8")[:-40], encoding="utf-8")  # cut mid-tag
    tmx, errors = load(path)
    assert tmx is None
    assert len(errors) == 1 and errors[0].file.endswith("broken.tmx")
    assert "not valid TMX/XML" in errors[0].message


def test_missing_map_file(map_dir: Path) -> None:
    tmx, errors = load(map_dir / "nowhere.tmx")
    assert tmx is None and len(errors) == 1 and "not found" in errors[0].message


def test_formation_objects_need_unique_names(map_dir: Path, gids: dict[str, int]) -> None:
    spec = MapSpec(
        GOOD_ROWS,
        [
            formation_xml(1, "twin", 0, 0),
            formation_xml(2, "twin", 4, 0),
            formation_xml(3, "", 5, 0),
            region_xml(4, "nowhere", 1000, 1000, 10, 10),
        ],
    )
    tmx, errors = load(write_map(map_dir / "dupes.tmx", spec, gids))
    got = {(e.object, e.field) for e in errors}
    assert got == {("twin", "name"), ("object 3", "name"), ("nowhere", "shape")}


def test_shipped_tileset_maps_every_tile_to_a_known_terrain() -> None:
    rules = load_ruleset()
    root = ElementTree.parse(TILES_DIR / "terrain.tsx").getroot()
    terrains = [t.find("properties/property[@name='terrain']").get("value") for t in root.iter("tile")]  # type: ignore[union-attr]
    assert terrains and set(terrains) <= set(rules.terrain)


def test_map_using_the_shipped_tileset(map_dir: Path, gids: dict[str, int]) -> None:
    root = ElementTree.parse(TILES_DIR / "terrain.tsx").getroot()
    shipped = {
        t.find("properties/property[@name='terrain']").get("value"): int(t.get("id", "0")) + 1  # type: ignore[union-attr]
        for t in root.iter("tile")
    }
    spec = MapSpec(GOOD_ROWS, tileset=str((TILES_DIR / "terrain.tsx").resolve()), gids=shipped)  # type: ignore[arg-type]
    tmx, errors = load(write_map(map_dir / "shipped.tmx", spec, gids))
    assert errors == [] and tmx is not None
    assert tmx.board.terrain_at(offset_to_axial(3, 1)).id == "mountain"


# -- scenario files ---------------------------------------------------------------------------

SCENARIO_TOML = """\
id = "{id}"
title = "Test"
map = "{map}"
turn_limit = 5
turn_limit_outcome = "{outcome}"

[[sides]]
id = "a"
faction = "yuqing"
role = "player"
name = "Coalition"

[[sides]]
id = "b"
faction = "{b_faction}"
role = "enemy"
name = "Host"
{extra}"""


def write_scenario(
    folder: Path,
    gids: dict[str, int],
    objects: list[str],
    *,
    sid: str = "t1",
    map_name: str = "t1.tmx",
    outcome: str = "attrition",
    b_faction: str = "hailing",
    extra: str = "",
) -> Path:
    write_map(folder / "t1.tmx", MapSpec(GOOD_ROWS, objects), gids)
    toml = folder / f"{sid}.toml"
    toml.write_text(
        SCENARIO_TOML.format(id=sid, map=map_name, outcome=outcome, b_faction=b_faction, extra=extra),
        encoding="utf-8",
    )
    return toml


GOOD_FORMATIONS = [
    formation_xml(1, "han", 1, 1, hero="han_xin", max_men=1200),
    formation_xml(2, "horse", 4, 0, unit="warrior", men=300, tag="type"),
    formation_xml(3, "levy", 4, 3, side="b", unit="soul_levy", men=5000),
]


def scenario_errors(path: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(path, load_ruleset())
    return exc.value.errors


def test_good_scenario_file(map_dir: Path, gids: dict[str, int]) -> None:
    loaded = load_scenario_file(write_scenario(map_dir, gids, GOOD_FORMATIONS), load_ruleset())
    sc = loaded.scenario
    assert sc.id == "t1" and sc.turn_limit == 5 and sc.side_ids() == ["a", "b"]
    assert sc.default_player_side() == "a"
    specs = {f.id: f for f in sc.formations}
    assert specs["han"].hero == "han_xin" and specs["han"].max_men == 1200 and specs["han"].men == 1000
    assert specs["horse"].type == "warrior" and specs["horse"].pos == offset_to_axial(4, 0)
    assert specs["levy"].side == "b"
    assert loaded.content_version.startswith(load_ruleset().version + "/")
    assert loaded.map_path.name == "t1.tmx" and sc.map_file == "t1.tmx"


@pytest.mark.parametrize(
    "bad, field, words",
    [
        (formation_xml(9, "bad", 0, 3, unit="dragon"), "unit", "dragon"),
        (formation_xml(9, "bad", 0, 3, unit=None), "unit", ""),
        (formation_xml(9, "bad", 0, 3, side="c"), "side", "'c'"),
        (formation_xml(9, "bad", 0, 3, hero="sun_wukong"), "hero", "sun_wukong"),
        (formation_xml(9, "bad", 3, 2, unit="warrior"), "position", "mountain"),  # horse on a mountain
        (formation_xml(9, "bad", 1, 1), "position", "same hex as han"),
        (formation_xml(9, "bad", 0, 3, men=None), "men", ""),
        (formation_xml(9, "bad", 0, 3, men=0), "men", ""),
        (formation_xml(9, "bad", 0, 3, men="many"), "men", ""),
        (formation_xml(9, "bad", 0, 3, men=500, max_men=100), "max_men", ""),
        (formation_xml(9, "bad", 9, 9), "position", "outside"),
    ],
)
def test_broken_formations(map_dir: Path, gids: dict[str, int], bad: str, field: str, words: str) -> None:
    errs = scenario_errors(write_scenario(map_dir, gids, [*GOOD_FORMATIONS, bad]))
    e = only(errs)
    assert (Path(e.file).name, e.object, e.field) == ("t1.tmx", "bad", field)
    assert words in e.message


def test_every_broken_formation_is_reported(map_dir: Path, gids: dict[str, int]) -> None:
    bad = [
        formation_xml(7, "x1", 0, 3, unit="dragon"),
        formation_xml(8, "x2", 2, 3, side="nobody"),
        formation_xml(9, "x3", 3, 1, unit="soul_rider", side="b"),
    ]
    errs = scenario_errors(write_scenario(map_dir, gids, [*GOOD_FORMATIONS, *bad]))
    assert {(e.object, e.field) for e in errs} == {("x1", "unit"), ("x2", "side"), ("x3", "position")}


def test_scenario_level_errors(map_dir: Path, gids: dict[str, int]) -> None:
    errs = scenario_errors(
        write_scenario(map_dir, gids, GOOD_FORMATIONS, sid="t2", b_faction="atlantis", outcome="victory")
    )
    found = {(Path(e.file).name, e.object, e.field) for e in errs}
    assert found == {("t2.toml", "t2", "sides.1.faction"), ("t2.toml", "t2", "turn_limit_outcome")}


def test_scenario_id_must_match_file_name(map_dir: Path, gids: dict[str, int]) -> None:
    path = write_scenario(map_dir, gids, GOOD_FORMATIONS)
    path.write_text(path.read_text(encoding="utf-8").replace('id = "t1"', 'id = "other"', 1), encoding="utf-8")
    e = only(scenario_errors(path))
    assert (e.object, e.field) == ("other", "id")


def test_side_without_formations(map_dir: Path, gids: dict[str, int]) -> None:
    errs = scenario_errors(write_scenario(map_dir, gids, GOOD_FORMATIONS[:2]))
    e = only(errs)
    assert (Path(e.file).name, e.object, e.field) == ("t1.tmx", "b", "formations")


def test_map_must_sit_beside_the_scenario(map_dir: Path, gids: dict[str, int]) -> None:
    sub = map_dir / "maps"
    sub.mkdir()
    write_tileset(sub, load_ruleset())
    path = write_scenario(sub, gids, GOOD_FORMATIONS, map_name="../t1.tmx")
    write_map(map_dir / "t1.tmx", MapSpec(GOOD_ROWS, GOOD_FORMATIONS), gids)
    e = only(scenario_errors(path))
    assert (e.object, e.field) == ("t1", "map")


def test_unknown_scenario_field_and_bad_turn_limit(map_dir: Path, gids: dict[str, int]) -> None:
    path = write_scenario(map_dir, gids, GOOD_FORMATIONS, extra="\n")
    text = path.read_text(encoding="utf-8").replace("turn_limit = 5", "turn_limit = 0\nweather = 'rain'")
    path.write_text(text, encoding="utf-8")
    errs = scenario_errors(path)
    assert {(Path(e.file).name, e.object, e.field) for e in errs} == {
        ("t1.toml", "t1", "turn_limit"),
        ("t1.toml", "t1", "weather"),
    }


def test_scenario_with_a_broken_map(map_dir: Path, gids: dict[str, int]) -> None:
    path = write_scenario(map_dir, gids, GOOD_FORMATIONS)
    write_map(map_dir / "t1.tmx", MapSpec(GOOD_ROWS, GOOD_FORMATIONS, orientation="isometric"), gids)
    e = only(scenario_errors(path))
    assert (Path(e.file).name, e.object, e.field) == ("t1.tmx", "map", "orientation")


def test_hexes_cover_the_whole_map(map_dir: Path, gids: dict[str, int]) -> None:
    tmx, _ = load(write_map(map_dir / "g.tmx", MapSpec(GOOD_ROWS), gids))
    assert tmx is not None
    assert Hex(0, 0) in tmx.board and offset_to_axial(5, 3) in tmx.board
    assert offset_to_axial(6, 3) not in tmx.board and offset_to_axial(0, 4) not in tmx.board


def test_ai_hints_name_regions_sides_and_formations_that_exist(map_dir: Path, gids: dict[str, int]) -> None:
    extra = """
[ai]
palace_region = "nowhere"
refuge_region = "atlantis"
pass_region = "thermopylae"
rear_guard = ["han", "ghost"]
feint = ["phantom"]
palance_alarm = 3

[[ai.hold]]
side = "c"
region = "ridge"
units = ["han", "wraith"]
until = "never_declared"
"""
    errs = scenario_errors(write_scenario(map_dir, gids, GOOD_FORMATIONS, extra=extra))
    found = {(Path(e.file).name, e.object, e.field) for e in errs}
    # The misspelt key is refused first; without it, every name is checked.
    assert found == {("t1.toml", "t1", "ai.palance_alarm")}
    errs = scenario_errors(
        write_scenario(map_dir, gids, GOOD_FORMATIONS, extra=extra.replace("palance_alarm = 3\n", ""))
    )
    by_field = {e.field: e.message for e in errs}
    assert set(by_field) == {
        "ai.palace_region",
        "ai.refuge_region",
        "ai.pass_region",
        "ai.rear_guard",
        "ai.feint",
        "ai.hold.0.side",
        "ai.hold.0.region",
        "ai.hold.0.units",
        "ai.hold.0.until",
    }
    assert "nowhere" in by_field["ai.palace_region"] and "ghost" in by_field["ai.rear_guard"]
    assert "never_declared" in by_field["ai.hold.0.until"]
    assert "wraith" in by_field["ai.hold.0.units"] and all(Path(e.file).name == "t1.toml" for e in errs)


def test_a_forced_march_hint_must_be_a_march_order(map_dir: Path, gids: dict[str, int]) -> None:
    extra = """
[[ai.hold]]
side = "a"
region = "ridge"
forced = true
"""
    e = only(scenario_errors(write_scenario(map_dir, gids, GOOD_FORMATIONS, extra=extra)))
    assert (Path(e.file).name, e.object, e.field) == ("t1.toml", "t1", "ai.hold.0")
    assert "march = true" in e.message
    fine = extra.replace("forced = true", "forced = true\nmarch = true")
    errs = scenario_errors(write_scenario(map_dir, gids, GOOD_FORMATIONS, extra=fine))
    assert "ai.hold.0" not in {e.field for e in errs}  # only the (unknown) region is left to refuse
