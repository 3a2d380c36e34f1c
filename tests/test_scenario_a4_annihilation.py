"""The Annihilation (a4): the Hegemon-King's return from Datong, Wanyan Liang's hidden path,
Geng Gong's note and the pouch that wins the battle.
(Every scenario's seeded play-out is in test_scenarios_play_out.py.)"""

from __future__ import annotations

import re

from conftest import ai_engine, end_turns_until, play_general_turn

from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core.actions import Challenge, EndTurn, Rest
from game.core.engine import Engine
from game.core.events import Narration
from game.core.hexgrid import axial_to_offset, distance, neighbours

A4 = "a4_annihilation"


def engine(seed: int = 5) -> Engine:
    return ai_engine(load_scenario(A4).scenario, seed)


def test_objectives_muster_and_the_hidden_squad() -> None:
    sc = load_scenario(A4).scenario
    assert [(o.id, o.bonus) for o in sc.objective_specs] == [
        ("bag_souls", False),
        ("break_host", True),
        ("outdo_retainers", True),
        ("take_liang", True),
        ("helmet_note", True),
    ]
    eng = engine()
    board, rules = eng.board, eng.rules
    taken = {f.pos for f in eng.state.formations.values()}
    free = [
        h for h in board.regions["muster"] if h not in taken and "foot" in rules.terrain[board.terrain[h].id].move_cost
    ]
    assert len(free) >= 6
    squad = eng.state.formations["geng_gong_13"]
    assert squad.hidden and squad.hero == "geng_gong"
    assert squad.pos not in board.regions["liang_camp"]


def test_the_hegemon_king_comes_back_from_datong_on_turn_3() -> None:
    eng = engine()
    end_turns_until(eng, 2, "coalition")
    assert "xiang_yu_500" not in eng.state.formations
    events = end_turns_until(eng, 3, "coalition")
    xiang = eng.state.formations["xiang_yu_500"]
    assert xiang.hero == "xiang_yu" and xiang.men == 500
    # He arrives on the Datong side of the host, west of every Hailing formation.
    assert xiang.pos in eng.board.regions["west_road"]
    hailing_cols = [axial_to_offset(f.pos, True)[0] for f in eng.state.formations.values() if f.side == "hailing"]
    assert axial_to_offset(xiang.pos, True)[0] < min(hailing_cols)
    assert "xiang_yu" in [e.speaker for e in events if isinstance(e, Narration)]
    # He rides in beside the river below Datong, but only the main army's coming halts the army.
    assert xiang.pos in eng.board.regions["outside_datong"]
    assert "halt_at_datong" not in eng.state.fired_events


def test_the_army_halts_when_it_reaches_the_river_below_datong() -> None:
    eng = engine()
    taken = {f.pos for f in eng.state.formations.values()}
    bank = sorted(
        h for h in eng.board.regions["outside_datong"] if h not in taken and eng.board.terrain[h].id != "river"
    )[0]
    eng.state.formations["han_xin_5000"].pos = bank
    events = eng.apply(Rest(unit="han_xin_5000"))
    assert "halt_at_datong" in eng.state.fired_events
    assert [e.speaker for e in events if isinstance(e, Narration)] == ["han_xin"]


def test_the_note_is_left_when_the_squad_reaches_the_camp() -> None:
    eng = engine()
    assert eng.state.objectives["helmet_note"] == "open"
    eng.apply(Rest(unit="geng_gong_13"))
    assert eng.state.objectives["helmet_note"] == "open"  # resting in the hills leaves no note
    camp = sorted(eng.board.regions["liang_camp"] - {f.pos for f in eng.state.formations.values()})[0]
    eng.state.formations["geng_gong_13"].pos = camp
    events = eng.apply(Rest(unit="du_xuan_20"))
    assert eng.state.objectives["helmet_note"] == "done"
    assert "geng_gong" in [e.speaker for e in events if isinstance(e, Narration)]


def test_liang_slipping_away_fails_the_bonus_and_cannot_be_undone() -> None:
    eng = engine()
    end_turns_until(eng, 1, "hailing")
    path = sorted(eng.board.regions["hidden_path"])[0]
    eng.state.formations["liang_guard"].pos = path
    events = eng.apply(Rest(unit="liang_guard"))
    assert eng.state.objectives["take_liang"] == "failed"
    assert "liang_escaped" in eng.state.fired_events
    assert [e.speaker for e in events if isinstance(e, Narration)] == ["wanyan_liang", "han_xin"]
    # Escaped is escaped: destroying his guard afterwards no longer counts.
    spec = next(s for s in load_scenario(A4).scenario.events if s.id == "liang_guard_destroyed")
    assert "liang_escaped" in spec.unless
    assert not eng.state.over


