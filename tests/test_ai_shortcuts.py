"""What makes a big battle quick must change no decision: the scores the general keeps between
decisions, the lazily searched distance field, and the bound on how far a move can reach."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.stress import build_scenario, loaded_stress
from game.ai.distance_field import CostField, cost_field
from game.ai.driver import play_ai_turn
from game.ai.general import General
from game.ai.threat import ThreatMap
from game.content.scenarios import LoadedScenario, load_scenario, scenario_ids
from game.core.actions import Action, Move
from game.core.board import Board
from game.core.engine import GameSettings
from game.core.hexgrid import Hex, distance, neighbours
from game.core.movement import max_steps, search_moves
from game.core.rules import Ruleset
from game.record.match import Match
from game.record.seats import Commander


def _play(loaded: LoadedScenario, seed: int, side_turns: int, keep_scores: bool) -> tuple[list[Action], int]:
    """The actions of ``side_turns`` AI side-turns, and how many scores were reused."""
    match = Match(loaded, seed, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    generals = {s.id: General(match.engine, s.id, "normal", keep_scores=keep_scores) for s in match.state.sides}
    for _ in range(side_turns):
        if match.state.over:
            break
        # No deadline: a decision cut short by the clock would differ between the two runs.
        play_ai_turn(match, generals[match.state.active_side.id], budget=None)
    return match.record.actions, sum(g.act_cache.hits for g in generals.values())


@pytest.mark.parametrize("seed", [1, 2])
def test_kept_scores_change_no_decision_on_a_crowded_field(rules: Ruleset, seed: int) -> None:
    loaded = loaded_stress(build_scenario(rules, seed, size=24, per_side=14))
    kept, hits = _play(loaded, seed, 6, keep_scores=True)
    fresh, no_hits = _play(loaded, seed, 6, keep_scores=False)
    assert any(a.kind == "attack" for a in kept) and hits > 0 and no_hits == 0  # the armies met
    assert kept == fresh


@pytest.mark.parametrize("scenario_id", scenario_ids())
def test_kept_scores_change_no_decision_in_the_shipped_battles(scenario_id: str) -> None:
    loaded = load_scenario(scenario_id)
    assert _play(loaded, 3, 8, keep_scores=True)[0] == _play(loaded, 3, 8, keep_scores=False)[0]


@given(
    goals=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)), min_size=1, max_size=6),
    asks=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)), min_size=1, max_size=30),
    move_class=st.sampled_from(["foot", "horse"]),
)
def test_the_lazy_distance_field_answers_as_the_full_search(
    rules: Ruleset, goals: list[tuple[int, int]], asks: list[tuple[int, int]], move_class: str
) -> None:
    board = build_scenario(rules, 5, size=24, per_side=4).board
    goal_hexes = [board.at_offset(c, r) for c, r in goals]
    full = cost_field(board, move_class, goal_hexes)
    lazy = CostField(board, move_class, goal_hexes)
    bounded = CostField(board, move_class, goal_hexes)
    for i, (c, r) in enumerate(asks):
        h = board.at_offset(c, r)
        assert lazy.get(h) == full.get(h)
        d = full.get(h)
        assert bounded.get_within(h, 3 * i) == (d if d is not None and d <= 3 * i else None)
    assert lazy.complete() == full
    assert full == _relaxed(board, move_class, set(goal_hexes))


def _relaxed(board: Board, move_class: str, goals: set[Hex]) -> dict[Hex, int]:
    """The distance field the slow way: relax every step until nothing changes. From a hex the
    unit may enter, stepping on to a neighbour costs entering it (1 for a goal it cannot enter)."""
    dist = {g: 0 for g in goals if g in board}
    changed = True
    while changed:
        changed = False
        for h in board.hexes():
            if board.move_cost(h, move_class) is None:
                continue
            for n in neighbours(h):
                if n not in dist:
                    continue
                step = board.move_cost(n, move_class)
                if step is None and dist[n] > 0:
                    continue
                d = dist[n] + (step if step is not None else 1)
                if d < dist.get(h, 1 << 30):
                    dist[h] = d
                    changed = True
    return dist


def test_no_move_reaches_farther_than_max_steps(rules: Ruleset) -> None:
    scenario = build_scenario(rules, 3, size=24, per_side=14)
    match = Match(loaded_stress(scenario), 3, GameSettings(), seats={s.id: "ai" for s in scenario.sides})
    state, board = match.state, match.engine.board
    for f in state.formations.values():
        assert max_steps(f, rules) >= 1
        for forced in (False, True):
            moves = search_moves(state, board, rules, f, forced=forced)
            assert all(distance(f.pos, h) <= max_steps(f, rules, forced) for h in moves.cost)


def test_only_a_persons_moves_keep_a_snapshot_to_undo(rules: Ruleset) -> None:
    scenario = build_scenario(rules, 4, size=24, per_side=4)
    north, south = (s.id for s in scenario.sides)
    controller: Commander
    for controller, undoable in (("human", True), ("ai", False)):
        match = Match(loaded_stress(scenario), 4, GameSettings(), seats={north: controller, south: "ai"})
        f = match.state.formations_of(north)[0]
        start = f.pos
        dest = min(match.engine.moves(f.id).destinations, key=lambda h: (h.r, h.q))
        match.apply(Move(unit=f.id, to=dest))
        assert match.can_undo() is undoable
        assert match.state.formations[f.id].pos == dest
        if undoable:
            assert match.undo() and match.state.formations[f.id].pos == start


def test_the_threat_map_kept_between_decisions_is_the_one_a_fresh_build_gives(rules: Ruleset) -> None:
    scenario = build_scenario(rules, 6, size=24, per_side=14)
    match = Match(loaded_stress(scenario), 6, GameSettings(), seats={s.id: "ai" for s in scenario.sides})
    generals = {s.id: General(match.engine, s.id) for s in scenario.sides}
    built = set()
    for _ in range(4):
        while True:
            side = match.engine.deciding_side()  # a challenge to a duel is answered by the other side
            general = generals[side]
            action = general.next_action()
            kept = general.threat()
            fresh = ThreatMap(rules, general.known_enemies())
            assert kept._strikers == fresh._strikers
            built.add(id(kept))
            match.apply(action)
            if action.kind == "end_turn" or match.state.over:
                break
    assert len(built) > 1  # it was rebuilt when the enemy changed, and reused otherwise
