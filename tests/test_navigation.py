"""The app's navigation and leaving a battle: routes and a back stack, the battle menu, the
question before unsaved progress is thrown away, and the settings that outlive a game."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import (
    SUITE_SAVES,
    Unit,
    current,
    frame,
    loaded_for,
    make_scenario,
    open_field,
    pass_curtain,
    root_elements,
)
from pygame_gui.elements import UITooltip
from pygame_gui.elements.ui_drop_down_menu import UIExpandedDropDownState

from game import i18n
from game.core.actions import Attack, EndTurn, Move
from game.core.engine import GameSettings
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.i18n import format_men
from game.profile import Profile
from game.record import saves
from game.record.match import Match
from game.settings import UserSettings, load_settings, save_settings, update_settings
from game.ui.app import App, apply_user_settings
from game.ui.battle import BattleScene
from game.ui.battle_briefing import BattleBriefingScene
from game.ui.battle_menu import BattleMenuScene
from game.ui.computer_turns import AI_STEP_DELAY
from game.ui.dialog import DialogScene
from game.ui.fonts import font_path
from game.ui.handover import HandoverScene
from game.ui.menu import MenuScene
from game.ui.saves_screen import SaveScreen
from game.ui.scene import Scene
from game.ui.settings_screen import SettingsScene

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6
UNITS = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (6, 2))]


@pytest.fixture
def folder(saves_folder: Path) -> Path:
    return saves_folder


def battle(app: App, rules: Ruleset) -> BattleScene:
    scene = open_field(app, rules, FIELD, UNITS)
    assert isinstance(scene, BattleScene)
    return scene


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def push(app: App, label: str) -> None:
    """Press the button of the top screen that reads ``label``."""
    scene = app.scene
    buttons = [e for e in root_elements(scene) if getattr(e, "text", None) == label]
    assert buttons, f"no button {label!r} on {type(scene).__name__}"
    frame(app, pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=buttons[0]))


def move_once(scene: BattleScene) -> None:
    assert scene.submit(Move(unit="a_foot", to=Hex(0, 1)))  # out of the enemy's sight: undoable


# -- the back stack ---------------------------------------------------------------------------


def test_a_screen_opened_over_another_returns_to_the_same_one(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    press(app, pygame.K_F2)
    current(app, SaveScreen)
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene


def test_go_drops_every_screen_and_a_battle_left_stops_its_computer(
    app: App, rules: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene = battle(app, rules)
    cancelled: list[bool] = []
    monkeypatch.setattr(scene.computer.worker, "cancel", lambda: cancelled.append(True))
    app.go("menu")
    current(app, MenuScene)
    assert len(app.stack) == 1
    assert cancelled


def test_a_screen_that_cannot_open_leaves_the_stack_as_it_was(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    before = list(app.stack)

    def refuse(app: App) -> Scene:
        raise ValueError("cannot")

    app.routes = {**app.routes, "broken": refuse}
    with pytest.raises(ValueError):
        app.go("broken")
    assert app.stack == before and app.scene is scene


# -- the battle menu ----------------------------------------------------------------------------


def test_esc_with_nothing_chosen_opens_the_battle_menu_and_esc_again_resumes(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    press(app, pygame.K_ESCAPE)
    current(app, BattleMenuScene)
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene


def test_esc_first_drops_a_selection_then_opens_the_menu(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    scene.session.selected = "a_foot"
    press(app, pygame.K_ESCAPE)
    assert scene.session.selected is None and app.scene is scene
    press(app, pygame.K_ESCAPE)
    current(app, BattleMenuScene)


def test_the_menu_button_opens_the_battle_menu(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    frame(app, pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=scene.panels.menu_button))
    current(app, BattleMenuScene)


def test_quit_to_the_menu_with_nothing_played_asks_nothing(app: App, rules: Ruleset) -> None:
    battle(app, rules)
    press(app, pygame.K_ESCAPE)
    push(app, "Quit to the main menu")
    current(app, MenuScene)
    assert len(app.stack) == 1


def test_quit_to_the_menu_after_moves_asks_and_staying_keeps_the_battle(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    move_once(scene)
    press(app, pygame.K_ESCAPE)
    push(app, "Quit to the main menu")
    current(app, DialogScene)
    push(app, "Stay")
    assert app.scene is scene


def test_leaving_without_saving_goes_to_the_menu(app: App, rules: Ruleset, folder: Path) -> None:
    scene = battle(app, rules)
    move_once(scene)
    press(app, pygame.K_ESCAPE)
    push(app, "Quit to the main menu")
    push(app, "Leave without saving")
    current(app, MenuScene)
    # Only the autosave every battle gets as it begins: the move made since is not saved.
    (auto,) = folder.glob("*.json")
    assert auto.name.startswith("autosave-") and saves.load_record(auto).actions == []


def test_save_then_leave_writes_the_game_it_leaves(app: App, rules: Ruleset, folder: Path) -> None:
    scene = battle(app, rules)
    move_once(scene)
    press(app, pygame.K_ESCAPE)
    push(app, "Quit to the main menu")
    push(app, "Save, then leave")
    current(app, MenuScene)
    [path] = [p for p in folder.glob("*.json") if not p.name.startswith("autosave-")]
    record = saves.load_record(path)
    assert len(record.actions) == 1 and record.name is not None and record.name.endswith("turn 1")


def test_a_save_means_nothing_is_lost_until_the_next_move(app: App, rules: Ruleset, folder: Path) -> None:
    scene = battle(app, rules)
    move_once(scene)
    assert scene.unsaved()
    scene.saves.quicksave()
    assert not scene.unsaved()
    assert scene.match.undo()
    assert scene.unsaved()  # the save holds a move that is no longer played


# -- closing the window ---------------------------------------------------------------------------


def test_closing_the_window_with_unsaved_moves_asks_and_a_second_close_quits(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    move_once(scene)
    frame(app, pygame.event.Event(pygame.QUIT))
    assert app.running and isinstance(app.scene, DialogScene)
    frame(app, pygame.event.Event(pygame.QUIT))
    assert not app.running


def test_closing_the_window_with_nothing_to_lose_quits_at_once(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    scene.submit(EndTurn())  # the computer's side to move; the game is saved by nobody
    scene.match.saved_actions = len(scene.match.record.actions)
    frame(app, pygame.event.Event(pygame.QUIT))
    assert not app.running


def test_a_finished_battle_has_nothing_unsaved(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    move_once(scene)
    scene.state.over = True
    assert not app.unsaved()


# -- settings ----------------------------------------------------------------------------------


def test_settings_round_trip(tmp_path: Path) -> None:
    changed = update_settings(tmp_path, language="zh_TW", ai_speed="fast", end_turn_warning=False, autosaves=5)
    assert load_settings(tmp_path) == changed
    assert (changed.language, changed.ai_speed, changed.end_turn_warning, changed.autosaves) == (
        "zh_TW",
        "fast",
        False,
        5,
    )


def test_a_refused_setting_writes_nothing(tmp_path: Path) -> None:
    update_settings(tmp_path, ai_speed="slow")
    with pytest.raises(ValueError):
        update_settings(tmp_path, ai_speed="warp")
    assert load_settings(tmp_path).ai_speed == "slow"


@pytest.mark.parametrize("content", ["[1, 2", '{"language": "klingon"}', "\xff\xfe", '{"autosaves": -4}'])
def test_damaged_settings_fall_back_to_the_defaults_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    (tmp_path / "settings.json").write_bytes(content.encode("utf-8", "surrogateescape"))
    assert load_settings(tmp_path, warn=True) == UserSettings()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "default settings" in err
    assert (tmp_path / "settings.json").read_bytes() == content.encode("utf-8", "surrogateescape")


def test_the_saved_language_applies_at_the_next_start(own_settings: None) -> None:
    save_settings(UserSettings(language="zh_CN", names_follow_story=False), SUITE_SAVES)
    apply_user_settings(None)
    assert i18n.language() == "zh_CN" and not i18n.names_follow_story()
    apply_user_settings("en")  # the command line's --lang wins
    assert i18n.language() == "en"


def test_ending_a_turn_with_orders_unused_asks_first(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, end_turn_warning=True)
    scene = battle(app, rules)
    press(app, pygame.K_e)
    current(app, DialogScene)
    assert scene.state.turn == 1 and scene.state.active_side.id == "a"
    push(app, "Keep commanding")
    assert app.scene is scene and scene.state.active_side.id == "a"
    press(app, pygame.K_e)
    push(app, "End turn")
    assert scene.state.active_side.id == "b"


def test_with_the_warning_off_a_turn_ends_at_once(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, end_turn_warning=False)
    scene = battle(app, rules)
    press(app, pygame.K_e)
    assert app.scene is scene and scene.state.active_side.id == "b"


def test_instant_computer_moves_are_not_paused(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, ai_speed="instant")
    scene = battle(app, rules)
    assert scene.computer.shown_fast() and scene.computer.delay() == 0
    update_settings(SUITE_SAVES, ai_speed="slow")
    scene.on_reveal()
    assert not scene.computer.shown_fast() and scene.computer.delay() > AI_STEP_DELAY


def test_the_settings_screen_stores_each_choice_and_the_menu_beneath_follows_the_language(
    app: App, tmp_path: Path
) -> None:
    app.go("menu")
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    screen = app.open("settings")
    assert isinstance(screen, SettingsScene)
    screen.choose("ai_speed", "Fast")
    screen.choose("end_turn_warning", "Off")
    screen.choose("language", i18n.LANGUAGES["zh_TW"])
    stored = load_settings(tmp_path)
    assert (stored.ai_speed, stored.end_turn_warning, stored.language) == ("fast", False, "zh_TW")
    assert app.profile.language == "zh_TW" and app.profile.settings == stored
    press(app, pygame.K_ESCAPE)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    assert menu.continue_button.text == i18n._("Continue")  # built again in the new language
    i18n.set_language("en")


def test_the_settings_screen_opens_from_the_battle_menu_and_returns_to_it(app: App, rules: Ruleset) -> None:
    battle(app, rules)
    press(app, pygame.K_ESCAPE)
    push(app, "Settings")
    current(app, SettingsScene)
    press(app, pygame.K_ESCAPE)
    current(app, BattleMenuScene)


# -- the briefing ---------------------------------------------------------------------------


def test_a_new_battle_opens_with_its_briefing_over_the_board(app: App, rules: Ruleset, own_settings: None) -> None:
    update_settings(SUITE_SAVES, briefings=True)
    scene = battle(app, rules)
    current(app, BattleBriefingScene)
    assert app.stack[-2] is scene
    press(app, pygame.K_RETURN)
    assert app.scene is scene


def test_in_hotseat_each_player_reads_the_briefing_behind_the_hand_over(
    app: App, rules: Ruleset, own_settings: None
) -> None:
    update_settings(SUITE_SAVES, briefings=True)
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "human"})
    app.go("battle", match=match)
    current(app, HandoverScene)
    pass_curtain(app)
    assert current(app, BattleBriefingScene).side == "a"
    press(app, pygame.K_RETURN)
    current(app, BattleScene).end_turn()
    pass_curtain(app)  # the hand-over to the second player
    assert current(app, BattleBriefingScene).side == "b"


def test_a_game_loaded_after_its_first_turn_opens_without_a_briefing(
    app: App, rules: Ruleset, own_settings: None
) -> None:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "ai"})
    match.apply(EndTurn())
    match.apply(EndTurn())
    update_settings(SUITE_SAVES, briefings=True)
    scene = app.go("battle", match=match)
    assert isinstance(scene, BattleScene)
    assert app.scene is scene


# -- saying what happened -----------------------------------------------------------------------


def test_u_says_why_nothing_can_be_taken_back(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    press(app, pygame.K_u)
    assert "no formation has moved" in scene.log.lines[-1]
    assert scene.submit(Move(unit="a_foot", to=Hex(1, 2)))  # this move brings the enemy into view
    press(app, pygame.K_u)
    assert "showed you something new" in scene.log.lines[-1]


def test_an_interrupted_move_is_marked_where_it_stopped_and_on_what_it_spotted(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    assert scene.submit(Move(unit="a_foot", to=Hex(2, 2)))
    texts = {(m.at, m.text) for m in scene.marks.marks}
    assert (scene.state.formations["a_foot"].pos, "Halted") in texts
    assert (scene.state.formations["b_levy"].pos, "Spotted!") in texts
    frame(app, dt=5.0)
    assert not scene.marks.marks  # marks fade


def test_a_blow_shows_the_losses_on_the_map(app: App, rules: Ruleset) -> None:
    units = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (2, 2))]
    scenario = make_scenario(rules, FIELD, units, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "ai"})
    scene = app.go("battle", match=match)
    assert isinstance(scene, BattleScene)
    target_at = scene.state.formations["b_levy"].pos
    men_before = scene.state.formations["b_levy"].men
    assert scene.submit(Attack(unit="a_foot", target="b_levy"))
    lost = men_before - (scene.state.formations["b_levy"].men if "b_levy" in scene.state.formations else 0)
    assert lost > 0
    assert (target_at, f"−{format_men(lost)}") in {(m.at, m.text) for m in scene.marks.marks}


def test_chinese_tooltips_wrap_without_stray_hyphens(app: App) -> None:
    i18n.set_language("zh_CN")
    try:
        scene = app.go("menu")
        assert isinstance(scene, MenuScene)
        text = "须在移动之前下令强行军，否则本回合无法再走得更远，疲劳也会随之增加。" * 3
        tip = scene.manager.create_tool_tip(text, (100, 100), (0, 0), None, None, wrap_width=140)
        assert isinstance(tip, UITooltip)
        assert tip.text_block is not None and tip.text_block.text_box_layout is not None
        rows = tip.text_block.text_box_layout.layout_rows
        shown = "".join(chunk.text for row in rows for chunk in row.items if hasattr(chunk, "text"))
        assert len(rows) > 3 and "-" not in shown and shown == text
    finally:
        i18n.set_language("en")


def test_the_camera_brings_a_seen_computer_action_out_from_under_the_panels(app: App) -> None:
    from game.core.events import Moved
    from game.record.match import new_match

    scene = app.go("battle", match=new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1))
    assert isinstance(scene, BattleScene)
    board = scene.match.loaded.scenario.board
    far = max(board.terrain, key=lambda h: scene.camera.to_screen(scene.geometry.centre(h))[0])
    scene.stage.follow([Moved(unit="x", path=(far,))], lambda unit: None, scene.panels.open_map_area())
    x, y = scene.camera.to_screen(scene.geometry.centre(far))
    assert scene.panels.open_map_area().collidepoint(x, y)


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_the_smallest_window_fits_the_new_screens_and_the_orders_bar(rules: Ruleset, lang: str) -> None:
    """At 800x560 no label is cut and the orders bar keeps clear of End turn, in every language."""
    import warnings

    from game.ui.app import MIN_SIZE, App
    from game.ui.orders import GAP, ORDERS

    i18n.set_language(lang)
    try:
        app = App(MIN_SIZE)
        units = [Unit("a_bows", "a", "crossbowman", 800, (1, 2)), Unit("b_far", "b", "soul_levy", 500, (7, 5))]
        scenario = make_scenario(rules, FIELD, units, turn_limit=6)
        match = Match(loaded_for(scenario), 2, GameSettings(), seats={"a": "human", "b": "ai"})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scene = app.go("battle", match=match)
            assert isinstance(scene, BattleScene)
            assert scene.submit(Move(unit="a_bows", to=Hex(0, 1)))  # Undo joins the bar
            scene.session.selected = "a_bows"
            scene._after_change([])
            frame(app)
            shown = [b for b in scene.panels.orders.buttons.values() if b.visible]
            assert len(shown) >= 3
            # With all five orders shown the bar would still end before End turn.
            assert 12 + len(ORDERS) * (scene.panels.orders.button_w + GAP) <= scene.panels.end_turn_button.rect.left
            for i, b in enumerate(shown):
                assert not b.rect.colliderect(scene.panels.end_turn_button.rect)
                assert all(not b.rect.colliderect(o.rect) for o in shown[i + 1 :])
            for route in ("battle_menu", "settings"):
                app.open(route, **({"battle": scene} if route == "battle_menu" else {}))
                frame(app)
                app.back()
            app.open("dialog", title=i18n._("End the turn?"), text="", choices=[(i18n._("Keep commanding"), None)])
            frame(app)
        assert [str(w.message) for w in caught if "too small" in str(w.message)] == []
    finally:
        i18n.set_language("en")


def test_drop_down_rows_are_tall_enough_for_their_text(app: App) -> None:
    """Descenders (g, y, p) and Chinese were cut off in the open list of a drop-down menu."""
    screen = app.go("settings")
    assert isinstance(screen, SettingsScene)
    menu = screen.menus["language"]
    expanded = menu.menu_states["expanded"]
    assert isinstance(expanded, UIExpandedDropDownState)
    menu.current_state = expanded
    expanded.start()
    rows = expanded.options_selection_list
    assert rows is not None
    line = pygame.font.Font(str(font_path("zh_CN")), 16).get_linesize()
    assert rows.list_item_height >= line


def test_the_first_selection_and_the_first_halted_move_bring_their_hints_once(
    app: App, rules: Ruleset, own_settings: None
) -> None:
    update_settings(SUITE_SAVES, hints=True, hints_seen=[])
    scene = battle(app, rules)
    scene.click_hex(scene.state.formations["a_foot"].pos)
    assert scene.hints.current == "select"
    press(app, pygame.K_ESCAPE)  # closes the hint, not the selection
    assert scene.hints.current is None and scene.session.selected == "a_foot"
    assert scene.submit(Move(unit="a_foot", to=Hex(2, 2)))  # halted: the enemy came into view
    assert scene.hints.current == "interrupted"
    press(app, pygame.K_ESCAPE)
    scene.click_hex(scene.state.formations["a_foot"].pos)
    scene.click_hex(scene.state.formations["a_foot"].pos)
    assert scene.hints.current is None  # each hint shows once
    assert {"select", "interrupted"} <= set(load_settings(SUITE_SAVES).hints_seen)


def test_the_orders_bar_shows_the_selected_formations_orders_after_a_resize(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    scene.session.selected = "a_foot"
    scene._after_change([])
    shown = {o for o, b in scene.panels.orders.buttons.items() if b.visible}
    assert "thunder" not in shown  # Han soldiers carry no palm thunder
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=1000, h=700, size=(1000, 700)))
    assert {o for o, b in scene.panels.orders.buttons.items() if b.visible} == shown
    scene.session.selected = None
    scene._after_change([])
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=1100, h=700, size=(1100, 700)))
    assert not any(b.visible for b in scene.panels.orders.buttons.values())


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_both_settings_pages_fit_the_smallest_window(rules: Ruleset, lang: str) -> None:
    import warnings

    from game.ui.app import MIN_SIZE, App

    i18n.set_language(lang)
    try:
        app = App(MIN_SIZE)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for page in ("game", "screen"):
                screen = app.go("settings", page=page)
                assert isinstance(screen, SettingsScene)
                frame(app)
                tops = [m.rect.bottom for m in screen.menus.values()]
                assert max(tops) <= screen.back_button.rect.top and screen.back_button.rect.bottom <= MIN_SIZE[1]
        assert [str(w.message) for w in caught if "too small" in str(w.message)] == []
    finally:
        i18n.set_language("en")


def test_the_settings_tabs_switch_pages(app: App) -> None:
    screen = app.go("settings")
    assert isinstance(screen, SettingsScene)
    assert "language" in screen.menus and "sound" not in screen.menus
    tab = next(t for t, page in screen.tabs.items() if page == "screen")
    frame(app, pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=tab))
    assert "sound" in screen.menus and "fullscreen" in screen.menus and "language" not in screen.menus


@pytest.mark.parametrize("lang", ["en", "zh_CN", "zh_TW"])
def test_the_main_menu_and_its_message_fit_the_smallest_window(lang: str) -> None:
    from game.ui.app import MIN_SIZE, App

    i18n.set_language(lang)
    try:
        app = App(MIN_SIZE)
        menu = app.go("menu")
        assert isinstance(menu, MenuScene)
        assert menu.message_label.rect.bottom <= MIN_SIZE[1] and menu.quit_button.rect.bottom <= MIN_SIZE[1]
    finally:
        i18n.set_language("en")


def test_a_setting_that_cannot_be_written_is_told_and_the_screen_goes_on(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = app.go("settings")
    assert isinstance(screen, SettingsScene)

    def full_disk(**changes: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(app, "update_settings", full_disk)
    screen.choose("hints", "Off")
    assert screen.note == "The settings could not be saved: No space left on device"
    assert screen.note_label.text == screen.note


def test_the_order_buttons_stay_in_place_as_the_formation_acts(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    scene.session.selected = "a_foot"
    scene._after_change([])
    frame(app)
    before = {o: b.rect.copy() for o, b in scene.panels.orders.buttons.items() if b.visible}
    assert {"forced", "rest", "undo"} <= set(before)
    move_once(scene)
    scene.session.selected = "a_foot"
    scene._after_change([])
    frame(app)
    after = {o: b.rect.copy() for o, b in scene.panels.orders.buttons.items() if b.visible}
    assert after == before  # greyed where they cannot be given now, never moved
    assert not scene.panels.orders.buttons["rest"].is_enabled
