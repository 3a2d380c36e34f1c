"""A3, besiege Wei to save Zhao: the stroke at Datong is kept in reserve and never needed; the
battle is won by breaking both the thirty thousand and the host, and bagging thirty thousand souls."""

from __future__ import annotations

from game.ai import yuqing
from game.ai.general import General
from game.ai.hailing import Hailing
from game.ai.yuqing import Yuqing
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.core import triggers
from game.core.actions import EndTurn
from game.core.engine import Engine
from game.core.events import Destroyed, Event, Narration, Routed, SkillUsed
from game.core.hexgrid import Hex
from game.core.scenario_events import Narrate
from game.paths import MAPS_DIR

A3 = "a3_besiege_wei"
AMBUSH = ("ambush_1", "ambush_2", "ambush_3")
HOST = ("liang_guard", "host_levy_1", "host_levy_2", "host_levy_3", "host_levy_4", "host_levy_5")


def new_engine(seed: int = 1) -> Engine:
    return Engine(load_scenario(A3).scenario, load_ruleset(), seed)


def at(eng: Engine, col: int, row: int) -> Hex:
    return eng.board.at_offset(col, row)


def hailing_general(eng: Engine) -> General:
    eng.apply(EndTurn())  # Wanyan Liang's turn 1
    assert eng.state.active_side.id == "hailing"
    general = General(eng, "hailing")
    general.next_action()
    return general


def test_nothing_at_datong_turns_the_host() -> None:
    """The chronicle: the stroke at the palace was kept for a battle going wrong and overtaken by
    events. The Hegemon-King before the palace neither raises an alarm nor turns the host; the
    host keeps its business on the plain."""
    eng = new_engine()
    assert eng.scenario.ai.palace_region is None and eng.scenario.ai.palace_alarm_event is None
    eng.state.formations["xiang_yu_500"].pos = at(eng, 9, 18)  # in sight of the palace
    general = hailing_general(eng)
    assert isinstance(general.persona, Hailing)
    assert general.persona.threatening == frozenset() and not general.persona.alarmed()
    state = eng.state
    levy = state.formations["host_levy_1"]
    assert general.persona.may_strike(levy, state.formations["han_xin_5000"])
    assert not general.persona.homeward(levy)
    assert not [e for e in eng.scenario.events if "palace" in e.id]


def test_no_text_says_the_palace_threat_turns_the_host() -> None:
    eng = new_engine()
    texts = [eng.scenario.briefing, eng.scenario.debriefing_victory, eng.scenario.debriefing_defeat]
    texts += [a.text for e in eng.scenario.events for a in e.actions if isinstance(a, Narrate)]
    texts += list(eng.scenario.objectives)
    for text in texts:
        lower = text.lower()
        for words in ("turn the host about", "riders before datong", "looked over his shoulder", "wavered"):
            assert words not in lower, text
    assert "never needed" in eng.scenario.debriefing_victory  # the stroke at Datong
    assert "lane" in eng.scenario.debriefing_victory


def test_the_host_at_the_line_looses_the_five_thousand_and_its_rout_recalls_the_hegemon_king() -> None:
    eng = new_engine()
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    persona = General(eng, "coalition").persona
    regions = eng.board.regions
    assert persona.held_region("han_xin_5000") == regions["behind_the_line"]
    assert persona.held_region("xiang_yu_500") == regions["waiting_ground"]
    eng.state.fired_events.append("host_at_the_line")
    # The five thousand keep their post behind the line until Han Xin gives the word (they
    # charge once the host leans on the line: test_lane_and_sally).
    assert persona.held_region("han_xin_5000") == regions["behind_the_line"]
    assert persona.held_region("liu_bosheng_700") == regions["the_line"]
    eng.state.fired_events.append("lane_opened")
    assert persona.held_region("han_xin_5000") == regions["pass_mouth"]
    assert persona.held_region("liu_bosheng_700") is None
    assert persona.held_region("xiang_yu_500") == regions["waiting_ground"]
    events = rout(eng, HOST)
    assert persona.held_region("xiang_yu_500") is None
    told = [e.text for e in events if isinstance(e, Narration) and e.speaker == "han_xin"]
    assert told and "bar their road" in told[0]


