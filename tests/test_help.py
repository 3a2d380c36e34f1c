"""The help screen (from a battle, its menu and the main menu; every page in every language) and
the battle hints (once ever, remembered in the settings, never for a computer's side)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import SUITE_SAVES, EngineFactory, Unit, current, frame, loaded_for, make_scenario
from pygame_gui.core import UIElement

from game import i18n
from game.core import combat, morale, souls
from game.core.actions import Attack
from game.core.engine import Engine, GameSettings
from game.core.events import Moved, Routed, SoulsReleased
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.record.match import Match
from game.record.seats import Commander, Seats
from game.settings import UserSettings, load_settings, save_settings, settings_path
from game.ui import help_pages
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.battle_menu import BattleMenuScene
from game.ui.fonts import font
from game.ui.help_pages import PAGE_IDS, PAGES
from game.ui.help_screen import TAB_FONT, TAB_PADDING, HelpScene, list_width, render_page
from game.ui.hints import HINTS, Hints, place
from game.ui.menu import MenuScene
from game.ui.orders import ORDERS

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6
UNITS = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (6, 2))]
LANGUAGES = ("en", "zh_CN", "zh_TW")
SIZES = ((800, 560), (1920, 1080))


def battle(app: App, rules: Ruleset, controllers: dict[str, Commander] | None = None) -> BattleScene:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=6)
    match = Match(loaded_for(scenario), 2, GameSettings(), seats=controllers or {"a": "human", "b": "ai"})
    app.go("menu")
    scene = app.open("battle", match=match)
    assert isinstance(scene, BattleScene)
    return scene


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def push(app: App, element: UIElement) -> None:
    frame(app, pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=element))


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.set_language("en")


# -- getting there and back ---------------------------------------------------------------------


def test_f1_in_battle_opens_the_help_and_esc_returns_to_the_same_battle(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    press(app, pygame.K_F1)
    current(app, HelpScene)
    assert app.stack[-2] is scene
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene
    press(app, pygame.K_F1)
    press(app, pygame.K_F1)  # F1 again closes it too
    assert app.scene is scene


def test_the_battle_menu_opens_the_help_and_back_returns_to_it(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules)
    press(app, pygame.K_ESCAPE)
    menu = app.scene
    assert isinstance(menu, BattleMenuScene)
    assert "help" in [key for key, _label in menu._entries()]
    help_button = next(b for b, key in menu.buttons.items() if key == "help")
    push(app, help_button)
    push(app, current(app, HelpScene).back_button)
    on_top: object = app.scene  # the help has closed since the check above
    assert on_top is menu
    press(app, pygame.K_ESCAPE)
    assert app.scene is scene


def test_the_main_menu_help_button_opens_the_help(app: App) -> None:
    app.go("menu")
    menu = app.scene
    assert isinstance(menu, MenuScene)
    frame(app)
    click = menu.help_button.rect.center
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=click, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=click, button=1, touch=False),
    )
    current(app, HelpScene)
    assert app.stack[-2] is menu
    press(app, pygame.K_ESCAPE)
    assert app.scene is menu
    press(app, pygame.K_F1)
    current(app, HelpScene)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_main_menu_column_fits_at_the_smallest_window(lang: str, language: None) -> None:
    i18n.set_language(lang)
    app = App((800, 560))
    app.go("menu")
    frame(app)
    menu = app.scene
    assert isinstance(menu, MenuScene)
    column = [
        menu.continue_button,
        menu.campaign_button,
        menu.tutorial_button,
        menu.quick_button,
        menu.two_players_button,
        menu.replay_button,
        menu.settings_button,
        menu.help_button,
        menu.quit_button,
    ]
    for a, b in zip(column, column[1:], strict=False):
        assert a.rect.bottom < b.rect.top
    assert column[0].rect.top >= 0 and menu.message_label.rect.bottom <= 560
    for button in column:
        assert font(16).size(button.text)[0] + 8 <= button.rect.width, button.text


def test_a_page_can_be_chosen_from_the_list_and_with_up_and_down(app: App) -> None:
    app.go("menu")
    scene = app.open("help")
    assert isinstance(scene, HelpScene)
    assert scene.page_id == "keys"
    souls_button = next(b for b, pid in scene.page_buttons.items() if pid == "souls")
    push(app, souls_button)
    assert scene.page_id == "souls" and souls_button.is_selected
    press(app, pygame.K_DOWN)
    assert scene.page_id == PAGE_IDS[PAGE_IDS.index("souls") + 1]
    press(app, pygame.K_UP)
    press(app, pygame.K_UP)
    assert scene.page_id == PAGE_IDS[PAGE_IDS.index("souls") - 1]
    morale_page = app.open("help", page="morale")
    assert isinstance(morale_page, HelpScene) and morale_page.page_id == "morale"


def test_a_long_page_scrolls(app: App) -> None:
    app = App((800, 560))
    app.go("menu")
    scene = app.open("help", page="keys")
    assert isinstance(scene, HelpScene)
    frame(app)
    bar = scene.scroller.vert_scroll_bar
    assert bar is not None and bar.visible_percentage < 1.0, "the keys do not fit in 560 pixels"
    press(app, pygame.K_PAGEDOWN)
    frame(app, dt=0.5)
    assert bar.start_percentage > 0
    press(app, pygame.K_HOME)
    frame(app, dt=0.5)
    assert bar.start_percentage == 0


# -- every page, every language -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_page_renders_and_its_text_fits(lang: str, size: tuple[int, int], language: None) -> None:
    i18n.set_language(lang)
    app = App(size)
    app.go("menu")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scene = app.open("help")
        assert isinstance(scene, HelpScene)
        for pid in PAGE_IDS:
            scene.show(pid)
            frame(app)
            page = render_page(pid, scene.text_width(), lang)
            assert page.get_width() <= scene.text_width()
            assert page.get_height() > 100
    clipped = [str(w.message) for w in caught if "too small" in str(w.message)]
    assert clipped == []
    # Every title fits its button in the list.
    for button in scene.page_buttons:
        assert font(TAB_FONT).size(button.text)[0] + 2 * TAB_PADDING <= button.rect.width, button.text
    assert scene.page_rect.right <= size[0] and scene.back_button.rect.bottom <= size[1]
    assert list_width(size) < size[0] // 3
    # The tabs keep clear of the buttons at the foot, and those of each other.
    buttons = [*scene.page_buttons, scene.encyclopedia_button, scene.back_button, scene.credits_button]
    for i, a in enumerate(buttons):
        for b in buttons[i + 1 :]:
            assert not a.rect.inflate(0, 2).colliderect(b.rect), (a.text, b.text)  # a gap between
        assert a.rect.height >= font(TAB_FONT).get_linesize(), a.text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_of_every_page_is_within_its_measure(lang: str, rules: Ruleset, language: None) -> None:
    """The prose is wrapped; a word longer than the measure would overrun the page."""
    from game.ui.narration import wrap

    i18n.set_language(lang)
    for p in PAGES:
        for para in p.text(rules):
            assert "{" not in para and "}" not in para, f"{p.id}: a placeholder left unfilled"
            for line in wrap(para, 17, 300):
                # A closing mark may hang past the measure rather than start the next line.
                assert font(17).size(line)[0] <= 300 + 17, line


# -- the help tells the truth -------------------------------------------------------------------


def test_every_order_of_the_orders_bar_has_its_key_in_the_table() -> None:
    assert set(help_pages.ORDER_ROWS) == {o.id for o in ORDERS}
    for order in ORDERS:
        keys, _does = help_pages.ORDER_ROWS[order.id]
        assert keys.startswith(pygame.key.name(order.key).upper())
    rows = [k for k, _d in help_pages.key_rows()]
    assert "F1" in rows and any(k.startswith("Esc") for k in rows)


def test_fatigue_takes_power_as_the_page_says(small_engine: EngineFactory) -> None:
    eng: Engine = small_engine(
        FIELD, [Unit("a1", "a", "han_soldier", 1000, (1, 2)), Unit("b1", "b", "soul_levy", 1000, (2, 2))]
    )

    def fatigue_modifier(fatigue: int) -> int:
        eng.state.formations["a1"].fatigue = fatigue
        fc = eng.forecast(Attack(unit="a1", target="b1"))
        return sum(m.percent for m in fc.modifiers if m.name == "Fatigue" and m.applies_to == "attacker")

    felt, cap = help_pages.FATIGUE_FELT, help_pages.FATIGUE_CAP
    assert fatigue_modifier(felt - 1) == 0
    assert fatigue_modifier(felt) == -(felt // 2)
    assert fatigue_modifier(60) == -30
    assert fatigue_modifier(100) == -cap


def test_the_facts_the_prose_states_in_words(rules: Ruleset) -> None:
    # "retainers tire twice as fast"
    assert rules.units["retainer"].fatigue_rate == 2.0
    assert all(u.fatigue_rate == 1.0 for k, u in rules.units.items() if k != "retainer")
    # One troop type shoots and throws palm thunder.
    assert [u for u in rules.units.values() if u.ranged > 0 or u.area_charges] == [help_pages.missile_type(rules)]
    # "Hailing souls ... drift back, a third each turn; other souls fade, a quarter each turn"
    assert [k for k, f in rules.factions.items() if f.souls_return] == ["hailing"]
    assert (souls.DRIFT_SHARE, souls.FADE_SHARE) == (3, 4)
    # "Forced march ... half as far again"
    from game.core.movement import FORCED_MARCH_FACTOR

    assert FORCED_MARCH_FACTOR == 1.5
    # "a tenth of the men lost costs ..." is exact
    assert morale.loss_morale(100, 1000) == round(morale.LOSS_MORALE_PER_PERCENT * 10)
    # The pincer sketch's labels: the friend behind counts as a flanker too.
    assert combat.MAX_FLANKERS >= 2


# -- hints --------------------------------------------------------------------------------------


@pytest.fixture
def prefs(tmp_path: Path) -> Path:
    """A settings folder of the test's own, hints on and none seen."""
    save_settings(UserSettings(hints=True), tmp_path)
    return tmp_path


