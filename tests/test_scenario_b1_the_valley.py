"""The Valley (b1): Tang Huai on his knoll, the rear guard that stands and dies, the five
thousand sent to the vanguard, relief and defeat.
(Every scenario's seeded play-out is in test_scenarios_play_out.py.)"""

from __future__ import annotations

from conftest import ai_engine, end_turns_until, stand_in

from game.ai.driver import make_ais, play_ai_turn
from game.ai.general import General
from game.content.scenarios import load_scenario
from game.core import combat, skill_marks, triggers
from game.core.actions import Attack, Capture, EndTurn, Rest, UseSkill
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, Narration, Routed
from game.core.hexgrid import Hex, distance, neighbours, opposite
from game.core.scenario_events import Narrate
from game.record.match import Match

B1 = "b1_the_valley"
REAR = ("rear_guard_1", "rear_guard_2", "rear_guard_3")


def engine(seed: int = 5) -> Engine:
    return ai_engine(load_scenario(B1).scenario, seed)


def test_tang_huai_holds_a_hill_that_horse_cannot_climb_round() -> None:
    eng = engine()
    tang = eng.state.formations["tang_huai_bows"]
    assert tang.hero == "tang_huai" and tang.type == "crossbowman"
    assert eng.board.terrain[tang.pos].id == "hills"
    assert tang.pos in eng.board.regions["tang_hill"]
    # Every way onto the knoll but one is mountain, which horse cannot enter.
    open_sides = [h for h in neighbours(tang.pos) if eng.board.terrain[h].id != "mountain"]
    assert len(open_sides) == 1
    sc = load_scenario(B1).scenario
    assert sc.ai.rear_guard == REAR and sc.ai.pass_region == "the_valley"
    assert sum(eng.state.formations[u].men for u in REAR) == 8000