def test_nobody_says_lord_xinling_besieged_wei() -> None:
    toml = (MAPS_DIR / f"{A3}.toml").read_text(encoding="utf-8")
    assert "Sun Bin" in toml and "tiger tally" in toml
    assert "Lord Xinling saved Zhao by marching on Wei" not in toml
    assert "as it was in my day" not in toml


def rout(eng: Engine, units: tuple[str, ...]) -> list[Event]:
    for u in units:
        eng.state.formations[u].routed = True
    return triggers.after_action(eng, [Routed(unit=u, side="hailing") for u in units])


def test_breaking_the_thirty_thousand_and_the_host_and_bagging_thirty_thousand_wins() -> None:
    eng = new_engine()
    rout(eng, AMBUSH[:2])
    assert eng.state.objectives["destroy_ambush"] == "open"  # one formation still stands
    rout(eng, AMBUSH[2:])
    assert eng.state.objectives["destroy_ambush"] == "done" and not eng.state.over
    rout(eng, HOST)
    assert eng.state.objectives["break_host"] == "done"
    # The host broken, the battle goes on until the thirty thousand souls are in the pouch.
    assert not eng.state.over and eng.state.objectives["bag_souls"] == "open"
    eng.state.side("coalition").pouch = 29_999
    triggers.after_action(eng, [])
    assert not eng.state.over
    eng.state.side("coalition").pouch = 30_000
    triggers.after_action(eng, [])
    assert eng.state.objectives["bag_souls"] == "done"
    assert eng.state.over and eng.state.winner == "coalition"


def test_the_host_is_broken_with_only_liang_s_guard_still_in_order() -> None:
    """A Prince of Hailing who keeps his guard out of the fight cannot save a host whose every
    levy has run: a host is broken once no more than a fifth of its men stand in order."""
    eng = new_engine()
    rout(eng, HOST[2:])
    assert eng.state.objectives["break_host"] == "open"  # the guard and a levy: 30,000 of 102,000
    rout(eng, HOST[1:2])
    assert not eng.state.formations["liang_guard"].routed
    assert eng.state.objectives["break_host"] == "done" and "host_broken" in eng.state.fired_events


def test_a_hard_hailing_general_keeps_more_than_a_fifth_of_the_host_out_of_the_fight() -> None:
    """Against a host broken once no more than a fifth of it stands in order, one levy kept back
    (18,000 of 102,000) would not keep it whole: the hard general keeps back as many fresh
    formations as hold more than that, never the Prince's own guard, which leads."""
    eng = new_engine()
    reserves = General(eng, "hailing", "hard").persona.reserves() & set(HOST)
    held = sum(eng.state.formations[u].men for u in reserves)
    assert "liang_guard" not in reserves
    assert held > 0.2 * sum(eng.state.formations[u].men for u in HOST)
    assert len(reserves) == 2  # no more than it takes
    assert General(eng, "hailing", "normal").persona.reserves() == frozenset()


def test_losing_han_xin_loses_the_battle_but_losing_the_retainers_does_not() -> None:
    eng = new_engine()
    f = eng.state.formations.pop("cao_zhi_2000")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert not eng.state.over
    f = eng.state.formations.pop("han_xin_5000")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert eng.state.over and eng.state.winner == "hailing"
    assert eng.state.objectives["break_host"] == "failed"