def click(hints: Hints, pos: tuple[int, int]) -> bool:
    return hints.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))


def key(hints: Hints, k: int) -> bool:
    return hints.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_a_hint_shows_once_and_not_again_after_it_is_closed(prefs: Path) -> None:
    hints = Hints(prefs)
    hints.notice("select")
    assert hints.current == "select"
    screen = pygame.Surface((1280, 800))
    hints.draw(screen)
    assert click(hints, hints.close_rect.center)
    assert hints.current is None
    hints.notice("select")
    assert hints.current is None
    assert load_settings(prefs).hints_seen == ["select"]
    again = Hints(prefs)  # the next battle, the next start of the game
    again.notice("select")
    assert again.current is None
    again.notice("forecast")
    assert again.current == "forecast"


def test_esc_closes_a_hint_and_other_keys_and_clicks_go_on_to_the_battle(prefs: Path) -> None:
    hints = Hints(prefs)
    assert not key(hints, pygame.K_ESCAPE)  # nothing shown: Esc is the battle's
    hints.notice("rout")
    hints.draw(pygame.Surface((1280, 800)))
    assert not key(hints, pygame.K_e)
    assert not click(hints, (5, 790))
    assert hints.current == "rout"
    assert key(hints, pygame.K_ESCAPE)
    assert hints.current is None


