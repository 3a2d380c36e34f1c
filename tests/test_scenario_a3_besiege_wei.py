"""A3, besiege Wei to save Zhao: the raid on Datong turns Wanyan Liang back, and the battle is
won by breaking both the thirty thousand and the host."""

from __future__ import annotations

from pathlib import Path

from game.ai.general import General
from game.ai.hailing import Hailing
from game.content.errors import ContentErrors
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario, load_scenario_file
from game.core import triggers
from game.core.actions import EndTurn
from game.core.engine import Engine
from game.core.events import Destroyed, Event, Narration, Routed
from game.core.hexgrid import Hex
from game.core.scenario_events import Narrate
from game.paths import MAPS_DIR, TILES_DIR

A3 = "a3_besiege_wei"
AMBUSH = ("ambush_1", "ambush_2", "ambush_3")
HOST = ("host_levy_1", "host_levy_2", "host_levy_3", "host_levy_4", "host_levy_5")


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


def test_the_host_turns_back_only_when_riders_are_seen_at_the_palace() -> None:
    calm = new_engine()
    far = hailing_general(calm)
    assert isinstance(far.persona, Hailing)
    assert far.persona.threatening == frozenset()
    assert far.persona.may_strike(calm.state.formations["host_levy_1"], calm.state.formations["han_xin_5000"])

    eng = new_engine()
    eng.state.formations["xiang_yu_500"].pos = at(eng, 7, 15)  # before the gates, in the guard's sight
    near = hailing_general(eng)
    assert isinstance(near.persona, Hailing)
    assert near.persona.threatening == frozenset({"xiang_yu_500"})
    state = eng.state
    levy, xiang_yu = state.formations["host_levy_1"], state.formations["xiang_yu_500"]
    # Every formation of the host now marches on the raiders and strikes no one else.
    assert not near.persona.may_strike(levy, state.formations["han_xin_5000"])
    assert near.persona.may_strike(levy, xiang_yu)
    assert near.persona.destination(levy, [], frozenset()) == (frozenset([xiang_yu.pos]), None)


def test_the_hegemon_king_before_datong_raises_the_alarm_after_liangs_boast() -> None:
    eng = new_engine()
    eng.state.formations["xiang_yu_500"].pos = at(eng, 9, 18)  # in sight of the palace
    # Seen before Wanyan Liang has even made his boast: the alarm waits for it.
    assert triggers.after_action(eng, []) == [] and "palace_alarm" not in eng.state.fired_events
    events = eng.apply(EndTurn())  # Wanyan Liang's turn 1: the boast, then the alarm
    fired = eng.state.fired_events
    assert fired.index("liang_boasts") < fired.index("palace_threatened") < fired.index("palace_alarm")
    told = [(e.speaker, e.text) for e in events if isinstance(e, Narration)]
    assert [who for who, _text in told] == ["wanyan_liang", "xiang_yu", "wanyan_liang", "han_xin"]
    assert told[0][1].startswith("They have crawled into the pass")
    # He waits outside the city: the threat is what turns the host back.
    assert "outside your city" in told[1][1]
    assert eng.state.objectives["threaten_palace"] == "done" and not eng.state.over


def test_the_host_turns_about_on_the_guards_alarm_though_it_never_saw_the_raiders() -> None:
    eng = new_engine()
    eng.state.fired_events += ["liang_boasts", "palace_alarm"]
    general = hailing_general(eng)
    assert isinstance(general.persona, Hailing)
    assert general.persona.threatening == frozenset() and general.persona.alarmed()
    state = eng.state
    levy = state.formations["host_levy_1"]
    palace = eng.board.regions["palace_sight"]
    assert general.persona.destination(levy, [], frozenset()) == (palace, None)
    assert not general.persona.may_strike(levy, state.formations["han_xin_5000"])
    # The palace guard keeps its post.
    assert not general.persona.homeward(state.formations["palace_guard"])


def test_nobody_says_lord_xinling_besieged_wei() -> None:
    toml = (MAPS_DIR / f"{A3}.toml").read_text(encoding="utf-8")
    assert "Sun Bin" in toml and "tiger tally" in toml
    assert "Lord Xinling saved Zhao by marching on Wei" not in toml
    assert "as it was in my day" not in toml


