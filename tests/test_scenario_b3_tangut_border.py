"""B3, The Tangut Border: a neutral fort that opens only for the Jin, Wuzhu riding out for Yue
Fei, Guo Yaoshi's relief from the east, and both heroes' wounds."""

from __future__ import annotations

from conftest import ai_engine, play_general_turn

from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core import triggers
from game.core.actions import EndTurn, Move
from game.core.duel import wound_hero
from game.core.engine import Engine
from game.core.events import Destroyed, Narration
from game.core.hexgrid import Hex, distance, neighbours
from game.core.sides import are_enemies

B3 = "b3_tangut_border"


def engine(seed: int = 1) -> Engine:
    return ai_engine(load_scenario(B3).scenario, seed)


def to_turn(eng: Engine, turn: int, side: str) -> list:
    """End side-turns until ``side``'s turn ``turn`` begins; the events of the last one."""
    events: list = []
    while not (eng.state.turn == turn and eng.state.active_side.id == side):
        events = eng.apply(EndTurn())
    return events


def wound(eng: Engine, hero: str) -> list:
    f = next(f for f in eng.state.formations.values() if f.hero == hero)
    events = wound_hero(eng, f, -25, -10, 3, "test")
    return events + triggers.after_action(eng, events)


def test_sides_objectives_and_muster() -> None:
    sc = load_scenario(B3).scenario
    tangut = next(s for s in sc.sides if s.id == "tangut")
    assert (tangut.role, tangut.faction, tangut.gates) == ("neutral", "tangut", "fort")
    assert [(o.id, o.bonus) for o in sc.objective_specs] == [
        ("hold_out", False),
        ("wound_wuzhu", False),
        ("yue_unhurt", True),
        ("break_guards", True),
        ("bag_souls", True),
    ]
    assert sum(f.men for f in sc.formations if f.side == "zhenguo") < 2000
    assert sum(f.men for f in sc.formations if f.side == "jin") > 10000
    occupied = {f.pos for f in sc.formations}
    assert len([h for h in sc.board.regions["muster"] if h not in occupied]) >= 6


def test_the_fort_is_shut_to_everyone_and_at_peace() -> None:
    eng = engine()
    fort = eng.board.fortress_hexes("fort")
    assert fort and all(eng.state.formations[g].pos in fort for g in ("tangut_walls", "tangut_keep"))
    for unit in ("yue_fei_riders", "wuzhu_guards", "jin_vets_3"):
        assert not fort & set(eng.moves(unit).cost)
    assert not are_enemies(eng.state, "tangut", "jin") and not are_enemies(eng.state, "tangut", "zhenguo")


def test_wuzhu_wounded_opens_the_gates_to_the_jin_only() -> None:
    eng = engine()
    events = wound(eng, "wanyan_wuzhu")
    assert eng.state.objectives["wound_wuzhu"] == "done"
    assert eng.state.side("tangut").gates_open_to == ["jin"]
    assert any(isinstance(e, Narration) for e in events)
    fort = eng.board.fortress_hexes("fort")
    eng.apply(EndTurn())  # the Jin turn
    assert fort & eng.moves("jin_vets_3").destinations
    eng.apply(EndTurn())
    assert not fort & set(eng.moves("yue_fei_riders").cost)
    assert not eng.state.over  # Guo Yaoshi has not come up yet


def test_wuzhu_naming_himself_at_the_gate_opens_it() -> None:
    eng = engine()
    eng.apply(EndTurn())
    gate = eng.board.regions["fort_gate"]
    occupied = eng.state.occupancy()
    target = next(h for h in sorted(gate) if h not in occupied and h not in eng.board.fortress_hexes("fort"))
    start = next(n for n in neighbours(target) if n in eng.board and n not in gate and n not in occupied)
    eng.state.formations["wuzhu_guards"].pos = start
    assert eng.state.side("tangut").gates_open_to == []
    eng.apply(Move(unit="wuzhu_guards", to=target))
    assert eng.state.side("tangut").gates_open_to == ["jin"]


def test_guo_yaoshi_arrives_from_the_east_on_turn_five() -> None:
    eng = engine()
    to_turn(eng, 4, "zhenguo")
    assert "guo_yaoshi_riders" not in eng.state.formations
    events = to_turn(eng, 5, "zhenguo")
    guo = eng.state.formations["guo_yaoshi_riders"]
    assert (guo.hero, guo.men, guo.side) == ("guo_yaoshi", 1000, "zhenguo")
    assert guo.pos in eng.board.regions["east_road"]
    assert eng.state.objectives["hold_out"] == "done"
    assert any(isinstance(e, Narration) and e.speaker == "guo_yaoshi" for e in events)


def test_wounding_wuzhu_and_holding_out_wins_and_the_bonus_needs_yue_unhurt() -> None:
    eng = engine()
    wound(eng, "wanyan_wuzhu")
    to_turn(eng, 5, "zhenguo")
    assert eng.state.over and eng.state.winner == "zhenguo"
    assert eng.state.objectives["yue_unhurt"] == "done"

    both = engine()
    wound(both, "wanyan_wuzhu")
    wound(both, "yue_fei")
    assert both.state.objectives["yue_unhurt"] == "failed"
    to_turn(both, 5, "zhenguo")
    assert both.state.over and both.state.winner == "zhenguo"
    assert both.state.objectives["yue_unhurt"] == "failed"


def test_losing_yue_feis_formation_loses_the_battle() -> None:
    eng = engine()
    f = eng.state.formations.pop("yue_fei_riders")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert eng.state.over and eng.state.winner == "jin"
    assert eng.state.objectives["hold_out"] == "failed"


def test_wuzhu_rides_for_yue_fei_while_the_host_keeps_its_line() -> None:
    eng = engine()
    start = {k: f.pos for k, f in eng.state.formations.items()}
    eng.apply(EndTurn())
    play_general_turn(eng, General(eng, "jin"))
    yue: Hex = eng.state.formations["yue_fei_riders"].pos
    assert distance(eng.state.formations["wuzhu_guards"].pos, yue) < distance(start["wuzhu_guards"], yue)
    line = eng.board.regions["before_walls"]
    for unit in ("jin_vets_1", "jin_vets_2", "jin_vets_3", "jin_horse_1"):
        assert eng.state.formations[unit].pos in line, unit
