"""Every shipped scenario, played out by the computer on both sides: the game ends within its turn
limit with a winner the scenario can have, and its saved record verifies as ``replay --verify``
checks it (every action re-run, every checkpoint and the snapshot compared)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from game.cli import main
from game.content.scenarios import load_scenario, scenario_ids
from game.core.scenario import OUTCOME_ATTRITION, OUTCOME_DRAW
from game.simulate import run_game

# A seed per scenario (any seed will do; these are the ones its own tests first played).
SEEDS = {"a2_rear_guard_trap": 3, "a3_besiege_wei": 3, "a4_annihilation": 3, "b1_the_valley": 4, "b3_tangut_border": 4}


@pytest.mark.parametrize("scenario_id", scenario_ids())
def test_a_seeded_game_ends_in_time_and_its_record_verifies(scenario_id: str, tmp_path: Path) -> None:
    scenario = load_scenario(scenario_id).scenario
    result = run_game(load_scenario(scenario_id), SEEDS.get(scenario_id, 3), save_dir=tmp_path)
    sides = {s.id for s in scenario.sides}
    draw_possible = scenario.turn_limit_outcome in (OUTCOME_DRAW, OUTCOME_ATTRITION)
    assert result["winner"] in sides or (result["winner"] is None and draw_possible), result
    assert result["turns"] <= scenario.turn_limit
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["replay", result["save"], "--verify"]) == 0
