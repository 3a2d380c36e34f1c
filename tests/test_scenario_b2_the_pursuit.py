"""B2, The Pursuit: detachments that stand and die on the road, a foot column that must not slip
through the gap in the border ridge, and Wuzhu riding off west instead of back at the Yue banner."""

from __future__ import annotations

import dataclasses

from conftest import ai_engine, end_turns_until, play_general_turn, stand_in

from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core import triggers
from game.core.actions import EndTurn, Move, Rest
from game.core.engine import Engine
from game.core.events import Event, Narration, Routed
from game.core.hexgrid import Hex, distance, neighbours
from game.core.scenario import AiHints, Scenario

B2 = "b2_the_pursuit"
DETACHMENTS = ("delay_ford", "delay_ford_horse", "delay_woods", "delay_hill")


def engine(scenario: Scenario | None = None, seed: int = 1) -> Engine:
    return ai_engine(scenario or load_scenario(B2).scenario, seed)


def near(region: frozenset[Hex], h: Hex) -> int:
    return min(distance(h, r) for r in region)


def play_jin_turn(eng: Engine) -> None:
    """The Zhenguo pass their first turn; the Jin general plays its whole turn."""
    eng.apply(EndTurn())
    play_general_turn(eng, General(eng, "jin"))


def test_the_objectives_and_the_muster() -> None:
    sc = load_scenario(B2).scenario
    assert [(o.id, o.bonus) for o in sc.objective_specs] == [
        ("break_detachments", False),
        ("catch_column", False),
        ("swift_pursuit", True),
        ("bag_souls", True),
    ]
    occupied = {f.pos for f in sc.formations}
    muster = sc.board.regions["muster"]
    assert len([h for h in muster if h not in occupied and sc.board.move_cost(h, "foot") is not None]) >= 6
    # Yue Fei leads the same formation as in the valley, so the campaign carries it; Guo Yaoshi
    # has turned aside after the routed rear guard, and Yue Fei rides on alone with six thousand.
    ours = {f.id: f for f in sc.formations if f.side == "zhenguo"}
    assert {f.hero: fid for fid, f in ours.items()} == {"yue_fei": "yue_fei_riders", None: "zhenguo_vanguard"}
    assert sum(f.men for f in ours.values()) == 6000


def test_detachments_stand_while_the_column_and_wuzhu_go_west() -> None:
    eng = engine()
    start = {k: f.pos for k, f in eng.state.formations.items()}
    play_jin_turn(eng)
    now = {k: f.pos for k, f in eng.state.formations.items()}
    for unit in DETACHMENTS:
        assert now[unit] == start[unit], unit  # they stand where they were put
    regions = eng.board.regions
    # The column marches for the end of the road, Wuzhu for his track over the border.
    assert near(regions["road_end"], now["jin_column"]) < near(regions["road_end"], start["jin_column"])
    assert near(regions["north_track"], now["wuzhu_guards"]) < near(regions["north_track"], start["wuzhu_guards"])
    yue = eng.state.formations["yue_fei_riders"].pos
    assert distance(now["wuzhu_guards"], yue) > distance(start["wuzhu_guards"], yue)


def test_a_hard_generals_detachment_does_not_sally_where_a_normal_ones_would() -> None:
    """A detachment's men are the time it buys: with the vanguard next to it, beyond the column's
    reach, the normal general's detachment at the ford strikes it (the blow wins a little more
    than it costs); the hard general's counts its own losses twice and stands."""
    struck = {}
    for level in ("normal", "hard"):
        eng = engine()
        ford, column = eng.state.formations["delay_ford"], eng.state.formations["jin_column"]
        taken = eng.state.occupancy()
        free = [h for h in neighbours(ford.pos) if h in eng.board and h not in taken]
        eng.state.formations["zhenguo_vanguard"].pos = max(free, key=lambda h: (distance(h, column.pos), h))
        eng.apply(EndTurn())
        general = General(eng, "jin", difficulty=level)
        strikers = []
        for _ in range(40):
            action = general.next_action()
            if getattr(action, "target", None) == "zhenguo_vanguard":
                strikers.append(getattr(action, "unit", None))
            eng.apply(action)
            if isinstance(action, EndTurn):
                break
        assert eng.state.formations["delay_ford"].pos == ford.pos  # both stand where they were put
        struck[level] = strikers
    assert struck == {"normal": ["delay_ford"], "hard": []}


def test_without_his_orders_wuzhu_rides_back_for_yue_fei() -> None:
    sc = load_scenario(B2).scenario
    hints = sc.ai
    orders = tuple(h for h in hints.hold if "wuzhu_guards" not in h.units)
    loose = dataclasses.replace(sc, ai=AiHints(**{**hints.model_dump(), "hold": orders}))
    eng = engine(loose)
    start = eng.state.formations["wuzhu_guards"].pos
    play_jin_turn(eng)
    yue = eng.state.formations["yue_fei_riders"].pos
    assert distance(eng.state.formations["wuzhu_guards"].pos, yue) < distance(start, yue)


