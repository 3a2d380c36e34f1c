"""The computer's difficulty (chosen, recorded, handed to the AI) and its time budget: deadlines,
and thinking in the background so the battle screen never freezes."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pygame
import pytest
from conftest import current, frame
from pydantic import ValidationError
from test_ui import FIELD_UNITS, choose, field_match, press

from game import i18n
from game.ai.driver import SCREEN_BUDGET, Budget, make_ais, play_ai_turn
from game.core.actions import Action, EndTurn, Rest
from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.record.model import GameRecord
from game.record.saves import load_record
from game.ui.ai_worker import AIWorker
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.quick_battle import QuickBattleScene

# -- fakes ----------------------------------------------------------------------------------


class HeldAI:
    """Thinks until the test lets it answer; remembers every deadline it was given."""

    def __init__(self, side_id: str, answer: Action | None = None) -> None:
        self.side_id = side_id
        self.answer = answer or EndTurn()
        self.release = threading.Event()
        self.started = threading.Event()
        self.deadlines: list[float | None] = []

    def next_action(self, deadline: float | None = None) -> Action:
        self.deadlines.append(deadline)
        self.started.set()
        self.release.wait(5.0)
        return self.answer


class OldAI:
    """An AI from before deadlines existed."""

    def __init__(self, side_id: str) -> None:
        self.side_id = side_id
        self.calls = 0

    def next_action(self) -> Action:
        self.calls += 1
        return EndTurn()


# The screens are checked in English; ``app`` is the shared headless window (conftest).
pytestmark = pytest.mark.usefixtures("english")


def _battle_with_held_ai(app: App, rules: Ruleset) -> tuple[BattleScene, HeldAI]:
    """Side a (human) has just ended its turn; side b's computer is thinking and held."""
    scene = app.go("battle", match=field_match(rules, FIELD_UNITS))
    assert isinstance(scene, BattleScene)
    frame(app)
    held = HeldAI("b")
    scene.computer.ais["b"] = held  # type: ignore[assignment]
    press(app, pygame.K_e)
    assert scene.state.active_side.id == "b"
    assert held.started.wait(2.0)
    return scene, held


# -- difficulty -----------------------------------------------------------------------------


def test_difficulty_per_side_falls_back_to_the_global_level() -> None:
    settings = GameSettings(difficulty="easy", difficulties={"b": "hard"})
    assert settings.difficulty_of("b") == "hard"
    assert settings.difficulty_of("a") == "easy"
    assert GameSettings().difficulty_of("a") == "normal"
    with pytest.raises(ValidationError):
        GameSettings(difficulties={"b": "impossible"})


def test_difficulty_is_recorded_and_survives_save_and_load(rules: Ruleset, tmp_path: Path) -> None:
    match = field_match(rules, FIELD_UNITS, controllers={"a": "ai", "b": "ai"})
    match.engine.settings.difficulties = {"b": "hard"}
    match.record.settings.difficulties = {"b": "hard"}
    path = match.save(tmp_path / "game.json")
    loaded = load_record(path)
    assert loaded.settings.difficulties == {"b": "hard"}
    assert loaded.settings.difficulty_of("b") == "hard" and loaded.settings.difficulty_of("a") == "normal"
    # A record written before per-side levels existed still loads, every side at its one level.
    data = match.record.model_dump(mode="json")
    del data["settings"]["difficulties"]
    old = GameRecord.model_validate(data)
    assert old.settings.difficulties == {} and old.settings.difficulty_of("b") == "normal"


def test_each_computer_side_gets_its_own_level(rules: Ruleset) -> None:
    match = field_match(rules, FIELD_UNITS, controllers={"a": "ai", "b": "ai"})
    match.engine.settings.difficulty = "easy"
    match.engine.settings.difficulties = {"b": "hard"}
    ais = make_ais(match)
    assert ais["a"].difficulty == "easy" and ais["b"].difficulty == "hard"


def test_the_menu_records_the_level_chosen_for_a_computer_side(app: App) -> None:
    app.switch(QuickBattleScene(app))
    frame(app)
    menu = app.scene
    assert isinstance(menu, QuickBattleScene)
    assert set(menu.level_menus) == {"hailing"}  # the human side has no level to choose
    choose(app, menu.level_menus["hailing"], "Hard")
    assert menu.difficulties["hailing"] == "hard"
    press(app, pygame.K_RETURN)
    battle = app.scene
    assert isinstance(battle, BattleScene)
    assert battle.match.record.settings.difficulty_of("hailing") == "hard"
    assert battle.computer.ais["hailing"].difficulty == "hard"


