"""The title screen's main menu: each button's door, Continue going on with the game played
last, the quick battle remembering its choices (and forgetting damaged ones), the tutorial."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import frame

from game.ai.driver import make_ais
from game.profile import Profile
from game.settings import UserSettings, load_settings
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.briefing import BriefingScene
from game.ui.campaign_menu import CampaignMenuScene
from game.ui.menu import MenuScene
from game.ui.quick_battle import QuickBattleScene
from game.ui.saves_screen import SaveScreen
from game.ui.settings_screen import SettingsScene

pytestmark = pytest.mark.usefixtures("english")


def push(app: App, button: object) -> None:
    app.step([pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=button)], 0.0)
    app.step([], 0.0)


@pytest.fixture
def own_profile(app: App, tmp_path: Path) -> Path:
    """The app plays with a profile (saves, settings, campaigns) of this test's own."""
    (tmp_path / "settings.json").write_text('{"briefings": false, "hints": false}', encoding="utf-8")
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    return tmp_path


def menu(app: App) -> MenuScene:
    scene = app.go("menu")
    assert isinstance(scene, MenuScene)
    frame(app)
    return scene


def test_each_button_goes_through_its_route(app: App, own_profile: Path) -> None:
    doors = [
        ("campaign_button", CampaignMenuScene),
        ("quick_button", QuickBattleScene),
        ("two_players_button", QuickBattleScene),
        ("replay_button", SaveScreen),
        ("settings_button", SettingsScene),
    ]
    for name, kind in doors:
        push(app, getattr(menu(app), name))
        assert isinstance(app.scene, kind), name
    push(app, menu(app).quit_button)
    assert not app.running


def test_continue_waits_for_a_game_to_go_on_with(app: App, own_profile: Path) -> None:
    scene = menu(app)
    assert scene.resume is None and not scene.continue_button.is_enabled
    push(app, scene.continue_button)
    assert app.scene is scene


def test_continue_loads_the_newest_save_where_it_was_left(app: App, own_profile: Path) -> None:
    push(app, menu(app).quick_button)
    push(app, app.scene.start_button)  # type: ignore[union-attr]
    battle = app.scene
    assert isinstance(battle, BattleScene)
    battle.end_turn(confirmed=True)
    ais = make_ais(battle.match)
    while not battle.session.human_to_move():  # the computer's turn
        battle.submit(ais[battle.state.active_side.id].next_action())
    app.saves.quicksave(battle.match)
    actions = list(battle.match.record.actions)
    push(app, menu(app).continue_button)
    resumed = app.scene
    assert isinstance(resumed, BattleScene) and resumed is not battle
    assert resumed.match.record.actions == actions and resumed.state.turn == 2


def test_continue_goes_on_with_the_campaign_played_last(app: App, own_profile: Path) -> None:
    push(app, menu(app).campaign_button)
    campaigns = app.scene
    assert isinstance(campaigns, CampaignMenuScene)
    push(app, campaigns.new_buttons["zhenguo"])
    assert isinstance(app.scene, BriefingScene)
    assert load_settings(own_profile).last_campaign == "zhenguo"
    scene = menu(app)
    assert scene.resume is not None and scene.resume.run is not None
    push(app, scene.continue_button)
    briefing = app.scene
    assert isinstance(briefing, BriefingScene) and briefing.run.spec.id == "zhenguo"


def test_the_quick_battle_remembers_the_last_choices(app: App, own_profile: Path) -> None:
    push(app, menu(app).quick_button)
    quick = app.scene
    assert isinstance(quick, QuickBattleScene)
    assert "tutorial" not in quick.ids  # the tutorial has its own door
    quick.scenario_id = "b1_the_valley"
    quick.controllers, quick.difficulties = {}, {}
    quick.resize(app.size)
    quick.difficulties["jin"] = "hard"
    quick.start()
    assert isinstance(app.scene, BattleScene)
    stored = load_settings(own_profile)
    assert (stored.last_scenario, stored.last_levels["jin"], stored.last_played) == ("b1_the_valley", "hard", "battle")
    push(app, menu(app).quick_button)
    again = app.scene
    assert isinstance(again, QuickBattleScene)
    assert again.scenario_id == "b1_the_valley" and again.difficulties["jin"] == "hard"
    assert again.controllers == {"zhenguo": "human", "jin": "ai"}
    # Two players start with every side a human's, whatever was chosen last.
    push(app, menu(app).two_players_button)
    two = app.scene
    assert isinstance(two, QuickBattleScene) and set(two.controllers.values()) == {"human"}


@pytest.mark.parametrize(
    "stored",
    [
        {"last_scenario": "no_such_battle", "last_seats": {"nobody": "human"}},
        {"last_seats": {"coalition": "emperor"}},
        {"last_scenario": "../../etc/passwd"},
    ],
)
def test_remembered_choices_that_are_gone_or_damaged_give_the_defaults(
    app: App, own_profile: Path, stored: dict[str, object]
) -> None:
    (own_profile / "settings.json").write_text(json.dumps(stored), encoding="utf-8")
    app.use_profile(Profile.load("en", saves_dir=own_profile))
    quick = app.go("quick_battle")
    assert isinstance(quick, QuickBattleScene)
    assert quick.scenario_id == quick.ids[0]
    assert quick.controllers == {"coalition": "human", "hailing": "ai"}
    if "no_such_battle" not in json.dumps(stored):  # a value the settings refuse: all defaults
        assert load_settings(own_profile) == UserSettings()  # the briefings are back on, too


def test_the_tutorial_opens_on_its_first_step_with_no_briefing_or_hints(app: App, own_profile: Path) -> None:
    (own_profile / "settings.json").write_text('{"briefings": true, "hints": true}', encoding="utf-8")
    app.use_profile(Profile.load("en", saves_dir=own_profile))
    push(app, menu(app).tutorial_button)
    battle = app.scene
    assert isinstance(battle, BattleScene) and battle.tutorial is not None
    assert battle.match.loaded.scenario.id == "tutorial" and len(app.stack) == 1  # no briefing over it
    assert not battle.hints.enabled
    frame(app)
    assert battle.tutorial.rect.width > 0 and battle.tutorial.progress.current is not None
    assert battle.tutorial.progress.current.id == "select"
    battle.click_hex(battle.state.formations["soul_levy"].pos)  # the enemy: not the step's deed
    assert battle.tutorial.progress.index == 0
    battle.click_hex(battle.state.formations["han_foot"].pos)
    assert battle.tutorial.progress.index == 1
    # A click on the panel is the panel's: it selects nothing on the map beneath it.
    battle.cancel()
    frame(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=battle.tutorial.rect.center))
    frame(app, pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=battle.tutorial.rect.center))
    assert battle.session.selected is None


def test_other_battles_have_no_tutorial_panel(app: App, own_profile: Path) -> None:
    push(app, menu(app).quick_button)
    push(app, app.scene.start_button)  # type: ignore[union-attr]
    assert isinstance(app.scene, BattleScene) and app.scene.tutorial is None