def _column_at_the_gap(eng: Engine) -> Hex:
    """Put the column next to the gap in the border ridge on the Jin turn; return a gap hex."""
    eng.apply(EndTurn())
    gap = eng.board.regions["west_edge"]
    occupied = eng.state.occupancy()
    for h in sorted(gap):
        for n in neighbours(h):
            if n in eng.board and n not in gap and n not in occupied and eng.board.move_cost(n, "foot"):
                eng.state.formations["jin_column"].pos = n
                return h
    raise AssertionError("no hex beside the gap")


def test_the_column_slipping_through_the_gap_loses_the_battle() -> None:
    eng = engine()
    gap_hex = _column_at_the_gap(eng)
    eng.apply(Move(unit="jin_column", to=gap_hex))
    assert eng.state.over and eng.state.winner == "jin"
    assert eng.state.objectives["catch_column"] == "failed"


def test_riders_standing_in_the_gap_keep_it_shut() -> None:
    eng = engine()
    gap_hex = _column_at_the_gap(eng)
    other = next(h for h in sorted(eng.board.regions["west_edge"]) if distance(h, gap_hex) >= 2)
    eng.state.formations["zhenguo_vanguard"].pos = other
    eng.apply(Move(unit="jin_column", to=gap_hex))
    assert not eng.state.over
    assert "column_escaped" not in eng.state.fired_events


def _rout(eng: Engine, units: tuple[str, ...]) -> list[Event]:
    for u in units:
        eng.state.formations[u].routed = True
        eng.state.formations[u].men -= 1  # a formation breaks after losing men in the fighting
    return triggers.after_action(eng, [Routed(unit=u, side="jin") for u in units])


def test_the_ford_is_ours_only_once_its_defenders_have_seen_the_banner() -> None:
    """Story order: "the ford is ours" waits for the banner to come up to the river."""
    ford = ("delay_ford", "delay_ford_horse")
    unseen = engine()
    assert "banner_seen" not in unseen.state.fired_events
    _rout(unseen, ford)  # broken before any of our riders came near the river
    assert "ford_broken" not in unseen.state.fired_events
    # When the banner does come up to the river, the word that the ford is ours follows it.
    taken = {f.pos for f in unseen.state.formations.values()}
    unseen.state.formations["yue_fei_riders"].pos = min(h for h in unseen.board.regions["ford"] if h not in taken)
    unseen.apply(Rest(unit="yue_fei_riders"))
    fired = unseen.state.fired_events
    assert "banner_seen" in fired and "ford_broken" in fired and fired.index("banner_seen") < fired.index("ford_broken")
    eng = engine()
    at_river = eng.board.regions["ford"]
    taken = {f.pos for f in eng.state.formations.values()}
    eng.state.formations["yue_fei_riders"].pos = min(h for h in at_river if h not in taken)
    seen = eng.apply(Rest(unit="yue_fei_riders"))
    assert "banner_seen" in eng.state.fired_events and "ford_broken" not in eng.state.fired_events
    assert any(isinstance(e, Narration) and "banner" in e.text for e in seen)
    broken = _rout(eng, ford)
    assert "ford_broken" in eng.state.fired_events
    assert any(isinstance(e, Narration) and e.text.startswith("The ford is ours") for e in broken)
    fired = eng.state.fired_events
    assert fired.index("banner_seen") < fired.index("ford_broken")


def test_breaking_the_detachments_then_the_column_wins() -> None:
    eng = engine()
    _rout(eng, DETACHMENTS[:3])
    assert eng.state.objectives["break_detachments"] == "open"
    _rout(eng, DETACHMENTS[3:])
    assert eng.state.objectives["break_detachments"] == "done"
    assert eng.state.objectives["swift_pursuit"] == "done"  # turn 1: well inside the bonus
    assert not eng.state.over
    _rout(eng, ("jin_column",))
    assert not eng.state.over  # the wagons still march
    _rout(eng, ("jin_wagons",))
    assert eng.state.objectives["catch_column"] == "done"
    assert eng.state.over and eng.state.winner == "zhenguo"


def test_the_swift_pursuit_bonus_fails_on_turn_seven() -> None:
    eng = engine()
    while eng.state.turn < 7:
        eng.apply(EndTurn())
    assert eng.state.objectives["swift_pursuit"] == "failed"
    _rout(eng, DETACHMENTS)
    assert eng.state.objectives["break_detachments"] == "done"
    assert eng.state.objectives["swift_pursuit"] == "failed"


def test_a_detachment_that_broke_and_rallied_has_been_broken_all_the_same() -> None:
    """Each detachment counts as broken from the moment it breaks: they need not all be broken at
    one moment, so one that rallies afterwards (or runs off out of sight) is not to be broken again."""
    eng = engine()
    _rout(eng, DETACHMENTS[:1])
    eng.state.formations[DETACHMENTS[0]].routed = False  # it rallies
    _rout(eng, DETACHMENTS[1:])
    assert eng.state.objectives["break_detachments"] == "done"
    _rout(eng, ("jin_wagons",))
    eng.state.formations["jin_wagons"].routed = False
    assert not eng.state.over
    _rout(eng, ("jin_column",))
    assert eng.state.objectives["catch_column"] == "done"
    assert eng.state.over and eng.state.winner == "zhenguo"


