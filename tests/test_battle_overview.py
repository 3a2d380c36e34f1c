"""The unit list and the minimap on the battle screen: N and the button open the list, a row
selects and shows its formation, the wheel over the list does not zoom the map, a click on the
minimap moves the view, and in hotseat each player's list is their own."""

from __future__ import annotations

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_scenario

from game.core.actions import EndTurn
from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.record.match import Match
from game.record.seats import Commander
from game.ui.app import App
from game.ui.battle import BattleScene

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("." * 40,) * 24  # much larger than the window
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (3, 3)),
    Unit("a_guard", "a", "retainer", 800, (30, 18)),
    Unit("b_levy", "b", "soul_levy", 1500, (5, 3)),
    Unit("b_far", "b", "soul_levy", 1500, (38, 1)),
]


def battle(app: App, rules: Ruleset, controllers: dict[str, Commander]) -> BattleScene:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=5)
    match = Match(loaded_for(scenario), 3, GameSettings(), seats=controllers)
    scene = BattleScene(app, match, show_handover=False)
    app.switch(scene)
    scene.on_enter()
    frame(app)
    return scene


def point(app: App, pos: tuple[int, int]) -> None:
    """The pointer arrives (pygame_gui reads hover from it) before anything is pressed."""
    pygame.mouse.set_pos(pos)
    frame(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0), touch=False))


def click(app: App, pos: tuple[int, int]) -> None:
    point(app, pos)
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def rows(scene: BattleScene) -> dict[str, object]:
    return {fid: button for button, fid in scene.panels.unit_list._row_buttons.items()}


def test_a_row_selects_its_formation_and_brings_it_into_view(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, {"a": "human", "b": "ai"})
    assert not scene.panels.unit_list.visible
    scene.panels.objectives.visible = True
    press(app, pygame.K_n)
    assert scene.panels.unit_list.visible and not scene.panels.objectives.visible  # they share the left column
    assert set(rows(scene)) == {"a_foot", "a_guard"}
    click(app, rows(scene)["a_guard"].rect.center)
    assert scene.session.selected == "a_guard"
    x, y = scene.camera.to_screen(scene.geometry.centre(scene.state.formations["a_guard"].pos))
    assert scene.panels.unit_list.rect.right < x < app.size[0] - 300 and 100 < y < app.size[1] - 100
    # Its button closes it too.
    click(app, scene.panels.unit_list.button.rect.center)
    assert not scene.panels.unit_list.visible


def test_the_wheel_over_the_list_leaves_the_zoom_alone(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, {"a": "human", "b": "ai"})
    press(app, pygame.K_n)
    zoom = scene.camera.zoom
    point(app, scene.panels.unit_list.rect.center)
    frame(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    frame(
        app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=scene.panels.unit_list.rect.center, button=4, touch=False)
    )
    assert scene.camera.zoom == zoom
    point(app, (app.size[0] // 2, app.size[1] // 2))
    frame(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    assert scene.camera.zoom > zoom  # over the map the wheel zooms as before


def test_a_click_on_the_minimap_centres_the_view_there(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, {"a": "human", "b": "ai"})
    mm = scene.panels.minimap
    target = scene.match.loaded.scenario.board.at_offset(20, 12)
    assert scene.geometry.hex_at(*scene.camera.to_map((app.size[0] / 2, app.size[1] / 2))) != target
    x, y = mm.to_minimap(scene.geometry.centre(target))
    pos = (round(x), round(y))
    selected = scene.session.selected
    click(app, pos)
    middle = scene.camera.to_map((app.size[0] / 2, app.size[1] / 2))
    assert scene.geometry.hex_at(*middle) == target
    assert scene.session.selected == selected  # nothing on the map beneath was clicked


def test_in_hotseat_each_player_lists_their_own_formations(app: App, rules: Ruleset) -> None:
    scene = battle(app, rules, {"a": "human", "b": "human"})
    press(app, pygame.K_n)
    assert set(rows(scene)) == {"a_foot", "a_guard"}
    scene.submit(EndTurn())
    while app.scene is not scene:  # the hand-over and the report
        app.back()
    frame(app)
    assert scene.session.viewer == "b"
    assert set(rows(scene)) == {"b_levy", "b_far"}
    assert scene.panels.unit_list.button is not None
    assert scene.panels.unit_list.button.text == "Formations: 2 to act"


def test_the_list_and_the_objectives_take_turns_in_the_left_column(app: App) -> None:
    from game.record.match import new_match

    scene = BattleScene(app, new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, 1), False)
    app.switch(scene)
    frame(app)
    assert scene.panels.objectives.visible and not scene.panels.unit_list.visible
    press(app, pygame.K_n)
    assert scene.panels.unit_list.visible and not scene.panels.objectives.visible
    press(app, pygame.K_o)
    assert scene.panels.objectives.visible and not scene.panels.unit_list.visible


def test_in_the_smallest_window_the_log_never_lies_over_the_open_objectives() -> None:
    """At 800x560 the objectives (open as the battle begins) reach down into the log's corner:
    the log shows the rows that fit below them, none when none fits, all of them again once the
    objectives close, and lies over them (opaque) only when the player expands it."""
    from game.record.match import new_match
    from game.ui.app import MIN_SIZE

    small = App(MIN_SIZE)
    scene = BattleScene(small, new_match("b3_tangut_border", {"zhenguo": "human", "jin": "ai"}, 1), False)
    small.switch(scene)
    for k in range(8):
        scene.log.add(f"Line {k}")
    frame(small)
    objectives, log = scene.panels.objectives, scene.log
    assert objectives.visible and objectives.rect.height > 0
    assert not log.rect.colliderect(objectives.rect)
    press(small, pygame.K_o)
    assert not objectives.visible and log.rect.height > 0
    press(small, pygame.K_o)
    press(small, pygame.K_l)
    assert log.expanded and log.rect.colliderect(objectives.rect)
