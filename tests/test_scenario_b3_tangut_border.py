"""B3, The Tangut Border: a neutral fort that opens only for the Jin, Yue Fei riding into the host
and cutting down its officers, Wuzhu's guards cutting the Zhenguo line to reach him, the duel
over several turns, the thousand riders Guo Yaoshi sends from the east, and the chronicle's own
ending: both heroes wounded, each carried off by his own men, and the gates opened for the Jin
(no truce: none was made)."""

from __future__ import annotations

from conftest import ai_engine, play_general_turn

from game.ai import aimed_duels
from game.ai import jin as jin_persona
from game.ai.driver import make_ais, play_ai_turn
from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core import duel, officers, triggers
from game.core.actions import AnswerDuel, Attack, Challenge, EndTurn, Move
from game.core.duel import wound_hero
from game.core.engine import Engine, GameSettings
from game.core.events import (
    Attacked,
    Destroyed,
    DuelBegun,
    DuelFought,
    Event,
    MoraleChanged,
    Narration,
    OfficerSlain,
)
from game.core.hexgrid import Hex, distance, neighbours
from game.core.scenario_events import Narrate
from game.core.sides import are_enemies
from game.record.match import Match
from game.view.outcome import debriefing, decide

B3 = "b3_tangut_border"


def engine(seed: int = 1) -> Engine:
    return ai_engine(load_scenario(B3).scenario, seed)


def to_turn(eng: Engine, turn: int, side: str) -> list[Event]:
    """End side-turns until ``side``'s turn ``turn`` begins; the events on the way."""
    events: list[Event] = []
    while not (eng.state.turn == turn and eng.state.active_side.id == side):
        events += eng.apply(EndTurn())
    return events


def wound(eng: Engine, hero: str) -> list[Event]:
    f = next(f for f in eng.state.formations.values() if f.hero == hero)
    events = wound_hero(eng, f, -25, -10, 3, "test")
    return events + triggers.after_action(eng, events)


def free_near(eng: Engine, at: Hex, exclude: frozenset[Hex] = frozenset()) -> Hex:
    occupied = eng.state.occupancy()
    return next(h for h in sorted(neighbours(at)) if h in eng.board and h not in occupied and h not in exclude)


def face_to_face(eng: Engine) -> None:
    """Wuzhu's guards next to Yue Fei's riders, out on the open field."""
    yue = eng.state.formations["yue_fei_riders"]
    eng.state.formations["wuzhu_guards"].pos = free_near(eng, yue.pos)


def narrations(events: list[Event]) -> list[Narration]:
    return [e for e in events if isinstance(e, Narration)]


# -- the field ------------------------------------------------------------------------------------


def test_sides_objectives_and_muster_agree_with_the_chronicle() -> None:
    sc = load_scenario(B3).scenario
    tangut = next(s for s in sc.sides if s.id == "tangut")
    assert (tangut.role, tangut.faction, tangut.gates) == ("neutral", "tangut", "fort")
    assert [(o.id, o.bonus) for o in sc.objective_specs] == [
        ("hold_out", False),
        ("wound_wuzhu", False),
        ("officers", True),
        ("break_guards", True),
        ("bag_souls", True),
        ("take_wuzhu", True),
    ]
    # Under two thousand exhausted Zhenguo riders against more than ten thousand Jin.
    assert sum(f.men for f in sc.formations if f.side == "zhenguo") < 2000
    assert sum(f.men for f in sc.formations if f.side == "jin") > 10000
    # Guo Yaoshi sends a thousand riders; he does not come himself.
    guo = next(e for e in sc.events if e.id == "guo_arrives")
    [relief] = [r for a in guo.actions if a.kind == "reinforce" for r in a.formations]
    assert (relief.men, relief.hero, relief.type) == (1000, None, "zhenguo_rider")
    assert "six thousand" in sc.briefing and "fewer than two thousand" in sc.briefing
    assert "sent a thousand" in sc.briefing
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
    assert not eng.state.over  # Guo Yaoshi's riders have not come up yet


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


def test_guo_yaoshis_thousand_riders_come_from_the_east_on_turn_five() -> None:
    eng = engine()
    to_turn(eng, 4, "zhenguo")
    assert "guo_riders" not in eng.state.formations
    events = to_turn(eng, 5, "zhenguo")
    guo = eng.state.formations["guo_riders"]
    assert (guo.hero, guo.men, guo.side) == (None, 1000, "zhenguo")
    assert guo.pos in eng.board.regions["the_line"]
    yue = eng.state.formations["yue_fei_riders"]
    assert guo.pos.q > min(f.pos.q for f in eng.state.formations.values() if f.side == "jin")  # east of the host
    assert distance(guo.pos, yue.pos) <= 6
    assert eng.state.objectives["hold_out"] == "done"
    assert any(isinstance(e, Narration) and e.speaker is None and "Guo Yaoshi" in e.text for e in events)


def test_wounding_wuzhu_and_holding_out_wins_the_field() -> None:
    eng = engine()
    wound(eng, "wanyan_wuzhu")
    to_turn(eng, 5, "zhenguo")
    assert eng.state.over and eng.state.winner == "zhenguo"
    assert "field_won" in eng.state.fired_events and "both_fall" not in eng.state.fired_events
    assert debriefing(eng.scenario, eng.state) == eng.scenario.debriefing_victory


def test_losing_yue_feis_formation_loses_the_battle() -> None:
    eng = engine()
    f = eng.state.formations.pop("yue_fei_riders")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert eng.state.over and eng.state.winner == "jin"
    assert eng.state.objectives["hold_out"] == "failed"