def test_changing_the_language_keeps_the_choices_made(app: App) -> None:
    app.switch(QuickBattleScene(app))
    frame(app)
    menu = app.scene
    assert isinstance(menu, QuickBattleScene)
    choose(app, menu.side_menus["coalition"], "Computer")
    menu = current(app, QuickBattleScene)
    choose(app, menu.level_menus["hailing"], "Hard")
    choose(app, menu.level_menus["coalition"], "Easy")
    try:
        app.set_language("zh_CN")  # as the settings screen does: the screen is built anew
        frame(app)
        switched = app.scene
        assert isinstance(switched, QuickBattleScene)
        assert switched.controllers == {"coalition": "ai", "hailing": "ai"}
        assert switched.difficulties == {"coalition": "easy", "hailing": "hard"}
        assert switched.level_menus["hailing"].selected_option[0] == "困难"
    finally:
        i18n.set_language("en")


# -- deadlines ------------------------------------------------------------------------------


def test_headless_turns_give_the_ai_deadlines_within_the_budget(rules: Ruleset) -> None:
    match = field_match(rules, FIELD_UNITS, controllers={"a": "ai", "b": "ai"})
    ai = HeldAI("a")
    ai.release.set()
    before = time.perf_counter()
    play_ai_turn(match, ai, budget=Budget(action=30.0, turn=2.0))  # type: ignore[arg-type]
    (deadline,) = ai.deadlines
    assert deadline is not None and before < deadline <= before + 2.0 + 0.5  # the turn budget binds
    assert match.state.active_side.id == "b"


def test_an_ai_out_of_turn_budget_gets_a_deadline_already_past() -> None:
    budget = Budget(action=0.25, turn=3.0)
    assert budget.deadline(turn_started=100.0, now=100.5) == pytest.approx(100.75)
    assert budget.deadline(turn_started=100.0, now=104.0) == pytest.approx(103.0)  # past: end the turn


def test_an_ai_without_deadlines_still_plays(rules: Ruleset) -> None:
    match = field_match(rules, FIELD_UNITS, controllers={"a": "ai", "b": "ai"})
    old = OldAI("a")
    play_ai_turn(match, old)  # type: ignore[arg-type]
    assert old.calls == 1 and match.record.actions == [EndTurn()]


# -- the background worker ------------------------------------------------------------------


def test_frames_go_on_while_the_computer_thinks_and_its_action_lands_when_ready(app: App, rules: Ruleset) -> None:
    asked = time.perf_counter()
    scene, held = _battle_with_held_ai(app, rules)
    scene.computer.fast = True  # fast mode waits longest inside a frame, and still must not block
    record = scene.match.record
    for _ in range(3):
        start = time.perf_counter()
        frame(app)
        assert time.perf_counter() - start < 0.5
    assert record.actions == [EndTurn()] and scene.computer.worker.busy
    (deadline,) = held.deadlines
    assert deadline is not None and asked < deadline <= time.perf_counter() + SCREEN_BUDGET.action

    held.release.set()
    assert scene.computer.worker.wait(2.0)
    frame(app)
    assert record.actions == [EndTurn(), EndTurn()]
    assert scene.state.active_side.id == "a" and scene.session.human_to_move()


def test_a_late_answer_for_a_position_left_behind_is_dropped(app: App, rules: Ruleset) -> None:
    scene, held = _battle_with_held_ai(app, rules)
    app.switch(QuickBattleScene(app))  # the battle is left while its computer thinks
    held.release.set()
    assert scene.computer.worker.wait(2.0)
    frame(app)
    assert scene.match.record.actions == [EndTurn()]  # nothing lands in a game off screen

    # Back in the battle after the game moved on: the stale answer is not applied.
    scene.match.apply(Rest(unit="b_rear"))
    app.switch(scene)
    frame(app)
    assert scene.match.record.actions == [EndTurn(), Rest(unit="b_rear")]
    assert len(held.deadlines) == 2  # asked again for the position as it is now
    assert scene.computer.worker.wait(2.0)
    frame(app, dt=1.0)
    assert scene.match.record.actions[-1] == EndTurn() and scene.state.active_side.id == "a"


def test_a_cancelled_decision_is_never_handed_back() -> None:
    worker = AIWorker()
    held = HeldAI("b")
    worker.request(held, token=1, turn_key=(1, 0))
    assert held.started.wait(2.0)
    worker.cancel()
    held.release.set()
    assert not worker.busy and worker.poll(1) is None


def test_escape_skips_showing_the_rest_of_the_computers_turn(app: App, rules: Ruleset) -> None:
    scene, held = _battle_with_held_ai(app, rules)
    assert not scene.computer.shown_fast()
    press(app, pygame.K_ESCAPE)
    assert scene.computer.shown_fast() and not scene.computer.fast  # for this turn only
    held.release.set()
    assert scene.computer.worker.wait(2.0)
    frame(app)
    assert scene.match.record.actions == [EndTurn(), EndTurn()]  # still applied through the engine
    assert scene.session.human_to_move() and not scene.computer.shown_fast()
