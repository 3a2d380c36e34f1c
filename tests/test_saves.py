"""Records: Match checkpoints, atomic saves, hostile files, save names, verification."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import loaded_for
from hypothesis import given
from hypothesis import strategies as st

from game.ai.driver import make_ais, play_ai_turn
from game.content.errors import ContentError, ContentErrors
from game.content.scenarios import LoadedScenario
from game.core.actions import Attack, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.core.scenario import Scenario
from game.core.state import Formation, state_hash
from game.record import made_with as made_with_module
from game.record import match as match_module
from game.record import rerun as rerun_module
from game.record import saves
from game.record.errors import SaveError
from game.record.made_with import scenario_for
from game.record.match import Match, match_from_record
from game.record.model import FORMAT_VERSION, GameRecord
from game.record.names import BadSaveName, clean_name
from game.record.rerun import Rerun
from game.record.saves import load_record, parse_record, save_path, write_atomic, write_record
from game.record.verify import replay_engine, verify

SETTINGS = GameSettings(max_turns=3)


@pytest.fixture(scope="module")
def played(scenario: Scenario) -> Match:
    """A short AI game with fighting in it (three turns each)."""
    match = Match(loaded_for(scenario), 42, SETTINGS, seats={"a": "ai", "b": "ai"})
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id])
    assert any(isinstance(a, Attack) for a in match.record.actions)
    return match


@pytest.fixture
def record(played: Match) -> GameRecord:
    return played.record.model_copy(deep=True)


@pytest.fixture
def use_fixture_scenario(monkeypatch: pytest.MonkeyPatch, loaded: LoadedScenario) -> LoadedScenario:
    """Records name their scenario by id; point the lookup at the test scenario."""
    monkeypatch.setattr(rerun_module, "scenario_for", lambda record: loaded)
    monkeypatch.setattr(match_module, "scenario_for", lambda record: loaded)
    return loaded


# -- Match and its checkpoints ----------------------------------------------------------------


def test_match_checkpoints_after_every_turn_end(played: Match, scenario: Scenario, rules: Ruleset) -> None:
    rec = played.record
    ends = [i + 1 for i, a in enumerate(rec.actions) if isinstance(a, EndTurn)]
    assert [cp.actions for cp in rec.checkpoints] == ends
    assert len(rec.checkpoints) == 2 * 3  # three turns of two sides
    assert [cp.side for cp in rec.checkpoints] == ["a", "b"] * 3
    # Each checkpoint is the hash of the state right after its action.
    eng = Engine(scenario, rules, rec.seed, rec.settings)
    cps = iter(rec.checkpoints)
    for i, action in enumerate(rec.actions):
        eng.apply(action)
        if isinstance(action, EndTurn):
            assert next(cps).hash == state_hash(eng.state), f"checkpoint after action {i + 1}"
    assert state_hash(eng.state) == state_hash(played.state)
    assert (rec.scenario_id, rec.seed, rec.content_version) == ("test_fixture", 42, "test-content")


def test_match_refuses_illegal_actions_without_recording_them(loaded: LoadedScenario) -> None:
    match = Match(loaded, 1, GameSettings())
    from game.core.engine import IllegalAction

    with pytest.raises(IllegalAction):
        match.apply(Move(unit="b_levy", to=Hex(0, 0)))
    assert match.record.actions == [] and match.record.checkpoints == []


def test_match_from_record_rebuilds_the_game(
    use_fixture_scenario: LoadedScenario, record: GameRecord, played: Match
) -> None:
    rebuilt = match_from_record(record)
    assert rebuilt.state == played.state
    assert rebuilt.record.actions == record.actions
    assert rebuilt.record.checkpoints == record.checkpoints


def test_match_from_record_with_an_impossible_action(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    record.actions.insert(0, Move(unit="a_han", to=Hex(40, 40)))
    with pytest.raises(SaveError, match=r"action 1 \(move\) is illegal on replay"):
        match_from_record(record)


# -- saving and loading -----------------------------------------------------------------------


def test_round_trip(tmp_path: Path, played: Match) -> None:
    record = played.saved_record()
    path = write_record(record, tmp_path / "game.json")
    assert record.saved_at is not None and record.saved_at.endswith("Z")
    assert record.snapshot is not None and record.snapshot.state == played.state
    data = json.loads(path.read_text(encoding="utf-8"))  # plain JSON, never pickle
    assert data["format"] == "qiankun-record" and data["format_version"] == FORMAT_VERSION
    again = load_record(path)
    assert again == record
    assert again.actions == record.actions and isinstance(again.actions[0], type(record.actions[0]))
    # Saving the loaded record gives the same file.
    again.saved_at = record.saved_at
    assert again.model_dump_json(indent=1) == path.read_text(encoding="utf-8")


def test_save_creates_the_folder_and_leaves_no_temporary_files(tmp_path: Path, record: GameRecord) -> None:
    path = write_record(record, tmp_path / "deep" / "er" / "game.json")
    assert sorted(p.name for p in path.parent.iterdir()) == ["game.json"]


@pytest.mark.parametrize("victim", ["replace", "fsync"])
def test_write_atomic_keeps_the_old_file_when_the_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, victim: str
) -> None:
    path = tmp_path / "save.json"
    path.write_text("the old save", encoding="utf-8")

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, victim, boom)
    with pytest.raises(OSError):
        write_atomic(path, "the new save " * 1000)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "the old save"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]  # the temporary file is gone


def test_write_atomic_failure_midway_through_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even if the process dies after half the bytes, the target holds the old save."""
    path = tmp_path / "save.json"
    path.write_text("old", encoding="utf-8")
    real_fsync = os.fsync
    seen: list[bytes] = []

    def fsync_and_die(fd: int) -> None:
        real_fsync(fd)
        seen.append(path.read_bytes())  # what a reader would find at this moment
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync_and_die)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, "new" * 10000)
    monkeypatch.undo()
    assert seen == [b"old"]
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]


