"""A corpus of hostile input, walked case by case: edited maps, doctored saves, arguments out
of bounds, folders that cannot be written. Each is refused in one line that names the problem
(exit 2 for a command, exit 1 and ``file: object: field: message`` for ``validate``), never by
the catch-all internal error, and no file is modified."""

from __future__ import annotations

import base64
import contextlib
import copy
import errno
import fcntl
import io
import json
import os
import re
import shutil
import statistics
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import IO, Any, TypeVar, cast

import pytest
from conftest import run_cli

from game.cli import inputs as cli_inputs
from game.cli import main
from game.cli import parser as cli_parser
from game.cli import simulate as cli_simulate
from game.cli.simulate import SimJob
from game.content.scenarios import LoadedScenario, load_scenario_file
from game.core.state import GameState, state_hash
from game.paths import MAPS_DIR, TILES_DIR
from game.record.errors import SaveError
from game.record.match import match_from_record
from game.record.model import MAX_SEED, GameRecord
from game.record.saves import load_record, write_atomic
from game.record.state_digest import LegacyCheckpoints, checkpoint_hash
from game.record.verify import replay_engine, verify
from game.simulate import AI_SAMPLES, Tally, percentile

T = TypeVar("T")
# A save as JSON, as the tests edit it.
Json = dict[str, Any]

SCENARIO = "a1_valley_mouth"
ERROR_LINE = re.compile(r"^(?P<file>[^:]+): (?P<object>[^:]+): (?P<field>[^:]+): (?P<message>.+)$")
FORMATION = '<object id="5" name="han_xin_5000" class="formation" x="1820" y="656">'


pytestmark = pytest.mark.usefixtures("keep_language")


