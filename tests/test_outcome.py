"""How a battle ended, in words, and what it cost each side (game.view): every kind of ending on
the shipped scenarios, a save loaded already finished, and the figures of the summary."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ai_engine, end_turns_until

from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario
from game.core import triggers
from game.core.actions import Attack, EndTurn
from game.core.duel import wound_hero
from game.core.engine import Engine, GameSettings
from game.core.hexgrid import neighbours
from game.record.match import match_from_record
from game.record.saves import load_record
from game.view.outcome import Headline, debriefing, decide, headline, headline_text, reason_text
from game.view.summary import summarise, took_part

pytestmark = pytest.mark.usefixtures("english")

# A finished B3 battle, saved with the content it was played with (so it loads whatever changes).
CORPUS_B3 = Path(__file__).parent / "saves_corpus" / "v3" / "b3_finished.json"


def engine(scenario_id: str, seed: int = 1, max_turns: int | None = None, outcome: str | None = None) -> Engine:
    scenario = load_scenario(scenario_id).scenario
    if outcome is not None:  # the same battle under another rule for the last turn
        scenario = dataclasses.replace(scenario, turn_limit_outcome=outcome)
    if max_turns is None:
        return ai_engine(scenario, seed)
    settings = GameSettings(max_turns=max_turns)
    return Engine(scenario, load_ruleset(), seed, settings)


def reason(eng: Engine) -> str:
    return reason_text(decide(eng.scenario, eng.state), eng.scenario, eng.rules, eng.state)


def strike_down(eng: Engine, attacker: str, target: str) -> None:
    """``attacker`` rides up beside ``target``, cut down to its last man, and finishes it."""
    victim = eng.state.formations[target]
    victim.men = 1
    horse = eng.state.formations[attacker]
    free = (h for h in neighbours(victim.pos) if h in eng.board and eng.state.formation_at(h) is None)
    horse.pos = next(h for h in free if eng.board.terrain[h].id != "mountain")
    eng.apply(Attack(unit=attacker, target=target))


# -- a scenario event ------------------------------------------------------------------------------


def test_a_victory_by_objectives_names_the_turn_the_objectives_and_the_words_spoken() -> None:
    eng = engine("b3_tangut_border")
    wuzhu = next(f for f in eng.state.formations.values() if f.hero == "wanyan_wuzhu")
    triggers.after_action(eng, wound_hero(eng, wuzhu, -25, -10, 3, "test"))
    end_turns_until(eng, 5, "zhenguo")
    assert eng.state.over and eng.state.winner == "zhenguo"

    outcome = decide(eng.scenario, eng.state)
    assert outcome.ending == "event" and outcome.turn == 5
    assert outcome.event is not None and outcome.event.spec.id == "field_won"
    assert (outcome.event.verdict, outcome.event.side) == ("victory", "zhenguo")
    assert [(o.id, status) for o, status in outcome.event.objectives] == [("hold_out", "done"), ("wound_wuzhu", "done")]
    assert outcome.event.narration is not None and outcome.event.narration.speaker == "yue_fei"
    assert reason(eng) == "Turn 5: the Zhenguo Army achieves its objectives."
    assert debriefing(eng.scenario, eng.state) == eng.scenario.debriefing_victory


def test_a_defeat_event_names_the_formation_lost_and_its_turn() -> None:
    eng = engine("b1_the_valley", seed=5)
    end_turns_until(eng, 3, "jin")
    strike_down(eng, "besieging_horse", "tang_huai_bows")
    assert eng.state.over and eng.state.winner == "jin"

    outcome = decide(eng.scenario, eng.state)
    assert outcome.event is not None and outcome.event.spec.id == "tang_lost"
    assert (outcome.event.verdict, outcome.event.side) == ("defeat", "zhenguo")
    assert [(o.id, status) for o, status in outcome.event.objectives] == [("relieve_tang", "failed")]
    assert reason(eng) == "Turn 3: Tang Huai · Bows and crossbows is destroyed."
    # The player side lost: the defeat text, whoever played which side.
    assert debriefing(eng.scenario, eng.state) == eng.scenario.debriefing_defeat


def test_a_host_reaching_its_goal_unopposed_is_named() -> None:
    eng = engine("a1_valley_mouth")
    mouth = eng.board.regions["valley_mouth"]
    xiang_yu = eng.state.formations["xiang_yu_500"]
    xiang_yu.pos = next(h for h in eng.board.terrain if h not in mouth and eng.state.formation_at(h) is None)
    riders = eng.state.formations["liang_riders_1"]
    riders.pos = next(h for h in sorted(mouth) if eng.state.formation_at(h) is None)
    eng.apply(EndTurn())
    assert eng.state.over and eng.state.winner == "hailing"
    assert decide(eng.scenario, eng.state).event.spec.id == "trap_relieved"  # type: ignore[union-attr]
    assert reason(eng) == "Turn 1: Soul riders 1 breaks through to its goal unopposed."


def test_a_wounded_hero_and_a_full_pouch_are_named() -> None:
    wounded = engine("b1_the_valley", seed=5)
    tang = wounded.state.formations["tang_huai_bows"]
    triggers.after_action(wounded, wound_hero(wounded, tang, -25, -10, 3, "test"))
    assert decide(wounded.scenario, wounded.state).event.spec.id == "tang_wounded"  # type: ignore[union-attr]
    assert reason(wounded) == "Turn 1: Tang Huai is wounded and carried from the field."

    # The Annihilation is won by the pouch and the broken host together.
    bagged = engine("a4_annihilation")
    bagged.state.side("coalition").pouch = 20_250
    triggers.after_action(bagged, [])
    assert not bagged.state.over
    for fid in ("host_1", "host_2", "host_3", "host_4", "host_5", "host_6", "riders_1", "riders_2"):
        bagged.state.formations[fid].routed = True
    triggers.after_action(bagged, [])
    assert bagged.state.over and bagged.state.winner == "coalition"
    outcome = decide(bagged.scenario, bagged.state)
    assert outcome.event is not None and outcome.event.spec.id == "annihilated"
    # Of the two speakers, the last words are Han Xin's.
    assert outcome.event.narration is not None and outcome.event.narration.speaker == "han_xin"
    assert reason(bagged) == "Turn 1: the Yuqing Palace coalition achieves its objectives."


# -- annihilation and the last turn ----------------------------------------------------------------


def test_annihilation_names_the_side_wiped_out() -> None:
    eng = engine("a1_valley_mouth")
    for fid in [f.id for f in eng.state.formations.values() if f.side == "hailing" and f.id != "trapped_1"]:
        del eng.state.formations[fid]
    strike_down(eng, "xiang_yu_500", "trapped_1")
    assert eng.state.over and eng.state.end_reason == "annihilation"

    outcome = decide(eng.scenario, eng.state)
    assert (outcome.ending, outcome.winner, outcome.beaten) == ("annihilation", "coalition", ("hailing",))
    assert outcome.event is None
    assert reason(eng) == "Turn 1: the Hailing soul-host has no formations left on the field."


def test_the_last_turn_under_each_rule() -> None:
    # Attrition with nothing destroyed on either side: nobody wins.
    even = engine("a1_valley_mouth", max_turns=1, outcome="attrition")
    even.apply_all([EndTurn(), EndTurn()])
    outcome = decide(even.scenario, even.state)
    assert (outcome.ending, outcome.winner, outcome.turn_limit_rule) == ("turn_limit", None, "attrition")
    assert dict(outcome.shares) == {"coalition": 0.0, "hailing": 0.0}
    assert reason(even) == "Turn 1, the last, has ended with neither side ahead in men destroyed."
    assert headline_text(even.state, even.scenario, ["coalition"]) == "A draw"

    # A scenario that gives the field to one side when time runs out.
    held = engine("b1_the_valley", max_turns=1)
    held.apply_all([EndTurn(), EndTurn()])
    assert decide(held.scenario, held.state).beaten == ("zhenguo",)
    assert reason(held) == "Turn 1, the last, has ended before the Zhenguo Army could win the field."


# -- whose victory -------------------------------------------------------------------------------


def test_the_headline_is_the_one_human_players_or_names_the_winner() -> None:
    eng = engine("b1_the_valley", seed=5)
    end_turns_until(eng, 3, "jin")
    strike_down(eng, "besieging_horse", "tang_huai_bows")
    state, scenario = eng.state, eng.scenario
    assert headline(state, ["zhenguo"]) == Headline("defeat", "zhenguo")
    assert headline_text(state, scenario, ["zhenguo"]) == "Defeat"
    assert headline_text(state, scenario, ["jin"]) == "Victory"
    # Two players at one screen, or the computer on both sides: the winner by name.
    assert headline_text(state, scenario, ["zhenguo", "jin"]) == "Victory for the Jin army"
    assert headline_text(state, scenario, []) == "Victory for the Jin army"


def test_a_finished_save_loaded_from_its_snapshot_is_told_the_same() -> None:
    record = load_record(CORPUS_B3)
    match = match_from_record(record)
    state, scenario = match.state, match.loaded.scenario
    outcome = decide(scenario, state)
    assert outcome.event is not None and outcome.event.spec.id == "yue_lost" and outcome.turn == 4
    assert reason_text(outcome, scenario, match.engine.rules, state) == (
        "Turn 4: Yue Fei · Zhenguo riders is destroyed."
    )
    assert headline_text(state, scenario, match.seats.humans()) == "Victory for the Jin army"


# -- the summary ---------------------------------------------------------------------------------


def test_the_summary_counts_men_souls_and_formations_per_side() -> None:
    eng = engine("b1_the_valley", seed=5)
    end_turns_until(eng, 3, "jin")  # five thousand Jin arrive on turn 3
    eng.state.side("zhenguo").pouch = 700
    eng.state.formations["rear_guard_1"].routed = True
    strike_down(eng, "besieging_horse", "tang_huai_bows")
    state = eng.state
    rows = {r.side: r for r in summarise(eng.scenario, eng.rules, eng.settings, state)}

    jin, zhenguo = rows["jin"], rows["zhenguo"]
    assert (jin.men_start, jin.men_arrived) == (14_250, 5_000)
    assert jin.men_standing == state.men_of("jin")
    assert jin.men_lost == 14_250 + 5_000 - state.men_of("jin")
    assert (zhenguo.men_arrived, zhenguo.destroyed, zhenguo.souls_bagged) == (0, 1, 700)
    assert zhenguo.men_lost == zhenguo.men_start - state.men_of("zhenguo")
    assert jin.broken == sum(1 for f in state.formations_of("jin") if f.routed) >= 1


def test_a_neutral_side_is_in_the_table_only_if_the_battle_touched_it() -> None:
    eng = engine("b3_tangut_border")
    rows = {r.side: r for r in summarise(eng.scenario, eng.rules, eng.settings, eng.state)}
    assert took_part(rows["jin"], "enemy")
    assert not took_part(rows["tangut"], "neutral")
    eng.state.formations["tangut_walls"].men -= 100
    rows = {r.side: r for r in summarise(eng.scenario, eng.rules, eng.settings, eng.state)}
    assert rows["tangut"].men_lost == 100 and took_part(rows["tangut"], "neutral")