def test_the_column_makes_for_the_gap_from_turn_6_leaving_the_wagons() -> None:
    eng = engine()
    west, road_end = eng.board.regions["west_edge"], eng.board.regions["road_end"]
    waiting = General(eng, "jin").persona
    assert waiting.held_region("jin_column") == road_end and waiting.held_region("jin_wagons") == road_end
    end_turns_until(eng, 6, "jin")
    assert "column_moves_on" in eng.state.fired_events
    moving = General(eng, "jin").persona
    assert moving.held_region("jin_column") == west and moving.held_region("jin_wagons") == road_end


def test_the_vanguard_keeps_the_gap_only_while_the_column_could_reach_it_first() -> None:
    """The vanguard keeps the gap in the border ridge against the column and its wagons. While
    neither could get there before the vanguard could ride back (an opponent that never makes for
    the gap), it rides with Yue Fei; once one could, it is held at the gap again."""
    eng = engine()
    general = General(eng, "zhenguo", difficulty="normal")
    persona = general.persona
    west = eng.board.regions["west_edge"]
    gap = min(west, key=lambda h: (h.q, h.r))
    vanguard = eng.state.formations["zhenguo_vanguard"]
    vanguard.pos = gap
    far = [eng.state.formations[u] for u in ("jin_column", "jin_wagons")]
    persona.observe(eng.state, far)
    assert min(distance(f.pos, h) for f in far for h in west) > 20
    assert persona.held_region(vanguard.id) is None
    column = far[0]
    road = column.pos
    near_gap = next(h for h in eng.board.hexes() if min(distance(h, w) for w in west) == 2)
    column.pos = near_gap
    persona.observe(eng.state, far)
    assert persona.held_region(vanguard.id) == west
    # The other Jin formations cannot lose us the battle at the gap: they do not hold it there.
    column.pos = road
    hill = eng.state.formations["delay_hill"]
    hill.pos = near_gap
    persona.observe(eng.state, [*far, hill])
    assert persona.held_region(vanguard.id) is None


def test_the_gap_keeper_reckons_from_what_its_side_has_seen_not_where_the_enemy_stands() -> None:
    """A general made for a game loaded halfway through knows where the column was deployed, not
    where it stands now out of sight: the column moved next to the gap unseen does not hold the
    vanguard there."""
    eng = engine()
    west = eng.board.regions["west_edge"]
    column = eng.state.formations["jin_column"]
    deployed = column.pos
    column.pos = next(h for h in eng.board.hexes() if min(distance(h, w) for w in west) == 2)
    eng.state.formations["zhenguo_vanguard"].pos = min(west, key=lambda h: (h.q, h.r))
    persona = General(eng, "zhenguo", difficulty="normal").persona
    persona.observe(eng.state, [])
    assert persona.held_region("zhenguo_vanguard") is None
    persona.observe(eng.state, [column])  # once seen there, it is reckoned with
    assert persona.held_region("zhenguo_vanguard") == west
    assert deployed != column.pos


def at_dusk(column_on_the_steppe: bool, routed: bool = False) -> Engine:
    """The Zhenguo's last turn, nothing broken; the column put on the steppe west of the road's
    end (routed and shaken, if asked), or left on the road where it started."""
    eng = engine()
    end_turns_until(eng, 14, "zhenguo")
    assert not eng.state.over
    if column_on_the_steppe:
        stand_in(eng, "jin_column", "west_steppe", routed=routed, avoid="west_edge")
    return eng


def test_a_column_cut_off_from_the_gap_at_nightfall_loses_the_jin_the_battle() -> None:
    eng = at_dusk(column_on_the_steppe=False)
    assert eng.state.formations["jin_column"].pos not in eng.board.regions["west_steppe"]
    events = eng.apply(EndTurn())  # the Jin's last turn begins with the column still on the road
    assert eng.state.over and eng.state.winner == "zhenguo"
    assert "column_cut_off" in eng.state.fired_events
    assert eng.state.objectives["catch_column"] == "done"
    assert any(isinstance(e, Narration) and e.speaker == "yue_fei" for e in events)


def test_a_column_in_order_on_the_steppe_at_nightfall_slips_away_at_the_turn_limit() -> None:
    eng = at_dusk(column_on_the_steppe=True)
    eng.apply(EndTurn())
    assert "column_on_the_steppe" in eng.state.fired_events and not eng.state.over
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "jin"


def test_a_routed_column_on_the_steppe_is_cut_off_all_the_same() -> None:
    eng = at_dusk(column_on_the_steppe=True, routed=True)
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "zhenguo"


def test_the_zhenguo_are_warned_of_nightfall_as_their_last_turn_begins() -> None:
    eng = engine()
    events = end_turns_until(eng, 14, "zhenguo")
    warned = [e for e in events if isinstance(e, Narration) and e.text.startswith("The sun is going down.")]
    assert len(warned) == 1 and warned[0].speaker == "yue_fei"
