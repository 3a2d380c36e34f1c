"""Saves survive an update of the game's maps and data: a battle saved before the shipped map
changed loads, plays on, verifies and replays exactly with the content it carries, and a
campaign in progress goes on into its next battle with the new map."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.content.scenarios import LoadedScenario, load_scenario, load_scenario_file
from game.core.actions import EndTurn
from game.paths import MAPS_DIR, TILES_DIR
from game.record import made_with as made_with_module
from game.record.campaign_run import CampaignRun
from game.record.campaign_saves import load_progress, save_progress
from game.record.match import match_from_record, new_match
from game.record.replay_cursor import ReplayCursor
from game.record.saves import load_record
from game.record.verify import verify

A1 = "a1_valley_mouth"


def changed_a1(folder: Path) -> LoadedScenario:
    """The shipped A1 after an update that changed one hex of its map (plain to hills, away
    from every formation), read from a copy of the maps and tiles."""
    shutil.copytree(MAPS_DIR, folder / "maps")
    shutil.copytree(TILES_DIR, folder / "assets" / "tiles")
    tmx = folder / "maps" / f"{A1}.tmx"
    text = tmx.read_text(encoding="utf-8")
    head, data = text.split('<data encoding="csv">\n', 1)
    first_row, rest = data.split("\n", 1)
    cells = first_row.split(",")
    cells[1] = "9" if cells[1] != "9" else "5"
    tmx.write_text(head + '<data encoding="csv">\n' + ",".join(cells) + "\n" + rest, encoding="utf-8")
    return load_scenario_file(folder / "maps" / f"{A1}.toml")


@pytest.fixture
def updated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LoadedScenario:
    """From here on the game's own A1 is the changed one."""
    new = changed_a1(tmp_path / "update")
    original = load_scenario
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: new if sid == A1 else original(sid))
    monkeypatch.setattr("game.record.campaign_run.load_scenario", lambda sid: new if sid == A1 else original(sid))
    return new


def test_a_battle_saved_before_the_update_loads_plays_and_replays_with_its_own_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = new_match(A1, {"coalition": "human", "hailing": "ai"}, seed=5)
    for _ in range(3):
        match.apply(EndTurn())
    path = match.save(tmp_path / "before.json")
    before = match.loaded.content_version
    # The update: from here on the game's own A1 is the changed one.
    new = changed_a1(tmp_path / "update")
    monkeypatch.setattr(made_with_module, "load_scenario", lambda sid: new)
    assert new.content_version != before  # the update really changed the map

    record = load_record(path)
    again = match_from_record(record)
    assert again.loaded.content_version == before and again.state == match.state
    assert again.loaded.scenario.board.terrain == match.loaded.scenario.board.terrain
    assert verify(record).ok
    cursor = ReplayCursor(record)
    cursor.seek(cursor.length)
    assert cursor.problem is None and cursor.state == match.state
    # It plays on and is saved again with the same content.
    again.apply(EndTurn())
    later = load_record(again.save(tmp_path / "later.json"))
    assert later.content == record.content and verify(later).ok


def test_a_campaign_in_progress_goes_on_after_the_update(tmp_path: Path, updated: LoadedScenario) -> None:
    from game.content.campaigns import load_campaigns
    from game.core import campaign as camp

    campaigns = load_campaigns()
    spec = campaigns.campaigns["yuqing"]
    save_progress(camp.new_progress(spec, seed=9), tmp_path)  # saved before the update
    progress = load_progress("yuqing", tmp_path)
    assert progress is not None
    run = CampaignRun(campaigns, spec, progress, tmp_path)
    battle = run.start_battle()
    assert battle.loaded is updated  # the next battle is fought on the new map
    battle.apply(EndTurn())
    assert match_from_record(load_record(battle.save(tmp_path / "b.json"))).state == battle.state


# -- a bundle is untrusted input ---------------------------------------------------------------


def _bundle(files: object, fmt: int = 1) -> str:
    import base64
    import json
    import zlib

    return base64.b64encode(zlib.compress(json.dumps({"format": fmt, "files": files}).encode())).decode()


@pytest.mark.parametrize(
    ("bundle", "says"),
    [
        ("not base64 at all!", "not a content bundle"),
        (_bundle({"../../outside.toml": "x"}), "names a file outside itself"),
        (_bundle({"/etc/passwd": "x"}), "names a file outside itself"),
        (_bundle({"maps/a.toml": 7}), "names a file outside itself"),
        (_bundle({"maps/a.toml": "x"}, fmt=99), "of a format this game reads"),
        (_bundle({"data/units.toml": "x"}), "holds 0 scenario files"),
        (_bundle({"maps/a.toml": "x" * (5 * 1024 * 1024)}), "unpacks to more than"),
    ],
)
def test_a_damaged_or_hostile_bundle_is_refused_in_one_line(tmp_path: Path, bundle: str, says: str) -> None:
    from game.record.errors import SaveError

    match = new_match(A1, {"coalition": "human", "hailing": "ai"}, seed=5)
    record = load_record(match.save(tmp_path / "s.json"))
    # As if the game's own A1 had changed since: the save must fall back on what it carries.
    other = record.model_copy(update={"content_version": "0.1.0+0000000000/0000000000", "content": bundle})
    with pytest.raises(SaveError) as exc:
        match_from_record(other)
    message = str(exc.value)
    assert message.startswith("the content it carries cannot be read: ") and says in message
    assert "\n" not in message
    assert not (tmp_path.parent / "outside.toml").exists()


def test_content_that_is_not_what_the_save_was_made_with_is_refused(tmp_path: Path) -> None:
    from game.content.bundle import pack
    from game.record.errors import SaveError

    record = load_record(new_match(A1, {"coalition": "human", "hailing": "ai"}, seed=5).save(tmp_path / "s.json"))
    other = record.model_copy(
        update={"content_version": "0.1.0+0000000000/0000000000", "content": pack(load_scenario("a2_rear_guard_trap"))}
    )
    with pytest.raises(SaveError, match="^the content it carries is not the content it was made with$"):
        match_from_record(other)
