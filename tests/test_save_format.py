"""Save format 2: the snapshot, the migrations from older formats, and the corpus of real saves.

tests/saves_corpus/vN holds saves written by the game when N was the current format (made by
tools/make_save_corpus.py at the time and never rewritten): every one must still load, verify
and reach the same state whether it is loaded from its snapshot or by re-running its actions.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import loaded_for

from game import __version__
from game.ai.driver import make_ais, play_ai_turn
from game.content.bundle import same_content, unpack
from game.content.scenarios import LoadedScenario, load_scenario
from game.core import engine as engine_module
from game.core.actions import Action, EndTurn, Move
from game.core.engine import Engine, GameSettings
from game.core.officers import NEVER
from game.core.scenario import Scenario
from game.core.state import state_hash
from game.record import made_with as made_with_module
from game.record import match as match_module
from game.record import rerun as rerun_module
from game.record.errors import SaveError
from game.record.made_with import scenario_for
from game.record.match import Match, match_from_record
from game.record.migrations import OLDEST_VERSION, STEPS, migrate
from game.record.model import FORMAT_VERSION, GameRecord
from game.record.replay_cursor import ReplayCursor
from game.record.rerun import Rerun
from game.record.saves import load_record, parse_record, write_record
from game.record.state_digest import checkpoint_hash
from game.record.take_over import take_over
from game.record.verify import replay_engine, verify

CORPUS = Path(__file__).parent / "saves_corpus"
SETTINGS = GameSettings(max_turns=4)


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("v*/*.json"))


# -- the corpus -------------------------------------------------------------------------------


def test_the_corpus_has_real_saves_of_every_format() -> None:
    for version in range(OLDEST_VERSION, FORMAT_VERSION + 1):
        files = sorted((CORPUS / f"v{version}").glob("*.json"))
        assert len(files) >= 3, f"tests/saves_corpus/v{version} needs saves of format {version}"
        for f in files:
            assert json.loads(f.read_text(encoding="utf-8"))["format_version"] == version, f


# The corpus saves whose moves this version's rules no longer allow (made by 0.1.0, before a
# formation in single combat could no longer be attacked): the action re-running stops at.
OTHER_RULES = {f"v{n}/b3_finished.json": "action 17 (attack) is illegal on replay" for n in (1, 2, 3)}


def corpus_name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def carried_content(record: GameRecord, path: Path) -> LoadedScenario:
    """The content ``record`` was made with: its own, or (a save made before saves carried it)
    its twin's in the v3 corpus, the same game saved in format 3; the re-run checks every
    checkpoint, so content that made any difference would show."""
    if record.content is not None:
        return unpack(record.content)
    twin = load_record(CORPUS / "v3" / path.name)
    assert twin.content is not None and (twin.seed, twin.actions) == (record.seed, record.actions)
    return unpack(twin.content)


@pytest.mark.parametrize("path", corpus_files(), ids=corpus_name)
def test_every_corpus_save_loads_verifies_and_reaches_the_same_state(path: Path) -> None:
    raw = path.read_bytes()
    version = json.loads(raw)["format_version"]
    record = load_record(path)
    assert record.format_version == FORMAT_VERSION  # migrated on the way in
    assert (record.snapshot is not None) == (version >= 2)
    assert (record.content is not None) == (version >= 3)
    assert path.read_bytes() == raw  # loading (and migrating) never touches the file
    loaded = load_scenario(record.scenario_id)
    if record.content is None and not same_content(record.content_version, loaded.content_version):
        # Made before saves carried their content, and the shipped scenario or data changed
        # since: its moves cannot be re-run, which playing and verifying say in one line naming
        # the version that made it; the viewer still shows the position it was saved at.
        says = f"made with other content for scenario {record.scenario_id}: .*by version {record.game_version} "
        with pytest.raises(SaveError, match=says):
            match_from_record(record)
        with pytest.raises(SaveError, match=says):
            verify(record)
        if record.snapshot is None:
            with pytest.raises(SaveError, match=says):
                ReplayCursor(record)
        else:
            try:
                cursor = ReplayCursor(record)
            except SaveError as exc:  # the position it was saved at does not fit the map as it is now
                assert str(exc).startswith("the snapshot does not fit scenario") and "\n" not in str(exc)
            else:
                assert cursor.position == cursor.length == record.snapshot.actions
                assert cursor.state == record.snapshot.state
                assert cursor.problem is not None and cursor.problem.startswith("made with other content by version")
    # With the content it was made with, every save re-runs and checks every checkpoint.
    made_with = carried_content(record, path)
    result = verify(record, made_with)
    if corpus_name(path) in OTHER_RULES:
        # Another version's rules: its moves do not all replay here, which verify says in one
        # line naming the version; the game still goes on from where it was saved.
        assert record.game_version != __version__ and not result.ok
        assert result.problem is not None and "\n" not in result.problem
        assert result.problem.startswith(OTHER_RULES[corpus_name(path)])
        assert result.problem.endswith(
            f"(made by version {record.game_version} of the game, whose rules may differ from {__version__}'s)"
        )
        if record.snapshot is not None:
            assert match_from_record(record, made_with).state == record.snapshot.state
        return
    assert result.ok, result.problem
    assert result.actions == len(record.actions)
    played = match_from_record(record, made_with)  # from the snapshot when it has one
    replayed = replay_engine(record, loaded=made_with).state
    assert checkpoint_hash(played.state, record.legacy) == checkpoint_hash(replayed, record.legacy) == result.hash
    assert played.state == replayed
    assert played.record.actions == record.actions and played.record.checkpoints == record.checkpoints


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "v1").glob("*.json")))
def test_each_game_in_both_formats_ends_in_the_same_state(name: str) -> None:
    """The v1 and v2 corpora hold the same games: the migration loses nothing."""
    old, new = load_record(CORPUS / "v1" / name), load_record(CORPUS / "v2" / name)
    assert old.actions == new.actions and old.checkpoints == new.checkpoints
    assert (old.scenario_id, old.seed, old.settings) == (new.scenario_id, new.seed, new.settings)
    assert old.snapshot is None and new.snapshot is not None
    rerun = Rerun(old, carried_content(old, CORPUS / "v1" / name))
    if f"v1/{name}" in OTHER_RULES:
        assert not rerun.run() and (rerun.problem or "").startswith(OTHER_RULES[f"v1/{name}"])
        return
    assert rerun.run() and rerun.finished_exactly(), rerun.problem
    assert rerun.state == new.snapshot.state
    assert checkpoint_hash(rerun.state, old.legacy) == new.snapshot.hash


def test_a_format_3_save_verifies_with_the_commanders_its_hashes_hold() -> None:
    """Its states held who commanded each side: the migration keeps them for its hashes, which
    verify as they were made; the rules state alone hashes otherwise, and so do other commanders."""
    path = CORPUS / "v3" / "a1_turn4.json"
    record = load_record(path)
    assert record.legacy is not None and record.legacy.format == 3
    assert record.legacy.commanders == {"coalition": "human", "hailing": "ai"}
    assert {side: seat.commander for side, seat in record.seats.items()} == record.legacy.commanders
    assert "controllers" not in record.settings.model_dump()
    made_with = carried_content(record, path)
    assert verify(record, made_with).ok
    assert record.snapshot is not None
    assert checkpoint_hash(record.snapshot.state, None) != record.snapshot.hash
    swapped = record.legacy.model_copy(update={"commanders": {"coalition": "ai", "hailing": "human"}})
    other = record.model_copy(update={"legacy": swapped, "snapshot": None})
    result = verify(other, made_with)
    assert not result.ok and (result.problem or "").startswith("checkpoint 1 (turn 1, coalition) differs")


def test_a_game_played_on_from_a_format_3_save_keeps_its_kind_of_hash(tmp_path: Path) -> None:
    path = CORPUS / "v3" / "a1_turn4.json"
    made_with = carried_content(load_record(path), path)
    match = match_from_record(load_record(path), made_with)
    match.apply(EndTurn())
    again = load_record(match.save(tmp_path / "on.json"))
    assert again.format_version == FORMAT_VERSION and again.legacy == load_record(path).legacy
    assert len(again.checkpoints) == len(load_record(path).checkpoints) + 1
    assert verify(again, made_with).ok


def test_a_format_3_save_taken_over_under_swapped_seats_reuses_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    """The record's actions and checkpoints up to the moment are the new game's, none applied
    again; it keeps hashing the commanders the old save's hashes hold, and verifies whole."""
    path = CORPUS / "v3" / "a1_turn4.json"
    record = load_record(path)
    cursor = ReplayCursor(record, carried_content(record, path))
    cursor.seek(record.checkpoints[2].actions + 3)
    with monkeypatch.context() as m:
        m.setattr(engine_module.Engine, "apply", lambda self, action: pytest.fail("an action was applied again"))
        match = take_over(record, cursor.state, {"coalition": "ai", "hailing": "human"}, cursor.loaded)
    assert match.record.actions == record.actions[: cursor.position]
    assert match.record.checkpoints == record.checkpoints[:3]
    assert match.record.legacy == record.legacy and match.seats.humans() == ["hailing"]
    assert match.state == cursor.state
    match.apply(EndTurn())
    assert verify(match.record, cursor.loaded).ok


