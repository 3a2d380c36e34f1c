"""How a duel is decided is the scenario's data (its ``[duel]`` table): the margin of scores that
trades blows and the margin of blows that wounds both. A scenario without the table, and every
record made before its scenario set one, keeps the game's own rule; B3 fights the duel as the
chronicle tells it, so that both war gods usually fall."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from conftest import ai_engine, replace_once

from game.content.bundle import unpack
from game.content.errors import ContentErrors
from game.content.scenarios import load_scenario, load_scenario_file, scenario_ids
from game.core import duel
from game.core.actions import AnswerDuel, Challenge, EndTurn
from game.core.engine import Engine
from game.core.events import DuelFought, Narration
from game.core.hexgrid import neighbours
from game.core.scenario import DuelRules
from game.record.saves import load_record
from game.record.verify import verify

B3 = "b3_tangut_border"
CORPUS = Path(__file__).parent / "saves_corpus"


def test_the_games_own_rule_is_the_default_and_every_other_scenario_keeps_it() -> None:
    assert (duel.CLASH, duel.CLOSE) == (8, 1) and DuelRules() == duel.GAME_RULES
    for sid in scenario_ids():
        if sid != B3:
            assert load_scenario(sid).scenario.duel == DuelRules(), sid
    assert load_scenario(B3).scenario.duel == DuelRules(clash=14, close=1, fought_out=True)


def test_the_margins_that_decide_a_fight_are_the_rules_given() -> None:
    wide = DuelRules(clash=14, close=2)
    assert duel.round_winner(110, 100) == 1 and duel.round_winner(110, 100, wide) == 0
    assert duel.round_winner(100, 114, wide) == -1
    assert duel.ending(4, 2) == 0 and duel.ending(4, 2, wide) == 1
    assert duel.ending(1, 4) == 2 and duel.ending(2, 4, wide) == 1 and duel.ending(3, 3, wide) is None
    # The odds follow the rule they are given: a wider clash and margin wound both more often.
    assert duel.duel_odds(100, 95, duel_rules=wide)[1] > duel.duel_odds(100, 95)[1] + 0.3


def test_b3s_duel_usually_wounds_both_but_the_field_still_tips_it() -> None:
    rule = load_scenario(B3).scenario.duel
    even = duel.duel_odds(100, 95, duel_rules=rule)  # Yue Fei against Wuzhu, nobody near
    game_rule = duel.duel_odds(100, 95)
    assert even[1] > 0.6 and game_rule[1] < 0.5
    # Wuzhu pressed on by two friends while Yue Fei's riders are worn out: Wuzhu is the likelier
    # of the two to come out of it alone, so the battle is not decided before it is fought.
    pressed = duel.duel_odds(100, 95, -5, 2 * duel.SUPPORT, duel_rules=rule)
    assert pressed[2] > 0.2 and pressed[2] > 2 * pressed[0]


def _b3_at(rule: DuelRules, blows: tuple[int, int]) -> tuple[Engine, list[DuelFought]]:
    """B3 with ``rule``, Yue Fei and Wuzhu face to face in a duel with ``blows`` landed, and
    the Jin pressing the next exchange."""
    loaded = load_scenario(B3)
    eng = ai_engine(dataclasses.replace(loaded.scenario, duel=rule))
    st = eng.state
    yue, guards = st.formations["yue_fei_riders"], st.formations["wuzhu_guards"]
    occupied = st.occupancy()
    guards.pos = next(h for h in sorted(neighbours(yue.pos)) if h in eng.board and h not in occupied)
    eng.apply(Challenge(unit="yue_fei_riders", target="wuzhu_guards"))
    eng.apply(AnswerDuel(accept=True))
    duel._mark(st, yue, blows[0])
    duel._mark(st, guards, blows[1])
    eng.apply(EndTurn())
    events = eng.apply(Challenge(unit="wuzhu_guards", target="yue_fei_riders"))
    return eng, [e for e in events if isinstance(e, DuelFought)]


@pytest.mark.parametrize(("close", "wounded"), [(1, {"wanyan_wuzhu"}), (2, {"wanyan_wuzhu", "yue_fei"})])
def test_the_engine_fights_by_the_scenarios_rule(close: int, wounded: set[str]) -> None:
    """Every exchange trades blows (scores never 80 apart): from three blows to one, the next
    ends it four to two, which wounds only Wuzhu by a margin of one, and both by a margin of two."""
    _eng, [fought] = _b3_at(DuelRules(clash=80, close=close), (3, 1))
    assert fought.tally == (2, 4) and not fought.goes_on
    assert set(fought.wounded) == wounded


def test_the_shown_odds_are_the_battles_own() -> None:
    eng, _ = _b3_at(DuelRules(clash=80, close=2), (1, 1))
    st = eng.state
    yue, guards = st.formations["yue_fei_riders"], st.formations["wuzhu_guards"]
    # Blow for blow from two to two: whoever lands the fourth, both fall.
    assert duel.current_odds(eng, yue, guards) == (0.0, 1.0, 0.0)


def _at_the_last_turns_end(rule: DuelRules) -> Engine:
    """B3 with ``rule`` on its last turn, the duel under way at one blow each, the Jin's turn
    about to end."""
    eng, _ = _b3_at(rule, (0, 0))  # the Jin have just pressed an exchange
    st = eng.state
    st.turn = st.turn_limit
    st.fired_events.append("guo_arrives")  # Guo Yaoshi's riders are long up
    st.objectives["hold_out"] = "done"
    while st.active_side.id != "tangut":
        eng.apply(EndTurn())
    assert duel.in_duel(st.formations["yue_fei_riders"]) and not st.over
    return eng


def test_a_duel_under_way_at_the_last_turns_end_is_fought_out_where_the_scenario_says_so() -> None:
    """B3 fights the war gods' duel to its end: at dusk on the last turn the exchanges go on, one
    hero pressing after the other, until a hero falls, and the battle ends as that fall decides
    it rather than by the turn limit. By the game's own rule the turn limit decides it half fought."""
    rule = load_scenario(B3).scenario.duel
    for seed_rule, fought_out in ((rule, True), (rule.model_copy(update={"fought_out": False}), False)):
        eng = _at_the_last_turns_end(seed_rule)
        events = eng.apply(EndTurn())
        st = eng.state
        fought = [e for e in events if isinstance(e, DuelFought)]
        assert st.over
        if fought_out:
            assert fought and not fought[-1].goes_on and fought[-1].wounded
            assert any(isinstance(e, Narration) and e.text == duel.DUSK for e in events)
            assert st.end_reason != "turn_limit" and set(fought[-1].wounded) <= set(st.wounded_heroes)
            assert [e.challenger for e in fought[:2]] == ["yue_fei_riders", "wuzhu_guards"]  # in turn
        else:
            assert not fought and st.end_reason == "turn_limit" and st.winner == "jin"


