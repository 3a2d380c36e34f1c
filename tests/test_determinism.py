"""The same actions give the same state hashes in any process, whatever PYTHONHASHSEED is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import fixture_scenario, loaded_for

from game.ai.driver import make_ais, play_ai_turn
from game.core.actions import ACTION_LIST_ADAPTER, Attack
from game.core.engine import Engine, GameSettings
from game.core.rules import Ruleset
from game.core.state import state_hash
from game.record.match import Match

TESTS_DIR = Path(__file__).resolve().parent
SETTINGS = GameSettings(max_turns=4)

CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
from conftest import fixture_scenario, loaded_for
from game.ai.driver import make_ais, play_ai_turn
from game.content.ruleset import load_ruleset
from game.core.actions import ACTION_LIST_ADAPTER
from game.core.engine import Engine, GameSettings
from game.core.state import state_hash
from game.record.match import Match

rules = load_ruleset()
scenario = fixture_scenario(rules)
settings = GameSettings.model_validate_json({settings!r})
actions = ACTION_LIST_ADAPTER.validate_json(open({actions!r}, "rb").read())
engine = Engine(scenario, rules, {seed}, settings)
hashes = []
for a in actions:
    engine.apply(a)
    hashes.append(state_hash(engine.state))
match = Match(loaded_for(scenario), {seed}, settings, seats={{"a": "ai", "b": "ai"}})
ais = make_ais(match)
while not match.state.over:
    play_ai_turn(match, ais[match.state.active_side.id])
print(json.dumps({{
    "hashes": hashes,
    "ai_actions": json.loads(ACTION_LIST_ADAPTER.dump_json(match.record.actions)),
    "ai_checkpoints": [c.hash for c in match.record.checkpoints],
    "set_order": list({{f.id for f in scenario.formations}}),
}}))
"""


def run_child(script: str, hash_seed: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=env)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_hashes_do_not_depend_on_the_process_or_hash_seed(tmp_path: Path, rules: Ruleset) -> None:
    seed = 20240601
    scenario = fixture_scenario(rules)
    match = Match(loaded_for(scenario), seed, SETTINGS, seats={"a": "ai", "b": "ai"})
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id])
    actions = match.record.actions
    assert any(isinstance(a, Attack) for a in actions)  # dice were rolled
    path = tmp_path / "actions.json"
    path.write_bytes(ACTION_LIST_ADAPTER.dump_json(actions))

    engine = Engine(scenario, rules, seed, SETTINGS)
    here = []
    for a in actions:
        engine.apply(a)
        here.append(state_hash(engine.state))

    script = CHILD.format(tests=str(TESTS_DIR), settings=SETTINGS.model_dump_json(), actions=str(path), seed=seed)
    one = run_child(script, "0")
    two = run_child(script, "2718281")
    # The hash seeds really do scramble set order, so agreement below means something.
    assert one["set_order"] != two["set_order"]
    assert one["hashes"] == two["hashes"] == here
    # The AI, too, plays the same game in both processes, and the same as here.
    assert one["ai_actions"] == two["ai_actions"] == json.loads(path.read_bytes())
    assert one["ai_checkpoints"] == two["ai_checkpoints"] == [c.hash for c in match.record.checkpoints]