def test_a_failed_write_is_a_save_error_and_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: GameRecord
) -> None:
    path = tmp_path / "save.json"
    path.write_text("old", encoding="utf-8")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(PermissionError(13, "Permission denied")))
    with pytest.raises(SaveError) as exc:
        write_record(record, path)
    assert "Permission denied" in str(exc.value) and "\n" not in str(exc.value)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "old"


def _valid_dict(record: GameRecord) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(record.model_dump_json())
    return data


def _corrupt_payloads(record: GameRecord) -> dict[str, bytes]:
    good = record.model_dump_json(indent=1).encode()
    payloads: dict[str, bytes] = {
        "truncated": good[: len(good) // 2],
        "binary junk": bytes(range(256)) * 8,
        "empty": b"",
        "whitespace": b"  \n\t ",
        "list": b"[1, 2, 3]",
        "null": b"null",
        "string": b'"qiankun-record"',
        "not ours": b'{"name": "some other game"}',
        "deep list": b"[" * 100_000 + b"]" * 100_000,
        "deep object": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "pickle": b"\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00}\x94.",
        "bom": b"\xef\xbb\xbf" + good,
    }

    def variant(**changes: object) -> bytes:
        d = _valid_dict(record)
        d.update(changes)
        return json.dumps(d).encode()

    payloads["seed string"] = variant(seed="forty-two")
    payloads["seed 10**400"] = variant(seed=10**400)
    payloads["seed negative"] = variant(seed=-1)
    payloads["seed float"] = variant(seed=4.5)
    payloads["actions not a list"] = variant(actions="move everyone")
    payloads["settings wrong type"] = variant(settings=[1, 2])
    payloads["unknown action kind"] = variant(actions=[{"kind": "summon_dragon", "unit": "a_han"}])
    payloads["action extra field"] = variant(actions=[{"kind": "end_turn", "cheat": True}])
    payloads["move to text"] = variant(actions=[{"kind": "move", "unit": "a_han", "to": "north"}])
    payloads["bad checkpoint hash"] = variant(checkpoints=[{"actions": 1, "turn": 1, "side": "a", "hash": "../../etc"}])
    payloads["future version"] = variant(format_version=FORMAT_VERSION + 1)
    payloads["far future version"] = variant(format_version=10**400)
    payloads["version text"] = variant(format_version="1")
    payloads["version bool"] = variant(format_version=True)
    payloads["unknown field"] = variant(cheats_enabled=True)
    payloads["deep in a record"] = good[:-2] + b',"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    d = _valid_dict(record)
    del d["format_version"]
    payloads["no version"] = json.dumps(d).encode()
    # Longer than Python's limit for integer text (4,300 digits).
    compact = record.model_dump_json().encode()
    payloads["seed 5000 digits"] = compact.replace(b'"seed":42', b'"seed":' + b"9" * 5000)
    payloads["version 5000 digits"] = b'{"format":"qiankun-record","format_version":' + b"7" * 5000 + b"}"
    payloads["NaN seed"] = compact.replace(b'"seed":42', b'"seed":NaN')
    return payloads


def test_corrupt_payload_list_is_what_it_claims(record: GameRecord) -> None:
    payloads = _corrupt_payloads(record)
    assert b'"seed":42' in record.model_dump_json().encode()
    assert b"9" * 5000 in payloads["seed 5000 digits"]
    assert b'"seed":NaN' in payloads["NaN seed"]


@pytest.mark.parametrize(
    "name",
    [
        "truncated",
        "binary junk",
        "empty",
        "whitespace",
        "list",
        "null",
        "string",
        "not ours",
        "deep list",
        "deep object",
        "pickle",
        "bom",
        "seed string",
        "seed 10**400",
        "seed negative",
        "seed float",
        "actions not a list",
        "settings wrong type",
        "unknown action kind",
        "action extra field",
        "move to text",
        "bad checkpoint hash",
        "future version",
        "far future version",
        "version text",
        "version bool",
        "unknown field",
        "deep in a record",
        "no version",
        "seed 5000 digits",
        "version 5000 digits",
        "NaN seed",
    ],
)
def test_corrupt_saves_give_one_line_and_touch_nothing(tmp_path: Path, record: GameRecord, name: str) -> None:
    raw = _corrupt_payloads(record)[name]
    path = tmp_path / "bad.json"
    path.write_bytes(raw)
    stat = path.stat()
    with pytest.raises(SaveError) as exc:
        load_record(path)
    message = str(exc.value)
    assert message and "\n" not in message, message
    assert str(path) in message
    assert "Traceback" not in message
    assert path.read_bytes() == raw
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    assert [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_specific_messages(record: GameRecord) -> None:
    p = _corrupt_payloads(record)
    with pytest.raises(SaveError, match="newer version"):
        parse_record(p["future version"])
    with pytest.raises(SaveError, match="newer version"):
        parse_record(p["far future version"])
    with pytest.raises(SaveError, match="nested too deeply"):
        parse_record(p["deep list"])
    with pytest.raises(SaveError, match="not a Qiankun save"):
        parse_record(p["list"])
    with pytest.raises(SaveError, match="not UTF-8"):
        parse_record(p["binary junk"])
    with pytest.raises(SaveError, match="invalid JSON at line 1"):
        parse_record(p["empty"])
    with pytest.raises(SaveError, match=r"damaged save: seed"):
        parse_record(p["seed 10**400"])
    with pytest.raises(SaveError, match=r"damaged save: actions\.0"):
        parse_record(p["unknown action kind"])


def test_missing_oversized_and_folder_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: GameRecord
) -> None:
    with pytest.raises(SaveError, match="no such file"):
        load_record(tmp_path / "nope.json")
    with pytest.raises(SaveError, match="not a file"):
        load_record(tmp_path)
    path = write_record(record, tmp_path / "big.json")
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 100)
    with pytest.raises(SaveError, match="too large"):
        load_record(path)