def test_a_snapshot_save_loads_without_re_running_anything(monkeypatch: pytest.MonkeyPatch) -> None:
    saved = load_record(CORPUS / f"v{FORMAT_VERSION}" / "a1_turn4.json")
    without = saved.model_copy(update={"snapshot": None})

    def no_replays(self: Engine, action: Action) -> None:
        raise AssertionError("an action was re-run")

    monkeypatch.setattr(engine_module.Engine, "apply", no_replays)
    assert saved.snapshot is not None and state_hash(match_from_record(saved).state) == saved.snapshot.hash
    with pytest.raises(AssertionError, match="re-run"):
        match_from_record(without)  # no snapshot: it must be replayed


# -- migrations -------------------------------------------------------------------------------


def test_every_older_format_has_a_migration_step() -> None:
    assert sorted(STEPS) == list(range(OLDEST_VERSION, FORMAT_VERSION))


def test_v1_to_v2_on_the_raw_dict() -> None:
    v1 = json.loads((CORPUS / "v1" / "a1_turn4.json").read_text(encoding="utf-8"))
    before = json.dumps(v1)
    v2 = STEPS[1](v1)
    assert v2["format_version"] == 2 and "snapshot" not in v2
    assert {k: v for k, v in v2.items() if k != "format_version"} == {
        k: v for k, v in v1.items() if k != "format_version"
    }
    assert json.dumps(v1) == before  # the input dict is left alone
    with pytest.raises(SaveError, match="old.json: damaged save: a format-1 save cannot hold a snapshot"):
        migrate({**v1, "snapshot": None}, "old.json")


