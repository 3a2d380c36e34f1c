"""The command line contract: JSON shapes, exit codes, one-line errors, files left alone."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest
from conftest import run_cli

from game.cli import main
from game.content.scenarios import load_scenario, scenario_ids
from game.core.scenario_events import Reinforce
from game.paths import MAPS_DIR, ROOT, TILES_DIR

SCENARIO = "a1_valley_mouth"
SIM_TURNS = "2"  # --max-turns: enough for fighting and several checkpoints, still fast
OK_LINE = re.compile(r"^ok actions=(\d+) turns=(\d+) hash=([0-9a-f]+)$")
ERROR_LINE = re.compile(r"^(?P<file>[^:]+): (?P<object>[^:]+): (?P<field>[^:]+): (?P<message>.+)$")


pytestmark = pytest.mark.usefixtures("keep_language")


def assert_one_line_error(code: int, out: str, err: str, expected_code: int = 2) -> None:
    assert code == expected_code
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")


def subprocess_game(*argv: str, hashseed: str = "0", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": hashseed, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, "-m", "game", "--lang", "en", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One short AI game simulated with --save-dir: its JSON summary and its record."""
    folder = tmp_path_factory.mktemp("sim")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(
            ["simulate", SCENARIO, "--seed", "11", "--max-turns", SIM_TURNS, "--save-dir", str(folder), "--json"]
        )
    assert code == 0
    summary = json.loads(buf.getvalue().splitlines()[0])
    path = Path(summary["save"])
    assert path.parent == folder and path.is_file()
    return summary, path


@pytest.fixture
def save_copy(saved: tuple[dict[str, Any], Path], tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    shutil.copyfile(saved[1], path)
    return path


# -- scenarios ------------------------------------------------------------------------------


def test_scenarios_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "scenarios", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)
    assert isinstance(rows, list)
    assert [r["id"] for r in rows] == scenario_ids()
    for r in rows:
        assert {"id", "title", "campaign", "sides", "map_size"} <= r.keys()
        assert isinstance(r["title"], str) and r["title"]
        assert r["campaign"] is None or isinstance(r["campaign"], str)
        assert len(r["sides"]) >= 2 and all(isinstance(s["id"], str) for s in r["sides"])
        w, h = r["map_size"]
        assert isinstance(w, int) and isinstance(h, int) and w > 0 and h > 0
    a1 = next(r for r in rows if r["id"] == SCENARIO)
    assert a1["campaign"] == "yuqing"
    assert [s["id"] for s in a1["sides"]] == ["coalition", "hailing"]
    assert a1["map_size"] == [36, 26]


def test_scenarios_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(capsys, "--lang", "en", "scenarios")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(scenario_ids())
    a1 = next(line for line in lines if line.startswith(SCENARIO))
    assert "The Valley Mouth" in a1 and "coalition vs hailing" in a1 and "36x26" in a1


# -- validate -------------------------------------------------------------------------------


def test_validate_shipped_content(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "validate")
    assert (code, err) == (0, "")
    m = re.fullmatch(r"ok (\d+) files\n", out)
    assert m and int(m.group(1)) >= 2


def test_validate_named_files(capsys: pytest.CaptureFixture[str]) -> None:
    toml, tmx = MAPS_DIR / f"{SCENARIO}.toml", MAPS_DIR / f"{SCENARIO}.tmx"
    assert run_cli(capsys, "validate", str(toml), str(tmx)) == (0, "ok 3 files\n", "")


@pytest.fixture
def broken_copy(tmp_path: Path) -> Path:
    """The A1 scenario copied to a temporary folder; the map still finds the shipped tileset."""
    folder = tmp_path / "maps"
    folder.mkdir()
    shutil.copyfile(MAPS_DIR / f"{SCENARIO}.toml", folder / f"{SCENARIO}.toml")
    tmx = (MAPS_DIR / f"{SCENARIO}.tmx").read_text(encoding="utf-8")
    tmx = tmx.replace('source="../assets/tiles/terrain.tsx"', f'source="{(TILES_DIR / "terrain.tsx").as_posix()}"')
    (folder / f"{SCENARIO}.tmx").write_text(tmx, encoding="utf-8")
    return folder