def test_hints_wait_their_turn(prefs: Path) -> None:
    hints = Hints(prefs)
    hints.notice("rout")
    hints.notice("souls")
    hints.notice("rout")
    assert hints.current == "rout" and hints.queue == ["souls"]
    hints.dismiss()
    assert hints.current == "souls"
    hints.dismiss()
    assert hints.current is None


def test_f1_or_a_click_on_the_hint_opens_its_help_page(prefs: Path) -> None:
    opened: list[str] = []
    hints = Hints(prefs, open_help=opened.append)
    hints.notice("souls")
    assert key(hints, pygame.K_F1)
    assert opened == ["souls"] and hints.current is None
    hints.notice("forecast")
    hints.draw(pygame.Surface((1280, 800)))
    assert click(hints, (hints.rect.left + 20, hints.rect.bottom - 10))
    assert opened == ["souls", HINTS["forecast"].page]
    assert all(h.page in PAGE_IDS for h in HINTS.values())


def test_no_hints_when_they_are_turned_off(tmp_path: Path) -> None:
    save_settings(UserSettings(hints=False), tmp_path)
    hints = Hints(tmp_path)
    hints.notice("select")
    assert hints.current is None and hints.queue == []
    assert load_settings(tmp_path).hints_seen == []


def test_turning_hints_off_closes_the_one_shown(prefs: Path) -> None:
    hints = Hints(prefs)
    hints.notice("select")
    save_settings(load_settings(prefs).model_copy(update={"hints": False}), prefs)
    hints.reload()
    assert hints.current is None


