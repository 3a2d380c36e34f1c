"""The save screen, the save list and autosaves: every saved game listed with what it is, save,
load, delete asked twice, autosaves at the start of every human turn and only the newest kept."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import Unit, current, loaded_for, make_scenario, pass_curtain
from pygame_gui.core import UIContainer
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine

from game.core.actions import EndTurn
from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.profile import Profile
from game.record import save_list, saves
from game.record.errors import SaveError
from game.record.match import Match, new_match
from game.record.seats import Commander
from game.settings import UserSettings, load_settings, save_settings
from game.simulate import run_game
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.dialog import DialogScene
from game.ui.saves_screen import SaveScreen
from game.ui.settings_screen import SettingsScene

pytestmark = pytest.mark.usefixtures("english")
SEATS: dict[str, Commander] = {"a": "human", "b": "ai"}

FIELD = ("........",) * 6
UNITS = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (6, 2))]


@pytest.fixture
def folder(saves_folder: Path) -> Path:
    return saves_folder


def push(app: App, button: object) -> None:
    assert isinstance(button, UIButton), button
    assert button.is_enabled, button.text
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)], 0.0)


def field_battle(app: App, rules: Ruleset, autosaves: int | None = None) -> BattleScene:
    """A battle on a small field. ``autosaves``: how many the player keeps; when not given, the
    autosave every battle gets as it begins is let go, so a test of the save screen lists only
    the saves it makes."""
    if autosaves is not None:
        save_settings(UserSettings(autosaves=autosaves), app.saves.folder)
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "ai"})
    scene = app.go("battle", match=match)
    assert isinstance(scene, BattleScene)
    if autosaves is None:
        for path in app.saves.folder.glob("autosave-*.json"):
            path.unlink()
    return scene


def a1_save(folder: Path, name: str, seed: int = 1) -> Path:
    from game.content.scenarios import load_scenario

    result = run_game(load_scenario("a1_valley_mouth"), seed, max_turns=1, save_dir=folder)
    path = folder / f"{name}.json"
    Path(result["save"]).rename(path)
    return path


def test_the_list_shows_games_newest_first_autosaves_apart_and_bad_files_with_their_reason(folder: Path) -> None:
    a1_save(folder, "older")
    a1_save(folder, "newer", seed=2)
    record = saves.load_record(folder / "newer.json")
    record.saved_at = "2999-01-01T00:00:00Z"
    saves.write_record(record, folder / "newer.json")
    a1_save(folder, "autosave-a1-x", seed=3)
    (folder / "junk.json").write_bytes(b"\x00\xff")
    (folder / "campaign-yuqing.json").write_text("{}")
    (folder / "settings.json").write_text("{}")
    (folder / ".older.json.1234.tmp").write_text("half")  # a write still going on: locked
    abandoned = folder / ".newer.json.5678.tmp"  # what a killed writer left behind
    abandoned.write_text("hal")
    with open(folder / ".older.json.1234.tmp", "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        entries = save_list.list_saves(folder)
    names = [e.name for e in entries]
    assert set(names) == {"older", "newer", "autosave-a1-x", "junk"}
    assert (folder / ".older.json.1234.tmp").exists() and not abandoned.exists()
    junk = next(e for e in entries if e.name == "junk")
    assert junk.record is None and junk.problem is not None and "not UTF-8" in junk.problem
    newer = next(e for e in entries if e.name == "newer")
    assert newer.turn == 1 and newer.humans == [] and not newer.autosave
    assert next(e for e in entries if e.name == "autosave-a1-x").autosave


def test_deleting_stays_inside_the_saves_folder(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "precious.json"
    outside.write_text("{}")
    for path in (outside, folder / "campaign-yuqing.json", folder / ".." / "precious.json"):
        with pytest.raises(SaveError):
            save_list.delete_save(path, folder)
    assert outside.exists()


def test_the_screen_saves_loads_and_deletes_only_after_asking_twice(app: App, rules: Ruleset, folder: Path) -> None:
    battle = field_battle(app, rules)
    battle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
    screen = app.scene
    assert isinstance(screen, SaveScreen) and screen.battle is battle
    name_box(screen).set_text("my_game")
    push(app, screen.save_button)
    assert (folder / "my_game.json").exists()
    assert screen.selected == folder / "my_game.json" and "my_game" in screen.note
    assert screen.delete_button.text == "Delete"
    push(app, screen.delete_button)
    assert (folder / "my_game.json").exists() and screen.delete_button.text == "Really delete?"
    push(app, screen.delete_button)
    assert not (folder / "my_game.json").exists()
    assert screen.selected is None and screen.delete_button.text == "Delete" and not screen.delete_button.is_enabled
    push(app, screen.back_button)
    assert app.scene is battle


def row_texts(screen: SaveScreen) -> list[str]:
    rows = screen.container.get_container()
    assert isinstance(rows, UIContainer)
    return [el.text for el in rows.elements if isinstance(el, UILabel)]


def name_box(screen: SaveScreen) -> UITextEntryLine:
    """The box the save's name is typed in."""
    assert screen.name_entry is not None
    return screen.name_entry