def test_yue_fei_beaten_in_the_duel_loses_the_battle() -> None:
    eng = engine()
    wound(eng, "yue_fei")
    assert eng.state.over and eng.state.winner == "jin"
    assert eng.state.objectives["wound_wuzhu"] == "failed"
    assert "both_fall" not in eng.state.fired_events
    assert eng.state.side("tangut").gates_open_to == ["jin"]


# -- the set piece ----------------------------------------------------------------------------------


def test_the_line_is_cut_only_when_the_guards_stand_between_zhenguo_formations() -> None:
    """Entering the Zhenguo line's ground, or meeting Yue Fei head on, is not cutting the line;
    standing next to one Zhenguo formation and between it and another is."""
    eng = engine()
    st = eng.state
    eng.apply(EndTurn())  # the Jin turn
    yue, van, guards = st.formations["yue_fei_riders"], st.formations["zhenguo_vanguard"], st.formations["wuzhu_guards"]
    # On the line's ground but clear of both Zhenguo formations: nothing is cut.
    line = eng.board.regions["the_line"]
    occupied = st.occupancy()
    away = next(h for h in sorted(line) if h not in occupied and distance(h, yue.pos) > 1 and distance(h, van.pos) > 1)
    guards.pos = away
    events = triggers.after_action(eng, [])
    assert not narrations(events) and "line_cut" not in st.fired_events
    # Next to Yue Fei on his far side from the vanguard: in contact, but not between them.
    beyond = next(
        h
        for h in sorted(neighbours(yue.pos))
        if h in eng.board and h not in st.occupancy() and distance(h, van.pos) > distance(yue.pos, van.pos)
    )
    guards.pos = beyond
    triggers.after_action(eng, [])
    assert "line_cut" not in st.fired_events
    # Between them: the line is cut in two.
    between = next(
        h
        for h in sorted(neighbours(yue.pos))
        if h in eng.board and h not in st.occupancy() and distance(h, van.pos) + 1 == distance(yue.pos, van.pos)
    )
    guards.pos = between
    events = triggers.after_action(eng, [])
    assert "line_cut" in st.fired_events
    assert [n.text for n in narrations(events)] == [
        next(a.text for e in eng.scenario.events if e.id == "line_cut" for a in e.actions)
    ]


def test_yue_fei_cuts_down_named_officers_and_each_lifts_his_men() -> None:
    eng = engine()
    st = eng.state
    yue, vets = st.formations["yue_fei_riders"], st.formations["jin_vets_1"]
    yue.pos = free_near(eng, vets.pos)
    before = yue.morale
    events = eng.apply(Attack(unit="yue_fei_riders", target="jin_vets_1"))
    [slain] = [e for e in events if isinstance(e, OfficerSlain)]
    assert (slain.unit, slain.by, slain.rank, slain.name) == ("jin_vets_1", "yue_fei_riders", "mouke", "Pucha Ali")
    lift = [e for e in events if isinstance(e, MoraleChanged) and e.reason == officers.OFFICER_REASON]
    assert [(e.unit, e.delta) for e in lift] == [("yue_fei_riders", officers.RANKS["mouke"][1])]
    assert events.index(slain) < events.index(lift[0])
    assert officers.slain(eng) == ["pucha_ali"] and yue.morale != before
    assert "first_officer" in st.fired_events
    # The next blow at the same formation fells the next officer on its list, up to the wanhu.
    ranks = ["mouke"]
    for _ in range(3):
        to_turn(eng, st.turn + 1, "zhenguo")
        if "jin_vets_1" not in st.formations:
            break
        yue.pos = free_near(eng, st.formations["jin_vets_1"].pos)
        yue.morale = 80
        events = eng.apply(Attack(unit="yue_fei_riders", target="jin_vets_1"))
        ranks += [e.rank for e in events if isinstance(e, OfficerSlain)]
    assert ranks[:4] == ["mouke", "mouke", "mengan", "wanhu"][: len(ranks)]
    # Other heroes' blows fell no named officer.
    assert not [e for e in events if isinstance(e, OfficerSlain) and e.by != "yue_fei_riders"]


def test_six_officers_cut_down_win_the_bonus() -> None:
    eng = engine()
    for o in eng.scenario.officers[:6]:
        eng.state.formations[o.unit].effects[officers.SLAIN + o.id] = officers.NEVER
    triggers.after_action(eng, [])
    assert eng.state.objectives["officers"] == "done"


def test_both_war_gods_falling_is_the_chronicles_ending_with_its_own_debriefing() -> None:
    """Both heroes wounded in the duel's last exchange: each side carries its commander off, the
    gates open for the Jin when they name theirs, a Zhenguo victory that reads its own debriefing
    (no truce, no parting words), and no bonus lost."""
    eng = engine()
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    events = eng.apply(AnswerDuel(accept=True))
    assert "duel_joined" in eng.state.fired_events and isinstance(events[0], DuelBegun)
    st = eng.state
    last = duel.WINS_NEEDED - 1
    yue, guards = st.formations["yue_fei_riders"], st.formations["wuzhu_guards"]
    duel._mark(st, yue, last)
    duel._mark(st, guards, last)  # whoever lands the next blow, both fall
    eng.apply(EndTurn())
    events = eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    fought = next(e for e in events if isinstance(e, DuelFought))
    assert set(fought.wounded) == {"yue_fei", "wanyan_wuzhu"} and not fought.goes_on
    assert st.over and st.winner == "zhenguo" and "both_fall" in st.fired_events
    assert "yue_beaten" not in st.fired_events and "field_won" not in st.fired_events
    assert st.side("tangut").gates_open_to == ["jin"]
    spoken = narrations(events)
    assert [n.speaker for n in spoken] == [None, None]
    assert "saber" in spoken[0].text and "arm" in spoken[0].text and "gate" in spoken[1].text
    assert st.objectives["hold_out"] == "done" and st.objectives["wound_wuzhu"] == "done"
    # The chronicle's ending costs no bonus but the one that beats it: Wuzhu is carried in.
    assert [o for o, status in st.objectives.items() if status == "failed"] == ["take_wuzhu"]
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["both_fall"]
    deciding = decide(eng.scenario, st).event
    assert deciding is not None and deciding.spec.id == "both_fall"


