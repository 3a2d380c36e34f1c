"""The replay viewer driven headless: it opens on a saved game, plays, steps back to the exact
earlier state, draws each side's fog, takes over into a new battle, and is reached from the main
menu and from ``qiankun replay SAVE``."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui
import pytest
from conftest import current, frame, saves_folder_at
from test_replay_cursor import play_random

from game import cli
from game.core.events import Narration, ObjectiveChanged
from game.core.state import state_hash
from game.record.errors import SaveError
from game.record.match import Match
from game.record.model import GameRecord
from game.record.saves import load_record, write_record
from game.record.verify import replay_engine, verify
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.board_view import FOG_UNEXPLORED
from game.ui.menu import MenuScene
from game.ui.replay import ALL, ReplayScene
from game.ui.saves_screen import SaveScreen

pytestmark = pytest.mark.usefixtures("english")


@pytest.fixture(scope="module")
def game() -> Match:
    return play_random(turns=3, seed=8)


@pytest.fixture
def save_file(game: Match, tmp_path: Path) -> Path:
    path = tmp_path / "short.json"
    write_record(game.record.model_copy(deep=True), path)
    return path


@pytest.fixture
def viewer(app: App, save_file: Path) -> ReplayScene:
    scene = app.go("replay", record=load_record(save_file))
    assert app.scene is scene and isinstance(scene, ReplayScene)
    frame(app)
    return current(app, ReplayScene)


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def click(app: App, pos: tuple[int, int]) -> None:
    pos = (int(pos[0]), int(pos[1]))
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def fresh_hash(record: GameRecord, upto: int) -> str:
    return state_hash(replay_engine(record, upto=upto).state)


def test_the_viewer_opens_at_the_start_of_the_saved_game(viewer: ReplayScene, save_file: Path) -> None:
    record = load_record(save_file)
    assert viewer.cursor.position == 0 and viewer.cursor.length == len(record.actions)
    assert state_hash(viewer.cursor.state) == fresh_hash(record, 0)
    assert not viewer.playing and viewer.view_side == ALL
    assert not viewer.nav["back"].is_enabled and viewer.nav["forward"].is_enabled


def test_play_advances_at_the_chosen_speed_and_space_pauses(app: App, viewer: ReplayScene) -> None:
    press(app, pygame.K_SPACE)
    assert viewer.playing
    frame(app, dt=1.0)
    assert viewer.cursor.position == 1  # one action a second at 1×
    click(app, viewer.speed_button.rect.center)
    assert viewer.speed == 2
    frame(app, dt=1.0)
    assert viewer.cursor.position == 3
    press(app, pygame.K_SPACE)
    assert not viewer.playing
    frame(app, dt=5.0)
    assert viewer.cursor.position == 3


def test_playing_stops_at_the_end(app: App, viewer: ReplayScene) -> None:
    press(app, pygame.K_END)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_SPACE)
    frame(app, dt=1.0)
    frame(app, dt=1.0)
    assert viewer.cursor.at_end() and not viewer.playing
    assert not viewer.nav["play"].is_enabled


def test_step_back_restores_the_exact_earlier_state(app: App, viewer: ReplayScene, save_file: Path) -> None:
    record = load_record(save_file)
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_RIGHT)
    here = viewer.cursor.position
    assert here == viewer.cursor.turn_marks()[2].index + 1
    before = state_hash(viewer.cursor.state)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    assert viewer.cursor.position == here + 2
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)
    assert viewer.cursor.position == here
    assert state_hash(viewer.cursor.state) == before == fresh_hash(record, here)
    press(app, pygame.K_PAGEUP)
    assert viewer.cursor.position == viewer.cursor.turn_marks()[2].index
    press(app, pygame.K_HOME)
    assert viewer.cursor.position == 0
    assert state_hash(viewer.cursor.state) == fresh_hash(record, 0)


def test_buttons_and_the_timeline_move_the_replay(app: App, viewer: ReplayScene) -> None:
    click(app, viewer.nav["next_turn"].rect.center)
    assert viewer.cursor.position == viewer.cursor.turn_marks()[1].index
    click(app, viewer.nav["forward"].rect.center)
    click(app, viewer.nav["back"].rect.center)
    assert viewer.cursor.position == viewer.cursor.turn_marks()[1].index
    click(app, viewer.nav["end"].rect.center)
    assert viewer.cursor.at_end()
    click(app, viewer.nav["start"].rect.center)
    assert viewer.cursor.position == 0
    # A click on the timeline goes to the action under it: the middle, then the very end.
    bar = viewer.timeline.rect
    click(app, bar.center)
    assert abs(viewer.cursor.position - viewer.cursor.length // 2) <= 1
    click(app, (bar.right - 2, bar.centery))
    assert viewer.cursor.at_end()


def test_jump_to_a_turn_by_number(app: App, viewer: ReplayScene) -> None:
    viewer.turn_entry.set_text("3")
    click(app, viewer.go_button.rect.center)
    assert viewer.cursor.state.turn == 3
    assert viewer.cursor.position == next(m.index for m in viewer.cursor.turn_marks() if m.turn == 3)
    assert viewer.message == ""
    viewer.turn_entry.set_text("99")
    click(app, viewer.go_button.rect.center)
    assert viewer.cursor.state.turn == 3 and "99" in viewer.message


def dark_pixels(surface: pygame.Surface, area: pygame.Rect) -> int:
    sub = surface.subsurface(area)
    colour = FOG_UNEXPLORED[:3]
    return sum(1 for x in range(0, area.width, 4) for y in range(0, area.height, 4) if sub.get_at((x, y))[:3] == colour)


def test_the_view_shows_one_sides_fog_or_everything(app: App, viewer: ReplayScene) -> None:
    area = viewer.map_rect()
    area.top += 50
    frame(app)
    everything = dark_pixels(app.screen, area)
    # The dropdown's choice, as pygame_gui reports it.
    label = next(k for k, v in viewer._view_options.items() if v == "coalition")
    frame(app, pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ui_element=viewer.view_menu, text=label))
    assert viewer.view_side == "coalition"
    fog = viewer.fog()
    assert fog is not None
    hidden = [f for f in viewer.cursor.state.formations.values() if f.side == "hailing" and f.id not in fog.shown]
    assert hidden  # some of the enemy starts out of the coalition's sight
    frame(app)
    fogged = dark_pixels(app.screen, area)
    assert everything == 0 and fogged > 100
    viewer.set_view(ALL)
    assert viewer.view_menu.selected_option[0] == next(k for k, v in viewer._view_options.items() if v == ALL)
    frame(app)
    assert dark_pixels(app.screen, area) == 0


def test_the_log_tells_the_current_turn(app: App, viewer: ReplayScene) -> None:
    press(app, pygame.K_PAGEDOWN)
    lines = viewer.log_lines()
    side = viewer.cursor.state.active_side.id
    assert lines[0] == f"Turn {viewer.cursor.state.turn}: {viewer.hud.side_name(side)}"
    press(app, pygame.K_RIGHT)
    assert len(viewer.log_lines()) >= len(lines)


def test_a_sides_log_keeps_to_what_that_side_could_know(
    app: App, viewer: ReplayScene, monkeypatch: pytest.MonkeyPatch
) -> None:
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_RIGHT)
    n = viewer.cursor.position
    done = ObjectiveChanged(objective="sweep_valley", status="done")  # the coalition's objective
    words = Narration(text="Turn the column about.", speaker="wanyan_liang")
    # Wanyan Liang's own formation, out of the coalition's sight here.
    sight = viewer.cursor.sight_after(n, "coalition")
    assert sight is not None and "liang_levy_3" not in sight.seen
    monkeypatch.setattr(viewer.cursor, "recent_events", lambda: [(n, [done, words])])

    def log(view: str) -> list[str]:
        viewer.set_view(view)
        return viewer.log_lines()

    assert len(log(ALL)) == 2 and len(log("coalition")) == 1  # unseen, Wanyan Liang is not heard
    assert log("hailing") == [log(ALL)[1]]  # he is heard by his own; the objective is not theirs


def test_take_over_starts_a_battle_with_the_chosen_commanders(app: App, viewer: ReplayScene) -> None:
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_PAGEDOWN)
    press(app, pygame.K_RIGHT)
    position = viewer.cursor.position
    click(app, viewer.take_over_button.rect.center)
    assert viewer.dialog is not None
    press(app, pygame.K_RIGHT)  # the replay holds still while the dialog is open
    assert viewer.cursor.position == position
    match = viewer.take_over({"coalition": "human", "hailing": "ai"})
    # At once: nothing is played again, so there is nothing to wait for.
    assert isinstance(app.scene, BattleScene) and app.scene.match is match
    assert match.seats.commanders() == {"coalition": "human", "hailing": "ai"}
    assert match.record.actions == viewer.record.actions[:position]
    assert match.state == viewer.cursor.state
    assert verify(match.record).ok
    assert not match.can_undo()  # the record's moves are not the new commander's to take back


def test_the_take_over_dialog_starts_with_the_records_commanders(app: App, viewer: ReplayScene) -> None:
    click(app, viewer.take_over_button.rect.center)
    assert viewer.chosen_controllers() == {"coalition": "ai", "hailing": "ai"}
    assert viewer.dialog is not None
    click(app, viewer.dialog.start.rect.center)
    assert isinstance(app.scene, BattleScene)
    assert app.scene.match.seats.commanders() == {"coalition": "ai", "hailing": "ai"}
    # Taken over at the very start: a new battle from its first turn, the computer playing on.
    match = app.scene.match
    assert match.state.turn == 1 and match.record.seed == viewer.record.seed
    assert verify(match.record).ok


def test_a_record_that_differs_where_it_is_taken_over_says_so(app: App, viewer: ReplayScene) -> None:
    press(app, pygame.K_PAGEDOWN)
    n = viewer.cursor.position
    cps = [cp.model_copy(update={"hash": "0" * 16}) if cp.actions == n else cp for cp in viewer.record.checkpoints]
    viewer.record = viewer.record.model_copy(update={"checkpoints": cps})
    assert viewer.take_over({"coalition": "human", "hailing": "ai"}) is None
    assert app.scene is viewer and viewer.message.startswith("This record cannot be taken over: checkpoint")


def test_escape_closes_the_dialog_then_goes_back_to_the_menu(app: App, viewer: ReplayScene) -> None:
    click(app, viewer.take_over_button.rect.center)
    press(app, pygame.K_ESCAPE)
    assert viewer.dialog is None and app.scene is viewer
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, MenuScene)


@pytest.mark.parametrize("size", [(1280, 800), (800, 560)])
def test_the_controls_fit_the_window(save_file: Path, size: tuple[int, int]) -> None:
    app = App(size)
    app.go("replay", record=load_record(save_file))
    viewer = app.scene
    assert isinstance(viewer, ReplayScene)
    frame(app)
    w, h = size
    rects = [b.rect for b in viewer.nav.values()] + [
        viewer.speed_button.rect,
        viewer.turn_entry.rect,
        viewer.go_button.rect,
    ]
    for i, r in enumerate(rects):
        assert r.right <= viewer.map_rect().right + viewer.panel_width() and r.bottom <= h
        assert not any(r.colliderect(o) for o in rects[i + 1 :])
        assert not r.colliderect(viewer.timeline.rect)
    panel = [viewer.view_menu.rect, viewer.take_over_button.rect, viewer.menu_button.rect]
    assert all(p.left >= viewer.map_rect().right and p.right <= w for p in panel)


# -- the main menu and the command line ----------------------------------------------------------


def test_the_menus_replays_opens_the_save_list_and_its_watch_the_viewer(app: App, game: Match, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    app.saves = saves_folder_at(folder)
    write_record(game.record.model_copy(deep=True), folder / "newer.json")
    app.switch(MenuScene(app))
    frame(app)
    click(app, current(app, MenuScene).replay_button.rect.center)
    screen = app.scene
    assert isinstance(screen, SaveScreen) and screen.selected is not None and screen.selected.stem == "newer"
    screen.watch()
    assert isinstance(app.scene, ReplayScene)
    assert app.scene.cursor.length == len(game.record.actions)


def test_a_record_of_a_changed_scenario_is_refused_and_the_screen_stays(app: App, game: Match) -> None:
    menu = MenuScene(app)
    app.switch(menu)
    changed = game.record.model_copy(update={"content_version": "other"})
    with pytest.raises(SaveError, match="made with other content"):
        app.go("replay", record=changed)
    assert app.scene is menu


def test_continue_says_why_the_newest_save_cannot_be_loaded(app: App, game: Match, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    app.saves = saves_folder_at(folder)
    write_record(game.record.model_copy(update={"content_version": "other"}), folder / "changed.json")
    app.switch(MenuScene(app))
    frame(app)
    click(app, current(app, MenuScene).continue_button.rect.center)
    assert isinstance(app.scene, MenuScene) and app.scene.message.startswith("Cannot load: made with other content")


def test_replay_save_opens_the_viewer(save_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = []
    monkeypatch.setattr(App, "run", lambda self: shown.append(self.scene))
    assert cli.main(["--lang", "en", "replay", str(save_file)]) == 0
    (scene,) = shown
    assert isinstance(scene, ReplayScene) and scene.cursor.position == 0


def test_replay_save_refuses_an_unknown_scenario_in_one_line(
    game: Match, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(App, "run", lambda self: pytest.fail("no window for a bad save"))
    path = tmp_path / "bad.json"
    write_record(game.record.model_copy(update={"scenario_id": "no_such_battle"}), path)
    assert cli.main(["--lang", "en", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "no_such_battle" in err and "Traceback" not in err