def open_saves(battle: BattleScene) -> SaveScreen:
    battle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
    screen = battle.app.scene
    assert isinstance(screen, SaveScreen)
    return screen


def test_a_name_with_spaces_and_chinese_is_saved_listed_and_loaded_by_that_name(
    app: App, rules: Ruleset, folder: Path
) -> None:
    battle = field_battle(app, rules)
    battle.submit(EndTurn())
    screen = open_saves(battle)
    name_box(screen).set_text("  三国 第一局 ")
    push(app, screen.save_button)
    (path,) = folder.glob("*.json")
    assert path == screen.selected and path.name.startswith("三国-第一局~")
    assert "三国 第一局" in screen.note
    (entry,) = save_list.list_saves(folder)
    assert entry.name == "三国 第一局" and entry.named and entry.path == path
    # The list shows the name, and the file apart.
    assert "三国 第一局" in row_texts(screen) and path.name in row_texts(screen)
    assert saves.load_record(path).actions == battle.match.record.actions
    # Loaded and saved again: the name is offered, and it is the same save.
    played_on = Match(battle.match.loaded, 2, battle.match.record.settings, record=saves.load_record(path))
    assert played_on.record.name == "三国 第一局"
    app.go("battle", match=played_on)
    screen = open_saves(current(app, BattleScene))
    assert name_box(screen).get_text() == "三国 第一局"


def test_a_refused_name_says_why_and_stays_in_the_field(app: App, rules: Ruleset, folder: Path) -> None:
    screen = open_saves(field_battle(app, rules))
    for typed, why in (
        ("x" * 1000, "That name has 1000 characters; a save name can have at most 64."),
        ("   ", "Type a name to save the game under."),
        ("bad\u200bname", "That name holds an invisible or control character"),
    ):
        name_box(screen).set_text(typed)
        push(app, screen.save_button)
        assert screen.note.startswith(why)
        assert name_box(screen).get_text() == typed  # the screen was built again; the text is kept
        assert list(folder.iterdir()) == []
    # A window resize builds the screen again too, and keeps what was typed.
    name_box(screen).set_text("half typed")
    app.step([pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600)], 0.0)
    assert app.scene is screen and name_box(screen).get_text() == "half typed"


def test_hostile_names_from_the_screen_stay_in_the_folder(app: App, rules: Ruleset, folder: Path) -> None:
    screen = open_saves(field_battle(app, rules))
    for typed in ("../escape", "/tmp/x", "CON", ".hidden", "a\\b"):
        name_box(screen).set_text(typed)
        push(app, screen.save_button)
        assert f"Saved as “{typed}”" == screen.note
    assert not (folder.parent / "escape.json").exists()
    listed = {e.name: e.path for e in save_list.list_saves(folder)}
    assert set(listed) == {"../escape", "/tmp/x", "CON", ".hidden", "a\\b"}
    assert all(p.parent == folder and not p.name.startswith(".") for p in listed.values())