def duel_to_its_last_exchange(eng: Engine) -> None:
    """Yue Fei and Wuzhu in a duel, each one blow from wounding the other, on the Jin turn."""
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    eng.apply(AnswerDuel(accept=True))
    st = eng.state
    last = duel.WINS_NEEDED - 1
    duel._mark(st, st.formations["yue_fei_riders"], last)
    duel._mark(st, st.formations["wuzhu_guards"], last)
    eng.apply(EndTurn())


def test_wuzhu_falling_among_shaken_guards_is_taken_and_the_gate_stays_shut() -> None:
    """Guards worn down before the duel break when their prince falls: nobody carries him to the
    gate, the Zhenguo riders take him, and the battle reads its own debriefing."""
    eng = engine()
    duel_to_its_last_exchange(eng)
    st = eng.state
    st.formations["wuzhu_guards"].morale = 20  # shaken: the fall of their prince breaks them
    events = eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    assert set(next(e for e in events if isinstance(e, DuelFought)).wounded) == {"yue_fei", "wanyan_wuzhu"}
    assert st.formations["wuzhu_guards"].routed
    assert st.over and st.winner == "zhenguo"
    assert "wuzhu_taken" in st.fired_events and "both_fall_taken" in st.fired_events
    assert "both_fall" not in st.fired_events and "wuzhu_wounded" not in st.fired_events
    assert st.objectives["take_wuzhu"] == "done" and st.objectives["wound_wuzhu"] == "done"
    assert st.objectives["break_guards"] == "done"
    assert st.side("tangut").gates_open_to == []
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["both_fall_taken"]
    assert debriefing(eng.scenario, st, "jin") == next(
        d.text for t in eng.scenario.side_texts for d in t.debriefings if d.event == "both_fall_taken"
    )


def test_wuzhu_falling_among_steady_guards_is_carried_in_as_the_chronicle_tells() -> None:
    eng = engine()
    duel_to_its_last_exchange(eng)
    st = eng.state
    st.formations["wuzhu_guards"].morale = 80
    eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    assert not st.formations["wuzhu_guards"].routed
    assert "both_fall" in st.fired_events and "wuzhu_taken" not in st.fired_events
    assert st.objectives["take_wuzhu"] == "failed"


def test_guards_broken_after_wuzhu_is_carried_off_do_not_give_him_up() -> None:
    eng = engine()
    wound(eng, "wanyan_wuzhu")
    eng.state.formations["wuzhu_guards"].routed = True
    triggers.after_action(eng, [])
    assert "wuzhu_taken" not in eng.state.fired_events
    assert eng.state.objectives["take_wuzhu"] == "failed"


def test_riding_down_wuzhus_broken_guards_takes_him_and_wins_the_field() -> None:
    """His guards broken with Wuzhu among them and ridden down by the Zhenguo riders before they
    reach the gate: he is taken, and once Guo Yaoshi's riders are up the field is won."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    st = eng.state
    assert st.objectives["hold_out"] == "done" and not st.over
    guards = st.formations["wuzhu_guards"]
    guards.men, guards.routed, guards.morale = 40, True, 0
    attackers = ["yue_fei_riders", "guo_riders", "zhenguo_vanguard"]
    blocked: set[Hex] = set()
    for unit in attackers:
        if "wuzhu_guards" not in st.formations:
            break
        if unit not in st.formations:
            continue
        at = free_near(eng, guards.pos, frozenset(blocked))
        st.formations[unit].pos = at
        blocked.add(at)
        eng.apply(Attack(unit=unit, target="wuzhu_guards"))
    assert "wuzhu_guards" not in st.formations
    assert "wuzhu_taken_with_guards" in st.fired_events
    assert st.objectives["take_wuzhu"] == "done" and st.objectives["wound_wuzhu"] == "done"
    assert st.over and st.winner == "zhenguo" and "field_won_taken" in st.fired_events
    assert "field_won" not in st.fired_events
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["field_won_taken"]


def _ride_next_to(eng: Engine, unit: str, target: str) -> bool:
    """Move ``unit`` as near ``target`` as it can this turn; whether it stands next to it."""
    f, g = eng.state.formations[unit], eng.state.formations[target]
    if distance(f.pos, g.pos) > 1:
        reach = eng.moves(unit).destinations
        if reach:
            eng.apply(Move(unit=unit, to=min(reach, key=lambda h: (distance(h, g.pos), h))))
    return distance(f.pos, g.pos) == 1


def _wear_the_guards_down_then_duel(eng: Engine) -> None:
    """The Zhenguo plan that takes Wuzhu: the vanguard and Guo Yaoshi's riders, then Yue Fei,
    ride at his guards until their heart is low enough that his fall will break them, and only
    then does Yue Fei challenge him; the duel is pressed every turn. The Jin hold their ground,
    accept the challenge and fight their exchanges."""
    st = eng.state
    while not st.over:
        if st.pending_duel is not None:
            eng.apply(AnswerDuel(accept=True))
        guards = st.formations["wuzhu_guards"]
        mine = st.active_side.id
        if mine == "jin" and duel.in_duel(guards) and st.pending_duel is None:
            eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
        elif mine == "zhenguo" and duel.in_duel(st.formations["yue_fei_riders"]):
            if not st.formations["yue_fei_riders"].acted:
                eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
        elif mine == "zhenguo":
            for unit in ("zhenguo_vanguard", "guo_riders", "yue_fei_riders"):
                f = st.formations.get(unit)
                if st.over or f is None or f.routed or st.pending_duel is not None:
                    continue
                if not _ride_next_to(eng, unit, "wuzhu_guards"):
                    continue
                shaken = guards.morale < eng.rules.units[guards.type].rout_threshold - duel.LOSER_MORALE
                if unit == "yue_fei_riders" and shaken:
                    eng.apply(Challenge(unit=unit, target="wuzhu_guards"))
                else:
                    eng.apply(Attack(unit=unit, target="wuzhu_guards"))
        if not st.over and st.pending_duel is None:
            eng.apply(EndTurn())


def test_wuzhu_can_be_taken_in_play_by_wearing_his_guards_down_before_the_duel() -> None:
    """From the scenario's start, through legal orders only: Wuzhu is taken, with Yue Fei down
    in the same exchange (seed 1) or still in the saddle until Guo Yaoshi's riders come (seed 12)."""
    for seed, ending in ((1, "both_fall_taken"), (12, "field_won_taken")):
        eng = engine(seed)
        _wear_the_guards_down_then_duel(eng)
        st = eng.state
        assert st.over and st.winner == "zhenguo", seed
        assert "wuzhu_taken" in st.fired_events and ending in st.fired_events, (seed, st.fired_events)
        assert st.objectives["take_wuzhu"] == "done" and st.side("tangut").gates_open_to == []
        assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)[ending]


