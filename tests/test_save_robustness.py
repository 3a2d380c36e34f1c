"""Saves against the worst: a writer killed at random moments, a corpus of bad files, hostile names.

tests/bad_saves/ holds small bad files (each listed in BAD_FILES with what its refusal must
say); files that would be huge, or that depend on the shipped content, are made in the test.
"""

from __future__ import annotations

import fcntl
import json
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli
from test_cli import assert_one_line_error, subprocess_game

from game.cli import main
from game.paths import ROOT
from game.record import saves
from game.record.errors import SaveError
from game.record.match import match_from_record
from game.record.model import FORMAT_VERSION
from game.record.names import BadSaveName
from game.record.saves import load_record, own_path, save_files, save_path, write_atomic

BAD_DIR = Path(__file__).parent / "bad_saves"
GOOD = Path(__file__).parent / "saves_corpus" / f"v{FORMAT_VERSION}" / "a1_turn4.json"

# Every bad file, and a piece of the one-line message that refuses it.
BAD_FILES: dict[str, str] = {
    "truncated.json": "not a save file (invalid JSON at line",
    "binary_junk.json": "not a save file (not UTF-8 text)",
    "empty.json": "not a save file (invalid JSON at line 1",
    "not_a_save.json": "not a Qiankun save file",
    "wrong_types.json": "damaged save: seed: Input should be a valid integer",
    "wrong_types_actions.json": "damaged save: actions: Input should be a valid list",
    "huge_number.json": "not a save file (a number is far too long)",
    "huge_seed.json": "damaged save: seed: Input should be less than or equal to",
    "deep_nesting.json": "not a save file (nested too deeply)",
    "unknown_action.json": "damaged save: actions.5: Input tag 'summon_dragon' found using 'kind' does not match",
    "newer_version.json": f"made by a newer version of the game (format 99; this one reads up to {FORMAT_VERSION})",
    "snapshot_altered.json": "the snapshot has been altered: its state hashes to",
    "snapshot_misplaced.json": "damaged save: the snapshot was taken after 68 actions but the record has 67",
    "unknown_scenario.json": "unknown scenario 'no_such_battle': this version of the game does not have it",
    "changed_content.json": "made with other content for scenario a1_valley_mouth: its map or scenario file, "
    "the game's unit and terrain data and the game's version (0.0.1 to",
}


def _refusal(path: Path) -> str:
    """The message a bad file is refused with, whichever step refuses it."""
    with pytest.raises(SaveError) as exc:
        match_from_record(load_record(path))
    return str(exc.value)