def _corrupt(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CORRUPTIONS = {
    # name: (file suffix, old text, new text, expected (file suffix, object, field, message part))
    "unknown_unit": (
        ".tmx",
        '<property name="unit" value="han_soldier"/>',
        '<property name="unit" value="dragon_knight"/>',
        (".tmx", "han_xin_5000", "unit", "dragon_knight"),
    ),
    "unknown_side": (
        ".tmx",
        '<property name="side" value="hailing"/>',
        '<property name="side" value="nobody"/>',
        (".tmx", "trapped_1", "side", "nobody"),
    ),
    "turn_limit_zero": (".toml", "turn_limit = 20", "turn_limit = 0", (".toml", SCENARIO, "turn_limit", "")),
    "turn_limit_text": (".toml", "turn_limit = 20", 'turn_limit = "many"', (".toml", SCENARIO, "turn_limit", "")),
    "bad_outcome": (
        ".toml",
        'turn_limit_outcome = "hailing"',
        'turn_limit_outcome = "whoever"',
        (".toml", SCENARIO, "turn_limit_outcome", ""),
    ),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_validate_a_broken_copy(capsys: pytest.CaptureFixture[str], broken_copy: Path, name: str) -> None:
    suffix, old, new, (err_suffix, obj, field, message) = CORRUPTIONS[name]
    _corrupt(broken_copy / f"{SCENARIO}{suffix}", old, new)
    before = {p.name: p.read_bytes() for p in broken_copy.iterdir()}
    for target in (broken_copy, broken_copy / f"{SCENARIO}.toml"):
        code, out, err = run_cli(capsys, "validate", str(target))
        assert code == 1 and err == ""
        errors = [ERROR_LINE.match(line) for line in out.splitlines()]
        assert errors and all(errors), out
        assert any(
            e["file"].endswith(f"{SCENARIO}{err_suffix}")
            and e["object"] == obj
            and e["field"] == field
            and message in e["message"]
            for e in errors
            if e
        ), out
    assert {p.name: p.read_bytes() for p in broken_copy.iterdir()} == before


def test_validate_a_map_checks_its_formations(capsys: pytest.CaptureFixture[str], broken_copy: Path) -> None:
    """Naming only the map still catches a unit type the ruleset does not know."""
    tmx = broken_copy / f"{SCENARIO}.tmx"
    _corrupt(tmx, '<property name="unit" value="han_soldier"/>', '<property name="unit" value="dragon_knight"/>')
    code, out, _err = run_cli(capsys, "validate", str(tmx))
    assert code == 1
    assert out.rstrip("\n").endswith("han_xin_5000: unit: unknown unit type 'dragon_knight'")
    assert len(out.splitlines()) == 1


def test_validate_bad_paths(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_one_line_error(*run_cli(capsys, "validate", str(tmp_path / "missing.toml")))
    other = tmp_path / "notes.txt"
    other.write_text("hello", encoding="utf-8")
    code, out, _err = run_cli(capsys, "validate", str(other))
    assert code == 1
    assert ERROR_LINE.match(out.strip())


# -- simulate -------------------------------------------------------------------------------


def _simulate_all(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The per-game JSON lines and the summary line after them."""
    code, out, err = run_cli(capsys, "simulate", SCENARIO, "--max-turns", SIM_TURNS, "--json", *extra)
    assert (code, err) == (0, "")  # not a terminal: no progress on stderr
    *games, last = [json.loads(line) for line in out.splitlines()]
    assert list(last) == ["summary"] and all("summary" not in g for g in games)
    return games, last["summary"]


def _simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> list[dict[str, Any]]:
    return _simulate_all(capsys, *extra)[0]


ARRIVING = {
    side: sum(
        r.men
        for ev in load_scenario(SCENARIO).scenario.events
        for a in ev.actions
        if isinstance(a, Reinforce) and a.side == side
        for r in a.formations
    )
    for side in ("coalition", "hailing")
}


def test_simulate_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    games = _simulate(capsys, "--seed", "5", "--games", "2")
    assert [g["seed"] for g in games] == [5, 6]
    for g in games:
        assert g["scenario"] == SCENARIO
        assert g["winner"] in (None, "coalition", "hailing")
        assert 1 <= g["turns"] <= int(SIM_TURNS)
        assert isinstance(g["actions"], int) and g["actions"] > 0
        assert re.fullmatch(r"[0-9a-f]{8,}", g["final_hash"])
        assert [s["id"] for s in g["sides"]] == ["coalition", "hailing"]
        for s in g["sides"]:
            assert {"id", "men_start", "men_end", "souls"} <= s.keys()
            # Men who arrive during the battle (A1's retainers) count on top of the start.
            assert 0 <= s["men_end"] <= s["men_start"] + ARRIVING[s["id"]] and s["souls"] >= 0
        ai = g["ai_ms"]
        assert 0 <= ai["median"] <= ai["p95"] <= ai["max"]
        assert g["save"] is None


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = _simulate(capsys, "--seed", "9")
    again = _simulate(capsys, "--seed", "9")
    timeless = [{k: v for k, v in g.items() if k != "ai_ms"} for g in (first[0], again[0])]
    assert timeless[0] == timeless[1]


def test_simulate_in_parallel_gives_the_same_games(capsys: pytest.CaptureFixture[str]) -> None:
    serial = _simulate(capsys, "--seed", "21", "--games", "2")
    parallel = _simulate(capsys, "--seed", "21", "--games", "2", "--jobs", "2")
    assert [g["final_hash"] for g in parallel] == [g["final_hash"] for g in serial]
    assert [g["seed"] for g in parallel] == [21, 22]


def test_simulate_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(capsys, "simulate", SCENARIO, "--max-turns", "1", "--seed", "2")
    assert code == 0
    first, *table = out.splitlines()
    assert first.startswith("seed 2: winner ") and "actions" in first
    assert table[0] == "1 games, mean 1.0 turns" and table[-1].startswith("AI ms per side-turn: median ")
    assert any(line.startswith("coalition ") for line in table) and any(line.startswith("draw ") for line in table)


def test_simulate_shows_progress_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    code = main(["simulate", SCENARIO, "--max-turns", "1", "--games", "2", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and len(out.splitlines()) == 3  # the progress never mixes into stdout
    shown = err.getvalue()
    assert "\r0/2 games, " in shown and "\r2/2 games, " in shown and shown.endswith(" s\n")


def test_simulate_summary_agrees_with_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    games, summary = _simulate_all(capsys, "--seed", "3", "--games", "3", "--max-turns", "1")
    assert summary["games"] == 3
    sides = ["coalition", "hailing"]
    wins = {side: sum(g["winner"] == side for g in games) for side in sides}
    wins["draw"] = sum(g["winner"] is None for g in games)
    assert summary["wins"] == wins and sum(wins.values()) == 3
    assert summary["win_rate"] == {side: pytest.approx(wins[side] / 3, abs=1e-4) for side in sides}
    assert summary["mean_turns"] == pytest.approx(sum(g["turns"] for g in games) / 3, abs=0.01)
    for side in sides:
        souls = [s["souls"] for g in games for s in g["sides"] if s["id"] == side]
        assert summary["mean_souls"][side] == pytest.approx(sum(souls) / 3, abs=0.01)
    ms = summary["ai_ms"]
    assert ms["max"] == max(g["ai_ms"]["max"] for g in games)
    # Each game's median is of its raw timings, the summary's of the rounded samples: a
    # hundredth of a millisecond apart at most (and the float arithmetic's own rounding:
    # 9.55 - 0.01 is less than 9.54).
    assert min(g["ai_ms"]["median"] for g in games) - 0.01 - 1e-9 <= ms["median"] <= ms["p95"] <= ms["max"]


def test_simulate_difficulty_for_every_side_or_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from game.record.saves import load_record

    args = ("--seed", "4", "--max-turns", "1", "--save-dir", str(tmp_path))
    (game,) = _simulate(capsys, *args, "--difficulty", "hard")
    settings = load_record(Path(game["save"])).settings
    assert settings.difficulty_of("coalition") == settings.difficulty_of("hailing") == "hard"
    (game,) = _simulate(capsys, *args, "--difficulty", "easy", "--difficulty", "coalition=hard")
    settings = load_record(Path(game["save"])).settings
    assert settings.difficulty_of("coalition") == "hard" and settings.difficulty_of("hailing") == "easy"


@pytest.mark.parametrize(
    ("value", "says"),
    [("nowhere=hard", "unknown side 'nowhere'"), ("coalition=brutal", "unknown difficulty 'brutal'"), ("x", "'x'")],
)
def test_simulate_refuses_a_bad_difficulty(capsys: pytest.CaptureFixture[str], value: str, says: str) -> None:
    code, out, err = run_cli(capsys, "simulate", SCENARIO, "--difficulty", value)
    assert_one_line_error(code, out, err)
    assert says in err


def test_simulate_save_dir_record_verifies(
    capsys: pytest.CaptureFixture[str], saved: tuple[dict[str, Any], Path]
) -> None:
    summary, path = saved
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["scenario_id"] == SCENARIO and record["seed"] == 11
    assert len(record["actions"]) == summary["actions"]
    code, out, err = run_cli(capsys, "replay", str(path), "--verify")
    assert (code, err) == (0, "")
    m = OK_LINE.fullmatch(out.strip())
    assert m, out
    assert (int(m.group(1)), int(m.group(2)), m.group(3)) == (
        summary["actions"],
        summary["turns"],
        summary["final_hash"],
    )


def test_hashes_do_not_depend_on_the_process(saved: tuple[dict[str, Any], Path]) -> None:
    """Other processes with other string-hash seeds verify the record and replay the same game."""
    summary, path = saved
    for hashseed in ("0", "4242"):
        proc = subprocess_game("replay", str(path), "--verify", hashseed=hashseed)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == (
            f"ok actions={summary['actions']} turns={summary['turns']} hash={summary['final_hash']}"
        )
    proc = subprocess_game("simulate", SCENARIO, "--seed", "11", "--max-turns", SIM_TURNS, "--json", hashseed="977")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["final_hash"] == summary["final_hash"]


# -- replay --verify ------------------------------------------------------------------------


@pytest.mark.parametrize("index", [0, -1])
def test_replay_names_a_tampered_checkpoint(capsys: pytest.CaptureFixture[str], save_copy: Path, index: int) -> None:
    data = json.loads(save_copy.read_text(encoding="utf-8"))
    checkpoints = data["checkpoints"]
    assert len(checkpoints) >= 3
    checkpoints[index]["hash"] = "0" * len(checkpoints[index]["hash"])
    save_copy.write_text(json.dumps(data), encoding="utf-8")
    before = save_copy.read_bytes()
    code, out, _err = run_cli(capsys, "replay", str(save_copy), "--verify")
    assert code == 1
    number = index % len(checkpoints) + 1
    assert out.startswith(f"mismatch: checkpoint {number} ") and len(out.splitlines()) == 1
    assert save_copy.read_bytes() == before


def test_replay_catches_a_missing_checkpoint(capsys: pytest.CaptureFixture[str], save_copy: Path) -> None:
    data = json.loads(save_copy.read_text(encoding="utf-8"))
    del data["checkpoints"][-1]
    save_copy.write_text(json.dumps(data), encoding="utf-8")
    code, out, _err = run_cli(capsys, "replay", str(save_copy), "--verify")
    assert code == 1 and "checkpoint" in out


def test_replay_catches_a_changed_seed(capsys: pytest.CaptureFixture[str], save_copy: Path) -> None:
    data = json.loads(save_copy.read_text(encoding="utf-8"))
    data["seed"] += 1
    save_copy.write_text(json.dumps(data), encoding="utf-8")
    code, out, _err = run_cli(capsys, "replay", str(save_copy), "--verify")
    assert code == 1 and out.startswith("mismatch: ")


def _truncated(good: bytes) -> bytes:
    return good[: len(good) // 2]


def _junk(good: bytes) -> bytes:
    return bytes(range(256)) * 8


def _not_json(good: bytes) -> bytes:
    return b"this is not a save\n"


def _empty(good: bytes) -> bytes:
    return b""


def _other_json(good: bytes) -> bytes:
    return b'{"hello": [1, 2, 3]}'


def _damaged(good: bytes) -> bytes:
    data = json.loads(good)
    data["actions"] = "everything"
    return json.dumps(data).encode()


def _unknown_scenario(good: bytes) -> bytes:
    data = json.loads(good)
    data["scenario_id"] = "no_such_battle"
    return json.dumps(data).encode()


BAD_SAVES = [_truncated, _junk, _not_json, _empty, _other_json, _damaged, _unknown_scenario]


@pytest.mark.parametrize("spoil", BAD_SAVES, ids=lambda f: f.__name__.strip("_"))
def test_replay_refuses_unreadable_files(
    capsys: pytest.CaptureFixture[str], save_copy: Path, spoil: Callable[[bytes], bytes]
) -> None:
    save_copy.write_bytes(spoil(save_copy.read_bytes()))
    before = save_copy.read_bytes()
    mtime = save_copy.stat().st_mtime_ns
    assert_one_line_error(*run_cli(capsys, "replay", str(save_copy), "--verify"))
    assert save_copy.read_bytes() == before
    assert save_copy.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in save_copy.parent.iterdir()) == [save_copy.name]


def test_replay_refuses_missing_files_and_folders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert_one_line_error(*run_cli(capsys, "replay", str(tmp_path / "nothing.json"), "--verify"))
    assert_one_line_error(*run_cli(capsys, "replay", str(tmp_path), "--verify"))


def test_replay_refusal_from_a_real_process(save_copy: Path) -> None:
    save_copy.write_bytes(_junk(b""))
    proc = subprocess_game("replay", str(save_copy), "--verify")
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1


# -- screenshot -----------------------------------------------------------------------------


def _image(path: Path) -> pygame.Surface:
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return pygame.image.load(str(path))


def _colours(img: pygame.Surface, step: int = 23) -> set[tuple[int, int, int, int]]:
    w, h = img.get_size()
    colours = (img.get_at((x, y)) for x in range(0, w, step) for y in range(0, h, step))
    return {(c.r, c.g, c.b, c.a) for c in colours}


def test_screenshot_of_a_scenario(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "a1.png"
    code, out, err = run_cli(capsys, "screenshot", SCENARIO, "--out", str(out_file), "--size", "640x400")
    assert (code, err) == (0, "")
    assert out.strip() == f"wrote {out_file}"
    img = _image(out_file)
    assert img.get_size() == (640, 400)
    assert len(_colours(img)) > 20  # a map, not an empty frame
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a1.png"]  # no temporary file left


def test_screenshot_of_a_save_at_a_turn(
    capsys: pytest.CaptureFixture[str], saved: tuple[dict[str, Any], Path], tmp_path: Path
) -> None:
    _summary, path = saved
    first, last = tmp_path / "first.png", tmp_path / "last.png"
    assert run_cli(capsys, "screenshot", str(path), "--out", str(first), "--size", "800x600", "--turn", "1")[0] == 0
    assert run_cli(capsys, "screenshot", str(path), "--out", str(last), "--size", "800x600")[0] == 0
    a, b = _image(first), _image(last)
    assert a.get_size() == b.get_size() == (800, 600)
    # Armies moved and fought between the start and the end of the record.
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")


@pytest.mark.parametrize(
    "argv",
    [
        ["screenshot", "no_such_battle", "--out", "{out}"],
        ["screenshot", SCENARIO, "--out", "{out}", "--size", "12x"],
        ["screenshot", SCENARIO, "--out", "{out}", "--size", "widexhigh"],
        ["screenshot", SCENARIO, "--out", "{out}", "--size", "100x100"],
        ["screenshot", SCENARIO, "--out", "{out}", "--turn", "0"],
        ["screenshot", SCENARIO, "--out", "{out}", "--turn", "3"],
        ["screenshot", SCENARIO, "--out", "{out}", "--view", "nobody"],
        ["screenshot", SCENARIO, "--out", "{tmp}/no/such/folder.png"],
        ["screenshot", SCENARIO, "--out", "{tmp}/picture.jpg"],
        ["screenshot", SCENARIO],
        ["simulate", "no_such_battle", "--games", "1"],
        ["simulate", SCENARIO, "--games", "0"],
        ["simulate", SCENARIO, "--seed", "-3"],
        ["simulate", SCENARIO, "--max-turns", "two"],
        ["replay"],
        ["validate", "{tmp}/missing"],
        ["conquer", "the", "world"],
        ["--lang", "klingon", "scenarios"],
    ],
)
def test_bad_arguments_give_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    existing = tmp_path / "out.png"
    existing.write_bytes(b"previous content")
    args = [a.format(out=existing, tmp=tmp_path) for a in argv]
    assert_one_line_error(*run_cli(capsys, *args))
    assert existing.read_bytes() == b"previous content"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.png"]


def test_bad_screenshot_from_a_real_process(tmp_path: Path) -> None:
    proc = subprocess_game("screenshot", SCENARIO, "--out", str(tmp_path / "x.png"), "--size", "huge")
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and "--size" in proc.stderr
    assert list(tmp_path.iterdir()) == []