def test_wuzhu_naming_himself_at_the_gate_can_no_longer_be_taken() -> None:
    eng = engine()
    eng.apply(EndTurn())
    gate = eng.board.regions["fort_gate"]
    occupied = eng.state.occupancy()
    target = next(h for h in sorted(gate) if h not in occupied and h not in eng.board.fortress_hexes("fort"))
    start = next(n for n in neighbours(target) if n in eng.board and n not in gate and n not in occupied)
    eng.state.formations["wuzhu_guards"].pos = start
    eng.apply(Move(unit="wuzhu_guards", to=target))
    assert eng.state.objectives["take_wuzhu"] == "failed"


def _at_the_open_gate(eng: Engine) -> Hex:
    """The Jin's turn, the gate open to them, Wuzhu's guards on the field next to the fort; the
    fort hex he can ride into."""
    to_turn(eng, 2, "jin")
    eng.state.side("tangut").gates_open_to = ["jin"]
    fort = eng.board.fortress_hexes("fort")
    occupied = eng.state.occupancy()
    inside = next(
        h
        for h in sorted(fort)
        if h not in occupied and any(n in eng.board and n not in fort and n not in occupied for n in neighbours(h))
    )
    eng.state.formations["wuzhu_guards"].pos = next(
        n for n in sorted(neighbours(inside)) if n in eng.board and n not in fort and n not in occupied
    )
    assert inside in eng.moves("wuzhu_guards").destinations
    return inside


def test_wuzhu_shutting_himself_in_the_fort_unwounded_loses_the_jin_the_battle() -> None:
    """The gate opens to Wuzhu's name, but a prince who hides behind it before he has faced Yue
    Fei leaves his host in the field, and it breaks: the Zhenguo win then, with their own reason
    and debriefings for both sides. (A Jin that rode him in at once and sat there used to win
    every battle at the turn limit, whatever Yue Fei did.)"""
    from game.view.outcome import reason_text

    eng = engine()
    inside = _at_the_open_gate(eng)
    events = eng.apply(Move(unit="wuzhu_guards", to=inside))
    st = eng.state
    assert "wuzhu_shelters" in st.fired_events
    assert st.over and st.winner == "zhenguo"
    assert st.objectives["hold_out"] == "done" and st.objectives["take_wuzhu"] == "failed"
    assert st.objectives["wound_wuzhu"] == "open"
    assert any(e.speaker == "yue_fei" for e in narrations(events))
    texts = {d.event: d.text for d in next(t for t in eng.scenario.side_texts if t.side == "jin").debriefings}
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["wuzhu_shelters"]
    assert debriefing(eng.scenario, st, "jin") == texts["wuzhu_shelters"]
    assert "shuts himself in the Tangut fort unwounded" in reason_text(
        decide(eng.scenario, st), eng.scenario, eng.rules, st
    )


def test_wuzhu_carried_into_the_fort_wounded_goes_as_the_chronicle_has_it() -> None:
    eng = engine()
    inside = _at_the_open_gate(eng)
    wound(eng, "wanyan_wuzhu")
    assert not eng.state.over  # Guo Yaoshi's riders are not up yet
    eng.apply(Move(unit="wuzhu_guards", to=inside))
    assert "wuzhu_shelters" not in eng.state.fired_events and not eng.state.over


def test_both_briefings_warn_that_wuzhu_hiding_in_the_fort_loses_his_host() -> None:
    scenario = load_scenario(B3).scenario
    jin = next(t for t in scenario.side_texts if t.side == "jin")
    assert "shut himself in the fort before he has faced Yue Fei" in scenario.briefing
    assert "do not take Wuzhu in through that gate while the field is undecided" in jin.briefing


def test_no_truce_is_made_at_the_tangut_border() -> None:
    """The chronicle has no truce: the fort's officers only send the envoy back, the Jurchens go on
    to Xingqing. No event, debriefing or narration of the battle speaks of one."""
    scenario = load_scenario("b3_tangut_border").scenario
    assert not any("truce" in e.id for e in scenario.events)
    texts = [scenario.briefing, scenario.debriefing_victory, scenario.debriefing_defeat]
    texts += [text for _event, text in scenario.debriefings]
    texts += [a.text for e in scenario.events for a in e.actions if isinstance(a, Narrate)]
    assert not [t for t in texts if "truce" in t.lower()]
    assert "envoy" in dict(scenario.debriefings)["both_fall"]


