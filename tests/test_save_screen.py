"""The save screen, the save list and autosaves: every saved game listed with what it is, save,
load, delete asked twice, autosaves at the start of every human turn and only the newest kept."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import Unit, loaded_for, make_scenario

from game.core.actions import EndTurn
from game.core.engine import GameSettings
from game.record import save_list, saves
from game.record.match import Match, new_match
from game.record.saves import SaveError
from game.settings import UserSettings, load_settings, save_settings
from game.simulate import run_game
from game.ui import battle as battle_module
from game.ui import saves_screen as screen_module
from game.ui.battle import BattleScene
from game.ui.saves_screen import SaveScreen
from game.ui.settings_screen import SettingsScene

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6
UNITS = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (6, 2))]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every save the screens write goes to a folder of this test's own."""
    folder = tmp_path / "saves"
    folder.mkdir()

    def in_tmp(name: str, saves_dir: Path = folder) -> Path:
        return saves.save_path(name, saves_dir)

    for module in (battle_module, screen_module):
        monkeypatch.setattr(module, "save_path", in_tmp)
    return folder


def push(app, button) -> None:
    assert button.is_enabled, button.text
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)], 0.0)


def field_battle(app, rules) -> BattleScene:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(controllers={"a": "human", "b": "ai"}))
    return app.go("battle", match=match)


def a1_save(folder: Path, name: str, seed: int = 1) -> Path:
    from game.content.scenarios import load_scenario

    result = run_game(load_scenario("a1_valley_mouth"), seed, max_turns=1, save_dir=folder)
    path = folder / f"{name}.json"
    Path(result["save"]).rename(path)
    return path


def test_the_list_shows_games_newest_first_autosaves_apart_and_bad_files_with_their_reason(folder) -> None:
    a1_save(folder, "older")
    a1_save(folder, "newer", seed=2)
    record = saves.load_record(folder / "newer.json")
    record.saved_at = "2999-01-01T00:00:00Z"
    saves.save_record(record, folder / "newer.json")  # save_record stamps the time anew
    a1_save(folder, "autosave-a1-x", seed=3)
    (folder / "junk.json").write_bytes(b"\x00\xff")
    (folder / "campaign-yuqing.json").write_text("{}")
    (folder / "settings.json").write_text("{}")
    (folder / ".older.json.1234.tmp").write_text("half")  # a write that may still be going on
    abandoned = folder / ".newer.json.5678.tmp"  # what a writer killed long ago left behind
    abandoned.write_text("hal")
    long_ago = time.time() - saves.STALE_TEMP_SECONDS - 60
    os.utime(abandoned, (long_ago, long_ago))
    entries = save_list.list_saves(folder)
    names = [e.name for e in entries]
    assert set(names) == {"older", "newer", "autosave-a1-x", "junk"}
    assert (folder / ".older.json.1234.tmp").exists() and not abandoned.exists()
    junk = next(e for e in entries if e.name == "junk")
    assert junk.record is None and "not UTF-8" in junk.problem
    newer = next(e for e in entries if e.name == "newer")
    assert newer.turn == 1 and newer.humans == [] and not newer.autosave
    assert next(e for e in entries if e.name == "autosave-a1-x").autosave


def test_deleting_stays_inside_the_saves_folder(folder, tmp_path) -> None:
    outside = tmp_path / "precious.json"
    outside.write_text("{}")
    for path in (outside, folder / "campaign-yuqing.json", folder / ".." / "precious.json"):
        with pytest.raises(SaveError):
            save_list.delete_save(path, folder)
    assert outside.exists()


def test_the_screen_saves_loads_and_deletes_only_after_asking_twice(app, rules, folder) -> None:
    battle = field_battle(app, rules)
    battle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
    screen = app.scene
    assert isinstance(screen, SaveScreen) and screen.battle is battle
    screen.name_entry.set_text("my_game")
    push(app, screen.save_button)
    assert (folder / "my_game.json").exists()
    assert screen.selected == "my_game" and "my_game" in screen.note
    screen.name_entry.set_text("../escape")
    push(app, screen.save_button)
    assert "bad save name" in screen.note and not (folder.parent / "escape.json").exists()
    push(app, screen.delete_button)
    assert (folder / "my_game.json").exists() and screen.delete_button.text == "Really delete?"
    push(app, screen.delete_button)
    assert not (folder / "my_game.json").exists()
    push(app, screen.back_button)
    assert app.scene is battle


def test_loading_from_the_screen_opens_the_saved_battle(app, folder) -> None:
    match = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=4)
    saves.save_record(match.record, folder / "mine.json")
    screen = SaveScreen(app)
    app.switch(screen)
    app.step([], 0.0)
    assert screen.selected == "mine"
    push(app, screen.load_button)
    scene = app.scene
    assert isinstance(scene, BattleScene)
    assert scene.match.record.actions == saves.load_record(folder / "mine.json").actions


def test_an_autosave_is_written_at_the_start_of_each_human_turn_and_only_the_newest_kept(app, rules, folder) -> None:
    save_settings(UserSettings(autosaves=2), folder)
    battle = field_battle(app, rules)
    for _ in range(3):
        battle.submit(EndTurn())  # the computer's turn follows, then ours begins again
        while battle.state.active_side.id == "b" and not battle.state.over:
            battle.submit(EndTurn())
    autos = [e for e in save_list.list_saves(folder) if e.autosave]
    assert len(autos) == 2
    assert [e.turn for e in autos] == sorted((e.turn for e in autos), reverse=True)
    newest = saves.load_record(autos[0].path)
    assert newest.actions == battle.match.record.actions  # saved as the turn began


def test_no_autosaves_when_the_player_keeps_none(app, rules, folder) -> None:
    save_settings(UserSettings(autosaves=0), folder)
    battle = field_battle(app, rules)
    battle.submit(EndTurn())
    battle.submit(EndTurn())
    assert not [e for e in save_list.list_saves(folder) if e.autosave]


def test_choosing_fewer_autosaves_lets_the_extra_ones_go(app, folder) -> None:
    for i in range(3):
        a1_save(folder, f"autosave-a1-{i}", seed=i + 1)
    screen = SettingsScene(app, saves_dir=folder)
    app.switch(screen)
    screen.keep_autosaves(1)
    assert load_settings(folder).autosaves == 1
    assert len([e for e in save_list.list_saves(folder) if e.autosave]) == 1


def test_damaged_settings_mean_the_defaults(folder) -> None:
    (folder / "settings.json").write_text("[1, 2")
    assert load_settings(folder) == UserSettings()
    assert (folder / "settings.json").read_text() == "[1, 2"


def test_in_a_hotseat_battle_no_replay_is_watched_from_the_save_screen(app, rules, folder) -> None:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(controllers={"a": "human", "b": "human"}))
    app.go("battle", match=match)
    app.scene.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))  # past the hand-over
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.is_hotseat()
    a1_save(folder, "older")
    battle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
    screen = app.scene
    assert isinstance(screen, SaveScreen)
    push(app, next(button for button, name in screen.rows.items() if name == "older"))
    assert screen.selected == "older"
    # A replay shows both sides: the player at the screen would see the other's army.
    assert screen.load_button.is_enabled and not screen.watch_button.is_enabled
    screen.watch()
    assert app.scene is screen
