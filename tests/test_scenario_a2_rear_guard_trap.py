"""A2, the rear-guard trap: the hidden thirty thousand, Wanyan Liang's re-formed host, and how
the battle is won or lost."""

from __future__ import annotations

import pytest
from conftest import end_turns_until

from game.ai.general import General
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.core import triggers
from game.core.actions import EndTurn, Move
from game.core.engine import Engine, IllegalAction
from game.core.events import Destroyed, Event, GroupReleased, Narration, Revealed
from game.core.hexgrid import Hex, distance

A2 = "a2_rear_guard_trap"
AMBUSH = ("ambush_1", "ambush_2", "ambush_3")
LIANG_HOST = ("liang_guard", "reformed_1", "reformed_2", "reformed_3", "reformed_4", "reformed_riders")


def new_engine(seed: int = 1) -> Engine:
    return Engine(load_scenario(A2).scenario, load_ruleset(), seed)


def at(eng: Engine, col: int, row: int) -> Hex:
    return eng.board.at_offset(col, row)


def test_the_ambush_lies_hidden_and_held_until_the_rear_enters_the_pass() -> None:
    eng = new_engine()
    fs = eng.state.formations
    assert all(fs[a].hidden for a in AMBUSH)
    assert eng.state.side("hailing").held_groups == ["pass_ambush"]
    # The retainers march up the road but stop short of the pass: nothing stirs.
    eng.apply(Move(unit="cao_zhi_2000", to=at(eng, 54, 15)))
    assert all(fs[a].hidden for a in AMBUSH) and "ambush_sprung" not in eng.state.fired_events
    eng.apply(EndTurn())
    # On Wanyan Liang's turn the hidden men may not move: they are held.
    with pytest.raises(IllegalAction):
        eng.apply(Move(unit="ambush_1", to=at(eng, 45, 13)))
    eng.apply(EndTurn())
    assert eng.state.turn == 2 and "ambush_tires" not in eng.state.fired_events
    # Into the pass: the thirty thousand rise and Han Xin turns back.
    events = eng.apply(Move(unit="cao_zhi_2000", to=at(eng, 51, 14)))
    assert "ambush_sprung" in eng.state.fired_events
    assert {e.unit for e in events if isinstance(e, Revealed)} == set(AMBUSH)
    assert any(isinstance(e, GroupReleased) and e.group == "pass_ambush" for e in events)
    assert [e.speaker for e in events if isinstance(e, Narration)] == ["cao_zhi", "han_xin", "su_lin"]
    assert not any(fs[a].hidden for a in AMBUSH)
    assert eng.state.side("hailing").held_groups == []
    eng.apply(EndTurn())
    eng.apply(Move(unit="ambush_1", to=at(eng, 46, 13)))  # released: it may move now
    assert eng.board.offset(fs["ambush_1"].pos) == (46, 13)


def test_the_ambush_springs_by_itself_on_turn_4_and_the_host_reforms_behind_han_xin() -> None:
    eng = new_engine()
    end_turns_until(eng, 3, "coalition")
    assert not any(f in eng.state.formations for f in LIANG_HOST)
    end_turns_until(eng, 3, "hailing")
    liang = eng.state.formations["liang_guard"]
    assert liang.hero == "wanyan_liang"
    north = eng.board.regions["north_steppe"]
    assert all(eng.state.formations[f].pos in north for f in ("liang_guard", "reformed_1", "reformed_2"))
    assert all(eng.state.formations[a].hidden for a in AMBUSH)  # still waiting
    end_turns_until(eng, 4, "hailing")
    assert "ambush_tires" in eng.state.fired_events and "ambush_sprung" not in eng.state.fired_events
    assert not any(eng.state.formations[a].hidden for a in AMBUSH)
    assert eng.state.side("hailing").held_groups == []
    end_turns_until(eng, 7, "hailing")
    host = sum(eng.state.formations[f].men for f in LIANG_HOST)
    assert host >= 100_000  # a hundred thousand and more, re-formed


def test_losing_the_retainers_loses_the_battle() -> None:
    eng = new_engine()
    f = eng.state.formations.pop("cao_zhi_2000")
    events = triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert eng.state.over and eng.state.winner == "hailing"
    assert eng.state.objectives["save_retainers"] == "failed"
    assert any(isinstance(e, Narration) and e.speaker == "han_xin" for e in events)


def test_han_xin_in_the_pass_rejoins_the_army() -> None:
    eng = new_engine()
    assert eng.state.objectives["join_army"] == "open"
    eng.state.formations["han_xin_5000"].pos = at(eng, 44, 15)
    triggers.after_action(eng, [])
    assert eng.state.objectives["join_army"] == "done" and not eng.state.over


def test_holding_out_to_the_end_of_turn_13_with_the_army_together_wins() -> None:
    eng = new_engine()
    eng.state.formations["han_xin_5000"].pos = at(eng, 44, 15)
    triggers.after_action(eng, [])
    end_turns_until(eng, 13, "hailing")
    assert not eng.state.over and eng.state.objectives["hold_out"] == "open"
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "coalition"
    assert eng.state.objectives["hold_out"] == "done" and eng.state.objectives["save_retainers"] == "done"