def test_events_fire_in_the_chronicles_order() -> None:
    """Each event waits for what it speaks of: the order to ride at the officers before the first
    officer falls, the first officer before the duel, two quarters only once the duel is on."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    assert "two_quarters" not in eng.state.fired_events  # no duel, no two quarters
    assert "line_cut" not in eng.state.fired_events  # no contact, no cut
    assert "first_officer" not in eng.state.fired_events


# -- the computer ------------------------------------------------------------------------------------


def test_the_computers_yue_fei_charges_and_wuzhu_lets_him_come() -> None:
    eng = engine()
    start = {k: f.pos for k, f in eng.state.formations.items()}
    play_general_turn(eng, General(eng, "zhenguo"))
    yue = eng.state.formations["yue_fei_riders"].pos
    host = [f.pos for f in eng.state.formations.values() if f.side == "jin"]
    assert min(distance(yue, h) for h in host) < min(distance(start["yue_fei_riders"], h) for h in host) - 4
    play_general_turn(eng, General(eng, "jin"))
    # Nobody touches Yue Fei but Wuzhu, and Wuzhu waits for him to come into the host.
    assert not eng.state.pending_duel and "duel_joined" not in eng.state.fired_events
    line = eng.board.regions["before_walls"]
    for unit in ("jin_vets_1", "jin_vets_2", "jin_vets_3", "jin_horse_1", "jin_horse_2"):
        assert eng.state.formations[unit].pos in line, unit


def test_ai_against_ai_plays_the_chronicle() -> None:
    """The computer on both sides: Yue Fei cuts down officers, then the duel, over several
    turns, and the battle ends with a wound."""
    loaded = load_scenario(B3)
    match = Match(loaded, 1, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    seen: list[tuple[int, object]] = []
    match.listeners.append(lambda events: seen.extend((match.state.turn, e) for e in events))
    ais = make_ais(match)
    while not match.state.over:
        play_ai_turn(match, ais[match.state.active_side.id], others=ais)
    yue_blows = [t for t, e in seen if isinstance(e, Attacked) and e.unit == "yue_fei_riders"]
    slain = [t for t, e in seen if isinstance(e, OfficerSlain)]
    begun = [t for t, e in seen if isinstance(e, DuelBegun)]
    ended = [t for t, e in seen if isinstance(e, DuelFought) and not e.goes_on]
    assert yue_blows and slain and begun and ended
    assert min(slain) <= begun[0] < ended[0]
    assert match.state.wounded_heroes
    # Each narration waits for what it speaks of, in the chronicle's order.
    fired = match.state.fired_events
    story = ["yue_rides_in", "first_officer", "line_cut", "duel_joined", "two_quarters", "guo_arrives"]
    assert [e for e in fired if e in story] == story


def _slay_officers(eng: Engine, n: int) -> None:
    for o in eng.scenario.officers[:n]:
        eng.state.formations[o.unit].effects[officers.SLAIN + o.id] = officers.NEVER


def _jin_answer(eng: Engine) -> AnswerDuel:
    """Yue Fei challenges Wuzhu, face to face; the computer's answer for the Jin."""
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    answer = General(eng, "jin").next_action()
    assert isinstance(answer, AnswerDuel)
    return answer


def test_wuzhu_does_not_stake_the_battle_on_a_duel_he_need_not_fight() -> None:
    """The last turn gives the Jin the battle, and a duel that wounds both loses it: while Yue Fei
    has not ridden into the host, Wuzhu neither rides out for him nor takes up his challenge."""
    eng = engine()
    assert _jin_answer(eng) == AnswerDuel(accept=False)
    eng.apply(AnswerDuel(accept=False))
    eng.apply(EndTurn())  # the Jin turn: Yue Fei stands next to him, and he does not challenge
    general = General(eng, "jin")
    while eng.state.active_side.id == "jin" and not eng.state.over:
        action = general.next_action()
        assert not (isinstance(action, Challenge) and action.unit == "wuzhu_guards"), action
        eng.apply(action)
    assert "duel_joined" not in eng.state.fired_events


def test_wuzhu_fights_once_yue_fei_cuts_down_the_hosts_officers() -> None:
    """As the chronicle has it: Yue Fei among the officers, the battle cannot be won without
    stopping him, and Wuzhu takes up the duel (and seeks it on his own turn)."""
    eng = engine()
    _slay_officers(eng, jin_persona.WAIT_OFFICERS)
    assert _jin_answer(eng) == AnswerDuel(accept=True)
    eng = engine()
    _slay_officers(eng, jin_persona.WAIT_OFFICERS)
    face_to_face(eng)
    eng.apply(EndTurn())
    general = General(eng, "jin")
    actions = []
    while not eng.state.pending_duel and eng.state.active_side.id == "jin":
        actions.append(general.next_action())
        eng.apply(actions[-1])
    assert Challenge(unit="wuzhu_guards", target="yue_fei_riders") in actions


def test_wuzhu_accepts_rather_than_let_the_shame_of_refusing_break_his_guards() -> None:
    eng = engine()
    guards = eng.state.formations["wuzhu_guards"]
    guards.morale = eng.rules.units[guards.type].rout_threshold - duel.REFUSE_MORALE - 1
    assert _jin_answer(eng) == AnswerDuel(accept=True)


def _an_officer_down(eng: Engine) -> None:
    _slay_officers(eng, 1)
    triggers.after_action(eng, [])
    assert "first_officer" in eng.state.fired_events