def test_the_thirty_thousand_are_the_retainers_fight_alone() -> None:
    """The chronicle credits Cao Zhi's two thousand alone with the thirty thousand in the pass:
    no other formation is sent into the pass to help, the computer does not hold the retainers
    back, and Du Xuan's band stands with the wings on the line, not with the scholars."""
    eng = new_engine()
    holds = eng.scenario.ai.hold
    assert not [h for h in holds if "cao_zhi_2000" in h.units]
    assert not [h for h in holds if h.side == "coalition" and h.region == "the_pass"]
    [line] = [h for h in holds if "du_xuan_20" in h.units]
    assert line.region == "the_line" and {"liu_bosheng_700", "xinling_650"} <= set(line.units)
    assert eng.state.formations["du_xuan_20"].pos in eng.board.regions["the_line"]
    tally = next(o for o in eng.scenario.objective_specs if o.id == "destroy_ambush")
    assert set(tally.tally) == {"ambush_1", "ambush_2", "ambush_3"} and tally.tally_of == 30_000
    assert tally.tally_by == ("cao_zhi_2000",)  # nobody else is credited with their feat
    lane = next(e for e in eng.scenario.events if e.id == "lane_opened")
    said = [a.text for a in lane.actions if isinstance(a, Narrate)]
    assert said and "Liu Bosheng" in said[0] and "Lord Xinling" in said[0]  # the order goes to the wings
    texts = [eng.scenario.briefing, eng.scenario.debriefing_victory]
    assert not [t for t in texts if "valley mouth" in t and "fifty thousand" in t]


def test_once_the_host_breaks_wanyan_liang_orders_the_retreat_to_datong() -> None:
    """The chronicle: the host broken by the five thousand, Wanyan Liang orders the retreat and
    what is left of it runs for Datong; it does not turn to fight on the way."""
    eng = new_engine()
    general = hailing_general(eng)
    persona = general.persona
    assert isinstance(persona, Hailing)
    state = eng.state
    levy, han = state.formations["host_levy_1"], state.formations["han_xin_5000"]
    assert not persona.retreating(levy) and persona.may_strike(levy, han)
    eng.state.fired_events.append("host_broken")
    assert persona.retreating(levy) and not persona.may_strike(levy, han)
    assert persona.destination(levy, [], frozenset()) == (eng.board.regions["datong"], None)
    assert not persona.retreating(state.formations["palace_guard"])  # the guard keeps its halls


def test_once_the_retreat_is_ordered_the_thirty_thousand_leave_their_hiding_place() -> None:
    """Nobody is left to spring the trap for once the host is broken: the ambush still hidden
    in the pass stops waiting and runs for Datong with the rest."""
    eng = new_engine()
    persona = hailing_general(eng).persona
    assert isinstance(persona, Hailing)
    ambush = eng.state.formations["ambush_3"]
    assert persona.waiting(ambush) and persona.role(ambush) == "hold_still"
    assert persona.destination(ambush, [], frozenset()) is None
    eng.state.fired_events.append("host_broken")
    assert not persona.waiting(ambush) and persona.role(ambush) != "hold_still"
    assert persona.destination(ambush, [], frozenset()) == (eng.board.regions["datong"], None)


def test_the_lane_shakes_the_host() -> None:
    eng = new_engine()
    lane = next(e for e in eng.scenario.events if e.id == "lane_opened")
    before = {f.id: f.morale for f in eng.state.formations_of("hailing")}
    triggers.after_action(eng, [SkillUsed(unit="han_xin_5000", hero="han_xin", skill="open_the_lane")])
    assert "lane_opened" in eng.state.fired_events and lane.actions
    after = {f.id: f.morale for f in eng.state.formations_of("hailing")}
    assert all(after[u] < before[u] for u in after)


def coalition_general(eng: Engine, turn: int) -> General:
    """The coalition's general at the start of its turn ``turn``."""
    eng.state.turn = turn
    general = General(eng, "coalition")
    general.persona.new_turn()
    return general


