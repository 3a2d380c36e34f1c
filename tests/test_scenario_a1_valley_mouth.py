"""The Valley Mouth: its words follow what happened on the field, not the turn number."""

from __future__ import annotations

from conftest import ai_engine, end_turns_until, stand_in

from game.content.scenarios import load_scenario
from game.core.actions import EndTurn, Rest
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


def at_the_last_turn(routed_around_the_defile: bool | None) -> Engine:
    """The valley swept and the host never come; at the coalition's last turn one of the host's
    formations is put before the defile (routed, if asked), or none (None)."""
    eng = engine()
    end_turns_until(eng, 20, "coalition")
    assert not eng.state.over
    eng.state.fired_events += ["trapped_broken", "valley_swept"]
    if routed_around_the_defile is not None:
        stand_in(eng, "liang_levy_1", "around_the_defile", routed=routed_around_the_defile)
    return eng


def test_a_host_that_drew_off_from_the_defile_leaves_the_battle_to_the_coalition() -> None:
    eng = at_the_last_turn(None)
    events = eng.apply(EndTurn())  # the host's last turn begins with none of it before the defile
    assert eng.state.over and eng.state.winner == "coalition"
    assert "host_stayed_away" in eng.state.fired_events
    assert any(isinstance(e, Narration) and e.speaker == "han_xin" for e in events)


def test_a_host_still_drawn_up_around_the_defile_keeps_the_field_at_nightfall() -> None:
    eng = at_the_last_turn(False)
    eng.apply(EndTurn())
    assert "host_before_defile" in eng.state.fired_events and not eng.state.over
    eng.apply(EndTurn())  # the host's last turn ends: the turn limit gives it the battle
    assert eng.state.over and eng.state.winner == "hailing"


def test_a_routed_formation_around_the_defile_does_not_hold_it() -> None:
    eng = at_the_last_turn(True)
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "coalition"


def test_the_coalition_is_warned_of_nightfall_as_its_last_turn_begins() -> None:
    eng = engine()
    end_turns_until(eng, 19, "hailing")
    eng.state.fired_events += ["trapped_broken", "valley_swept"]
    events = end_turns_until(eng, 20, "coalition")
    assert [e.speaker for e in events if isinstance(e, Narration)] == ["liu_bosheng"]
    assert "dusk_falls" in eng.state.fired_events and not eng.state.over


def test_the_host_breaks_with_one_levy_kept_out_of_the_fight() -> None:
    """The returning host is broken once no more than a fifth of its fifty thousand stand in order:
    one levy of eight thousand held back does not keep it whole, two do."""
    eng = engine()
    resting = [f.id for f in eng.state.formations_of("coalition") if eng.can_act(f)]
    for unit in HOST[:-2]:
        eng.state.formations[unit].routed = True
    eng.apply(Rest(unit=resting[0]))
    assert "host_broken" not in eng.state.fired_events  # a levy and the riders: 13,000 of 50,000
    eng.state.formations[HOST[-1]].routed = True
    eng.apply(Rest(unit=resting[1]))
    assert "host_broken" in eng.state.fired_events and eng.state.objectives["break_host"] == "done"
    assert not eng.state.formations[HOST[-2]].routed