def test_saving_over_a_save_asks_and_only_the_confirmed_press_replaces_it(
    app: App, rules: Ruleset, folder: Path
) -> None:
    battle = field_battle(app, rules)
    screen = open_saves(battle)
    name_box(screen).set_text("Mine")
    push(app, screen.save_button)
    (path,) = folder.glob("*.json")
    before = path.read_bytes()
    battle.submit(EndTurn())  # the game goes on while the screen is open over it
    # A different name for another file does not ask.
    name_box(screen).set_text("Mine too")
    push(app, screen.save_button)
    assert app.scene is screen and len(list(folder.glob("*.json"))) == 2
    # The same name (as typed, or as chosen from the list) asks, and Cancel keeps the old save.
    push(app, next(b for b, p in screen.rows.items() if p == path))
    assert name_box(screen).get_text() == "Mine"
    push(app, screen.save_button)
    dialog = app.scene
    assert isinstance(dialog, DialogScene) and "Mine" in dialog.text
    push(app, dialog.buttons[1])  # Cancel
    assert app.scene is screen and path.read_bytes() == before
    name_box(screen).set_text(" Mine ")
    push(app, screen.save_button)
    dialog = app.scene
    assert isinstance(dialog, DialogScene)
    assert dialog.choices[0][0] == "Replace it"
    push(app, dialog.buttons[0])
    assert app.scene is screen and path.read_bytes() != before
    assert saves.load_record(path).actions == battle.match.record.actions
    assert screen.note == "Saved as “Mine”" and screen.selected == path
    assert len(list(folder.glob("*.json"))) == 2


def test_an_old_save_keeps_its_file_name_as_its_name_and_is_saved_over_in_place(
    app: App, rules: Ruleset, folder: Path
) -> None:
    a1_save(folder, "Old_Game")
    (entry,) = save_list.list_saves(folder)
    assert entry.name == "Old_Game" and not entry.named
    screen = open_saves(field_battle(app, rules))
    name_box(screen).set_text("Old_Game")
    push(app, screen.save_button)
    push(app, current(app, DialogScene).buttons[0])  # replace it
    assert [p.name for p in folder.iterdir()] == ["Old_Game.json"]
    assert saves.load_record(folder / "Old_Game.json").name == "Old_Game"


def test_loading_from_the_screen_opens_the_saved_battle(app: App, folder: Path) -> None:
    match = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=4)
    match.save(folder / "mine.json")
    screen = SaveScreen(app)
    app.switch(screen)
    app.step([], 0.0)
    assert screen.selected == folder / "mine.json"
    push(app, screen.load_button)
    scene = app.scene
    assert isinstance(scene, BattleScene)
    assert scene.match.record.actions == saves.load_record(folder / "mine.json").actions


def test_an_autosave_is_written_at_the_start_of_each_human_turn_and_only_the_newest_kept(
    app: App, rules: Ruleset, folder: Path
) -> None:
    battle = field_battle(app, rules, autosaves=2)
    for _ in range(3):
        battle.submit(EndTurn())  # the computer's turn follows, then ours begins again
        while battle.state.active_side.id == "b" and not battle.state.over:
            battle.submit(EndTurn())
    autos = [e for e in save_list.list_saves(folder) if e.autosave]
    assert len(autos) == 2
    assert [e.turn for e in autos] == sorted((e.turn for e in autos), reverse=True)
    newest = saves.load_record(autos[0].path)
    assert newest.actions == battle.match.record.actions  # saved as the turn began


def test_a_battle_is_autosaved_as_it_begins(app: App, rules: Ruleset, folder: Path) -> None:
    battle = field_battle(app, rules, autosaves=2)
    (auto,) = [e for e in save_list.list_saves(folder) if e.autosave]
    assert auto.turn == 1 and saves.load_record(auto.path).actions == []
    assert save_list.game_id(saves.load_record(auto.path)) == save_list.game_id(battle.match.record)


def play_turns(battle: BattleScene, n: int) -> None:
    for _ in range(n):
        battle.submit(EndTurn())  # the computer's turn follows, then ours begins again
        while battle.state.active_side.id == "b" and not battle.state.over:
            battle.submit(EndTurn())


def test_each_game_keeps_its_own_autosaves(app: App, rules: Ruleset, folder: Path) -> None:
    save_settings(UserSettings(autosaves=2), folder)
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=9)
    settings = GameSettings()
    first = app.go("battle", match=Match(loaded_for(scenario), 2, settings, seats=SEATS))
    assert isinstance(first, BattleScene)
    play_turns(first, 3)
    first_game = save_list.game_id(first.match.record)
    mine = [e.path for e in save_list.list_saves(folder) if e.autosave]
    assert len(mine) == 2 and all(first_game in p.name for p in mine)
    # A second game (another seed) autosaves as often: the first game's autosaves stay.
    second = app.go("battle", match=Match(loaded_for(scenario), 3, settings))
    assert isinstance(second, BattleScene)
    play_turns(second, 3)
    pools = save_list.autosave_pools(save_list.list_saves(folder))
    assert sorted(len(pool) for pool in pools) == [2, 2]
    assert all(p.exists() for p in mine)
    # The first game loaded from its newest autosave and played on is the same game: its own
    # pool turns over, the second game's is left alone.
    second_autos = {e.path for pool in pools if pool[0].game != first_game for e in pool}
    newest = saves.load_record(mine[0])
    assert save_list.game_id(newest) == first_game
    again = app.go("battle", match=Match(loaded_for(scenario), 2, settings, record=newest))
    assert isinstance(again, BattleScene)
    play_turns(again, 2)
    pools = save_list.autosave_pools(save_list.list_saves(folder))
    assert sorted(len(pool) for pool in pools) == [2, 2]
    assert {e.path for pool in pools if pool[0].game != first_game for e in pool} == second_autos
    (first_pool,) = [pool for pool in pools if pool[0].game == first_game]
    assert [e.turn for e in first_pool] == [again.state.turn, again.state.turn - 1]