# -- save names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [("", "empty"), (" \t\n ", "empty"), ("x" * 65, "too_long"), ("a\x00b", "unshowable"), ("a\u202eb", "unshowable")],
)
def test_save_path_refuses_names_it_cannot_keep_saying_why_in_one_line(tmp_path: Path, name: str, reason: str) -> None:
    with pytest.raises(BadSaveName) as exc:
        save_path(name, tmp_path)
    assert exc.value.reason == reason
    assert "\n" not in str(exc.value) and str(exc.value).startswith("bad save name ")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["quicksave", "game-1_b", "x" * 64, "0", "autosave-a1-t003-a"])
def test_plain_names_are_their_own_file_name(tmp_path: Path, name: str) -> None:
    assert save_path(name, tmp_path) == tmp_path / f"{name}.json"


@pytest.mark.parametrize(
    ("name", "start"),
    [
        ("with space", "with-space~"),
        ("三国 第一局", "三国-第一局~"),
        ("Game-1_B", "Game-1_B~"),
        ("a.json", "a-json~"),
        ("c:x", "c-x~"),
        ("ｆｕｌｌ", "full~"),  # full-width letters folded in the file name only
        ("!!!", "save~"),
        ("settings", "save-settings~"),
        ("campaign-yuqing", "save-campaign-yuqing~"),
    ],
)
def test_other_names_get_a_safe_file_name_with_a_hash(tmp_path: Path, name: str, start: str) -> None:
    path = save_path(name, tmp_path)
    assert path.parent == tmp_path and path.name.startswith(start) and path.suffix == ".json"
    assert re.fullmatch(r"[\w\-]+~[0-9a-f]{10}\.json", path.name)


