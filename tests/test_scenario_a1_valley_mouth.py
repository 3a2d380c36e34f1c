"""The Valley Mouth: its words follow what happened on the field, not the turn number."""

from __future__ import annotations

from conftest import ai_engine, end_turns_until

from game.content.scenarios import load_scenario
from game.core.actions import Rest
from game.core.engine import Engine
from game.core.events import Narration

A1 = "a1_valley_mouth"
HOST = [
    "liang_riders_1",
    "liang_levy_1",
    "liang_levy_2",
    "liang_levy_3",
    "liang_levy_4",
    "liang_levy_5",
    "liang_riders_2",
]
FRONT_HELD = "The defile is still ours."


def engine() -> Engine:
    return ai_engine(load_scenario(A1).scenario, 5)


def test_the_defile_held_is_told_at_turn_nine_while_the_host_still_fights() -> None:
    eng = engine()
    events = end_turns_until(eng, 9, "coalition")
    told = [e for e in events if isinstance(e, Narration) and e.text.startswith(FRONT_HELD)]
    assert len(told) == 1 and told[0].speaker == "xinling"
    assert eng.state.objectives.get("hold_front") == "done"


def test_no_word_of_the_hosts_fury_after_the_host_broke() -> None:
    eng = engine()
    end_turns_until(eng, 8, "coalition")
    for unit in HOST:
        eng.state.formations[unit].routed = True
    resting = next(f for f in eng.state.formations_of("coalition") if eng.can_act(f))
    eng.apply(Rest(unit=resting.id))  # the host breaks on turn 8, as the orders are given
    assert "host_broken" in eng.state.fired_events
    events = end_turns_until(eng, 9, "coalition")
    assert "host_broken" in eng.state.fired_events
    assert not [e for e in events if isinstance(e, Narration) and e.text.startswith(FRONT_HELD)]
    assert eng.state.objectives.get("hold_front") == "done"  # the defile was held all the same