def test_the_bad_corpus_is_exactly_what_is_listed() -> None:
    assert sorted(p.name for p in BAD_DIR.iterdir()) == sorted(BAD_FILES)


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_each_bad_file_is_refused_with_a_clear_line_and_left_alone(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes((BAD_DIR / name).read_bytes())
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    message = _refusal(path)
    assert BAD_FILES[name] in message, message
    assert "\n" not in message and "Traceback" not in message
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_the_command_line_refuses_each_bad_file(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    path.write_bytes((BAD_DIR / name).read_bytes())
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    code, out, err = run_cli(capsys, "replay", str(path), "--verify")
    assert_one_line_error(code, out, err)
    assert err.startswith(f"error: {path}: ") and BAD_FILES[name] in err
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_real_process_refuses_a_bad_file_without_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes((BAD_DIR / "deep_nesting.json").read_bytes())
    proc = subprocess_game("replay", str(path), "--verify")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr and "nested too deeply" in proc.stderr


def test_very_large_files_are_refused_before_they_are_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as fh:  # sparse: no disk is spent on it
        fh.truncate(saves.MAX_SAVE_BYTES + 1)
    assert "too large for a save" in _refusal(huge)
    code, out, err = run_cli(capsys, "replay", str(huge), "--verify")
    assert_one_line_error(code, out, err)
    assert "too large for a save" in err
    # Large but under the limit: a real save's header over a flood of actions it cannot hold.
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    data["actions"] = [{"kind": "move", "unit": "x" * 200, "to": [1, 2], "forced": False, "junk": 1}] * 40_000
    big = tmp_path / "big.json"
    big.write_text(json.dumps(data), encoding="utf-8")
    assert big.stat().st_size > 8_000_000
    assert "damaged save: actions.0.move.junk: Extra inputs are not permitted" in _refusal(big)


# -- an action that does not replay -----------------------------------------------------------


@pytest.fixture(scope="module")
def fresh_save(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A save of the shipped content as it is now (the corpus may be older)."""
    folder = tmp_path_factory.mktemp("fresh")
    assert main(["simulate", "a1_valley_mouth", "--seed", "5", "--max-turns", "2", "--save-dir", str(folder)]) == 0
    (path,) = folder.glob("*.json")
    return path


def _illegal_at(path: Path, k: int, snapshot: bool) -> tuple[bytes, int]:
    data = json.loads(path.read_text(encoding="utf-8"))
    i = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "move" and i >= k)
    data["actions"][i]["to"] = [99, 99]
    if not snapshot:  # as a format-1 save has none
        del data["snapshot"]
    return json.dumps(data).encode(), i + 1


@pytest.mark.parametrize("snapshot", [False, True], ids=["without snapshot", "with snapshot"])
def test_an_illegal_action_at_step_k(
    fresh_save: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], snapshot: bool
) -> None:
    raw, k = _illegal_at(fresh_save, 10, snapshot)
    path = tmp_path / "illegal.json"
    path.write_bytes(raw)
    record = load_record(path)
    if snapshot:
        # Loading for play trusts a snapshot that checks out; what came before is proved by
        # re-running it, which the replay does.
        assert record.snapshot is not None
        assert match_from_record(record).state == record.snapshot.state
    else:
        with pytest.raises(SaveError, match=rf"^action {k} \(move\) is illegal on replay: "):
            match_from_record(record)
    code, out, err = run_cli(capsys, "replay", str(path), "--verify")
    assert (code, err) == (1, "")
    assert out.startswith(f"mismatch: action {k} (move) is illegal on replay: ") and out.count("\n") == 1
    assert path.read_bytes() == raw


# -- a writer killed at random moments ----------------------------------------------------------

WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from game.record.saves import write_atomic
path, texts = Path(sys.argv[1]), [Path(sys.argv[2]).read_text(), Path(sys.argv[3]).read_text()]
print("ready", flush=True)
i = 0
while True:
    write_atomic(path, texts[i % 2])
    i += 1
"""


def test_killing_the_writer_at_any_moment_leaves_a_whole_loadable_save(tmp_path: Path) -> None:
    data = json.loads(GOOD.read_text(encoding="utf-8"))
    texts = []
    for n, stamp in enumerate(["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"]):
        data["saved_at"] = stamp
        texts.append(json.dumps(data, indent=400 + n))  # large: several MB, so kills land mid-write
    assert min(len(t) for t in texts) > 2_000_000
    sources = []
    for n, text in enumerate(texts):
        sources.append(tmp_path / f"source{n}.txt")
        sources[-1].write_text(text, encoding="utf-8")
    folder = tmp_path / "saves"
    folder.mkdir()
    target = folder / "quicksave.json"
    write_atomic(target, texts[0])
    rng = random.Random(20261204)
    interrupted = 0
    for _ in range(25):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), str(sources[0]), str(sources[1]), str(ROOT)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
            time.sleep(rng.uniform(0.0, 0.08))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()
        assert target.read_text(encoding="utf-8") in texts  # the old save or the new, never a mix
        assert load_record(target).saved_at in ("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")
        leftovers = [p for p in folder.iterdir() if p != target]
        assert all(p.name.startswith(".quicksave.json.") and p.name.endswith(".tmp") for p in leftovers)
        interrupted += bool(leftovers)
        # The save list never shows a half-written file.
        assert save_files(folder) == [target]
    assert interrupted, "no kill landed in the middle of a write: the test proved nothing"
    # Temporary files of dead writers are removed; a write still going on (its writer holds its
    # file locked) is left alone.
    fresh = folder / ".other.json.abc123.tmp"
    fresh.write_text("{", encoding="utf-8")
    with open(fresh, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        assert save_files(folder) == [target]
        assert sorted(p.name for p in folder.iterdir()) == [fresh.name, "quicksave.json"]


def test_save_files_lists_only_saves(tmp_path: Path) -> None:
    for name in ["b.json", "a.json", ".hidden.json", "notes.txt", ".a.json.x1.tmp"]:
        (tmp_path / name).write_text("{}", encoding="utf-8")
    (tmp_path / "folder.json").mkdir()
    assert [p.name for p in save_files(tmp_path)] == ["a.json", "b.json"]
    assert save_files(tmp_path / "missing") == []


# -- names that would leave the saves folder ------------------------------------------------------

DEVICES = {"CON", "PRN", "AUX", "NUL"} | {f"{d}{i}" for d in ("COM", "LPT") for i in range(1, 10)}


@pytest.mark.parametrize(
    "name",
    [
        "..",
        "../x",
        "../quicksave",
        "../../etc/passwd",
        "a/../../b",
        "/",
        "\\",
        "/tmp/x",
        "//server/share",
        "C:\\saves\\x",
        "\\\\?\\C:\\x",
        "~/x",
        "a\x00b",
        "\x00",
        "\x1b[31mred",
        "x" * 1000,
        "x" * 10_000,
        "quicksave.json",
        ".quicksave",
        ".hidden",
        "...",
        "save\u2215slash",  # a division slash that looks like '/'
        "save\uff0fslash",  # a full-width solidus, which compatibility folding makes '/'
        "CON",
        "con",
        "nul",
        "com1",
        "LPT9",
        "COM\u00b9",  # Windows takes superscript digits in device names too
        "settings",
        "campaign-yuqing",
        "autosave-x\u202e",
    ],
)
def test_hostile_names_are_refused_or_made_safe_and_never_write_outside_the_folder(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "saves"
    try:
        path = save_path(name, folder)
    except BadSaveName as exc:
        message = str(exc)
        assert message.startswith("bad save name ") and "\n" not in message and len(message) < 200
        assert not folder.exists() and list(tmp_path.iterdir()) == []
        return
    stem = path.stem
    assert path.parent == folder and path.suffix == ".json"
    assert re.fullmatch(r"[\w\-~]+", stem) and not stem.startswith((".", "-", "~"))
    assert stem.split("~")[0].upper() not in DEVICES or "~" in stem
    assert stem not in ("settings", "quicksave") and not stem.startswith("campaign-")
    write_atomic(path, "{}")
    assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*")] == [Path("saves"), Path("saves") / path.name]


def test_non_text_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="bad save name"):
        save_path(None, tmp_path)  # type: ignore[arg-type]


def test_the_games_own_files_keep_plain_names(tmp_path: Path) -> None:
    assert own_path("campaign-yuqing", tmp_path) == tmp_path / "campaign-yuqing.json"
    for stem in ("../campaign", "Campaign X", "con", ""):
        with pytest.raises(SaveError):
            own_path(stem, tmp_path)