def test_a_name_is_cleaned_before_it_is_saved(tmp_path: Path) -> None:
    assert clean_name("  my \t  game\n") == "my game"
    assert save_path("  my   game ", tmp_path) == save_path("my game", tmp_path)
    # The same letters composed or decomposed are the same name.
    assert save_path("caf\u00e9", tmp_path) == save_path("cafe\u0301", tmp_path)
    assert clean_name("长" * 64) == "长" * 64


@given(st.text(max_size=80), st.text(max_size=80))
def test_two_different_names_never_share_a_file(a: str, b: str) -> None:
    """Not even where the file system ignores case; and every file stays in the folder."""
    folder = Path("/saves")
    try:
        pa, pb = save_path(a, folder), save_path(b, folder)
    except BadSaveName:
        return
    assert pa.parent == folder == pb.parent and not pa.name.startswith(".")
    assert (pa.name.casefold() == pb.name.casefold()) == (clean_name(a) == clean_name(b))


def test_names_that_differ_in_case_or_punctuation_have_their_own_files(tmp_path: Path) -> None:
    names = ["game", "Game", "GAME", "a b", "a-b", "a_b", "a b!", "con", "CON", "Con"]
    files = {save_path(n, tmp_path).name.casefold() for n in names}
    assert len(files) == len(names)
    assert save_path("con", tmp_path).stem != "con"  # a device name on Windows


def test_a_named_save_round_trips_its_name(tmp_path: Path, played: Match) -> None:
    for name in ("三国 第一局", "Valley mouth, try 2/3", "長夜 · 第二回"):
        path = write_record(played.saved_record(name), save_path(name, tmp_path))
        loaded = load_record(path)
        assert loaded.name == name and loaded.actions == played.record.actions
    assert played.record.name is None  # making a save does not rename the game in play
    assert load_record(write_record(played.saved_record(), tmp_path / "own.json")).name is None


@pytest.mark.parametrize("name", ["a\nb", "x" * 65, " padded", "", 7])
def test_a_save_holding_a_name_the_game_would_not_write_is_damaged(
    tmp_path: Path, record: GameRecord, name: object
) -> None:
    data = json.loads(write_record(record, tmp_path / "s.json").read_text(encoding="utf-8"))
    data["name"] = name
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match=r"damaged save: name: ") as exc:
        load_record(path)
    assert "\n" not in str(exc.value)


# -- verification -----------------------------------------------------------------------------


def test_verify_accepts_an_honest_record(
    use_fixture_scenario: LoadedScenario, record: GameRecord, played: Match
) -> None:
    result = verify(record)
    assert result.ok and result.problem is None
    assert result.actions == len(record.actions)
    assert result.hash == state_hash(played.state) and result.turns == played.state.turn


def test_verify_after_a_save_round_trip(
    use_fixture_scenario: LoadedScenario, record: GameRecord, tmp_path: Path
) -> None:
    assert verify(load_record(write_record(record, tmp_path / "r.json"))).ok


