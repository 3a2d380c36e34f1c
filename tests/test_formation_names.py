"""Formation names: one name per formation for the whole battle, the same on every screen, in
every process and after every load; heroes name theirs, others are numbered by type."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from conftest import FIXTURE_GRID, Unit, make_scenario

from game.content.scenarios import load_scenario, scenario_ids
from game.core.roster import CarriedFormation, Roster
from game.core.rules import Ruleset
from game.view.names import formation_names, order_of_battle, side_name

pytestmark = pytest.mark.usefixtures("english")


def test_heroes_name_their_formations_and_the_others_are_numbered_by_side_and_type(rules: Ruleset) -> None:
    units = [
        Unit("a_horse", "a", "warrior", 500, (5, 1), hero="xiang_yu"),
        Unit("a_retainer", "a", "retainer", 800, (0, 0)),
        Unit("b_levy", "b", "soul_levy", 9000, (2, 6)),
        Unit("b_rider", "b", "soul_rider", 1500, (7, 5)),
        Unit("b_liang", "b", "soul_levy", 6000, (5, 6), hero="wanyan_liang"),
        Unit("b_levy_2", "b", "soul_levy", 9000, (3, 6)),
        Unit("b_levy_3", "b", "soul_levy", 9000, (4, 6)),
    ]
    names = formation_names(rules, make_scenario(rules, FIXTURE_GRID, units))
    assert names == {
        "a_horse": "Xiang Yu · Hegemon's warriors",
        "a_retainer": "Retainers",  # the only one of its type: no number
        "b_levy": "Soul levy 1",
        "b_rider": "Soul riders",
        "b_liang": "Wanyan Liang · Soul levy",  # a hero's formation takes no number
        "b_levy_2": "Soul levy 2",
        "b_levy_3": "Soul levy 3",
    }


def test_a_type_on_two_sides_is_numbered_across_them_so_no_two_share_a_name(rules: Ruleset) -> None:
    units = [
        Unit("a_levy", "a", "soul_levy", 900, (0, 0)),
        Unit("b_levy", "b", "soul_levy", 900, (2, 6)),
    ]
    names = formation_names(rules, make_scenario(rules, FIXTURE_GRID, units))
    assert names == {"a_levy": "Soul levy 1", "b_levy": "Soul levy 2"}


def test_reinforcements_and_formations_raised_at_the_camp_have_names_from_the_start(rules: Ruleset) -> None:
    scenario = load_scenario("a2_rear_guard_trap").scenario
    roster = Roster(
        side="coalition",
        formations=[
            CarriedFormation(key="retainer_raised_1", type="retainer", men=500, max_men=500, raised=True),
            CarriedFormation(key="retainer_raised_2", type="retainer", men=0, max_men=500, raised=True),  # stayed home
        ],
    )
    names = formation_names(rules, scenario, roster)
    # Reinforcements come after the formations on the field at the start, in the events' order.
    levies = [names[s.id] for s in scenario.formations if s.type == "soul_levy" and s.hero is None]
    assert levies == [f"Soul levy {k}" for k in range(1, len(levies) + 1)]
    assert names["reformed_1"] == f"Soul levy {len(levies) + 1}"
    assert names["reformed_4"] == f"Soul levy {len(levies) + 4}"
    assert names["liang_guard"] == "Wanyan Liang · Soul riders"
    assert names["retainer_raised_1"] == "Retainers"  # Cao Zhi's retainers have a hero's name
    assert "retainer_raised_2" not in names
    assert [e.id for e in order_of_battle(scenario, roster)][-6:] == [
        "liang_guard",
        "reformed_1",
        "reformed_2",
        "reformed_3",
        "reformed_riders",
        "reformed_4",
    ]


@pytest.mark.parametrize("scenario_id", scenario_ids())
def test_every_shipped_scenario_names_each_formation_once(rules: Ruleset, scenario_id: str) -> None:
    scenario = load_scenario(scenario_id).scenario
    names = formation_names(rules, scenario)
    assert set(names) == {e.id for e in order_of_battle(scenario)}
    assert {s.id for s in scenario.formations} <= set(names)
    twice = [name for name, k in Counter(names.values()).items() if k > 1]
    assert twice == []


def test_names_are_the_same_in_another_process(rules: Ruleset) -> None:
    """No hash order or other accident of a process decides a number."""
    probe = (
        "import json; from game.content.ruleset import load_ruleset; "
        "from game.content.scenarios import load_scenario; from game.view.names import formation_names; "
        "print(json.dumps(formation_names(load_ruleset(), load_scenario('a1_valley_mouth').scenario)))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout) == formation_names(rules, load_scenario("a1_valley_mouth").scenario)


def test_the_names_module_needs_no_ui_library() -> None:
    probe = "import sys, game.view.names; print(sorted(m for m in sys.modules if m.startswith('pygame')))"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"


def test_side_names() -> None:
    scenario = load_scenario("a1_valley_mouth").scenario
    assert side_name(scenario, "hailing") == "Hailing soul-host"
    assert side_name(scenario, "nobody") == "nobody"