def test_wuzhu_refusing_yue_fei_once_an_officer_has_fallen_breaks_his_host() -> None:
    """Refusing Yue Fei in front of men who have watched him cut down their officers loses the
    Jin the battle, with its own reason and debriefings for both sides. (A Jin that refused and
    rode off whenever Yue Fei caught up used to hold the field to the turn limit.)"""
    from game.view.outcome import reason_text

    eng = engine()
    _an_officer_down(eng)
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    events = eng.apply(AnswerDuel(accept=False))
    st = eng.state
    assert "wuzhu_refuses" in st.fired_events
    assert st.over and st.winner == "zhenguo"
    assert st.objectives["hold_out"] == "done" and st.objectives["take_wuzhu"] == "open"
    assert any(e.speaker == "yue_fei" for e in narrations(events))
    jin = next(t for t in eng.scenario.side_texts if t.side == "jin")
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["wuzhu_refuses"]
    assert debriefing(eng.scenario, st, "jin") == next(d.text for d in jin.debriefings if d.event == "wuzhu_refuses")
    assert "refuses Yue Fei's challenge" in reason_text(decide(eng.scenario, st), eng.scenario, eng.rules, st)


def test_wuzhu_may_refuse_yue_fei_once_before_any_officer_has_fallen_but_not_twice() -> None:
    """Until Yue Fei has ridden into the host, letting him come is the Jin plan: one refusal costs
    the guards their heart, not the battle. A second breaks the host, with its own reason and
    debriefings for both sides; and the computer's Wuzhu, knowing it, takes up the second."""
    from game.view.outcome import reason_text

    eng = engine()
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    eng.apply(AnswerDuel(accept=False))
    st = eng.state
    assert "wuzhu_refuses" not in st.fired_events and "wuzhu_refuses_again" not in st.fired_events
    assert not st.over and st.refusals == {"wanyan_wuzhu/yue_fei": 1}
    to_turn(eng, 2, "zhenguo")
    face_to_face(eng)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    assert General(eng, "jin").next_action() == AnswerDuel(accept=True)
    eng.apply(AnswerDuel(accept=False))
    assert "wuzhu_refuses_again" in st.fired_events and "first_officer" not in st.fired_events
    assert st.over and st.winner == "zhenguo"
    assert st.objectives["hold_out"] == "done" and st.objectives["take_wuzhu"] == "open"
    jin = next(t for t in eng.scenario.side_texts if t.side == "jin")
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["wuzhu_refuses_again"]
    ours = next(d.text for d in jin.debriefings if d.event == "wuzhu_refuses_again")
    assert debriefing(eng.scenario, st, "jin") == ours
    assert "a second time" in reason_text(decide(eng.scenario, st), eng.scenario, eng.rules, st)


def test_wuzhu_takes_up_the_challenge_that_he_may_no_longer_refuse() -> None:
    """One officer down: Wuzhu would still wait for the second before he seeks the duel, and the
    odds are not his; but refusing would lose the battle, so the computer's Wuzhu accepts."""
    eng = engine()
    _an_officer_down(eng)
    assert jin_persona.WAIT_OFFICERS > 1
    assert _jin_answer(eng) == AnswerDuel(accept=True)
    assert General(eng, "jin").persona.answer_duel() == AnswerDuel(accept=False)  # his own wish


def test_both_briefings_warn_that_refusing_yue_fei_breaks_the_host() -> None:
    scenario = load_scenario(B3).scenario
    jin = next(t for t in scenario.side_texts if t.side == "jin")
    assert "turns down Yue Fei's challenge twice, or once Yue Fei has cut down one of its officers" in scenario.briefing
    assert "Nor may Wuzhu refuse Yue Fei's challenge twice, or at all once Yue Fei has cut down" in jin.briefing
    for briefing in (scenario.briefing, jin.briefing):  # and the duel, once begun, is fought out
        assert briefing.endswith("the duel is fought to its end, even if dusk finds them still at it.")


def test_the_result_screens_reason_says_what_ended_the_battle() -> None:
    """Not "Yue Fei is wounded" when Wuzhu fell with him, nor when Wuzhu was taken."""
    from game.view.outcome import reason_text

    def reason(eng: Engine) -> str:
        return reason_text(decide(eng.scenario, eng.state), eng.scenario, eng.rules, eng.state)

    eng = engine()
    duel_to_its_last_exchange(eng)
    eng.state.formations["wuzhu_guards"].morale = 80
    eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    assert "both_fall" in eng.state.fired_events
    assert "Yue Fei and Wanyan Wuzhu wound each other" in reason(eng) and "taken" not in reason(eng)
    eng = engine()
    duel_to_its_last_exchange(eng)
    eng.state.formations["wuzhu_guards"].morale = 20
    eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    assert "both_fall_taken" in eng.state.fired_events
    assert "wound each other" in reason(eng) and "Wuzhu is taken" in reason(eng)
    eng = engine()
    eng.state.objectives["hold_out"] = "done"
    wound(eng, "yue_fei")  # Yue Fei beaten, Wuzhu in the saddle: the trigger's own words
    assert reason(eng).endswith("Yue Fei is wounded and carried from the field.")


def test_yue_fei_leaves_a_turn_more_for_a_duel_wuzhu_may_refuse_or_ride_off_from() -> None:
    """Wuzhu may refuse the challenge or ride off before the duel is joined: Yue Fei sets out for
    him a turn sooner than the exchanges alone would need."""
    eng = engine()
    general = General(eng, "zhenguo", difficulty="normal")
    yue = eng.state.formations["yue_fei_riders"]
    slack = general.style.pursuit_slack
    assert any(a.kind == "wound" for a in general.objectives.aims(eng.state))
    assert general.persona.pursuit_slack(yue, slack) == slack + 1