def test_a_host_that_will_not_come_is_gone_out_to() -> None:
    """Han Xin waits behind the line for the host to lean on it only so long: a host still
    unbroken when the waiting turns are over has refused battle (a random player's host never
    comes on), and the army gives up every post to go and fight it on the plain. Between equal
    generals the host has broken by then in nearly every battle, and the posts are kept."""
    eng = new_engine()
    regions = eng.board.regions
    persona = coalition_general(eng, yuqing.WAIT_FOR_HOST).persona
    assert isinstance(persona, Yuqing) and not persona.host_holds_off()
    assert persona.held_region("han_xin_5000") == regions["behind_the_line"]
    assert persona.held_region("liu_bosheng_700") == regions["the_line"]
    assert persona.held_region("xiang_yu_500") == regions["waiting_ground"]
    persona = coalition_general(eng, yuqing.WAIT_FOR_HOST + 1).persona
    assert isinstance(persona, Yuqing) and persona.host_holds_off()
    for unit in ("han_xin_5000", "liu_bosheng_700", "huan_xuan_650", "xinling_650", "du_xuan_20", "xiang_yu_500"):
        assert persona.held_region(unit) is None, unit
        assert persona.guards_ground(eng.state.formations[unit])  # no aim calls it elsewhere
    # Broken late after all, the host no longer holds off; the posts, each of which waited for it
    # to come on or to break, are not taken up again.
    eng.state.fired_events.append("host_broken")
    assert not persona.host_holds_off() and persona.held_region("han_xin_5000") is None
    assert not persona.guards_ground(eng.state.formations["han_xin_5000"])


def test_gone_out_to_the_host_the_army_leaves_the_thirty_thousand_to_the_retainers() -> None:
    """The thirty thousand in the pass stay the retainers' own fight when the army goes out:
    the five thousand march on the host, not into the pass, and strike nobody of the ambush;
    the retainers still may."""
    eng = new_engine()
    persona = coalition_general(eng, yuqing.WAIT_FOR_HOST + 1).persona
    assert isinstance(persona, Yuqing)
    state = eng.state
    han, cao = state.formations["han_xin_5000"], state.formations["cao_zhi_2000"]
    assert persona.others_feat(han) == frozenset(AMBUSH) and persona.others_feat(cao) == frozenset()
    state.formations["ambush_1"].pos = at(eng, 44, 15)
    beside_han = state.formations["ambush_1"]
    assert not persona.may_strike(han, beside_han)
    enemies = [f for f in state.formations.values() if f.side == "hailing"]
    target = persona.destination(han, enemies, frozenset(f.pos for f in enemies))
    assert target is not None
    goals, _keep = target
    host = {state.formations[u].pos for u in HOST}
    assert host <= goals and not goals & {state.formations[u].pos for u in AMBUSH}


def test_only_a_scenario_with_a_lane_and_a_host_to_break_waits_for_the_host() -> None:
    """The rear guard trap has a lane but no host whose breaking ends the waiting: its posts are
    kept by the scenario's own events however late it grows."""
    eng = Engine(load_scenario("a2_rear_guard_trap").scenario, load_ruleset(), 1)
    persona = coalition_general(eng, 12).persona
    assert isinstance(persona, Yuqing) and not persona.host_holds_off()


def test_gone_out_to_the_host_the_scholars_follow_the_army_to_bag_its_souls() -> None:
    """Left in the pass beside thirty thousand who will not come on, the scholars would only be
    worn away: while the army is out after the host they leave the formed enemy alone and follow
    it, bagging the souls it strikes down. Before that they stand to their own fight."""
    eng = new_engine()
    state = eng.state
    cao = state.formations["cao_zhi_2000"]
    ambush = state.formations["ambush_1"]
    waiting = coalition_general(eng, yuqing.WAIT_FOR_HOST).persona
    assert isinstance(waiting, Yuqing) and not waiting.sweeping(cao)
    assert waiting.may_strike(cao, ambush)
    persona = coalition_general(eng, yuqing.WAIT_FOR_HOST + 1).persona
    assert isinstance(persona, Yuqing) and persona.sweeping(cao)
    assert not persona.sweeping(state.formations["han_xin_5000"])
    assert not persona.may_strike(cao, ambush)
    ambush.routed = True
    assert persona.may_strike(cao, ambush)  # the routed are souls to bag
    ambush.routed = False
    enemies = [f for f in state.formations.values() if f.side == "hailing"]
    target = persona.destination(cao, enemies, frozenset(f.pos for f in enemies))
    assert target is not None
    army = {f.pos for f in state.formations_of("coalition") if f.id != cao.id}
    assert target[0] == frozenset(army)  # no souls on the field yet: it goes to the army