def test_the_rear_guard_stands_while_the_rest_close_on_the_hill() -> None:
    loaded = load_scenario(B1)
    match = Match(loaded, 2, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
    ais = make_ais(match)
    start = {f.id: f.pos for f in match.state.formations.values()}
    match.apply(EndTurn())  # the Zhenguo wait
    hill = match.state.formations["tang_huai_bows"].pos
    play_ai_turn(match, ais["jin"], others=ais)
    for u in REAR:
        assert match.state.formations[u].pos == start[u], u

    besiegers = ("besiegers_1", "besiegers_2", "besieging_horse", "vanguard")
    assert sum(distance(match.state.formations[u].pos, hill) for u in besiegers if u in match.state.formations) < sum(
        distance(start[u], hill) for u in besiegers
    )


def test_five_thousand_reach_the_vanguard_on_turn_3() -> None:
    eng = engine()
    end_turns_until(eng, 3, "zhenguo")
    assert "relief_veterans" not in eng.state.formations
    events = end_turns_until(eng, 3, "jin")
    arrived = [eng.state.formations[u] for u in ("relief_veterans", "relief_horse")]
    assert sum(f.men for f in arrived) == 5000
    assert all(f.pos in eng.board.regions["north_track"] for f in arrived)
    assert "wanyan_wuzhu" in [e.speaker for e in events if isinstance(e, Narration)]


def strike_down_tang_huai(eng: Engine) -> None:
    """The besieging horse rides up to Tang Huai's last man and cuts him down."""
    tang = eng.state.formations["tang_huai_bows"]
    tang.men = 1
    horse = eng.state.formations["besieging_horse"]
    horse.pos = next(h for h in neighbours(tang.pos) if eng.board.terrain[h].id != "mountain")
    eng.apply(Attack(unit="besieging_horse", target="tang_huai_bows"))


def test_losing_tang_huai_before_relief_loses_the_battle() -> None:
    eng = engine()
    eng.apply(EndTurn())
    strike_down_tang_huai(eng)
    assert "tang_huai_bows" not in eng.state.formations
    assert eng.state.objectives["relieve_tang"] == "failed"
    assert eng.state.over and eng.state.winner == "jin"


def test_yue_fei_at_the_foot_of_the_hill_relieves_him_once_the_foot_is_cleared() -> None:
    eng = engine()
    foot = eng.board.regions["hill_foot"]
    taken = {f.pos for f in eng.state.formations.values()}
    tang_sides = set(neighbours(eng.state.formations["tang_huai_bows"].pos))
    eng.state.formations["yue_fei_riders"].pos = sorted(
        h for h in foot if h not in taken and h not in tang_sides and eng.board.terrain[h].id != "mountain"
    )[0]
    events = eng.apply(Rest(unit="yue_fei_riders"))
    # The relief has come: Tang Huai sees it and may come down the hill, but the besiegers
    # still stand at its foot, so he is not yet relieved.
    assert eng.state.objectives["quick_relief"] == "done"
    assert "relief_arrives" in eng.state.fired_events
    assert "tang_huai" in [e.speaker for e in events if isinstance(e, Narration)]
    assert eng.state.objectives["relieve_tang"] == "open"
    # The Jin driven from the foot of the hill: relieved.
    away = sorted(h for h in eng.board.regions["muster"] if h not in taken)
    for f in list(eng.state.formations.values()):
        if f.side == "jin" and f.pos in foot:
            f.pos = away.pop()
    eng.apply(Rest(unit="guo_yaoshi_riders"))
    assert eng.state.objectives["relieve_tang"] == "done"
    # Relieved, he may fall later without losing the battle.
    eng.apply(EndTurn())
    strike_down_tang_huai(eng)
    assert "tang_huai_bows" not in eng.state.formations
    assert eng.state.objectives["relieve_tang"] == "done"
    assert not eng.state.over


def relief_has_struck(eng: Engine) -> None:
    """Yue Fei has just struck the besieging horse at the foot of Tang Huai's knoll, from the far
    side of it."""
    st = eng.state
    tang = st.formations["tang_huai_bows"]
    [below] = [h for h in neighbours(tang.pos) if eng.board.terrain[h].id != "mountain"]
    for f in st.formations.values():
        if f.pos == below:
            f.pos = sorted(h for h in eng.board.regions["muster"] if h not in {o.pos for o in st.formations.values()})[
                0
            ]
    besieger = st.formations["besieging_horse"]
    besieger.pos = below
    yue = st.formations["yue_fei_riders"]
    yue.pos = opposite(below, tang.pos)
    yue.acted = yue.moved = True  # it has just struck


def test_when_the_relief_strikes_the_computer_brings_tang_huai_down_the_hill() -> None:
    """上下對衝: the relief has struck the besieger at the foot of the knoll; the computer's Tang
    Huai charges down on its back, and the forecast shows the charge."""
    eng = engine()
    relief_has_struck(eng)
    general = General(eng, "zhenguo")
    charge = general.next_action()
    assert charge == UseSkill(unit="tang_huai_bows", skill="downhill_charge")
    eng.apply(charge)
    blow = general.next_action()
    assert blow == Attack(unit="tang_huai_bows", target="besieging_horse")
    shown = eng.forecast(blow)
    assert {"Downhill charge", "Pincer"} <= {m.name for m in shown.modifiers}
    events = eng.apply(blow)
    assert any(isinstance(e, Attacked) and e.unit == "tang_huai_bows" and e.pincer for e in events)


def test_relief_after_turn_6_misses_the_bonus() -> None:
    eng = engine()
    end_turns_until(eng, 6, "jin")
    assert eng.state.objectives["quick_relief"] == "open"
    end_turns_until(eng, 7, "zhenguo")
    assert eng.state.objectives["quick_relief"] == "failed"


def test_the_relief_rides_for_the_hill_past_the_souls_of_the_rear_guard() -> None:
    """The rear guard broken and its dead lying round him, Yue Fei leaves the souls to the wind
    and rides on for Tang Huai's hill."""
    eng = engine()
    st = eng.state
    for u in REAR:
        del st.formations[u]
    riders = ("yue_fei_riders",)
    for u in riders:
        st.field_souls[st.formations[u].pos.key()] = {"jin": 2000}
    foot = eng.board.regions["hill_foot"]
    before = {u: min(distance(st.formations[u].pos, h) for h in foot) for u in riders}
    actions = []
    general = General(eng, "zhenguo")
    while not isinstance(action := general.next_action(), EndTurn):
        actions.append(action)
        eng.apply(action)
    assert not any(isinstance(a, Capture) and a.unit in riders for a in actions)
    for u in riders:
        assert min(distance(st.formations[u].pos, h) for h in foot) < before[u], u


def test_a_handful_left_on_the_hill_do_not_throw_themselves_away() -> None:
    """Tang Huai's fall loses the battle: with a few dozen men left, the computer keeps them on
    the hill rather than charge a blow they would not survive."""
    eng = engine()
    relief_has_struck(eng)
    eng.state.formations["tang_huai_bows"].men = 30
    general = General(eng, "zhenguo")
    while not isinstance(action := general.next_action(), EndTurn):
        assert action != UseSkill(unit="tang_huai_bows", skill="downhill_charge")
        assert not (isinstance(action, Attack) and action.unit == "tang_huai_bows")
        eng.apply(action)


def test_guo_yaoshi_runs_down_the_rear_guard_and_yue_fei_alone_relieves_the_hill() -> None:
    """The chronicle: once the rear guard broke, Guo Yaoshi took four thousand after the routed
    and Yue Fei rode on with six thousand; it was Yue Fei who struck the besiegers from behind."""
    eng = engine()
    scenario = eng.scenario
    to_hill = [h for h in scenario.ai.hold if h.region == "hill_foot"]
    assert to_hill and {h.units for h in to_hill} == {("yue_fei_riders",)}
    for event_id in ("tang_relieved_early", "relief_arrives", "tang_relieved"):
        when = next(e for e in scenario.events if e.id == event_id).when
        assert when.unit == "yue_fei_riders" and not when.units
    assert eng.state.formations["guo_yaoshi_riders"].men == 4000
    said = next(e for e in scenario.events if e.id == "rear_broken").actions
    assert any(isinstance(a, Narrate) and "Guo Yaoshi" in a.text and "four thousand" in a.text for a in said)
    assert "Guo Yaoshi takes four thousand" not in scenario.debriefing_victory


def test_tang_huai_comes_down_as_the_relief_reaches_the_foot_not_after_its_blow() -> None:
    """上下對衝: both at once. Guo Yaoshi has ridden up to the besieger at the foot of the knoll
    and not struck yet; the computer's Tang Huai comes down on it now, counting on the likely
    losses (the besiegers are turned toward the relief), not waiting for a blow that may break
    them before the hill can fall on their backs."""
    eng = engine()
    relief_has_struck(eng)
    guo = eng.state.formations["guo_yaoshi_riders"]
    guo.acted = False  # it has ridden up and can still strike
    general = General(eng, "zhenguo")
    assert general.next_action() == UseSkill(unit="tang_huai_bows", skill="downhill_charge")


def test_coming_down_the_hill_the_company_counts_on_the_likely_losses_not_the_worst() -> None:
    """With 420 men against the besieging horse the worst case of the downhill blow leaves too
    few, the likely case enough: charging down, the company strikes; standing, it would not."""
    eng = engine()
    relief_has_struck(eng)
    tang = eng.state.formations["tang_huai_bows"]
    tang.men = 420
    target = eng.state.formations["besieging_horse"]
    general = General(eng, "zhenguo")
    charging = tang.model_copy(update={"effects": {**tang.effects, skill_marks.DOWNHILL: eng.state.turn + 1}})
    forecast = combat.forecast_from(combat.setup_attack(eng.state, eng.board, eng.rules, charging, target))
    assert forecast.attacker_losses[1] < tang.men * 0.75 <= forecast.attacker_losses[2]
    assert general.persona.may_strike(charging, target)
    assert not general.persona.may_strike(tang, target)


def test_tang_huai_throws_palm_thunder_only_once_the_assault_has_cost_him_and_keeps_the_last() -> None:
    """Few charges: the company lives by its bows, throws palm thunder once half its men are gone,
    and keeps the last charge in hand."""
    eng = engine()
    tang = eng.state.formations["tang_huai_bows"]
    persona = General(eng, "zhenguo").persona
    assert tang.charges == 2 and not persona.may_blast(tang)
    tang.men = tang.max_men // 2
    assert persona.may_blast(tang)
    tang.charges = 1
    assert not persona.may_blast(tang)
    assert persona.may_blast(eng.state.formations["yue_fei_riders"])


def test_riding_for_the_hill_yue_fei_cuts_through_only_what_bars_his_road() -> None:
    """Once the rear guard breaks, Yue Fei marches for the foot of Tang Huai's hill: he strikes a
    formed enemy standing nearer the hill than he is, and leaves the routed and those behind him."""
    eng = engine()
    st = eng.state
    for u in REAR:
        del st.formations[u]
    st.fired_events.append("rear_broken")
    yue = st.formations["yue_fei_riders"]
    foot = eng.board.regions["hill_foot"]

    def to_foot(h: Hex) -> int:
        return min(distance(h, f) for f in foot)

    persona = General(eng, "zhenguo").persona
    assert persona.marching(yue)
    ahead = min(neighbours(yue.pos), key=to_foot)
    behind = max(neighbours(yue.pos), key=to_foot)
    assert to_foot(ahead) < to_foot(yue.pos) < to_foot(behind)
    barring, trailing = st.formations["vanguard"], st.formations["besieging_horse"]
    barring.pos, trailing.pos = ahead, behind
    assert persona.may_strike(yue, barring)
    assert not persona.may_strike(yue, trailing)
    barring.routed = True
    assert not persona.may_strike(yue, barring)


def test_before_the_rear_guard_breaks_yue_fei_strikes_on_his_way_to_the_hill_not_away_from_it() -> None:
    """Ordered to the foot of Tang Huai's hill (the rear guard still standing), Yue Fei may strike
    from where his road takes him, but does not ride off after a besieger fleeing the other way:
    following one to the far end of the field, he came back to the hill after the turns ran out."""
    eng = engine()
    st = eng.state
    yue = st.formations["yue_fei_riders"]
    foot = eng.board.regions["hill_foot"]
    persona = General(eng, "zhenguo").persona
    assert "rear_broken" not in st.fired_events and persona.held_region(yue.id) == foot
    assert not persona.marching(yue) and yue.pos not in foot

    def to_foot(h: Hex) -> int:
        return min(distance(h, f) for f in foot)

    allowed = persona.allowed_hexes(yue)
    assert allowed is not None
    around = [h for h in eng.board.terrain if 0 < distance(h, yue.pos) <= 3]
    assert {h for h in around if to_foot(h) <= to_foot(yue.pos)} <= allowed
    assert not any(to_foot(h) > to_foot(yue.pos) for h in allowed)


REAR_GUARD = ("rear_guard_1", "rear_guard_2", "rear_guard_3")


def _rout(eng: Engine, unit: str) -> None:
    eng.state.formations[unit].routed = True
    eng.state.formations[unit].men -= 1  # a formation breaks after losing men in the fighting
    triggers.after_action(eng, [Routed(unit=unit, side="jin")])


def test_a_rear_guard_formation_that_broke_and_rallied_has_been_broken_all_the_same() -> None:
    """Each formation of the rear guard counts as broken from the moment it breaks: the three need
    not all be routed at one moment, so one that rallies afterwards (or scatters out of sight, as
    an opponent that will not stand lets it) is not to be broken again."""
    eng = engine()
    _rout(eng, REAR_GUARD[0])
    eng.state.formations[REAR_GUARD[0]].routed = False  # it rallies
    _rout(eng, REAR_GUARD[1])
    assert "rear_broken" not in eng.state.fired_events
    assert eng.state.objectives["break_rear"] == "open"
    _rout(eng, REAR_GUARD[2])
    assert "rear_broken" in eng.state.fired_events
    assert eng.state.objectives["break_rear"] == "done"


def test_a_rear_guard_formation_breaking_notes_the_moment_and_changes_nothing_else() -> None:
    """The markers for each formation's breaking do nothing of their own: once the rear guard is
    broken, a formation of it that rallies and breaks again does not reopen the objective."""
    eng = engine()
    markers = [spec for spec in eng.scenario.events if spec.id in ("rear_1_broken", "rear_2_broken", "rear_3_broken")]
    assert len(markers) == 3 and all(spec.actions == () for spec in markers)
    for unit in REAR_GUARD:
        _rout(eng, unit)
    assert eng.state.objectives["break_rear"] == "done"
    eng.state.formations[REAR_GUARD[0]].routed = False
    _rout(eng, REAR_GUARD[0])
    assert eng.state.objectives["break_rear"] == "done"


def test_once_tang_huai_is_relieved_yue_fei_rides_on_at_every_level() -> None:
    """The foot of the hill holds Yue Fei only until Tang Huai is relieved: after that he is free
    to run down what is left of the rear guard at every level, not only the hard one."""
    eng = engine()
    st = eng.state
    for level in ("easy", "normal", "hard"):
        persona = General(eng, "zhenguo", difficulty=level).persona
        assert persona.held_region("yue_fei_riders") == eng.board.regions["hill_foot"]
        st.fired_events.append("tang_relieved")
        assert persona.held_region("yue_fei_riders") is None
        st.fired_events.remove("tang_relieved")


def test_a_rear_guard_formation_lost_from_sight_is_searched_for_at_once() -> None:
    """Against an opponent that scatters instead of standing, the last formation of the rear guard
    wanders off out of sight: Guo Yaoshi goes looking for it at once, from where it was last seen,
    rather than when the march alone still fits in the turns left. Tang Huai keeps his hill."""
    eng = engine()
    general = General(eng, "zhenguo", difficulty="normal")
    persona = general.persona
    slack = general.style.pursuit_slack
    guo, tang = eng.state.formations["guo_yaoshi_riders"], eng.state.formations["tang_huai_bows"]
    straggler = eng.state.formations[REAR_GUARD[0]]
    persona.observe(eng.state, [])
    assert persona.pursuit_slack(guo, slack) == slack  # never seen: nothing lost yet
    persona.observe(eng.state, [straggler])
    assert persona.pursuit_slack(guo, slack) == slack  # in sight: fought as it comes
    persona.observe(eng.state, [])
    assert persona.pursuit_slack(guo, slack) > eng.scenario.turn_limit
    assert persona.pursuit_slack(tang, slack) == slack
    # Found again, it is still pursued at once, not left for a fight nearer at hand until it is
    # lost again (riders turning back and forth let it wander the field to the end).
    persona.observe(eng.state, [straggler])
    assert persona.pursuit_slack(guo, slack) > eng.scenario.turn_limit
    # On the first turn the march to the rear guard fits many times over in the turns left: only
    # the search makes it pressing.
    enemies = [e for e in eng.state.formations.values() if e.side == "jin" and e.id != straggler.id]
    assert general.objectives.destination(eng, guo, enemies, slack) is None
    assert general.objectives.destination(eng, guo, enemies, persona.pursuit_slack(guo, slack)) is not None


def at_dusk(relieved: bool = True) -> Engine:
    """The Zhenguo's last turn: two formations of the rear guard broken (and rallied), the first
    still unbroken where it started, across the road; Tang Huai relieved, if asked."""
    eng = engine()
    for unit in REAR_GUARD[1:]:
        _rout(eng, unit)
        eng.state.formations[unit].routed = False
    if relieved:
        eng.state.fired_events += ["relief_arrives", "tang_relieved"]
        eng.state.objectives["relieve_tang"] = "done"
    end_turns_until(eng, 14, "zhenguo")
    assert not eng.state.over
    return eng


def test_a_rear_guard_wandered_off_the_road_at_nightfall_gives_the_zhenguo_the_battle() -> None:
    """An opponent that lets its rear guard wander off instead of standing cannot win by waiting
    out the turns: with Tang Huai relieved and no unbroken formation of the rear guard left across
    the eastern road as the Jin's last turn begins, the road is given up. A formation that broke
    earlier and rallied there does not count (it has been broken already)."""
    eng = at_dusk()
    stand_in(eng, REAR_GUARD[0], "muster")
    stand_in(eng, REAR_GUARD[1], "across_the_road")
    assert "rear_broken" not in eng.state.fired_events
    events = eng.apply(EndTurn())  # the Jin's last turn begins
    assert eng.state.over and eng.state.winner == "zhenguo"
    assert "rear_left_the_road" in eng.state.fired_events
    assert eng.state.objectives["break_rear"] == "done"
    assert any(isinstance(e, Narration) and e.speaker == "yue_fei" and e.text.startswith("Dusk,") for e in events)


def test_a_rear_guard_formation_in_order_across_the_road_at_nightfall_holds_it_to_the_turn_limit() -> None:
    eng = at_dusk()
    assert eng.state.formations[REAR_GUARD[0]].pos in eng.board.regions["across_the_road"]
    eng.apply(EndTurn())
    assert "rear_1_holds" in eng.state.fired_events and not eng.state.over
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "jin"
    assert "rear_left_the_road" not in eng.state.fired_events


def test_a_routed_rear_guard_formation_across_the_road_holds_nothing() -> None:
    eng = at_dusk()
    stand_in(eng, REAR_GUARD[0], "across_the_road", routed=True)
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "zhenguo"


def test_without_tang_huai_relieved_a_rear_guard_off_the_road_wins_the_zhenguo_nothing() -> None:
    eng = at_dusk(relieved=False)
    stand_in(eng, REAR_GUARD[0], "muster")
    eng.apply(EndTurn())
    assert not eng.state.over
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "jin"


def test_the_zhenguo_are_warned_of_nightfall_on_the_road_as_their_last_turn_begins() -> None:
    for relieved in (True, False):
        eng = engine()
        if relieved:
            eng.state.fired_events += ["relief_arrives", "tang_relieved"]
        events = end_turns_until(eng, 14, "zhenguo")
        warned = [e for e in events if isinstance(e, Narration) and e.text.startswith("The light is going.")]
        assert len(warned) == relieved and all(e.speaker == "yue_fei" for e in warned)


def test_the_general_clears_the_road_only_of_rear_guard_formations_that_have_not_broken() -> None:
    """What keeps the road given up is a formation still unbroken across it; one that broke
    earlier can no longer hold it, so the general is not sent back to break it again."""
    eng = at_dusk()
    general = General(eng, "zhenguo", difficulty="normal")
    cleared = {u for aim in general.objectives.aims(eng.state) if aim.kind == "clear" for u in aim.units}
    assert cleared == {REAR_GUARD[0]}
    assert all(aim.region == "across_the_road" for aim in general.objectives.aims(eng.state) if aim.kind == "clear")