def files_in(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_refused(code: int, out: str, err: str, says: str) -> None:
    """One line on stderr naming the problem, exit 2, nothing on stdout."""
    assert (code, out) == (2, ""), (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "internal error" not in err and says in err, err


# -- maps -------------------------------------------------------------------------------------


def _tmx() -> str:
    text = (MAPS_DIR / f"{SCENARIO}.tmx").read_text(encoding="utf-8")
    return text.replace('source="../assets/tiles/terrain.tsx"', f'source="{(TILES_DIR / "terrain.tsx").as_posix()}"')


def _terrain_values(text: str) -> list[str]:
    data = re.search(r'<data encoding="csv">(.*?)</data>', text, re.S)
    assert data
    return data.group(1).replace("\n", "").split(",")


def _with_data(text: str, data: str) -> str:
    return re.sub(r'<data encoding="csv">.*?</data>', lambda _m: data, text, count=1, flags=re.S)


def _embedded_tileset(old: str, new: str) -> str:
    """The map's tileset written into the map (as older maps have it), ``old`` replaced by ``new``."""
    tsx = (TILES_DIR / "terrain.tsx").read_text(encoding="utf-8").split("\n", 1)[1]
    tsx = re.sub(r'<tileset version="[^"]*" tiledversion="[^"]*" ', '<tileset firstgid="1" ', tsx)
    tsx = tsx.replace('source="terrain.png"', f'source="{(TILES_DIR / "terrain.png").as_posix()}"')
    assert old in tsx
    return tsx.replace(old, new, 1)


def _embed(old: str, new: str) -> Callable[[str], str]:
    return lambda t: re.sub(r'<tileset firstgid="1" source="[^"]+"/>', lambda _m: _embedded_tileset(old, new), t)


# name: (edit of the map's text, the field the one error names, a part of its message)
MAP_CASES: dict[str, tuple[Callable[[str], str], str, str]] = {
    "tile_width_zero": (lambda t: t.replace('tilewidth="56"', 'tilewidth="0"', 1), "tilewidth", "from 1 to"),
    "tile_height_negative": (lambda t: t.replace('tileheight="64"', 'tileheight="-64"', 1), "tileheight", "-64"),
    "tile_size_not_a_number": (lambda t: t.replace('tilewidth="56"', 'tilewidth="wide"', 1), "tilewidth", "wide"),
    "huge_declared_size": (lambda t: t.replace('width="36" height', 'width="100000" height', 1), "width", "256"),
    "map_wider_than_its_layer": (lambda t: t.replace('width="36" height', 'width="35" height', 1), "width", "35"),
    "stagger_index_unknown": (
        lambda t: re.sub(r'staggerindex="(odd|even)"', 'staggerindex="middle"', t),
        "staggerindex",
        "'odd' or 'even'",
    ),
    "stagger_index_missing": (
        lambda t: re.sub(r' staggerindex="(odd|even)"', "", t),
        "staggerindex",
        "'odd' or 'even'",
    ),
    "stagger_axis_x": (lambda t: t.replace('staggeraxis="y"', 'staggeraxis="x"'), "staggeraxis", "'y'"),
    "side_length_missing": (lambda t: t.replace(' hexsidelength="32"', ""), "hexsidelength", "missing"),
    "side_length_too_long": (lambda t: t.replace('hexsidelength="32"', 'hexsidelength="99"'), "hexsidelength", "99"),
    "orthogonal": (lambda t: t.replace('orientation="hexagonal"', 'orientation="orthogonal"'), "orientation", "hex"),
    "only_infinite_set": (lambda t: t.replace('infinite="0"', 'infinite="1"'), "infinite", "not supported"),
    "infinite_chunks": (
        lambda t: _with_data(
            t.replace('infinite="0"', 'infinite="1"'),
            '<data encoding="csv"><chunk x="0" y="0" width="16" height="16">1</chunk></data>',
        ),
        "infinite",
        "not supported",
    ),
    "more_values_than_the_map": (lambda t: t.replace("</data>", ",5,5,5</data>", 1), "data", "939 tiles"),
    "short_layer": (
        lambda t: _with_data(t, '<data encoding="csv">' + ",".join(_terrain_values(t)[:900]) + "</data>"),
        "data",
        "900 tiles",
    ),
    "layer_values_not_numbers": (lambda t: t.replace("</data>", ",grass</data>", 1), "data", "cannot be decoded"),
    "tiled_1_0_xml_tiles": (
        lambda t: _with_data(t, "<data>" + "".join(f'<tile gid="{v}"/>' for v in _terrain_values(t)) + "</data>"),
        "data",
        "old Tiled format",
    ),
    "zstd_layer": (
        lambda t: _with_data(t, '<data encoding="base64" compression="zstd">AAAA</data>'),
        "data",
        "base64 zstd",
    ),
    "external_tileset_of_unknown_type": (lambda t: t.replace("terrain.tsx", "terrain.tsj"), "source", "not a .tsx"),
    "tileset_image_without_size": (_embed(' width="896" height="64"', ""), "width", "missing"),
    "tileset_tile_id_not_a_number": (_embed('<tile id="0"', '<tile id="zero"'), "id", "'zero'"),
    "embedded_tileset_fine_but_a_tile_unknown": (_embed('value="plain"', 'value="lava"'), "terrain", "'lava'"),
    "external_tileset_missing": (lambda t: t.replace("terrain.tsx", "nowhere.tsx"), "source", "not found"),
    "formation_at_nan": (lambda t: t.replace(FORMATION, FORMATION.replace('x="1820"', 'x="nan"')), "x", "nan"),
    "formation_at_inf": (lambda t: t.replace(FORMATION, FORMATION.replace('y="656"', 'y="-inf"')), "y", "inf"),
    "region_polygon_nan": (
        lambda t: t.replace(
            '<object id="21" name="muster" class="region" x="1806" y="536" width="224" height="240"/>',
            '<object id="21" name="muster" class="region" x="1806" y="536"><polygon points="0,0 nan,5 9,9"/></object>',
        ),
        "points",
        "finite",
    ),
    "men_without_bound": (
        lambda t: t.replace('name="men" type="int" value="5000"', f'name="men" type="int" value="{"9" * 100}"', 1),
        "men",
        "10,000,000",
    ),
    "men_not_a_number": (lambda t: t.replace('type="int" value="5000"', 'type="int" value="lots"', 1), "men", "'lots'"),
    "hidden_neither_true_nor_false": (
        lambda t: t.replace(
            'type="int" value="5000"/>',
            'type="int" value="5000"/><property name="hidden" type="bool" value="maybe"/>',
            1,
        ),
        "hidden",
        "true or false",
    ),
    "class_property": (
        lambda t: t.replace(
            '<property name="label" value="Inner Valley"/>',
            '<property name="label" type="class" propertytype="Place"><properties/></property>',
        ),
        "label",
        "class properties",
    ),
    "not_xml": (lambda t: t[: len(t) // 2], "-", "not valid TMX/XML"),
    "not_a_map": (lambda t: "<tileset/>", "-", "not a Tiled map"),
}


@pytest.fixture
def map_copy(tmp_path: Path) -> Path:
    """The first scenario and its map in a folder of their own."""
    folder = tmp_path / "maps"
    folder.mkdir()
    shutil.copyfile(MAPS_DIR / f"{SCENARIO}.toml", folder / f"{SCENARIO}.toml")
    (folder / f"{SCENARIO}.tmx").write_text(_tmx(), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", sorted(MAP_CASES))
def test_a_broken_map_is_named_in_one_line(capsys: pytest.CaptureFixture[str], map_copy: Path, name: str) -> None:
    edit, field, says = MAP_CASES[name]
    tmx = map_copy / f"{SCENARIO}.tmx"
    tmx.write_text(edit(tmx.read_text(encoding="utf-8")), encoding="utf-8")
    before = files_in(map_copy)
    for target in (map_copy, tmx, map_copy / f"{SCENARIO}.toml"):
        code, out, err = run_cli(capsys, "validate", str(target))
        assert (code, err) == (1, ""), (code, err)  # nothing from pytmx's own logging either
        lines = out.splitlines()
        assert len(lines) == 1, out
        found = ERROR_LINE.match(lines[0])
        assert found and found["file"].endswith(".tmx"), out
        assert found["field"] == field and says in found["message"], out
    assert files_in(map_copy) == before


def test_the_shipped_map_passes_the_checks(capsys: pytest.CaptureFixture[str], map_copy: Path) -> None:
    """The corpus above edits a map that is itself correct."""
    assert run_cli(capsys, "validate", str(map_copy)) == (0, "ok 2 files\n", "")


def test_a_broken_map_is_refused_alike_by_every_command(
    capsys: pytest.CaptureFixture[str], map_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmx = map_copy / f"{SCENARIO}.tmx"
    tmx.write_text(tmx.read_text(encoding="utf-8").replace('tilewidth="56"', 'tilewidth="0"', 1), encoding="utf-8")

    def broken(sid: str) -> LoadedScenario:
        return load_scenario_file(map_copy / f"{sid}.toml")

    monkeypatch.setattr(cli_inputs, "load_scenario", broken)
    monkeypatch.setattr(cli_simulate, "load_scenario", broken)
    refusals = set()
    for argv in (
        ["simulate", SCENARIO, "--max-turns", "1"],
        ["screenshot", SCENARIO, "--out", str(tmp_path / "shot.png")],
        ["play", SCENARIO],
    ):
        code, out, err = run_cli(capsys, *argv)
        assert_refused(code, out, err, "tilewidth")
        refusals.add(err)
    assert len(refusals) == 1
    assert not (tmp_path / "shot.png").exists()


def test_reinforcements_are_bounded_like_the_men_on_the_map(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sid = "a2_rear_guard_trap"
    toml = (MAPS_DIR / f"{sid}.toml").read_text(encoding="utf-8")
    assert 'men = 10000, hero = "wanyan_liang"' in toml
    (tmp_path / f"{sid}.toml").write_text(toml.replace("men = 10000,", f"men = {10**18},", 1), encoding="utf-8")
    tmx = (MAPS_DIR / f"{sid}.tmx").read_text(encoding="utf-8")
    (tmp_path / f"{sid}.tmx").write_text(tmx.replace("../assets/tiles/", f"{TILES_DIR.as_posix()}/"), encoding="utf-8")
    code, out, err = run_cli(capsys, "validate", str(tmp_path))
    assert (code, err) == (1, "") and len(out.splitlines()) == 1, out
    assert out.rstrip().endswith("do[0].formations[0].men: must be at most 10,000,000")


def test_a_folder_without_a_scenario_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run_cli(capsys, "validate", str(empty))
    assert (code, err) == (1, "") and ERROR_LINE.match(out.strip()) and "nothing to validate" in out
    maps_only = tmp_path / "maps_only"
    maps_only.mkdir()
    (maps_only / "field.tmx").write_text(_tmx(), encoding="utf-8")
    code, out, err = run_cli(capsys, "validate", str(maps_only))
    assert (code, err) == (1, "") and "1 map (.tmx) but no scenario" in out and len(out.splitlines()) == 1
    # A broken map no scenario uses is still checked.
    broken = re.sub(r'staggerindex="(odd|even)"', 'staggerindex="x"', _tmx())
    (maps_only / "field.tmx").write_text(broken, encoding="utf-8")
    code, out, _err = run_cli(capsys, "validate", str(maps_only))
    assert code == 1 and "staggerindex" in out


# -- arguments ----------------------------------------------------------------------------------


ARGUMENT_CASES = {
    "seed_above_the_bound": (["simulate", SCENARIO, "--seed", str(MAX_SEED + 1)], str(MAX_SEED)),
    "play_seed_above_the_bound": (["play", SCENARIO, "--seed", "1" + "0" * 30], str(MAX_SEED)),
    "last_seed_crosses_the_bound": (["simulate", SCENARIO, "--seed", str(MAX_SEED), "--games", "2"], "largest seed"),
    "games_beyond_the_bound": (["simulate", SCENARIO, "--games", "100000000"], "1000000"),
    "jobs_beyond_the_bound": (["simulate", SCENARIO, "--jobs", "100000"], "64"),
    "turns_beyond_the_bound": (["simulate", SCENARIO, "--max-turns", "10000"], "500"),
    "turn_beyond_the_bound": (["screenshot", SCENARIO, "--out", "{tmp}/a.png", "--turn", "99999"], "501"),
    "seed_not_a_number": (["simulate", SCENARIO, "--seed", "nan"], "whole number"),
    "save_dir_under_a_file": (["simulate", SCENARIO, "--save-dir", "{tmp}/file.txt/sub"], "--save-dir"),
    "save_dir_a_file": (["simulate", SCENARIO, "--save-dir", "{tmp}/file.txt"], "--save-dir"),
    "out_a_folder": (["screenshot", SCENARIO, "--out", "{tmp}/folder.png"], "it is a folder"),
    "out_under_proc": (["screenshot", SCENARIO, "--out", "/proc/qiankun/x.png"], "/proc"),
    "out_name_too_long": (["screenshot", SCENARIO, "--out", "{tmp}/" + "a" * 300 + ".png"], "too long"),
    "out_not_png": (["screenshot", SCENARIO, "--out", "{tmp}/shot.gif"], ".png"),
    "save_path_too_long": (["screenshot", "{tmp}/" + "a" * 300 + ".json", "--out", "{tmp}/b.png"], "too long"),
    "save_path_far_too_long": (["screenshot", "/tmp/" + "a/" * 3000 + "x.json", "--out", "{tmp}/b.png"], "too long"),
    "replay_path_too_long": (["replay", "--verify", "{tmp}/" + "a" * 300 + ".json"], "too long"),
    "replay_path_with_nul": (["replay", "--verify", "a\x00b.json"], "not a file name"),
    "screenshot_out_with_nul": (["screenshot", SCENARIO, "--out", "{tmp}/a\x00b.png"], "null"),
    "validate_path_too_long": (["validate", "{tmp}/" + "a" * 300 + ".toml"], "too long"),
}


@pytest.mark.parametrize("name", sorted(ARGUMENT_CASES))
def test_a_bad_argument_is_named_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    argv, says = ARGUMENT_CASES[name]
    (tmp_path / "file.txt").write_text("keep", encoding="utf-8")
    (tmp_path / "folder.png").mkdir()
    before = files_in(tmp_path)
    code, out, err = run_cli(capsys, *(a.replace("{tmp}", str(tmp_path)) for a in argv))
    assert_refused(code, out, err, says)
    assert files_in(tmp_path) == before


def test_the_seed_bound_is_the_one_a_save_holds() -> None:
    assert cli_parser.MAX_SEED == MAX_SEED


def test_simulate_starts_no_more_workers_than_games_or_cores(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures

    started: list[int] = []

    class Pool(concurrent.futures.ThreadPoolExecutor):  # the games themselves stay in process
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(cli_simulate, "cores", lambda: 8)
    code, out, _err = run_cli(
        capsys, "simulate", SCENARIO, "--max-turns", "1", "--jobs", "16", "--games", "2", "--json"
    )
    assert code == 0 and len(out.splitlines()) == 3
    assert started == [2]
    monkeypatch.setattr(cli_simulate, "cores", lambda: 1)
    assert run_cli(capsys, "simulate", SCENARIO, "--max-turns", "1", "--jobs", "16", "--games", "2")[0] == 0
    assert started == [2]  # one core: the games run in this process


def test_simulate_queues_a_bounded_number_of_games() -> None:
    """Games are made and handed out as workers free up, never listed all at once."""
    made: list[int] = []
    queued: list[int] = []

    def jobs() -> Iterator[SimJob]:
        for i in range(1000):
            made.append(i)
            yield (SCENARIO, i, None, None, "normal", {})

    class Pool(Executor):
        """Plays nothing: each game's result is its seed, handed back when it is read."""

        def __init__(self) -> None:
            self.pending = 0

        def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
            self.pending += 1
            queued.append(self.pending)
            pool = self
            (job,) = args

            class Done(Future[T]):
                def result(self, timeout: float | None = None) -> T:
                    pool.pending -= 1
                    return cast(T, {"seed": job[1]})

            return Done()

    results = cli_simulate.in_order(Pool(), jobs(), 4)
    assert [next(results)["seed"] for _ in range(3)] == [0, 1, 2]
    assert len(made) <= 8  # a few ahead of what has been read
    assert [r["seed"] for r in results] == list(range(3, 1000)) and max(queued) <= 4


def test_the_running_tally_agrees_with_the_full_lists() -> None:
    import random

    rng = random.Random(7)
    games: list[dict[str, Any]] = []
    for _game in range(40):
        samples = [round(rng.uniform(0, 50), 2) for _ in range(rng.randrange(0, 9))]
        sides = [{"id": s, "souls": rng.randrange(100)} for s in ("a", "b")]
        games.append({"winner": rng.choice(["a", "b", None]), "turns": rng.randrange(1, 30), "sides": sides})
        games[-1][AI_SAMPLES] = samples
    tally = Tally(["a", "b"])
    for g in games:
        tally.add(g)
    summary = tally.summary()
    every = [ms for g in games for ms in g[AI_SAMPLES]]
    assert summary["ai_ms"] == {
        "median": round(statistics.median(every), 2),
        "p95": round(percentile(every, 95), 2),
        "max": round(max(every), 2),
    }
    assert summary["mean_turns"] == round(statistics.fmean(g["turns"] for g in games), 2)
    assert sum(summary["wins"].values()) == 40


# -- saves --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base_save(tmp_path_factory: pytest.TempPathFactory) -> Json:
    """A short simulated game, its snapshot not at a checkpoint (as a save in mid-turn)."""
    folder = tmp_path_factory.mktemp("base")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", SCENARIO, "--seed", "3", "--max-turns", "2", "--save-dir", str(folder)]) == 0
    data: Json = json.loads(next(folder.glob("*.json")).read_text(encoding="utf-8"))
    data["checkpoints"] = [cp for cp in data["checkpoints"] if cp["actions"] != data["snapshot"]["actions"]]
    return data


def _state(data: Json) -> Json:
    state: Json = data["snapshot"]["state"]
    return state


def _first(data: Json) -> Json:
    first: Json = next(iter(_state(data)["formations"].values()))
    return first


def _more_formations(data: Json, n: int) -> None:
    f = _first(data)
    for i in range(n):
        _state(data)["formations"][f"x{i}"] = {**f, "id": f"x{i}"}


# name: (edit of the save's JSON, a part of the message; the snapshot is re-hashed after the edit)
SAVE_CASES: dict[str, tuple[Callable[[Json], object], str]] = {
    "unknown_faction": (lambda d: _state(d)["sides"][0].update(faction="martians"), "faction 'martians'"),
    "souls_not_on_a_hex": (lambda d: _state(d)["field_souls"].update(banana={"hailing": 3}), "'banana'"),
    "souls_off_the_map": (lambda d: _state(d)["field_souls"].update({"900,900": {"hailing": 3}}), "'900,900'"),
    "souls_of_an_unknown_side": (lambda d: _state(d)["field_souls"].update({"3,3": {"ghosts": 3}}), "'ghosts'"),
    "negative_souls": (lambda d: _state(d)["field_souls"].update({"3,3": {"hailing": -3}}), "-3 souls"),
    "men_beyond_the_bound": (lambda d: _first(d).update(men=10**30, max_men=10**30), "at most 10,000,000"),
    "more_men_than_its_strength": (lambda d: _first(d).update(men=_first(d)["max_men"] + 1), "men of"),
    "experience_beyond_the_bound": (lambda d: _first(d).update(experience=10**9), "experience 1000000000"),
    "ammunition_beyond_the_bound": (lambda d: _first(d).update(ammo=-5), "ammunition -5"),
    "a_wait_beyond_the_bound": (lambda d: _first(d)["cooldowns"].update(charge=10**9), "waits 1000000000"),
    "souls_out_of_nowhere": (lambda d: _state(d)["sides"][0].update(pouch=10**6), "accounted for"),
    "baggage_not_on_a_hex": (lambda d: _state(d)["baggage"].update(road=1), "'road'"),
    "explored_not_a_hex": (lambda d: _state(d)["sides"][0]["explored"].append("north"), "'north'"),
    "unknown_ally": (lambda d: _state(d)["sides"][0]["allies"].append("atlantis"), "'atlantis'"),
    "unknown_gates": (lambda d: _state(d)["sides"][0].update(gates="troy"), "'troy'"),
    "unknown_held_group": (lambda d: _state(d)["sides"][0]["held_groups"].append("ghosts"), "'ghosts'"),
    "changed_role": (lambda d: _state(d)["sides"][0].update(role="neutral"), "role"),
    "unknown_formation": (lambda d: _more_formations(d, 1), "neither in the scenario"),
    "formation_of_unknown_group": (lambda d: _first(d).update(group="ghosts"), "'ghosts'"),
    "formation_waits_for_unknown_skill": (lambda d: _first(d)["cooldowns"].update(fly=2), "'fly'"),
    "two_formations_on_one_hex": (
        lambda d: list(_state(d)["formations"].values())[1].update(pos=_first(d)["pos"]),
        "same hex",
    ),
    "unknown_event_fired": (lambda d: _state(d)["fired_events"].append("nonesuch"), "'nonesuch'"),
    "unknown_objective": (lambda d: _state(d)["objectives"].update(conquer="done"), "'conquer'"),
    "unknown_wounded_hero": (lambda d: _state(d)["wounded_heroes"].append("achilles"), "'achilles'"),
    "duel_with_nobody": (lambda d: _state(d).update(pending_duel={"challenger": "x", "target": "y"}), "duel"),
    "unknown_winner": (lambda d: _state(d).update(winner="rome"), "'rome'"),
    "turn_beyond_the_limit": (lambda d: _state(d).update(turn=99), "turn 99"),
}
# Edits of the record around the snapshot (not re-hashed).
RECORD_CASES: dict[str, tuple[Callable[[Json], object], str]] = {
    "unknown_difficulty": (lambda d: d["settings"].update(difficulty="insane"), "unknown difficulty 'insane'"),
    "unknown_side_difficulty": (lambda d: d["settings"].update(difficulties={"rome": "hard"}), "unknown side 'rome'"),
    "unknown_side_seat": (lambda d: d["seats"].update(rome={"commander": "ai"}), "unknown side 'rome'"),
    "a_checkpoint_without_its_digest": (
        lambda d: d["checkpoints"][1].update(digest=None),
        "checkpoint 2 holds no digest of the actions before it, which every checkpoint holds since format 3",
    ),
    "seed_above_the_bound": (lambda d: d.update(seed=2**64), str(MAX_SEED)),
    "snapshot_of_too_many_formations": (lambda d: _more_formations(d, 2100), "the snapshot holds 2,1"),
    "snapshot_of_150_000_formations": (lambda d: _more_formations(d, 150_000), "it holds 150,0"),
}


def _hostile(base: Json, folder: Path, name: str) -> tuple[Path, str]:
    data = copy.deepcopy(base)
    if name in SAVE_CASES:
        edit, says = SAVE_CASES[name]
        edit(data)
        data["snapshot"]["hash"] = state_hash(GameState.model_validate(_state(data)))
    else:
        edit, says = RECORD_CASES[name]
        edit(data)
    path = folder / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, says


@pytest.mark.parametrize("name", sorted(SAVE_CASES) + sorted(RECORD_CASES))
def test_a_hostile_save_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], base_save: Json, tmp_path: Path, name: str
) -> None:
    path, says = _hostile(base_save, tmp_path, name)
    before = files_in(tmp_path)
    with pytest.raises(SaveError, match=re.escape(says)):  # loading it for play
        match_from_record(load_record(path))
    code, out, err = run_cli(capsys, "screenshot", str(path), "--out", str(tmp_path / "shot.png"))
    assert_refused(code, out, err, says)
    assert files_in(tmp_path) == before


def test_the_unedited_save_loads(base_save: Json, tmp_path: Path) -> None:
    """The corpus above edits a save that is itself fine."""
    path = tmp_path / "fine.json"
    path.write_text(json.dumps(base_save), encoding="utf-8")
    assert match_from_record(load_record(path)).state.action_index == base_save["snapshot"]["actions"]


@pytest.mark.parametrize("name", ["unknown_difficulty", "unknown_side_seat", "a_checkpoint_without_its_digest"])
def test_verify_refuses_settings_the_scenario_does_not_know(
    capsys: pytest.CaptureFixture[str], base_save: Json, tmp_path: Path, name: str
) -> None:
    path, says = _hostile(base_save, tmp_path, name)
    assert_refused(*run_cli(capsys, "replay", "--verify", str(path)), says)


# -- a record's action chain ---------------------------------------------------------------------

CORPUS = Path(__file__).parent / "saves_corpus"


def test_a_format_3_save_with_its_digests_nulled_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads((CORPUS / "v3" / "a1_turn4.json").read_text(encoding="utf-8"))
    for cp in data["checkpoints"]:
        cp["digest"] = None
    path = tmp_path / "nulled.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    says = "damaged save: checkpoint 1 holds no digest of the actions before it"
    with pytest.raises(SaveError, match=re.escape(says)):
        load_record(path)
    assert_refused(*run_cli(capsys, "replay", "--verify", str(path)), says)


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (lambda d: d.update(legacy={"format": 2, "commanders": {}}), "a format-3 save cannot hold legacy"),
        (lambda d: d.update(seats={}), "a format-3 save cannot hold seats"),
        (lambda d: d.update(format_version=4), "settings.controllers: Extra inputs are not permitted"),
    ],
    ids=["claims_an_older_chain_rule", "holds_seats", "claims_format_4"],
)
def test_a_format_3_save_cannot_claim_what_its_format_has_not(
    tmp_path: Path, edit: Callable[[Json], object], says: str
) -> None:
    data = json.loads((CORPUS / "v3" / "a1_turn4.json").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=re.escape(says)) as exc:
        load_record(path)
    assert "\n" not in str(exc.value)


def _as_format_2(data: Json) -> Json:
    """A save of today rewritten as format 2 would have written it: no content, no digests, the
    commanders in the settings and in every hash (its states held them)."""
    record = load_record_from(data)
    commanders = {side: seat.commander for side, seat in record.seats.items()}
    legacy = LegacyCheckpoints(format=2, commanders=commanders)
    old: Json = json.loads(json.dumps(data))
    for key in ("content", "seats", "legacy"):
        old.pop(key, None)
    old["format_version"] = 2
    old["settings"]["controllers"] = commanders
    for cp in old["checkpoints"]:
        del cp["digest"]
        cp["hash"] = checkpoint_hash(replay_engine(record, cp["actions"]).state, legacy)
    old["snapshot"]["hash"] = checkpoint_hash(record.snapshot.state, legacy)  # type: ignore[union-attr]
    return old


def load_record_from(data: Json) -> GameRecord:
    from game.record.saves import parse_record

    return parse_record(json.dumps(data).encode())


def test_a_save_rewritten_in_an_older_format_is_verified_by_state_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A format-2 record never had the action chain and cannot claim it: verify checks what it
    can (every state it holds) and says plainly that this is all it checked."""
    # A game of the shipped content as it is now (a format-2 record carries none of its own).
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", SCENARIO, "--seed", "3", "--max-turns", "3", "--save-dir", str(tmp_path)]) == 0
    saved = json.loads(next(tmp_path.glob("*.json")).read_text(encoding="utf-8"))
    path = tmp_path / "rewritten.json"
    path.write_text(json.dumps(_as_format_2(saved)), encoding="utf-8")
    record = load_record(path)
    assert record.legacy is not None and record.legacy.format == 2
    result = verify(record)
    assert result.ok and not result.chained
    code, out, err = run_cli(capsys, "replay", "--verify", str(path))
    assert (code, err) == (0, "") and out.startswith("ok by state only: ") and len(out.splitlines()) == 1
    # The same game as saved: the chain vouches for its actions.
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(saved), encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", "--verify", str(honest))
    assert (code, err) == (0, "") and out.startswith("ok actions=")


def test_a_format_2_save_cannot_hold_digests(base_save: Json, tmp_path: Path) -> None:
    old = _as_format_2(base_save)
    old["checkpoints"][0]["digest"] = None
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    with pytest.raises(SaveError, match="damaged save: a format-2 save cannot hold digests of its actions"):
        load_record(path)


# -- the content a save carries ------------------------------------------------------------------


def _bundle(files: dict[str, str]) -> str:
    return base64.b64encode(zlib.compress(json.dumps({"format": 1, "files": files}).encode())).decode()


# name: (the files of the bundle a save carries, a part of the message)
BUNDLE_CASES = {
    "nul_in_a_file_name": ({"maps/a\x00.toml": "x"}, "names a file no folder can hold"),
    "lone_surrogate_in_a_file_name": ({"maps/a\ud800.toml": "x"}, "names a file no folder can hold"),
    "newline_in_a_file_name": ({"maps/a\n.toml": "x"}, "names a file no folder can hold"),
    "lone_surrogate_in_a_file": ({"maps/a.toml": "x\ud800"}, "its file 'maps/a.toml' is not text"),
    "a_file_over_a_folder": ({"maps/a.toml": "x", "maps": "y"}, "it cannot be unpacked"),
    "a_name_too_long": ({"maps/" + "a" * 300 + ".toml": "x"}, "names a file no folder can hold"),
    "nul_in_a_file": ({"maps/a.toml": "\x00"}, "its content does not load: data/"),
}


@pytest.mark.parametrize("name", sorted(BUNDLE_CASES))
def test_a_hostile_bundle_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], base_save: Json, tmp_path: Path, name: str
) -> None:
    """The save claims content the game no longer has, so the bundle it carries is unpacked."""
    files, says = BUNDLE_CASES[name]
    data = {**base_save, "content_version": "0.1.0+0000000000/0000000000", "content": _bundle(files)}
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = files_in(tmp_path)
    with pytest.raises(SaveError, match=re.escape(says)):
        match_from_record(load_record(path))
    assert_refused(*run_cli(capsys, "replay", "--verify", str(path)), says)
    assert files_in(tmp_path) == before


# -- writing ------------------------------------------------------------------------------------


def _no_space(*_args: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("victim", ["fsync", "short_write"])
def test_a_screenshot_on_a_full_disk_fails_and_keeps_the_old_picture(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, victim: str
) -> None:
    out = tmp_path / "shot.png"
    out.write_bytes(b"the old picture")
    if victim == "fsync":
        monkeypatch.setattr(os, "fsync", _no_space)
    else:  # the file system takes fewer bytes than it was given, and says nothing
        real = os.fdopen

        def short(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> IO[Any]:
            fh: IO[Any] = real(fd, mode, *args, **kwargs)
            write = fh.write

            def write_half(data: Any) -> int:
                return write(data[: len(data) // 2])

            monkeypatch.setattr(fh, "write", write_half)
            return fh

        monkeypatch.setattr(os, "fdopen", short)
    code, out_text, err = run_cli(capsys, "screenshot", SCENARIO, "--out", str(out))
    monkeypatch.undo()
    assert_refused(code, out_text, err, f"cannot write {out}")
    assert "wrote" not in out_text
    assert out.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["shot.png"]


def test_simulate_into_a_full_folder_fails_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", _no_space)
    code, out, err = run_cli(capsys, "simulate", SCENARIO, "--max-turns", "1", "--save-dir", str(tmp_path))
    monkeypatch.undo()
    assert_refused(code, out, err, "No space left on device")
    assert list(tmp_path.iterdir()) == []


def test_the_next_write_clears_what_dead_writers_left(tmp_path: Path) -> None:
    target = tmp_path / "quicksave.json"
    dead = [tmp_path / f".quicksave.json.dead{i}.tmp" for i in range(3)]  # killed a moment ago
    for p in dead:
        p.write_text("half", encoding="utf-8")
    alive = tmp_path / ".other.json.alive.tmp"  # a writer still at work holds its file locked
    alive.write_text("hal", encoding="utf-8")
    with open(alive, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        write_atomic(target, "{}")
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, alive.name])
    # Its writer gone, the next write of settings (or campaign progress) clears it too.
    from game.settings import UserSettings, save_settings

    save_settings(UserSettings(), tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quicksave.json", "settings.json"]


def test_killed_writers_leave_nothing_once_the_folder_is_written_again(tmp_path: Path) -> None:
    """Writers stopped in the middle of a write, then killed: while they live their files stay,
    once they are dead the next write leaves only the save."""
    import signal
    import subprocess
    import sys

    from game.paths import ROOT

    target = tmp_path / "quicksave.json"
    writer = (
        "import os, sys, time; sys.path.insert(0, sys.argv[2]); from pathlib import Path\n"
        "from game.record.saves import write_atomic\n"
        "def stuck(fd): print('writing', flush=True); time.sleep(120)\n"
        "os.fsync = stuck\n"
        "write_atomic(Path(sys.argv[1]), 'half a save' * 1000)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", writer, str(target), str(ROOT)], stdout=subprocess.PIPE)
        for _ in range(3)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline() == b"writing\n"
        write_atomic(target, "{}")  # the writers are alive: their files stay
        assert len([p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]) == 3
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()
    write_atomic(target, "{}")
    assert [p.name for p in tmp_path.iterdir()] == ["quicksave.json"]


def test_settings_and_progress_keep_the_old_file_when_the_disk_is_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.settings import UserSettings, save_settings

    (tmp_path / "settings.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(os, "fsync", _no_space)
    with pytest.raises(OSError):
        save_settings(UserSettings(muted=True), tmp_path)
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
    assert (tmp_path / "settings.json").read_text(encoding="utf-8") == "{}"