def test_wuzhu_back_out_from_the_gate_can_be_taken_with_his_last_guards() -> None:
    """Wuzhu named himself at the gate (too late now for the bonus of taking him before it), then
    rode back out to the field unwounded: his guards destroyed round him there, he is taken, and
    once Guo Yaoshi's riders are up the field is won, with its own reason and debriefings."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    st = eng.state
    st.fired_events += ["gate_named", "wuzhu_escapes"]
    st.objectives["take_wuzhu"] = "failed"
    face_to_face(eng)
    guards = st.formations["wuzhu_guards"]
    guards.men, guards.routed, guards.morale = 20, True, 0
    eng.apply(Attack(unit="yue_fei_riders", target="wuzhu_guards"))
    assert "wuzhu_guards" not in st.formations
    assert "wuzhu_taken_outside" in st.fired_events and "wuzhu_taken_with_guards" not in st.fired_events
    assert st.objectives["wound_wuzhu"] == "done" and st.objectives["take_wuzhu"] == "failed"
    assert st.over and st.winner == "zhenguo"
    assert "field_won_outside" in st.fired_events and "field_won" not in st.fired_events
    assert debriefing(eng.scenario, st) == dict(eng.scenario.debriefings)["field_won_outside"]
    from game.view.outcome import reason_text

    assert "rides back out from the Tangut gate" in reason_text(decide(eng.scenario, st), eng.scenario, eng.rules, st)


def test_once_wuzhu_refuses_the_duel_his_guards_are_struck_instead() -> None:
    """His guards are spared while Yue Fei may yet wound him in a duel (a rout would leave him
    nobody to challenge); once Wuzhu has refused, the Zhenguo strike the guards, whose
    destruction takes him too, rather than wait on a duel that does not come."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    st = eng.state
    face_to_face(eng)
    guards = st.formations["wuzhu_guards"]
    guards.men, guards.morale = 400, 45  # worn down: a blow at them pays
    vanguard = st.formations["zhenguo_vanguard"]
    vanguard.pos = free_near(eng, guards.pos, frozenset({st.formations["yue_fei_riders"].pos}))
    general = General(eng, "zhenguo")
    first = general.next_action()
    assert first == Challenge(unit="yue_fei_riders", target="wuzhu_guards")
    assert not any(isinstance(a, Attack) and a.target == "wuzhu_guards" for a in _candidate_actions(general))
    eng.apply(first)
    eng.apply(AnswerDuel(accept=False))
    after = general.next_action()
    assert isinstance(after, Attack) and after.target == "wuzhu_guards", after


def _candidate_actions(general: General) -> list[object]:
    """What the general would strike with, as it scores them now."""
    own = general.engine.state.formations_of("zhenguo")
    best = general._best_act(list(own))
    return [] if best is None else [best]


def _mid_duel(eng: Engine, blows: tuple[int, int]) -> None:
    """Yue Fei and Wuzhu face to face in a duel begun, each with ``blows`` landed."""
    st = eng.state
    face_to_face(eng)
    until = st.turn + duel.MARK_TURNS
    for unit, won in zip(("yue_fei_riders", "wuzhu_guards"), blows, strict=True):
        f = st.formations[unit]
        f.effects[duel.DUELLING] = until
        for i in range(1, won + 1):
            f.effects[f"{duel.ROUND_WON}{i}"] = until


def _turn_orders(general: General, eng: Engine) -> list[object]:
    """The general's orders for the rest of its side-turn, carried out one by one."""
    orders: list[object] = []
    while not eng.state.over and (not orders or not isinstance(orders[-1], EndTurn)):
        action = general.next_action()
        orders.append(action)
        eng.apply(action)
        assert len(orders) < 200
    return orders


def test_yue_fei_presses_an_even_duel_last_in_the_turn_once_his_friends_have_closed_round() -> None:
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    _mid_duel(eng, (1, 1))
    orders = _turn_orders(General(eng, "zhenguo"), eng)
    pressed = Challenge(unit="yue_fei_riders", target="wuzhu_guards")
    assert orders[-2:] == [pressed, EndTurn()], orders
    assert pressed not in orders[:-2]


