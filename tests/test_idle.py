"""An idle game costs nothing: while nothing moves on screen the frame loop sleeps in the event
queue until input comes; while something moves (the computer's turn, a replay playing, marks
fading, a pan key held) frames run at full rate."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest
from conftest import Unit, frame, open_field

from game.core.actions import Move
from game.core.hexgrid import Hex
from game.core.rules import Ruleset
from game.record.seats import Commander
from game.ui.app import IDLE_SLEEP, App
from game.ui.battle import BattleScene
from game.ui.replay import ReplayScene

pytestmark = pytest.mark.usefixtures("english")

FIELD = ("........",) * 6
UNITS = [Unit("a_foot", "a", "han_soldier", 3000, (1, 2)), Unit("b_levy", "b", "soul_levy", 1500, (6, 2))]


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The seconds the loop slept (the sleep itself returns at once)."""
    calls: list[float] = []
    monkeypatch.setattr(time, "sleep", calls.append)
    return calls


def battle(app: App, rules: Ruleset, controllers: dict[str, Commander]) -> BattleScene:
    return open_field(app, rules, FIELD, UNITS, controllers)


def test_the_main_menu_sleeps_until_input_comes(app: App, waits: list[float]) -> None:
    app.go("menu")
    events, dt = app.next_events()
    assert waits == [IDLE_SLEEP] and events == [] and 0 <= dt <= 0.1


def test_a_battle_waiting_for_the_player_sleeps(app: App, rules: Ruleset, waits: list[float]) -> None:
    scene = battle(app, rules, {"a": "human", "b": "ai"})
    assert not scene.animating()
    app.next_events()
    assert waits == [IDLE_SLEEP]


def test_marks_on_the_map_keep_frames_coming_until_they_fade(app: App, rules: Ruleset, waits: list[float]) -> None:
    scene = battle(app, rules, {"a": "human", "b": "ai"})
    assert scene.submit(Move(unit="a_foot", to=Hex(2, 2)))  # halted: marks on the map
    assert scene.animating()
    app.next_events()
    assert waits == []
    frame(app, dt=5.0)
    assert not scene.animating()


def test_the_computers_turn_runs_at_full_rate_unless_a_narration_waits_for_the_player(
    app: App, rules: Ruleset, waits: list[float]
) -> None:
    scene = battle(app, rules, {"a": "ai", "b": "human"})
    assert scene.computer.to_move() and scene.animating()
    scene.narration.push("Words to read first.", None)
    assert not scene.animating()


def test_a_replay_playing_animates_and_a_paused_one_sleeps(app: App, waits: list[float], tmp_path: Path) -> None:
    from pathlib import Path

    from game.content.scenarios import load_scenario
    from game.record.saves import load_record
    from game.simulate import run_game

    result = run_game(load_scenario("b3_tangut_border"), 1, max_turns=1, save_dir=tmp_path)
    viewer = app.go("replay", record=load_record(Path(result["save"])))
    assert isinstance(viewer, ReplayScene)
    assert not viewer.animating()
    viewer.play_pause()
    assert viewer.animating()


def test_an_idle_frame_draws_nothing_and_input_draws(
    app: App, waits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    app.go("menu")
    app.frame()  # the first frame after the screen opened: its widgets are new
    drawn: list[bool] = []
    monkeypatch.setattr(app, "render", lambda: drawn.append(True))
    app.frame()
    assert drawn == []
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10), rel=(1, 1), buttons=(0, 0, 0)))
    app.frame()
    assert drawn == [True]