def test_hints_from_events_only_for_a_person_watching(prefs: Path, rules: Ruleset) -> None:
    scenario = make_scenario(rules, FIELD, UNITS)
    state = Engine(scenario, rules, 1, GameSettings()).state
    human = Seats.for_sides(scenario.sides, {"a": "human", "b": "ai"})
    machines = Seats.for_sides(scenario.sides, {"a": "ai", "b": "ai"})
    rout = [Routed(unit="b_levy", side="b")]
    hints = Hints(prefs)
    hints.on_events(rout, state, "a", machines)
    hints.on_events(rout, state, None, machines)
    hints.on_events(rout, state, "b", human)  # the computer's side
    assert hints.current is None
    theirs = Moved(unit="b_levy", path=(Hex(0, 0), Hex(1, 0)), interrupted=True)
    hints.on_events([theirs, SoulsReleased(at=Hex(0, 0), count=0)], state, "a", human)
    assert hints.current is None
    hints.on_events(rout, state, "a", human)
    assert hints.current == "rout"
    ours = Moved(unit="a_foot", path=(Hex(0, 0), Hex(1, 0)), interrupted=True)
    hints.on_events([ours, SoulsReleased(at=Hex(0, 0), count=40)], state, "a", human)
    assert hints.queue == ["interrupted", "souls"]


def test_the_hint_box_keeps_off_the_panels_it_is_told_to_avoid() -> None:
    screen = (1280, 800)
    left, right = pygame.Rect(10, 54, 390, 300), pygame.Rect(970, 54, 300, 400)
    box = place((360, 120), screen, [left, right])
    assert not box.colliderect(left) and not box.colliderect(right)
    assert pygame.Rect(0, 0, *screen).contains(box)
    narrow = (800, 560)
    panel = pygame.Rect(490, 54, 300, 250)  # the unit panel; the objectives are hidden
    box = place((360, 120), narrow, [pygame.Rect(10, 54, 390, 0), panel])
    assert pygame.Rect(0, 0, *narrow).contains(box) and not box.colliderect(panel)
    # Both panels long: low on the screen, clear of them and of the orders bar.
    left, right = pygame.Rect(10, 54, 390, 250), pygame.Rect(490, 54, 300, 250)
    box = place((360, 120), narrow, [left, right])
    assert not box.colliderect(left) and not box.colliderect(right) and box.bottom <= 560 - 76
    # No room anywhere: at the top, in the middle, over whatever is there.
    everything = pygame.Rect(0, 0, *narrow)
    assert place((360, 120), narrow, [everything]).midtop[0] == 400


def test_the_suite_settings_are_left_alone() -> None:
    """The hint tests write only to their own folders."""
    assert json.loads(settings_path(SUITE_SAVES).read_text(encoding="utf-8")).get("hints") is False


def test_the_keys_page_names_every_view_key_of_the_battle() -> None:
    """The battle's view keys (enemy reach, legend, unit list, log, place names, objectives)."""
    from game.ui import legend, threat_overlay, unit_list

    keys = {k for k, _d in help_pages.key_rows()}
    for key in (threat_overlay.KEY, legend.KEY, unit_list.TOGGLE_KEY, pygame.K_l, pygame.K_p, pygame.K_o):
        assert pygame.key.name(key).upper() in keys