def test_yue_fei_two_blows_down_lets_the_duel_lapse_while_there_is_time_for_another() -> None:
    """Pressed on two blows down, he falls alone more often than he wounds Wuzhu; let lapse, the
    duel is broken off and may be fought again from the start. With too few turns left for
    another, any duel beats none."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    _mid_duel(eng, (0, 2))
    yue, guards = eng.state.formations["yue_fei_riders"], eng.state.formations["wuzhu_guards"]
    assert aimed_duels.falls_alone(eng, yue, guards) > aimed_duels.falls_alone(eng, yue, guards, fresh=True) + 0.3
    orders = _turn_orders(General(eng, "zhenguo"), eng)
    assert not any(isinstance(a, Challenge) for a in orders), orders

    late = engine()
    to_turn(late, 10, "zhenguo")
    _mid_duel(late, (0, 2))
    assert Challenge(unit="yue_fei_riders", target="wuzhu_guards") in _turn_orders(General(late, "zhenguo"), late)


def test_yue_fei_worn_out_by_the_ride_does_not_challenge_until_it_would_be_a_fair_fight() -> None:
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    face_to_face(eng)
    yue = eng.state.formations["yue_fei_riders"]
    challenge = Challenge(unit="yue_fei_riders", target="wuzhu_guards")
    yue.fatigue = 100  # his score falls by twelve: Wuzhu would wound him alone one time in six
    assert aimed_duels.falls_alone(eng, yue, eng.state.formations["wuzhu_guards"]) > aimed_duels.CHALLENGE_RISK
    assert challenge not in _turn_orders(General(eng, "zhenguo"), eng)

    fresh = engine()
    to_turn(fresh, 5, "zhenguo")
    face_to_face(fresh)
    assert General(fresh, "zhenguo").next_action() == challenge


def test_yue_fei_rested_challenges_wuzhu_however_many_guards_stand_round_him() -> None:
    """Waiting brings a weary hero rest, but it does not thin the guards round Wuzhu: rested, Yue
    Fei challenges him whatever the field (a refusal shames the guards). He used to sit beside
    Wuzhu to the last turns, waiting for odds that never came."""
    eng = engine()
    to_turn(eng, 5, "zhenguo")
    face_to_face(eng)
    st = eng.state
    yue, guards = st.formations["yue_fei_riders"], st.formations["wuzhu_guards"]
    for unit in ("zhenguo_vanguard", "guo_riders"):
        st.formations.pop(unit)  # cut down on the ride in: nobody comes to Yue Fei's side
    for unit in ("jin_vets_1", "jin_vets_3"):
        st.formations[unit].pos = free_near(eng, guards.pos)
    yue.fatigue = 0
    assert (duel.edge(st, yue, guards), duel.edge(st, guards, yue)) == (0, 2 * duel.SUPPORT)
    assert aimed_duels.falls_alone(eng, yue, guards) > aimed_duels.CHALLENGE_RISK
    assert General(eng, "zhenguo").next_action() == Challenge(unit="yue_fei_riders", target="wuzhu_guards")


def test_wuzhus_guards_broken_are_ridden_down_though_officers_still_stand() -> None:
    """Once his guards are routed no duel can reach Wuzhu, and destroying them takes him: Yue
    Fei, whose charge otherwise goes for the officers while any stand, rides them down (he used to
    wait beside them to the turn limit)."""
    eng = engine()
    to_turn(eng, 6, "zhenguo")
    st = eng.state
    face_to_face(eng)
    guards = st.formations["wuzhu_guards"]
    guards.routed, guards.men, guards.morale = True, 600, 0
    assert any(officers.standing(eng, e) for e in st.formations.values() if e.id != guards.id)
    general = General(eng, "zhenguo")
    yue = st.formations["yue_fei_riders"]
    assert "yue_fei_riders" in general.persona.charging and general.persona.may_strike(yue, guards)
    assert Attack(unit="yue_fei_riders", target="wuzhu_guards") in _turn_orders(general, eng)


def test_yue_fei_charges_heedless_of_losses_only_while_he_has_half_his_men() -> None:
    """The order to charge into the host lets Yue Fei weigh his losses lightly; with fewer than
    half his riders left (a random host's horse had cut 1,200 to 481) a charge into fresh horse
    would lose the battle with them, and he strikes only where the worst case leaves him a
    quarter of his men, as any formation whose loss loses the battle does."""
    eng = engine()
    general = General(eng, "zhenguo", difficulty="normal")
    st = eng.state
    yue, horse = st.formations["yue_fei_riders"], st.formations["jin_horse_2"]
    yue.pos = free_near(eng, horse.pos)
    assert general.persona.may_strike(yue, horse)
    yue.men = yue.max_men // 2 - 100
    assert not general.persona.may_strike(yue, horse)


def test_the_challenged_jin_player_is_told_when_refusing_ends_the_battle() -> None:
    """The prompt a human Wuzhu answers says when refusing would break his host, and at the
    smallest window nothing it says runs under its buttons."""
    import pygame

    from game.ui.app import App
    from game.ui.duel_view import DuelPromptScene

    loaded = load_scenario(B3)
    for officer_down in (False, True):
        match = Match(loaded, 3, GameSettings(), seats={"zhenguo": "ai", "jin": "human", "tangut": "ai"})
        if officer_down:
            _slay_officers(match.engine, 1)
        face_to_face(match.engine)
        match.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
        app = App((800, 560))
        app.go("battle", match=match)
        app.step([], 0.0)
        prompt = app.scene
        assert isinstance(prompt, DuelPromptScene)
        warning = prompt.refusal_warning()
        if not officer_down:
            assert warning == ""  # one refusal before any officer falls is still allowed
            continue
        assert warning.startswith("Refusing now ends the battle: Wanyan Wuzhu refuses Yue Fei's challenge")
        surface = pygame.Surface(app.size)
        prompt.draw(surface)
        for button in (prompt.accept, prompt.refuse):
            under = surface.subsurface(button.relative_rect)
            same = pygame.mask.from_threshold(under, under.get_at((0, 0)), (1, 1, 1, 255)).count()
            assert same == button.relative_rect.width * button.relative_rect.height


def test_wuzhu_waits_out_the_last_turns_rather_than_press_a_duel_he_is_unlikely_to_win() -> None:
    """The turn limit gives the Jin the battle, and a duel that wounds both loses it: in the last
    turns Wuzhu fights the next exchange only while he is likelier than not to wound Yue Fei
    alone. Earlier he presses on as the chronicle has it; Yue Fei, whom time does not favour,
    presses on to the end."""
    for turn, presses in ((5, True), (10, False)):
        eng = engine()
        to_turn(eng, turn, "jin")
        _mid_duel(eng, (1, 1))
        _slay_officers(eng, jin_persona.WAIT_OFFICERS)  # he seeks the duel
        yue, guards = eng.state.formations["yue_fei_riders"], eng.state.formations["wuzhu_guards"]
        assert duel.current_odds(eng, guards, yue)[0] < 0.5
        press = Challenge(unit="wuzhu_guards", target="yue_fei_riders")
        assert (press in _turn_orders(General(eng, "jin"), eng)) is presses, turn
    late = engine()
    to_turn(late, 10, "zhenguo")
    _mid_duel(late, (1, 1))
    assert Challenge(unit="yue_fei_riders", target="wuzhu_guards") in _turn_orders(General(late, "zhenguo"), late)