@pytest.mark.parametrize(
    ("version", "says"),
    [
        (0, "format 0 is older than any this game reads"),
        (-5, "format -5 is older"),
        (FORMAT_VERSION + 1, f"made by a newer version of the game (format {FORMAT_VERSION + 1}; this one reads up to"),
        (10**6, "newer version"),
        ("2", "format_version is missing or not a number"),
        (True, "format_version is missing or not a number"),
        (2.0, "format_version is missing or not a number"),
    ],
)
def test_versions_this_game_cannot_read(version: object, says: str) -> None:
    data = json.loads((CORPUS / "v2" / "a1_turn4.json").read_text(encoding="utf-8"))
    data["format_version"] = version
    with pytest.raises(SaveError, match=f"^x.json: .*{says.replace('(', '.').replace(')', '.')}"):
        parse_record(json.dumps(data).encode(), "x.json")


# -- the snapshot, on the test field ------------------------------------------------------------


@pytest.fixture
def fixture_scenario(monkeypatch: pytest.MonkeyPatch, loaded: LoadedScenario) -> LoadedScenario:
    monkeypatch.setattr(rerun_module, "scenario_for", lambda record: loaded)
    monkeypatch.setattr(match_module, "scenario_for", lambda record: loaded)
    return loaded


def _play(loaded: LoadedScenario, turns: int, extra_moves: int = 0) -> Match:
    """Both sides played by generals for ``turns`` side-turns, then ``extra_moves`` single moves."""
    match = Match(loaded, 42, SETTINGS, seats={"a": "human", "b": "ai"})
    ais = make_ais(match)
    from game.ai.general import General

    ais["a"] = General(match.engine, "a", "normal")
    for _ in range(turns):
        play_ai_turn(match, ais[match.state.active_side.id], budget=None, others=ais)
    for _ in range(extra_moves):
        side = match.state.active_side.id
        unit, target = next(
            (f, h)
            for f in match.state.formations_of(side)
            if match.engine.can_move(f)
            for h in sorted(match.engine.moves(f.id).destinations)
            if h != f.pos
        )
        match.apply(Move(unit=unit.id, to=target))
    return match


