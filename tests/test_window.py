"""The window: its opening size on a given screen, full screen (F11 and the setting) and the UI
scale, and the window's settings kept with the others."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from conftest import at_each_scale, current, frame
from pydantic import ValidationError

from game.profile import Profile
from game.settings import load_settings, update_settings
from game.ui import app as app_module
from game.ui import scale
from game.ui.app import MIN_SIZE, App, desktop_size, opening_size
from game.ui.battle import BattleScene
from game.ui.fonts import font
from game.ui.menu import MenuScene
from game.ui.replay import ReplayScene
from game.ui.settings_screen import SettingsScene

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture
def remembered(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """What the app writes to the settings when a key changes the window, kept here instead."""
    kept: list[dict[str, object]] = []
    monkeypatch.setattr(App, "remember", lambda self, **changes: kept.append(changes))
    return kept


@pytest.fixture
def at_100() -> Iterator[None]:
    """The test may change the UI scale; the next one starts at 100% again."""
    yield
    scale.set_ui_scale(100)


def f11(app: App) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F11, mod=0, unicode="", scancode=0))


@pytest.mark.parametrize("desktop", [(1920, 1080), (3840, 2160), (2560, 1440), (1366, 768), (1280, 800)])
def test_the_window_opens_inside_the_screen_with_room_for_the_desktops_bars(desktop: tuple[int, int]) -> None:
    w, h = opening_size(desktop)
    assert w < desktop[0] and h < desktop[1] - 60  # the task bar and the title bar keep their room
    assert w >= desktop[0] * 0.9 and h >= desktop[1] * 0.8  # and it uses the screen
    assert (w, h) >= MIN_SIZE and w >= MIN_SIZE[0] and h >= MIN_SIZE[1]


@pytest.mark.parametrize("desktop", [(800, 600), (640, 480), (1024, 600)])
def test_the_window_never_opens_below_the_smallest_size_the_screens_are_laid_out_for(desktop: tuple[int, int]) -> None:
    w, h = opening_size(desktop)
    assert w >= MIN_SIZE[0] and h >= MIN_SIZE[1]


def test_the_desktop_size_is_read_even_on_the_dummy_driver(app: App) -> None:
    w, h = desktop_size()
    assert w > 0 and h > 0
    assert opening_size((w, h)) >= MIN_SIZE


@pytest.mark.parametrize(
    ("screen", "percent"),
    [((1280, 800), 100), ((1366, 768), 100), ((1920, 1080), 125), ((2560, 1440), 150), ((3840, 2160), 200)],
)
def test_the_default_scale_grows_with_the_screen(screen: tuple[int, int], percent: int) -> None:
    assert scale.default_scale(screen) == percent


def test_f11_fills_the_screen_and_back_restores_the_windows_size(app: App, remembered: list[dict[str, object]]) -> None:
    app.go("menu")
    settings = app.open("settings")
    assert isinstance(settings, SettingsScene)
    menu = app.stack[0]
    windowed = app.size
    f11(app)
    assert app.fullscreen and pygame.display.is_fullscreen()
    assert app.size == app.screen.get_size() == desktop_size()
    # Every screen, the one shown and the one beneath, laid out for the new size.
    for scene in (settings, menu):
        assert scene.built_size == app.size
        assert scene.manager.window_resolution == app.size
    assert remembered == [{"fullscreen": True}]
    f11(app)
    assert not app.fullscreen and not pygame.display.is_fullscreen()
    assert app.size == app.screen.get_size() == windowed
    assert settings.built_size == menu.built_size == windowed
    assert remembered[-1] == {"fullscreen": False}


def test_a_late_resize_event_does_not_take_the_game_out_of_full_screen(
    app: App, remembered: list[dict[str, object]]
) -> None:
    app.go("menu")
    f11(app)
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    assert app.fullscreen and app.size == desktop_size()


def test_the_settings_screen_sets_full_screen_and_the_scale_at_once(app: App, tmp_path: Path, at_100: None) -> None:
    app.go("menu")
    app.use_profile(Profile.load("en", saves_dir=tmp_path))
    screen = app.open("settings")
    assert isinstance(screen, SettingsScene)
    screen.choose("fullscreen", "Full screen")
    assert app.fullscreen and app.size == desktop_size()
    screen.choose("fullscreen", "In a window")
    assert not app.fullscreen
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=1920, h=1200, size=(1920, 1200)))  # room for 150%
    small = app.stack[0].name_rect.height
    screen.choose("ui_scale", "150%")
    assert scale.ui_scale() == 1.5
    menu = app.stack[0]
    assert isinstance(menu, MenuScene) and menu.name_rect.height == round(small * 1.5)
    stored = load_settings(tmp_path)
    assert (stored.fullscreen, stored.ui_scale) == (False, 150)
    screen = app.scene
    auto = next(name for key, name in screen.scale_names().items() if key is None)
    screen.choose("ui_scale", auto)
    assert load_settings(tmp_path).ui_scale is None
    assert scale.ui_scale() * 100 == scale.default_scale(desktop_size())


def test_the_scale_sizes_the_drawn_text_and_the_themes_text(app: App, at_100: None) -> None:
    app.go("menu")
    base_font = font(16).get_height()
    base_theme = current(app, MenuScene).manager.get_theme().get_font(["button"]).get_rect("Ag").height
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=2560, h=1440, size=(2560, 1440)))  # room for 200%
    app.set_ui_scale(200)
    assert app.profile.ui_scale == 200  # the profile says so, and every drawing follows
    assert font(16).get_height() >= 1.8 * base_font
    # The screen shown was built anew with the theme at the new scale.
    assert current(app, MenuScene).manager.get_theme().get_font(["button"]).get_rect("Ag").height >= 1.8 * base_theme
    assert scale.px(10) == 20


def test_the_window_settings_round_trip(tmp_path: Path) -> None:
    update_settings(tmp_path, fullscreen=True, ui_scale=175)
    stored = load_settings(tmp_path)
    assert (stored.fullscreen, stored.ui_scale) == (True, 175)
    update_settings(tmp_path, ui_scale=None)
    assert load_settings(tmp_path).ui_scale is None and load_settings(tmp_path).fullscreen
    with pytest.raises(ValidationError):
        update_settings(tmp_path, ui_scale=130)
    assert load_settings(tmp_path).ui_scale is None


def test_the_window_settings_apply_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at_100: None
) -> None:
    (tmp_path / "settings.json").write_text('{"fullscreen": true, "ui_scale": 150}', encoding="utf-8")
    monkeypatch.setenv("QIANKUN_SAVES_DIR", str(tmp_path))
    started: list[App] = []
    monkeypatch.setattr(App, "run", lambda self: started.append(self))
    app_module.start("en")
    (app,) = started
    assert app.fullscreen and app.size == desktop_size() and app.profile.ui_scale == 150
    # As much of it as the screen holds.
    assert round(scale.ui_scale() * 100) == scale.fitting(150, app.size)


def test_the_game_can_close_after_its_first_frame(app: App) -> None:
    app.go("menu")
    app.exit_after_first_frame = True
    app.frame()
    assert not app.running


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_battle_at_4k_and_200_percent_cuts_no_text_and_scales_board_text_once(app: App, lang: str) -> None:
    import warnings

    from game import i18n
    from game.record.match import new_match
    from game.ui import scale
    from game.ui.app import App
    from game.ui.fonts import font, map_font

    before = scale.ui_scale()
    i18n.set_language(lang)
    try:
        scale.set_ui_scale(200)
        assert map_font(20).get_height() < font(20).get_height()  # the board's text follows the zoom only
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            app = App((3840, 2160))
            scene = app.go(
                "battle", match=new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1)
            )
            assert isinstance(scene, BattleScene)
            hero = next(f for f in scene.state.formations_of("coalition") if f.hero == "xiang_yu")
            scene.session.selected = hero.id
            scene._after_change([])
            app.step([], 0.016)
        assert [str(w.message) for w in caught if "too small" in str(w.message)] == []
        assert scene.camera.zoom == 2.0
    finally:
        scale.set_ui_scale(round(before * 100))
        i18n.set_language("en")


@pytest.mark.parametrize("route", ["help", "saves", "settings", "menu"])
def test_screens_at_4k_and_200_percent_cut_no_label(app: App, route: str) -> None:
    import warnings

    from game.ui import scale
    from game.ui.app import App

    before = scale.ui_scale()
    try:
        scale.set_ui_scale(200)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            big = App((3840, 2160))
            big.go(route)
            big.step([], 0.016)
        assert [str(w.message) for w in caught if "too small" in str(w.message)] == []
    finally:
        scale.set_ui_scale(round(before * 100))


def test_the_replay_viewer_grows_with_the_ui_scale(app: App) -> None:
    """At 200% on a 4K screen the replay's controls are twice as tall and no label is cut."""
    from game.record.match import new_match

    record = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1).record

    def viewer(big: App) -> tuple[int, int]:
        shown = big.go("replay", record=record)
        assert isinstance(shown, ReplayScene)
        big.step([], 0.016)
        return shown.nav["play"].rect.height, shown.menu_button.rect.height

    shown = at_each_scale(viewer)
    assert shown[100][1] == shown[200][1] == []
    assert all(b >= 1.8 * a for a, b in zip(shown[100][0], shown[200][0], strict=True)), shown


@pytest.mark.parametrize(
    ("size", "chosen", "used"), [((800, 560), 125, 100), ((800, 560), 150, 100), ((1280, 800), 150, 125)]
)
def test_the_scale_is_capped_to_what_the_window_holds(
    app: App, at_100: None, size: tuple[int, int], chosen: int, used: int
) -> None:
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size))
    app.go("menu")
    screen = app.open("settings")
    assert isinstance(screen, SettingsScene)
    app.set_ui_scale(chosen)
    assert app.profile.ui_scale == chosen and round(scale.ui_scale() * 100) == used
    settings = app.scene
    assert isinstance(settings, SettingsScene)
    frame(app)
    assert pygame.Rect((0, 0), app.size).contains(settings.back_button.rect)  # Back is on the screen
    # A window made large enough gets the scale chosen.
    frame(app, pygame.event.Event(pygame.VIDEORESIZE, w=2560, h=1440, size=(2560, 1440)))
    assert round(scale.ui_scale() * 100) == chosen