def test_a_duel_fought_out_at_dusk_replays_exactly() -> None:
    """The exchanges at dusk roll on the last action's own stream, one draw after another: the
    same game gives the same ending, and no two exchanges repeat each other's dice."""
    rule = load_scenario(B3).scenario.duel
    endings = []
    for _ in range(2):
        eng = _at_the_last_turns_end(rule)
        fought = [e for e in eng.apply(EndTurn()) if isinstance(e, DuelFought)]
        endings.append([e.rounds for e in fought])
    assert endings[0] == endings[1]
    rounds = [r for exchange in endings[0] for r in exchange]
    assert len(rounds) < 2 or len(set(rounds)) > 1


def test_an_old_b3_record_replays_by_the_rule_it_was_played_by() -> None:
    """A B3 save made before the scenario set its rule carries the scenario file without the
    table: it is played by the game's own rule and verifies; played by the chronicle's rule, its
    duel would have gone otherwise."""
    record = load_record(CORPUS / "v5" / "b3_finished.json")
    assert record.content is not None
    carried = unpack(record.content)
    assert carried.scenario.duel == DuelRules()
    assert verify(record, carried).ok
    storied = dataclasses.replace(carried, scenario=dataclasses.replace(carried.scenario, duel=DuelRules(clash=14)))
    assert not verify(record, storied).ok


def test_a_bad_duel_rule_is_a_content_error_naming_the_field(tmp_path: Path) -> None:
    from game.paths import MAPS_DIR, TILES_DIR

    toml = tmp_path / f"{B3}.toml"
    toml.write_text((MAPS_DIR / f"{B3}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    tmx = (MAPS_DIR / f"{B3}.tmx").read_text(encoding="utf-8")
    tmx = tmx.replace('source="../assets/tiles/terrain.tsx"', f'source="{(TILES_DIR / "terrain.tsx").as_posix()}"')
    (tmp_path / f"{B3}.tmx").write_text(tmx, encoding="utf-8")
    assert load_scenario_file(toml).scenario.duel.clash == 14
    replace_once(toml, "clash = 14", "clash = 14\nclose = 4")
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(toml)
    [err] = exc.value.errors
    assert (Path(err.file).name, err.field) == (f"{B3}.toml", "duel.close")