def test_holding_out_without_han_xin_back_in_the_pass_is_not_yet_a_victory() -> None:
    """The rear is saved when the army stands together in the pass again: a coalition that keeps
    its centre away (as one that never fights would) leaves the battle to the last turn's
    attrition, and Han Xin arriving late still wins it."""
    sc = load_scenario(A2).scenario
    assert [(o.id, o.bonus) for o in sc.objective_specs if o.id == "join_army"] == [("join_army", False)]
    eng = new_engine()
    end_turns_until(eng, 13, "hailing")
    eng.apply(EndTurn())
    assert eng.state.objectives["hold_out"] == "done" and not eng.state.over
    assert eng.state.objectives["save_retainers"] == "open"
    eng.state.formations["han_xin_5000"].pos = at(eng, 44, 15)
    triggers.after_action(eng, [])
    assert eng.state.over and eng.state.winner == "coalition"


def rear_is_alone(events: list[Event]) -> int | None:
    """Where in ``events`` Su Lin says the blades leave Han Xin for the wings (None: not said)."""
    return next((i for i, e in enumerate(events) if isinstance(e, Narration) and "Leave his side" in e.text), None)


def test_du_xuan_and_su_lin_leave_han_xins_side_for_the_wings_not_the_rear() -> None:
    """The chronicle: Du Xuan, Su Lin and the Eighteen Blades rode with Han Xin as his guard; when
    he turned back for the rear they left him to join Liu Bosheng and Lord Xinling against the
    main host. Cao Zhi's rear fought its own fight."""
    eng = new_engine()
    blades, han, pass_ = eng.state.formations["du_xuan_20"], eng.state.formations["han_xin_5000"], "the_pass"
    assert distance(blades.pos, han.pos) <= 2
    assert "Su Lin" in eng.scenario.briefing and "at his side" in eng.scenario.briefing
    holds = [h for h in eng.scenario.ai.hold if "du_xuan_20" in h.units]
    assert holds and all(h.region in ("north_wing", "south_wing") and h.region != pass_ for h in holds)
    lines = [a.text for e in eng.scenario.events for a in e.actions if getattr(a, "speaker", None) == "su_lin"]
    assert lines and all("Liu Bosheng" in t and "rear is alone" not in t for t in lines)


def test_the_rear_is_alone_only_once_the_ambush_has_shown_itself() -> None:
    eng = new_engine()
    events = end_turns_until(eng, 3, "coalition")
    assert rear_is_alone(events) is None  # nothing has shown itself yet: nobody speaks of it
    events = end_turns_until(eng, 4, "hailing")  # the ambush tires of waiting on turn 4
    said = rear_is_alone(events)
    shown = [i for i, e in enumerate(events) if isinstance(e, Revealed)]
    assert said is not None and shown and said > max(shown)


def test_the_rear_is_alone_after_the_hillsides_move_when_the_rear_walks_in() -> None:
    eng = new_engine()
    eng.apply(Move(unit="cao_zhi_2000", to=at(eng, 54, 15)))
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    events = eng.apply(Move(unit="cao_zhi_2000", to=at(eng, 51, 14)))
    said = rear_is_alone(events)
    assert said is not None and said > max(i for i, e in enumerate(events) if isinstance(e, Revealed))


def test_the_feigned_rout_runs_on_away_from_the_pursuers_rear() -> None:
    eng = new_engine()
    eng.apply(EndTurn())
    general = General(eng, "hailing")
    general.next_action()
    persona = general.persona
    steppe = eng.board.regions["north_steppe"]
    the_pass = eng.board.regions["the_pass"]
    for fid in ("fleeing_1", "fleeing_2", "fleeing_3"):
        f = eng.state.formations[fid]
        assert persona.role(f) == "feint"
        destination = persona.destination(f, [], frozenset())
        assert destination is not None
        goal, _keep = destination
        assert goal == steppe
    # The steppe lies west, beyond the pursuers' van; the pass with the hidden men lies east,
    # behind them: the feint draws the chase away from it.
    west = max(eng.board.offset(h)[0] for h in steppe)
    assert west < min(eng.board.offset(h)[0] for h in the_pass)
    assert west < eng.board.offset(eng.state.formations["han_xin_5000"].pos)[0]


def test_thirty_thousand_sent_out_by_the_ambush_tiring_no_longer_lie_still() -> None:
    # A rear that dawdles short of the pass: on turn 4 the thirty thousand are released to go
    # and find it ("the pass goes to the rear"), and the general moves them; before that, while
    # the scenario holds them, it keeps them still.
    eng = new_engine()
    eng.apply(EndTurn())
    general = General(eng, "hailing")
    general.next_action()
    waiting = [eng.state.formations[a] for a in AMBUSH]
    assert all(general.persona.role(f) == "hold_still" for f in waiting)
    end_turns_until(eng, 4, "hailing")
    assert "ambush_tires" in eng.state.fired_events
    start = {a: eng.state.formations[a].pos for a in AMBUSH}
    general = General(eng, "hailing")
    while eng.state.active_side.id == "hailing" and not eng.state.over:
        eng.apply(general.next_action())
    assert all(general.persona.role(eng.state.formations[a]) != "hold_still" for a in AMBUSH)
    assert any(eng.state.formations[a].pos != start[a] for a in AMBUSH)
