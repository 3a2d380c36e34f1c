"""The general reads what it must do to win from the scenario's events and goes for it when the
turns left leave no time for anything else (game.ai.objectives)."""

from __future__ import annotations

from game.ai import aimed_duels
from game.ai.general import General
from game.ai.objectives import SLACK, Objectives
from game.content.scenarios import load_scenario
from game.core.actions import Challenge
from game.core.engine import GameSettings
from game.core.hexgrid import distance, neighbours
from game.core.movement import are_enemies
from game.record.match import Match


def _match(scenario_id: str, seed: int = 1) -> Match:
    loaded = load_scenario(scenario_id)
    return Match(loaded, seed, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})


def test_aims_come_from_the_events_that_win_and_what_they_wait_for() -> None:
    match = _match("b1_the_valley")
    aims = Objectives(match.engine, "zhenguo").aims(match.state)
    kinds = {(a.kind, a.region, a.units) for a in aims}
    # field_won waits for two objectives: the rear guard broken and the relief at the hill's foot.
    assert ("break", None, frozenset({"rear_guard_1", "rear_guard_2", "rear_guard_3"})) in kinds
    assert ("reach", "hill_foot", frozenset({"yue_fei_riders"})) in kinds
    # The turn limit gives the Jin the battle: they have nothing to chase.
    assert Objectives(match.engine, "jin").aims(match.state) == []


def test_an_aim_already_won_is_no_longer_chased() -> None:
    match = _match("b1_the_valley")
    objectives = Objectives(match.engine, "zhenguo")
    match.state.fired_events.append("rear_broken")
    match.state.objectives["break_rear"] = "done"
    assert all(a.kind != "break" for a in objectives.aims(match.state))


def test_the_deadline_is_the_turn_the_enemy_wins_by_holding_out() -> None:
    match = _match("a2_rear_guard_trap")
    hailing = Objectives(match.engine, "hailing")
    # The coalition wins once it has held out to turn 14: the Hailing must destroy Cao Zhi first.
    assert hailing.deadline == 14 < match.engine.scenario.turn_limit
    assert [(a.kind, a.units, a.destroy) for a in hailing.aims(match.state)] == [
        ("break", frozenset({"cao_zhi_2000"}), True)
    ]


def test_a_formation_leaves_its_post_for_the_aim_only_when_time_presses() -> None:
    match = _match("b1_the_valley")
    general = General(match.engine, "zhenguo")
    view = general.engine
    riders = view.state.formations["yue_fei_riders"]
    enemies = [e for e in view.state.formations.values() if are_enemies(view.state, "zhenguo", e.side)]
    objectives = general.objectives
    assert objectives.destination(view, riders, enemies) is None  # turn 1: the personality leads
    view.state.turn = objectives.deadline - SLACK + 1
    goals = objectives.destination(view, riders, enemies)
    assert goals is not None
    region = view.board.regions["hill_foot"]
    assert goals <= region or any(distance(g, h) <= 1 for g in goals for h in region)


def test_an_enemy_out_of_sight_is_looked_for_where_it_was_last_seen_not_where_it_is() -> None:
    match = _match("a2_rear_guard_trap")
    general = General(match.engine, "hailing")
    view = general.engine
    view.state.turn = general.objectives.deadline
    cao_zhi = match.state.formations["cao_zhi_2000"]
    ambush = next(f for f in view.state.formations_of("hailing") if not f.routed)
    seen = [e for e in view.state.formations.values() if are_enemies(view.state, "hailing", e.side)]
    assert all(e.id != "cao_zhi_2000" for e in seen)  # hidden from the Hailing at the start
    deployed = next(s.pos for s in match.engine.scenario.formations if s.id == "cao_zhi_2000")
    cao_zhi.pos = next(h for h in view.board.hexes() if distance(h, deployed) > 20)  # moved where no one saw
    goals = general.objectives.destination(view, ambush, seen)
    assert goals is not None and cao_zhi.pos not in goals


def test_a_hero_the_scenario_asks_to_wound_is_challenged_on_close_odds_and_not_struck() -> None:
    match = _match("b3_tangut_border")
    state = match.state
    yue, guards = state.formations["yue_fei_riders"], state.formations["wuzhu_guards"]
    occupied = state.occupancy()
    guards.pos = next(h for h in neighbours(yue.pos) if h in match.engine.board and h not in occupied)
    general = General(match.engine, "zhenguo")
    wanted = general.objectives.wound_heroes(general.engine.state)
    assert wanted == {"wanyan_wuzhu"}
    # Yue Fei (100) against Wuzhu (95): too close for a challenge of his own choosing, but he
    # wounds Wuzhu (alone or falling with him) nine times in ten, and that wins the battle.
    assert aimed_duels.challenge(general.engine, [yue], wanted) == Challenge(unit=yue.id, target=guards.id)
    assert aimed_duels.marked(general.engine, "zhenguo", wanted) == {guards.id}
    # The Jin have nothing to chase: the turn limit is theirs.
    assert General(match.engine, "jin").objectives.wound_heroes(state) == frozenset()
