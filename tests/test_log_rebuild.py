"""The battle log survives loading: a game loaded for play gets back the log each viewing side
read, rebuilt from the save's record through that side's eyes (``replay_log.rebuild_logs``), in
the same lines the battle screen told it while the game was played."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_scenario

from game.ai.random_player import RandomAI
from game.content.scenarios import load_scenario
from game.core.actions import AnswerDuel, EndTurn
from game.core.engine import GameSettings
from game.core.rules import Ruleset
from game.record.match import Match, match_from_record
from game.record.saves import load_record
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.replay_log import LogRebuild, log_sides, rebuild_log, rebuild_logs
from game.ui.side_logs import RECALL_SLICE

pytestmark = pytest.mark.usefixtures("english")

# Open ground with the two lines in contact, and a reserve of b's far off: a's eyes see the
# fighting but not all of b's doings.
FIELD = ("." * 16,) * 5
UNITS = [
    Unit("a_foot", "a", "han_soldier", 3000, (3, 2)),
    Unit("a_horse", "a", "warrior", 500, (3, 1), hero="xiang_yu"),
    Unit("a_retainer", "a", "retainer", 800, (2, 3)),
    Unit("b_levy", "b", "soul_levy", 4000, (4, 2)),
    Unit("b_levy_2", "b", "soul_levy", 4000, (4, 1)),
    Unit("b_rider", "b", "soul_rider", 1500, (4, 3)),
    Unit("b_reserve", "b", "soul_levy", 4000, (15, 0)),
]


def play(battle: BattleScene, turns: int) -> None:
    """Every side's moves chosen at random (they fight: the lines are in contact), given through
    the battle screen as a person's orders are, until ``turns`` game turns have passed."""
    engine = battle.match.engine
    players = {s.id: RandomAI(engine, s.id) for s in battle.state.sides}
    last = battle.state.turn + turns
    while not battle.state.over and battle.state.turn < last:
        side = engine.deciding_side()
        if not battle.submit(players[side].next_action()):
            battle.submit(AnswerDuel(accept=False) if battle.state.pending_duel is not None else EndTurn())


def told(battle: BattleScene, side: str | None) -> list[str]:
    """What the battle screen told ``side``: its log, and what it saw since it last waited (put on
    its log at the next hand-over); not the screen's own notes."""
    lines = battle.logs[side].lines + (battle.session.watch.log.get(side, []) if side is not None else [])
    return [line for line in lines if not line.startswith(("Not allowed", "Game saved"))]


def press(app: App, key: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def save_and_load(match: Match, tmp_path: Path) -> Match:
    path = tmp_path / "log.json"
    match.save(path)
    return match_from_record(load_record(path), match.loaded)


def test_a_loaded_game_gets_back_the_log_its_player_read(app: App, rules: Ruleset, tmp_path: Path) -> None:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=8)
    match = Match(loaded_for(scenario), 11, GameSettings(), seats={"a": "human", "b": "ai"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    play(battle, turns=3)
    live = told(battle, "a")
    assert any(" attacked " in line for line in live), live  # there was fighting
    loaded = save_and_load(match, tmp_path)
    assert rebuild_log(loaded, "a") == live
    everything = rebuild_log(loaded, None)
    assert len(everything) > len(live)  # b's own doings out of a's sight are not in a's log
    assert set(live) <= set(everything)


def test_in_hotseat_each_player_gets_back_their_own_log(app: App, tmp_path: Path) -> None:
    """A scenario with words spoken and reinforcements: in hotseat a speaker is heard only where
    he is seen or a friend, and each side's log is what its own formations saw."""
    loaded = load_scenario("a1_valley_mouth")
    match = Match(loaded, 4, GameSettings(), seats={"coalition": "human", "hailing": "human"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    play(battle, turns=3)
    logs = {side: told(battle, side) for side in ("coalition", "hailing")}
    assert logs["coalition"] and logs["hailing"] and logs["coalition"] != logs["hailing"]
    rebuilt = rebuild_logs(save_and_load(match, tmp_path))
    assert set(rebuilt) == {"coalition", "hailing"}
    assert rebuilt["coalition"] == logs["coalition"]
    assert rebuilt["hailing"] == logs["hailing"]


def test_quickload_brings_the_log_back_a_slice_per_frame(app: App) -> None:
    match = Match(load_scenario("a1_valley_mouth"), 4, GameSettings(), seats={"coalition": "human", "hailing": "ai"})
    battle = app.go("battle", match=match)
    assert isinstance(battle, BattleScene)
    play(battle, turns=2)
    while battle.narration.active:  # words read (they are in the log as well)
        battle.dismiss_narration()
    assert battle.session.human_to_move()
    live = told(battle, "coalition")
    press(app, pygame.K_F5)
    battle.saves.quickload()  # F9
    loaded = app.scene
    assert isinstance(loaded, BattleScene) and loaded is not battle
    assert loaded.logs.recall is not None and loaded.log.recalling
    assert len(match.record.actions) > RECALL_SLICE
    loaded.update(0.0)  # one frame: one slice, so the window stays live
    assert loaded.logs.recall is not None and loaded.logs.recall.cursor.position == RECALL_SLICE
    while loaded.logs.recall is not None:
        loaded.update(0.0)
    assert told(loaded, "coalition") == live
    assert not loaded.log.recalling


def test_the_rebuild_can_be_done_a_slice_at_a_time_and_stops_where_the_game_was(rules: Ruleset) -> None:
    scenario = make_scenario(rules, FIELD, UNITS, turn_limit=8)
    match = Match(loaded_for(scenario), 11, GameSettings(), seats={"a": "human", "b": "ai"})
    players = {s.id: RandomAI(match.engine, s.id) for s in match.state.sides}
    while match.state.turn < 3:
        match.apply(players[match.engine.deciding_side()].next_action())
    whole = rebuild_logs(match)
    rebuild = LogRebuild(match)
    assert rebuild.sides == ["a"] and rebuild.progress() == 0.0
    match.apply(players[match.engine.deciding_side()].next_action())  # played on while it works
    slices = 0
    while not rebuild.step(5):
        slices += 1
        assert 0.0 < rebuild.progress() < 1.0
    assert slices >= 3 and rebuild.progress() == 1.0
    assert rebuild.lines == whole  # the action played on is the live log's, not the rebuild's
    assert rebuild.cursor.snapshots() == 1  # a single pass keeps no state at the checkpoints


def test_a_new_game_has_nothing_to_rebuild(rules: Ruleset) -> None:
    scenario = make_scenario(rules, FIELD, UNITS)
    match = Match(loaded_for(scenario), 1, GameSettings(), seats={"a": "ai", "b": "ai"})
    assert log_sides(match) == [None]
    rebuild = LogRebuild(match)
    assert rebuild.done and rebuild.step(10) and rebuild.lines == {None: []}