def test_verify_catches_a_tampered_checkpoint(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    cp = record.checkpoints[2]
    record.checkpoints[2] = cp.model_copy(update={"hash": "0" * 16 if cp.hash != "0" * 16 else "1" * 16})
    result = verify(record)
    assert not result.ok and result.problem is not None
    assert result.problem.startswith("checkpoint 3 ")
    assert result.actions == cp.actions  # stopped right there


def test_verify_catches_a_changed_seed(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    record.seed += 1  # other dice: the first checkpoint after a fight differs
    result = verify(record)
    assert not result.ok and "differs" in (result.problem or "")


def test_verify_catches_an_illegal_action(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    i = next(i for i, a in enumerate(record.actions) if isinstance(a, Move))
    record.actions[i] = Move(unit=record.actions[i].unit, to=Hex(99, 99))  # type: ignore[union-attr]
    result = verify(record)
    assert not result.ok
    assert result.problem is not None and f"action {i + 1} (move) is illegal on replay" in result.problem
    assert result.actions == i


def test_verify_catches_missing_and_extra_checkpoints(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    short = record.model_copy(deep=True)
    short.checkpoints.pop()
    result = verify(short)
    assert not result.ok and "is not in the record" in (result.problem or "")
    long = record.model_copy(deep=True)
    long.checkpoints.append(long.checkpoints[-1])
    result = verify(long)
    assert not result.ok and "never reached" in (result.problem or "")


def test_verify_catches_a_shifted_checkpoint(use_fixture_scenario: LoadedScenario, record: GameRecord) -> None:
    cp = record.checkpoints[0]
    record.checkpoints[0] = cp.model_copy(update={"actions": cp.actions + 1})
    assert not verify(record).ok


def test_replay_engine_stops_where_asked(
    use_fixture_scenario: LoadedScenario, record: GameRecord, played: Match
) -> None:
    assert replay_engine(record).state == played.state
    n = record.checkpoints[1].actions
    assert state_hash(replay_engine(record, n).state) == record.checkpoints[1].hash


def test_scenario_for_checks_the_content_version(
    monkeypatch: pytest.MonkeyPatch, record: GameRecord, scenario: Scenario
) -> None:
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: loaded_for(scenario, "other-content"))
    with pytest.raises(SaveError, match="made with other content"):
        scenario_for(record)
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: loaded_for(scenario, record.content_version))
    assert scenario_for(record).scenario is scenario

    def unknown(sid: str) -> LoadedScenario:
        raise KeyError(sid)

    monkeypatch.setattr(made_with_module, "load_scenario", unknown)
    with pytest.raises(SaveError, match="unknown scenario 'test_fixture'"):
        scenario_for(record)

    def broken(sid: str) -> LoadedScenario:
        raise ContentErrors([ContentError("maps/x.tmx", "map", "orientation", "must be hexagonal")])

    monkeypatch.setattr(made_with_module, "load_scenario", broken)
    with pytest.raises(SaveError, match="does not load"):
        scenario_for(record)


# -- tamper-evident records --------------------------------------------------------------------


def _two_independent_moves() -> GameRecord:
    """A1 turn 1: two coalition formations far apart each take one step, then the turn ends."""
    from game.core.hexgrid import distance
    from game.record.match import new_match

    match = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "human"}, seed=3)
    movers: list[Formation] = []
    for f in sorted(match.state.formations_of("coalition"), key=lambda f: (f.pos.q, f.pos.r)):
        reach = match.engine.moves(f.id).destinations
        if reach and all(distance(f.pos, m.pos) > 6 for m in movers):
            movers.append(f)
        if len(movers) == 2:
            break
    for f in movers:
        step = min(match.engine.moves(f.id).destinations, key=lambda h: (distance(f.pos, h), h.q, h.r))
        match.apply(Move(unit=f.id, to=step))
    match.apply(EndTurn())
    return match.saved_record()


def test_verify_names_the_actions_of_an_edited_turn_even_when_the_state_comes_out_the_same() -> None:
    record = _two_independent_moves()
    assert verify(record).ok
    a, b = record.actions[0], record.actions[1]
    assert isinstance(a, Move) and isinstance(b, Move) and a.unit != b.unit
    # Two independent moves swapped: the state after them is the same, the record is not.
    edited = record.model_copy(deep=True, update={"snapshot": None})
    edited.actions[0], edited.actions[1] = b, a
    blind = Rerun(edited.model_copy(update={"checkpoints": []}))
    blind.run()  # stops after the EndTurn, at the checkpoint it does not find
    assert blind.position == 3 and state_hash(blind.state) == record.checkpoints[0].hash
    result = verify(edited)
    assert not result.ok
    assert result.problem == (
        "the actions before checkpoint 1 (turn 1, coalition) are not those it was made with: "
        "one of actions 1 to 3 has been changed, moved, added or removed"
    )


def test_an_older_record_without_digests_still_verifies(
    use_fixture_scenario: LoadedScenario, record: GameRecord
) -> None:
    plain = record.model_copy(
        update={"checkpoints": [cp.model_copy(update={"digest": None}) for cp in record.checkpoints]}
    )
    assert verify(plain).ok