def test_the_save_screen_lists_each_games_autosaves_under_it(app: App, rules: Ruleset, folder: Path) -> None:
    save_settings(UserSettings(autosaves=3), folder)
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=9)
    settings = GameSettings()
    first = app.go("battle", match=Match(loaded_for(scenario), 2, settings, seats=SEATS))
    assert isinstance(first, BattleScene)
    play_turns(first, 2)
    battle = app.go("battle", match=Match(loaded_for(scenario), 3, settings, seats=SEATS))
    assert isinstance(battle, BattleScene)
    play_turns(battle, 1)
    texts = row_texts(open_saves(battle))
    assert "Autosaves: the newest 3 saves are kept for each game" in texts
    headings = [t for t in texts if t.startswith("test_field · a")]
    assert len(headings) == 2 and sum("(this game)" in t for t in headings) == 1
    assert "Turn 2 · a to move" in texts


def test_no_autosaves_when_the_player_keeps_none(app: App, rules: Ruleset, folder: Path) -> None:
    battle = field_battle(app, rules, autosaves=0)
    battle.submit(EndTurn())
    battle.submit(EndTurn())
    assert not [e for e in save_list.list_saves(folder) if e.autosave]


def test_choosing_fewer_autosaves_lets_the_extra_ones_of_every_game_go(app: App, folder: Path) -> None:
    for i in range(3):
        a1_save(folder, f"autosave-a1-one-{i}", seed=1)
        a1_save(folder, f"autosave-a1-two-{i}", seed=2)
    a1_save(folder, "autosave-a1-three", seed=3)
    a1_save(folder, "kept_by_name", seed=1)
    app.use_profile(Profile.load("en", saves_dir=folder))
    screen = SettingsScene(app)
    app.switch(screen)
    screen.keep_autosaves(1)
    assert load_settings(folder).autosaves == 1
    pools = save_list.autosave_pools(save_list.list_saves(folder))
    assert sorted(len(pool) for pool in pools) == [1, 1, 1]
    assert (folder / "kept_by_name.json").exists()


def test_damaged_settings_mean_the_defaults(folder: Path) -> None:
    (folder / "settings.json").write_text("[1, 2")
    assert load_settings(folder) == UserSettings()
    assert (folder / "settings.json").read_text() == "[1, 2"


def test_in_a_hotseat_battle_no_replay_is_watched_from_the_save_screen(app: App, rules: Ruleset, folder: Path) -> None:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "human"})
    app.go("battle", match=match)
    pass_curtain(app)
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.session.is_hotseat()
    a1_save(folder, "older")
    battle.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F2, mod=0, unicode="", scancode=0))
    screen = app.scene
    assert isinstance(screen, SaveScreen)
    push(app, next(button for button, path in screen.rows.items() if path.stem == "older"))
    assert screen.selected == folder / "older.json"
    # A replay shows both sides: the player at the screen would see the other's army.
    assert screen.load_button.is_enabled and not screen.watch_button.is_enabled
    screen.watch()
    assert app.scene is screen


def test_saves_from_before_names_are_listed_by_their_file_name(folder: Path) -> None:
    import shutil

    corpus = Path(__file__).parent / "saves_corpus"
    for version in ("v1", "v2"):
        for path in (corpus / version).glob("*.json"):
            shutil.copy(path, folder / f"{version}-{path.name}")
    entries = save_list.list_saves(folder)
    assert len(entries) == 6 and all(e.problem is None for e in entries)
    assert {e.name for e in entries} == {p.stem for p in folder.glob("*.json")}
    assert not any(e.named or e.autosave for e in entries)