def test_seventeen_thousand_souls_win_the_battle_and_fewer_do_not() -> None:
    eng = engine()
    eng.state.side("coalition").pouch = 16999
    eng.apply(Rest(unit="han_xin_5000"))
    assert not eng.state.over and eng.state.objectives["bag_souls"] == "open"
    eng.state.side("coalition").pouch = 17000
    eng.apply(Rest(unit="cao_zhi_2000"))
    assert eng.state.objectives["bag_souls"] == "done"
    assert eng.state.over and eng.state.winner == "coalition"


def test_the_host_wins_if_the_turns_run_out() -> None:
    eng = engine()
    for _ in range(2 * eng.scenario.turn_limit + 2):
        if eng.state.over:
            break
        eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "hailing"
    assert eng.state.objectives["bag_souls"] == "open"


def test_the_note_names_no_sum_and_is_found_at_datong_half_a_day_after_the_rout() -> None:
    """The chronicle's note: a slip of paper inside a spent casing tied to the helmet's tassel,
    found when he takes off his armour in his palace at Datong, half a day after the rout. No sum
    of money is named; the thirteen reach him unseen during the battle, not in a hill camp."""
    sc = load_scenario(A4).scenario
    told = sc.debriefing_victory
    assert (
        "inside it" in told and "tassel" in told and "Datong" in told and "Half a day" in told.replace("half", "Half")
    )
    assert not re.search(r"\d|hundred soul coins|thousand soul coins", told)
    note = next(o for o in sc.objective_specs if o.id == "helmet_note")
    assert "camp" not in note.text and "helmet" in note.text


def test_no_text_loses_the_fifty_thousand_at_the_valley_mouth() -> None:
    """The valley mouth cost Wanyan Liang twenty thousand; the fifty thousand were the feigned
    rout he sent down the road as bait."""
    from game.paths import DATA_DIR, MAPS_DIR

    texts = [p.read_text(encoding="utf-8") for p in [*DATA_DIR.glob("*.toml"), *MAPS_DIR.glob("*.toml")]]
    wrong = re.compile(r"fifty thousand[^.\"]*\b(at|in) the valley mouth", re.IGNORECASE)
    assert not [m.group(0) for t in texts for m in wrong.finditer(t)]


def liang_beside(eng: Engine, hero_unit: str) -> list[object]:
    """Put ``hero_unit`` next to Wanyan Liang's guard and let the Hailing general play its turn;
    the actions of his guard (and every challenge) it took."""
    fs = eng.state.formations
    liang = fs["liang_guard"]
    taken = eng.state.occupancy()
    fs[hero_unit].pos = next(
        h for h in neighbours(liang.pos) if h in eng.board and h not in taken and eng.board.move_cost(h, "foot")
    )
    general = General(eng, "hailing")
    seen: list[object] = []
    for _ in range(60):
        action = general.next_action()
        if isinstance(action, EndTurn):
            break
        if isinstance(action, Challenge) or getattr(action, "unit", None) == "liang_guard":
            seen.append(action)
        eng.apply(action)
    return seen


def test_on_his_way_home_liang_stops_for_no_duel() -> None:
    """The chronicle has Wanyan Liang dodge the five hundred and slip home by a hidden path: on
    his way there he offers no duel, not even to a hero he would beat. At the path he may."""
    on_the_way = engine()
    end_turns_until(on_the_way, 3, "hailing")
    assert on_the_way.state.formations["liang_guard"].pos not in on_the_way.board.regions["hidden_path"]
    assert not any(isinstance(a, Challenge) for a in liang_beside(on_the_way, "xinling_650"))
    there = engine()
    end_turns_until(there, 3, "hailing")
    taken = there.state.occupancy()
    there.state.formations["liang_guard"].pos = next(
        h for h in sorted(there.board.regions["hidden_path"]) if h not in taken and there.board.move_cost(h, "foot")
    )
    assert any(isinstance(a, Challenge) for a in liang_beside(there, "xinling_650"))


def test_once_the_hegemon_king_is_on_the_road_liang_makes_for_the_hidden_path() -> None:
    eng = engine()
    end_turns_until(eng, 3, "hailing")
    path = eng.board.regions["hidden_path"]
    liang = eng.state.formations["liang_guard"]
    before = min(distance(liang.pos, h) for h in path)
    play_general_turn(eng, General(eng, "hailing"))
    assert min(distance(eng.state.formations["liang_guard"].pos, h) for h in path) < before