def rout(eng: Engine, units: tuple[str, ...]) -> list[Event]:
    for u in units:
        eng.state.formations[u].routed = True
    return triggers.after_action(eng, [Routed(unit=u, side="hailing") for u in units])


def test_breaking_the_thirty_thousand_and_the_host_wins() -> None:
    eng = new_engine()
    rout(eng, AMBUSH[:2])
    assert eng.state.objectives["destroy_ambush"] == "open"  # one formation still stands
    rout(eng, AMBUSH[2:])
    assert eng.state.objectives["destroy_ambush"] == "done" and not eng.state.over
    rout(eng, HOST)
    assert eng.state.objectives["break_host"] == "done"
    assert eng.state.over and eng.state.winner == "coalition"


def test_losing_han_xin_loses_the_battle_but_losing_the_retainers_does_not() -> None:
    eng = new_engine()
    f = eng.state.formations.pop("cao_zhi_2000")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert not eng.state.over
    f = eng.state.formations.pop("han_xin_5000")
    triggers.after_action(eng, [Destroyed(unit=f.id, side=f.side, at=f.pos)])
    assert eng.state.over and eng.state.winner == "hailing"
    assert eng.state.objectives["break_host"] == "failed"


def test_validation_names_an_unknown_palace_region(tmp_path: Path) -> None:
    toml = (MAPS_DIR / f"{A3}.toml").read_text(encoding="utf-8")
    assert toml.count('palace_region = "palace_sight"') == 1
    (tmp_path / f"{A3}.toml").write_text(toml.replace('palace_region = "palace_sight"', 'palace_region = "xijing"'))
    tmx = (MAPS_DIR / f"{A3}.tmx").read_text(encoding="utf-8")
    tmx = tmx.replace('source="../assets/tiles/terrain.tsx"', f'source="{(TILES_DIR / "terrain.tsx").as_posix()}"')
    (tmp_path / f"{A3}.tmx").write_text(tmx, encoding="utf-8")
    try:
        load_scenario_file(tmp_path / f"{A3}.toml", load_ruleset())
    except ContentErrors as exc:
        assert [(e.object, e.field, e.message) for e in exc.errors] == [
            (A3, "ai.palace_region", "unknown region 'xijing'")
        ]
    else:
        raise AssertionError("a scenario naming an unknown palace region was accepted")


def test_posts_follow_the_story_for_every_general() -> None:
    """The five thousand wait just behind the line until the alarm, are loosed for the charge,
    then march back to the pass mouth; the Hegemon-King shows himself, then waits outside the city.
    A normal general keeps these ``until_all`` posts as a hard one does."""
    eng = new_engine()
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    general = General(eng, "coalition")
    persona = general.persona
    regions = eng.board.regions
    han = eng.state.formations["han_xin_5000"]
    assert persona.held_region("han_xin_5000") == regions["behind_the_line"]
    assert persona.held_region("xiang_yu_500") == regions["palace_sight"]
    eng.state.fired_events += ["palace_threatened", "palace_alarm"]
    assert persona.held_region("han_xin_5000") is None
    assert persona.held_region("xiang_yu_500") == regions["waiting_ground"]
    eng.state.fired_events.append("lane_opened")
    han.pos = at(eng, 42, 15)
    assert persona.held_region("han_xin_5000") == regions["pass_mouth"] and persona.marching(han)
    assert not persona.may_strike(han, eng.state.formations["host_levy_1"])  # on the march back
    han.pos = at(eng, 48, 16)
    assert not persona.marching(han)


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
    lane = next(e for e in eng.scenario.events if e.id == "lane_opened")
    said = [a.text for a in lane.actions if isinstance(a, Narrate)]
    assert said and "Liu Bosheng" in said[0] and "Lord Xinling" in said[0]  # the order goes to the wings
    texts = [eng.scenario.briefing, eng.scenario.debriefing_victory]
    assert not [t for t in texts if "valley mouth" in t and "fifty thousand" in t]