def test_saving_a_game_in_play_writes_its_snapshot(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    match = _play(fixture_scenario, 2, extra_moves=2)
    path = match.save(tmp_path / "s.json")
    assert match.record.snapshot is None  # the record in play keeps none (the next action would outdate it)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format_version"] == FORMAT_VERSION
    snap = data["snapshot"]
    assert snap["actions"] == len(match.record.actions) == match.state.action_index
    assert snap["hash"] == state_hash(match.state)
    again = match_from_record(load_record(path))
    assert again.state == match.state
    # The loaded game goes on exactly as the original does.
    for m in (match, again):
        m.apply(EndTurn())
        ais = make_ais(m)
        play_ai_turn(m, ais["b"], budget=None, others=ais)
    assert state_hash(again.state) == state_hash(match.state)
    assert again.record.actions == match.record.actions and again.record.checkpoints == match.record.checkpoints


def test_undo_and_copies_never_save_a_stale_snapshot(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    match = _play(fixture_scenario, 2, extra_moves=1)
    assert match.undo()
    data = json.loads(match.save(tmp_path / "u.json").read_text(encoding="utf-8"))
    assert data["snapshot"]["actions"] == len(match.record.actions) and data["snapshot"]["hash"] == state_hash(
        match.state
    )
    # A copy is not the record in play: it has no state to snapshot, and is replayed on load.
    copy = match.record.model_copy(deep=True)
    data = json.loads(write_record(copy, tmp_path / "c.json").read_text(encoding="utf-8"))
    assert data["snapshot"] is None
    assert match_from_record(load_record(tmp_path / "c.json")).state == match.state


def test_two_games_loaded_from_one_save_share_nothing(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    match = _play(fixture_scenario, 2)  # kept: only a game in play has a state to snapshot
    record = load_record(match.save(tmp_path / "s.json"))
    first, second = match_from_record(record), match_from_record(record)
    first.apply(EndTurn())
    assert second.state != first.state and len(second.record.actions) == len(record.actions)
    assert record.snapshot is not None and record.snapshot.hash == state_hash(second.state)


def _tampered(match: Match, tmp_path: Path, change: Callable[[dict[str, Any]], object], rehash: bool) -> Path:
    path = match.save(tmp_path / "t.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["snapshot"]["state"])
    if rehash:  # a careful cheat recomputes the hash of the altered state
        from game.core.state import GameState

        data["snapshot"]["hash"] = state_hash(GameState.model_validate(data["snapshot"]["state"]))
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _more_men(state: dict[str, Any]) -> None:
    state["formations"]["a_han"]["men"] += 5000


def test_an_altered_snapshot_is_refused(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    match = _play(fixture_scenario, 2)
    path = _tampered(match, tmp_path, _more_men, rehash=False)
    with pytest.raises(SaveError, match=r"t\.json: the snapshot has been altered: its state hashes to"):
        load_record(path)


def test_a_rehashed_snapshot_at_a_turn_end_must_match_its_checkpoint(
    fixture_scenario: LoadedScenario, tmp_path: Path
) -> None:
    match = _play(fixture_scenario, 2)
    assert match.record.checkpoints[-1].actions == len(match.record.actions)  # saved at a turn's end
    record = load_record(_tampered(match, tmp_path, _more_men, rehash=True))
    with pytest.raises(
        SaveError, match=r"^the snapshot does not match checkpoint 2 \(turn \d+, b\): snapshot [0-9a-f]{16}, checkpoint"
    ):
        match_from_record(record)
    result = verify(record)  # and the replay says which of the two is wrong
    assert not result.ok and (result.problem or "").startswith("the snapshot differs from the replay")


def test_a_rehashed_snapshot_mid_turn_is_caught_by_verify(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    """Mid-turn no checkpoint vouches for the snapshot: loading for play trusts it, and
    ``verify`` (which re-runs every action) names it."""
    match = _play(fixture_scenario, 2, extra_moves=1)
    path = _tampered(match, tmp_path, _more_men, rehash=True)
    record = load_record(path)
    result = verify(record)
    assert not result.ok
    assert result.problem is not None and result.problem.startswith(
        f"the snapshot differs from the replay after action {len(record.actions)}"
    )
    honest = load_record(match.save(tmp_path / "h.json"))
    assert verify(honest).ok


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s["formations"]["a_han"].update(type="dragon"), "formation 'a_han' of unknown type 'dragon'"),
        (lambda s: s["formations"]["a_han"].update(pos=[90, 90]), "formation 'a_han' off the map"),
        (lambda s: s["formations"]["a_han"].update(side="c"), "formation 'a_han' of unknown side 'c'"),
        (lambda s: s["formations"]["a_han"].update(hero="nobody"), "formation 'a_han' led by unknown hero 'nobody'"),
        (lambda s: s.update(active=7), "no side number 7 to move"),
        (lambda s: s.update(scenario_id="elsewhere"), "it is a state of 'elsewhere'"),
        (lambda s: s["formations"].update(x=s["formations"]["a_han"]), "formation 'a_han' filed under 'x'"),
    ],
)
def test_a_snapshot_that_does_not_fit_the_scenario_is_refused(
    fixture_scenario: LoadedScenario, tmp_path: Path, change: Callable[[dict[str, Any]], object], says: str
) -> None:
    match = _play(fixture_scenario, 2, extra_moves=1)
    record = load_record(_tampered(match, tmp_path, change, rehash=True))
    with pytest.raises(SaveError, match="the snapshot does not fit scenario test_fixture: " + says.replace("(", ".")):
        match_from_record(record)


def test_a_snapshot_with_a_mark_that_never_runs_out_loads(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    """An officer slain marks his formation for good (``officers.NEVER``): as play leaves it."""
    match = _play(fixture_scenario, 2, extra_moves=1)
    mark = {"officer_slain_x": NEVER}
    record = load_record(_tampered(match, tmp_path, lambda s: s["formations"]["a_han"]["effects"].update(mark), True))
    assert match_from_record(record).state.formations["a_han"].effects == mark


def test_a_snapshot_out_of_place_is_refused(fixture_scenario: LoadedScenario, tmp_path: Path) -> None:
    match = _play(fixture_scenario, 2)
    path = match.save(tmp_path / "s.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"].pop()
    with pytest.raises(SaveError, match="the snapshot was taken after .* actions but the record has"):
        parse_record(json.dumps(data).encode())
    data = json.loads(path.read_text(encoding="utf-8"))
    data["snapshot"]["state"]["action_index"] += 1
    with pytest.raises(SaveError, match="its state is after action"):
        parse_record(json.dumps(data).encode())


def test_a_shortened_record_in_memory_is_replayed_not_taken_from_its_snapshot(
    fixture_scenario: LoadedScenario, tmp_path: Path
) -> None:
    """Code that trims a loaded record (to show an earlier turn) gets that turn, not the end."""
    match = _play(fixture_scenario, 3)
    record = load_record(match.save(tmp_path / "s.json"))
    assert record.snapshot is not None
    n = record.checkpoints[0].actions
    short = record.model_copy(update={"actions": record.actions[:n], "checkpoints": record.checkpoints[:1]})
    assert state_hash(match_from_record(short).state) == record.checkpoints[0].hash


# -- content that changed -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("saved", "says"),
    [
        ("{game}+{data}/0000000000", "its map or scenario file has changed since the save was made"),
        ("{game}+0000000000/{map}", "the game's unit and terrain data has changed since"),
        ("0.0.1+0000000000/0000000000", "its map or scenario file, the game's unit and terrain data and the game's"),
    ],
)
def test_a_save_of_changed_content_says_what_changed(
    monkeypatch: pytest.MonkeyPatch, scenario: Scenario, saved: str, says: str
) -> None:
    current = "0.3.0+abcdef0123/9876543210"
    game, rest = current.split("+")
    data, map_ = rest.split("/")
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: loaded_for(scenario, current))
    record = GameRecord(
        scenario_id="a9_somewhere",
        content_version=saved.format(game=game, data=data, map=map_),
        seed=1,
        settings=GameSettings(),
    )
    with pytest.raises(SaveError) as exc:
        scenario_for(record)
    message = str(exc.value)
    assert message.startswith("made with other content for scenario a9_somewhere: ")
    assert says.format(game=game) in message and "cannot be re-run" in message and "\n" not in message


def test_a_save_of_another_game_version_with_the_same_maps_and_data_plays_on(
    monkeypatch: pytest.MonkeyPatch, scenario: Scenario
) -> None:
    current = loaded_for(scenario, "0.3.0+abcdef0123/9876543210")
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: current)
    record = GameRecord(
        scenario_id="a9_somewhere", content_version="0.0.1+abcdef0123/9876543210", seed=1, settings=GameSettings()
    )
    assert scenario_for(record) is current
