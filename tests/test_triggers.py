"""Scenario events and objectives, neutral sides and fortress gates: the rules, the content
checks of ``[[events]]`` tables, and the narration pop-up and objectives panel on screen."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pygame
import pytest
from conftest import Unit, frame, loaded_for, make_board, make_scenario, replace_once

from game import i18n
from game.ai.basic import BasicAI
from game.cli import main
from game.content.errors import ContentError, ContentErrors
from game.content.ruleset import load_ruleset
from game.content.scenarios import load_scenario, load_scenario_file
from game.core import triggers
from game.core.actions import Action, AnswerDuel, Attack, Challenge, EndTurn, Move, Rest
from game.core.engine import Engine, GameSettings, IllegalAction
from game.core.events import (
    Destroyed,
    Event,
    GameOver,
    GatesOpened,
    GroupReleased,
    HeroWounded,
    Narration,
    ObjectiveChanged,
    Reinforced,
    Revealed,
    Routed,
    SideJoined,
    SidesAllied,
)
from game.core.hexgrid import Hex, distance
from game.core.rules import Ruleset
from game.core.scenario import ObjectiveSpec, SideSpec
from game.core.scenario_events import EventSpec
from game.core.sides import are_allied, are_enemies
from game.core.state import state_hash
from game.record.match import Match
from game.ui.app import App
from game.ui.battle import BattleScene
from game.ui.computer_turns import AI_STEP_DELAY
from game.ui.hud import GOOD

FIELD = ("........",) * 6  # 8 x 6 hexes of open plain
# A walled town in the middle of the plain: F is fortress terrain.
FORT_FIELD = (
    "........",
    "...FF...",
    "...FF...",
    "........",
)
A1 = "a1_valley_mouth"


def sides_of(*specs: tuple[str, str, str], **options: dict[str, Any]) -> list[SideSpec]:
    """SideSpecs from (id, faction, role); ``options[id]`` adds allies, held groups, gates."""
    return [SideSpec(id=s, faction=f, role=r, name=s, **options.get(s, {})) for s, f, r in specs]


TWO = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"))


def build(
    rules: Ruleset,
    grid: Sequence[str],
    units: Sequence[Unit],
    *,
    events: Sequence[dict[str, Any]] = (),
    objectives: Sequence[dict[str, Any]] = (),
    regions: dict[str, Sequence[tuple[int, int]]] | None = None,
    sides: Sequence[SideSpec] = TWO,
    extra: dict[str, dict[str, Any]] | None = None,
    turn_limit: int = 10,
    seed: int = 7,
    ruleset: Ruleset | None = None,
) -> Engine:
    """An engine on a small grid with scenario events; regions and ``Unit.at`` are offsets,
    ``extra[unit id]`` sets FormationSpec fields such as ``group`` and ``hidden``."""
    plain = make_scenario(rules, grid, units, sides=[(s.id, s.faction, s.role) for s in sides], turn_limit=turn_limit)
    offsets = plain.board
    board = make_board(
        rules, grid, {name: frozenset(offsets.at_offset(*o) for o in hexes) for name, hexes in (regions or {}).items()}
    )
    formations = tuple(f.model_copy(update=(extra or {}).get(f.id, {})) for f in plain.formations)
    scenario = dataclasses.replace(
        plain,
        board=board,
        sides=tuple(sides),
        formations=formations,
        events=tuple(EventSpec.model_validate(e) for e in events),
        objective_specs=tuple(ObjectiveSpec.model_validate(o) for o in objectives),
    )
    return Engine(scenario, ruleset or rules, seed, GameSettings())


def narrate(text: str) -> dict[str, str]:
    return {"kind": "narrate", "text": text}


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if isinstance(e, Narration)]


def at(engine: Engine, col: int, row: int) -> Hex:
    return engine.board.at_offset(col, row)


def conserved(engine: Engine) -> bool:
    return engine.state.men_ever() == engine.state.men_accounted()


def play_ai_side_turn(engine: Engine) -> list[Action]:
    """Let the active side's basic AI play its whole turn; every action must be legal."""
    ai = BasicAI(engine, engine.state.active_side.id)
    actions: list[Action] = []
    for _ in range(200):
        action = ai.next_action()
        engine.apply(action)  # raises if the AI tried anything illegal
        actions.append(action)
        if isinstance(action, EndTurn) or engine.state.over:
            return actions
    raise AssertionError("the AI never ended its turn")


# -- triggers ----------------------------------------------------------------------------------


def test_turn_events_fire_at_the_start_of_that_turn_and_only_once(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (0, 0)), Unit("b1", "b", "soul_levy", 1000, (7, 5))],
        events=[
            {"id": "dawn", "when": {"kind": "turn", "turn": 2}, "do": [narrate("dawn")]},
            {"id": "b_first", "when": {"kind": "turn", "turn": 1, "side": "b"}, "do": [narrate("b1")]},
            {"id": "b_third", "when": {"kind": "turn", "turn": 3, "side": "b"}, "do": [narrate("b3")]},
        ],
    )
    said = [texts(eng.apply(EndTurn())) for _ in range(6)]  # a1 b1 a2 b2 a3 b3
    assert said == [["b1"], ["dawn"], [], [], ["b3"], []]
    assert eng.state.fired_events == ["b_first", "dawn", "b_third"]


def test_enters_region_fires_for_the_named_side_and_unit(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("a2", "a", "han_soldier", 1000, (0, 4)),
            Unit("b1", "b", "soul_levy", 1000, (7, 5)),
        ],
        regions={"ford": [(3, 0), (3, 1)]},
        events=[
            {
                "id": "a2_there",
                "when": {"kind": "enters_region", "region": "ford", "side": "a", "unit": "a2"},
                "do": [narrate("a2")],
            },
            {"id": "b_there", "when": {"kind": "enters_region", "region": "ford", "side": "b"}, "do": [narrate("b")]},
            {"id": "a_there", "when": {"kind": "enters_region", "region": "ford", "side": "a"}, "do": [narrate("a")]},
        ],
    )
    assert texts(eng.apply(Move(unit="a1", to=at(eng, 2, 0)))) == []  # next to the ford, not in it
    assert texts(eng.apply(Rest(unit="a2"))) == []
    eng.state.formations["a1"].moved = False  # a second step for the test, without a new turn
    assert texts(eng.apply(Move(unit="a1", to=at(eng, 3, 0)))) == ["a"]
    assert eng.state.fired_events == ["a_there"]


def test_enters_region_unopposed_waits_until_the_enemy_has_gone(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (1, 2)), Unit("b1", "b", "soul_levy", 1000, (5, 2))],
        regions={"camp": [(4, 2), (5, 2)]},
        events=[
            {
                "id": "taken",
                "when": {"kind": "enters_region", "region": "camp", "side": "a", "unopposed": True},
                "do": [narrate("the camp is ours")],
            }
        ],
    )
    assert texts(eng.apply(Move(unit="a1", to=at(eng, 4, 2)))) == []  # b1 still holds the other hex
    eng.apply(EndTurn())
    assert texts(eng.apply(Move(unit="b1", to=at(eng, 7, 5)))) == ["the camp is ours"]


def test_enters_region_unbroken_does_not_count_a_routed_formation(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("b1", "b", "soul_levy", 1000, (4, 2)),
            Unit("b2", "b", "soul_levy", 1000, (7, 5)),
        ],
        regions={"camp": [(4, 2), (5, 2)]},
        events=[
            {
                "id": "held",
                "when": {"kind": "enters_region", "region": "camp", "side": "b", "unbroken": True},
                "do": [narrate("still in order")],
            }
        ],
    )
    eng.state.formations["b1"].routed = True
    assert texts(eng.apply(Rest(unit="a1"))) == []  # only a routed formation stands there
    eng.state.formations["b1"].routed = False
    assert texts(eng.apply(EndTurn())) == ["still in order"]


def test_an_event_during_one_sides_turns_waits_for_that_sides_turn(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (1, 2)), Unit("b1", "b", "soul_levy", 1000, (7, 5))],
        regions={"camp": [(4, 2)]},
        events=[
            {
                "id": "camp_at_b_turn",
                "when": {"kind": "enters_region", "region": "camp", "side": "a"},
                "during": "b",
                "do": [narrate("a holds the camp as b's turn begins")],
            }
        ],
    )
    assert texts(eng.apply(Move(unit="a1", to=at(eng, 4, 2)))) == []  # a's own turn: not yet
    assert texts(eng.apply(EndTurn())) == ["a holds the camp as b's turn begins"]


def routed_events(rules: Ruleset) -> Engine:
    return build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("b1", "b", "soul_levy", 1000, (7, 5)),
            Unit("b2", "b", "soul_levy", 1000, (6, 5)),
        ],
        events=[
            {"id": "one", "when": {"kind": "routed", "unit": "b1"}, "do": [narrate("one")]},
            {"id": "both", "when": {"kind": "routed", "units": ["b1", "b2"]}, "do": [narrate("both")]},
            {"id": "any_a", "when": {"kind": "routed", "side": "a"}, "do": [narrate("any_a")]},
            {"id": "gone", "when": {"kind": "destroyed", "unit": "b2"}, "do": [narrate("gone")]},
            {"id": "all_gone", "when": {"kind": "destroyed", "units": ["b1", "b2"]}, "do": [narrate("all_gone")]},
            {"id": "hero", "when": {"kind": "hero_wounded", "hero": "han_xin"}, "do": [narrate("hero")]},
        ],
    )


def test_routed_destroyed_and_hero_wounded_triggers_read_the_action_events(rules: Ruleset) -> None:
    eng = routed_events(rules)
    fs = eng.state.formations

    def check(*events: Event) -> list[str]:
        return texts(triggers.after_action(eng, list(events)))

    assert check(Routed(unit="b2", side="b")) == []  # b2 alone: neither "one" nor "both"
    fs["b2"].routed = True
    fs["b1"].routed = True
    assert check(Routed(unit="b1", side="b")) == ["one", "both"]
    assert check(Routed(unit="b1", side="b")) == []  # each fires once
    assert check(HeroWounded(hero="yue_fei", unit="a1", side="a")) == []
    assert check(HeroWounded(hero="han_xin", unit="a1", side="a")) == ["hero"]
    del fs["b1"]
    assert check(Destroyed(unit="b1", side="b", at=Hex(0, 0))) == []  # b2 is still on the field
    del fs["b2"]
    assert check(Destroyed(unit="b2", side="b", at=Hex(0, 0))) == ["gone", "all_gone"]
    assert check(Routed(unit="a1", side="a")) == ["any_a"]


def test_a_host_with_a_standing_share_is_broken_once_no_more_than_that_share_stands_in_order(rules: Ruleset) -> None:
    """``standing_at_most``: the host is broken once the men in its unrouted formations are no more
    than that share of those it took the field with, however many formations still stand."""
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("b1", "b", "soul_levy", 4000, (7, 5)),
            Unit("b2", "b", "soul_levy", 4000, (6, 5)),
            Unit("b3", "b", "soul_levy", 2000, (5, 5)),
        ],
        events=[
            {
                "id": "fifth",
                "when": {"kind": "routed", "units": ["b1", "b2", "b3"], "standing_at_most": 0.2},
                "do": [narrate("fifth")],
            },
            {"id": "whole", "when": {"kind": "routed", "units": ["b1", "b2", "b3"]}, "do": [narrate("whole")]},
        ],
    )
    fs = eng.state.formations
    fs["b1"].routed = True
    assert texts(triggers.after_action(eng, [Routed(unit="b1", side="b")])) == []  # 6,000 of 10,000 stand
    fs["b2"].routed = True
    fs["b3"].men = 2001
    assert texts(triggers.after_action(eng, [Routed(unit="b2", side="b")])) == []  # one over the fifth
    fs["b3"].men = 2000
    assert texts(triggers.after_action(eng, [])) == ["fifth"]  # b3 alone, a fifth, still in order
    fs["b3"].routed = True
    assert texts(triggers.after_action(eng, [Routed(unit="b3", side="b")])) == ["whole"]


def test_a_standing_share_needs_a_host_and_is_told_to_the_general() -> None:
    with pytest.raises(ValueError, match="standing_at_most needs units"):
        EventSpec.model_validate(
            {"id": "x", "when": {"kind": "routed", "unit": "b1", "standing_at_most": 0.2}, "do": []}
        )
    host = ["b1", "b2", "b3"]
    share = EventSpec.model_validate(
        {"id": "x", "when": {"kind": "routed", "units": host, "standing_at_most": 0.2}, "do": []}
    )
    whole = EventSpec.model_validate({"id": "y", "when": {"kind": "routed", "units": host}, "do": []})
    assert (share.when.hint().routed_together, share.when.hint().standing_share) == (tuple(host), 0.2)
    assert (whole.when.hint().routed_together, whole.when.hint().standing_share) == (tuple(host), 0.0)


def duel_refusals(rules: Ruleset) -> Engine:
    """Yue Fei next to Wuzhu and to Xiang Yu (as another enemy hero), with events for refusals."""
    return build(
        rules,
        FIELD,
        [
            Unit("a_yue", "a", "zhenguo_rider", 1000, (2, 2), hero="yue_fei"),
            Unit("a_xiang", "a", "warrior", 500, (4, 2), hero="xiang_yu"),
            Unit("b_wuzhu", "b", "personal_guard", 1000, (3, 2), hero="wanyan_wuzhu"),
        ],
        events=[
            {
                "id": "turns_from_yue",
                "when": {"kind": "duel_refused", "hero": "wanyan_wuzhu", "by": "yue_fei"},
                "do": [narrate("Wuzhu turns from Yue Fei")],
            },
            {
                "id": "turns_from_anyone",
                "when": {"kind": "duel_refused", "hero": "wanyan_wuzhu"},
                "do": [narrate("Wuzhu turns from a challenge")],
            },
            {
                "id": "third_refusal",
                "when": {"kind": "duel_refused", "hero": "wanyan_wuzhu", "times": 3},
                "do": [narrate("Wuzhu has refused three times")],
            },
        ],
    )


def test_duel_refused_fires_when_the_named_hero_refuses_the_named_challenger(rules: Ruleset) -> None:
    eng = duel_refusals(rules)
    eng.apply(Challenge(unit="a_xiang", target="b_wuzhu"))
    assert texts(eng.apply(AnswerDuel(accept=False))) == ["Wuzhu turns from a challenge"]  # not by Yue Fei
    eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    assert texts(eng.apply(AnswerDuel(accept=False))) == ["Wuzhu turns from Yue Fei"]
    assert eng.state.refusals == {"wanyan_wuzhu/xiang_yu": 1, "wanyan_wuzhu/yue_fei": 1}
    eng.state.formations["a_xiang"].acted = False  # a third challenge without a new turn, for the test
    eng.apply(Challenge(unit="a_xiang", target="b_wuzhu"))
    assert texts(eng.apply(AnswerDuel(accept=False))) == ["Wuzhu has refused three times"]
    fresh = duel_refusals(rules)
    fresh.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    accepted = fresh.apply(AnswerDuel(accept=True))
    assert texts(accepted) == [] and fresh.state.refusals == {}  # a challenge taken up is no refusal


def test_refusals_are_counted_only_where_an_event_waits_for_them(rules: Ruleset) -> None:
    """A game of a scenario without such an event keeps no count: it saves and hashes as before."""
    eng = build(
        rules,
        FIELD,
        [
            Unit("a_yue", "a", "zhenguo_rider", 1000, (2, 2), hero="yue_fei"),
            Unit("b_wuzhu", "b", "personal_guard", 1000, (3, 2), hero="wanyan_wuzhu"),
        ],
    )
    eng.apply(Challenge(unit="a_yue", target="b_wuzhu"))
    eng.apply(AnswerDuel(accept=False))
    assert eng.state.refusals == {} and "refusals" not in eng.state.model_dump(mode="json")


def test_destroyed_and_side_wiped_out_through_a_real_attack(rules: Ruleset) -> None:
    sides = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("c", "jin", "enemy"))
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 3000, (2, 2)),
            Unit("c1", "c", "soul_levy", 1, (3, 2)),
            Unit("b1", "b", "soul_levy", 1000, (7, 5)),
        ],
        sides=sides,
        events=[
            {"id": "b_gone", "when": {"kind": "side_wiped_out", "side": "b"}, "do": [narrate("b gone")]},
            {"id": "c1_gone", "when": {"kind": "destroyed", "unit": "c1"}, "do": [narrate("c1 gone")]},
            {"id": "c_gone", "when": {"kind": "side_wiped_out", "side": "c"}, "do": [narrate("c gone")]},
        ],
    )
    events = eng.apply(Attack(unit="a1", target="c1"))
    assert any(isinstance(e, Destroyed) and e.unit == "c1" for e in events)
    assert texts(events) == ["c1 gone", "c gone"]
    assert not eng.state.over and conserved(eng)


def test_a_formation_not_yet_arrived_is_not_gone(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 3000, (2, 2)),
            Unit("b1", "b", "soul_levy", 1, (3, 2)),
            Unit("b9", "b", "soul_levy", 5000, (7, 5)),
        ],
        events=[
            {
                "id": "both_gone",
                "when": {"kind": "destroyed", "units": ["b1", "b2"]},
                "do": [narrate("both gone")],
            },
            {
                "id": "both_broken",
                "when": {"kind": "routed", "units": ["b1", "b2"]},
                "do": [narrate("both broken")],
            },
            {
                "id": "b2_comes",
                "when": {"kind": "turn", "turn": 2, "side": "a"},
                "do": [
                    {
                        "kind": "reinforce",
                        "side": "b",
                        "formations": [{"id": "b2", "type": "soul_levy", "men": 1, "at": "3,2"}],
                    }
                ],
            },
        ],
    )
    events = eng.apply(Attack(unit="a1", target="b1"))
    assert any(isinstance(e, Destroyed) and e.unit == "b1" for e in events)
    assert texts(events) == []  # b2 has not taken the field yet: it is not gone
    eng.apply(EndTurn())
    eng.apply(EndTurn())
    assert "b2" in eng.state.formations and eng.state.formations["b2"].pos in neighbours_of(eng, "a1")
    events = eng.apply(Attack(unit="a1", target="b2"))
    assert texts(events) == ["both gone", "both broken"]


def neighbours_of(engine: Engine, unit: str) -> set[Hex]:
    pos = engine.state.formations[unit].pos
    return {h for h in engine.board.hexes() if distance(h, pos) == 1}


def test_souls_trigger_and_the_turn_window_and_order_conditions(rules: Ruleset) -> None:
    souls = {"kind": "souls", "side": "a", "at_least": 500}
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("a2", "a", "retainer", 100, (0, 2)),
            Unit("b1", "b", "soul_levy", 100, (7, 5)),
        ],
        events=[
            {"id": "early", "when": souls, "until_turn": 1, "do": [narrate("early")]},
            {"id": "late", "when": souls, "from_turn": 2, "do": [narrate("late")]},
            {"id": "chained", "when": souls, "after": ["late"], "do": [narrate("chained")]},
            {"id": "blocked", "when": souls, "unless": ["early"], "do": [narrate("blocked")]},
        ],
    )
    eng.state.side("a").pouch = 499
    assert texts(eng.apply(Rest(unit="a1"))) == []
    eng.state.side("a").pouch = 500
    assert texts(eng.apply(Rest(unit="a2"))) == ["early"]
    eng.apply(EndTurn())
    assert texts(eng.apply(EndTurn())) == ["late", "chained"]  # turn 2; "blocked" never fires
    assert eng.state.fired_events == ["early", "late", "chained"]


def test_an_objective_change_can_set_off_a_victory_in_the_same_action(rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (0, 0)), Unit("b1", "b", "soul_levy", 1000, (7, 5))],
        objectives=[{"id": "hold", "text": "Hold"}, {"id": "spare", "text": "Spare", "bonus": True}],
        events=[
            # Listed first, but it can only fire once "mark" has changed the objective.
            {
                "id": "win",
                "when": {"kind": "objectives_done", "done": ["hold"]},
                "do": [{"kind": "victory", "side": "a"}],
            },
            {
                "id": "mark",
                "when": {"kind": "turn", "turn": 1, "side": "b"},
                "do": [{"kind": "objective", "id": "hold", "status": "done"}],
            },
        ],
    )
    assert eng.state.objectives == {"hold": "open", "spare": "open"}
    events = eng.apply(EndTurn())
    kinds = [type(e).__name__ for e in events if isinstance(e, ObjectiveChanged | GameOver)]
    assert kinds == [ObjectiveChanged.__name__, GameOver.__name__]
    assert eng.state.objectives == {"hold": "done", "spare": "open"}
    assert eng.state.over and eng.state.winner == "a" and eng.state.end_reason == triggers.REASON_EVENT
    with pytest.raises(IllegalAction) as exc:
        eng.apply(EndTurn())
    assert exc.value.reason == "game_over"


def test_events_that_set_each_other_off_fire_once_each(rules: Ruleset) -> None:
    def status(objective: str, value: str) -> dict[str, str]:
        return {"kind": "objective", "id": objective, "status": value}

    def done(objective: str) -> dict[str, Any]:
        return {"kind": "objectives_done", "done": [objective]}

    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (0, 0)), Unit("b1", "b", "soul_levy", 1000, (7, 5))],
        objectives=[{"id": "o", "text": "O"}, {"id": "p", "text": "P"}],
        events=[
            # ping and pong each undo what set the other off: a loop, were it not for "once".
            {"id": "ping", "when": done("o"), "do": [status("p", "done"), status("o", "open")]},
            {"id": "pong", "when": done("p"), "do": [status("o", "done"), status("p", "open")]},
            {"id": "start", "when": {"kind": "turn", "turn": 1, "side": "b"}, "do": [status("o", "done")]},
        ],
    )
    events = eng.apply(EndTurn())
    changes = [(e.objective, e.status) for e in events if isinstance(e, ObjectiveChanged)]
    assert changes == [("o", "done"), ("p", "done"), ("o", "open"), ("o", "done"), ("p", "open")]
    assert eng.state.fired_events == ["start", "ping", "pong"]
    assert eng.state.objectives == {"o": "done", "p": "open"}
    assert [e for e in eng.apply(EndTurn()) if isinstance(e, ObjectiveChanged)] == []


# -- actions -----------------------------------------------------------------------------------


def reinforcement_engine(rules: Ruleset) -> Engine:
    return build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (0, 0)), Unit("b1", "b", "soul_levy", 1000, (7, 5))],
        regions={"road": [(4, 0), (5, 0), (4, 1)]},
        events=[
            {
                "id": "column",
                "when": {"kind": "turn", "turn": 2},
                "do": [
                    {
                        "kind": "reinforce",
                        "side": "a",
                        "formations": [
                            {"id": "r1", "type": "han_soldier", "men": 1200, "at": "road", "hero": "han_xin"},
                            {"id": "r2", "type": "warrior", "men": 300, "at": "0,0"},
                            {"id": "r3", "type": "retainer", "men": 400, "at": "road", "group": "late"},
                        ],
                    }
                ],
            }
        ],
    )


def test_reinforcements_arrive_on_free_hexes_and_keep_the_count_of_men(rules: Ruleset) -> None:
    eng = reinforcement_engine(rules)
    eng.apply(EndTurn())
    before = eng.state.men_ever()
    events = eng.apply(EndTurn())
    assert [e for e in events if isinstance(e, Reinforced)] == [Reinforced(units=("r1", "r2", "r3"), side="a")]
    fs = eng.state.formations
    road = eng.board.regions["road"]
    assert fs["r1"].pos in road and fs["r3"].pos in road and fs["r1"].pos != fs["r3"].pos
    assert fs["r1"].hero == "han_xin" and fs["r3"].group == "late" and fs["r1"].men == 1200
    # "0,0" is taken by a1: the column stands on the nearest free hex.
    assert distance(fs["r2"].pos, at(eng, 0, 0)) == 1
    assert eng.state.men_entered == 1900 and eng.state.men_ever() == before + 1900 and conserved(eng)
    # The same game places them on the same hexes.
    again = reinforcement_engine(rules)
    again.apply_all([EndTurn(), EndTurn()])
    assert state_hash(again.state) == state_hash(eng.state)
    # They arrive at the start of their side's turn, ready to march.
    eng.apply(Move(unit="r1", to=sorted(eng.moves("r1").destinations)[0]))
    assert conserved(eng)


def test_reveal_release_open_gates_and_ally(rules: Ruleset) -> None:
    sides = sides_of(
        ("a", "yuqing", "player"),
        ("b", "hailing", "enemy"),
        ("n", "tangut", "neutral"),
        b={"held_groups": ("reserve",)},
        n={"gates": "town"},
    )
    eng = build(
        rules,
        FORT_FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("b1", "b", "ambush_host", 1000, (7, 3)),
            Unit("b2", "b", "ambush_host", 1000, (6, 3)),
            Unit("b3", "b", "soul_levy", 1000, (2, 2)),
            Unit("n1", "n", "fort_garrison", 500, (7, 0)),
        ],
        sides=sides,
        regions={"town": [(3, 1), (4, 1), (3, 2), (4, 2)]},
        extra={
            "b1": {"hidden": True, "group": "wing"},
            "b2": {"hidden": True, "group": "wing"},
            "b3": {"group": "reserve"},
        },
        events=[
            {
                "id": "signal",
                "when": {"kind": "turn", "turn": 2},
                "do": [
                    {"kind": "reveal", "group": "wing"},
                    {"kind": "release", "side": "b", "group": "reserve"},
                    {"kind": "open_gates", "side": "n", "to": "b"},
                    {"kind": "ally", "side": "n", "with": "b"},
                ],
            }
        ],
    )
    gate = at(eng, 3, 2)
    eng.apply(EndTurn())  # b's first turn: the reserve is held, the town shut
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Move(unit="b3", to=at(eng, 1, 2)))
    assert exc.value.reason == "held"
    assert gate not in eng.moves("b3").destinations
    eng.apply_all([EndTurn(), EndTurn()])  # turn 2: the signal fires as a begins
    assert eng.state.fired_events == ["signal"]
    fs = eng.state.formations
    assert not fs["b1"].hidden and not fs["b2"].hidden
    assert eng.state.side("b").held_groups == []
    assert eng.state.side("n").gates_open_to == ["b"]
    assert are_allied(eng.state, "n", "b") and not are_enemies(eng.state, "n", "b")
    eng.apply(EndTurn())
    assert gate in eng.moves("b3").destinations
    eng.apply(Move(unit="b3", to=gate))
    assert fs["b3"].pos == gate


def test_event_actions_report_what_they_did(rules: Ruleset) -> None:
    sides = sides_of(
        ("a", "yuqing", "player"),
        ("b", "hailing", "enemy"),
        ("n", "tangut", "neutral"),
        b={"held_groups": ("g",)},
        n={"gates": "town"},
    )
    eng = build(
        rules,
        FORT_FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (0, 0)),
            Unit("b1", "b", "ambush_host", 1000, (7, 3)),
            Unit("n1", "n", "fort_garrison", 500, (7, 0)),
        ],
        sides=sides,
        regions={"town": [(3, 1)]},
        extra={"b1": {"hidden": True, "group": "g"}},
        events=[
            {
                "id": "all",
                "when": {"kind": "turn", "turn": 1, "side": "b"},
                "do": [
                    {"kind": "reveal", "unit": "b1"},
                    {"kind": "release", "side": "b", "group": "g"},
                    {"kind": "release", "side": "b", "group": "g"},  # a second release changes nothing
                    {"kind": "narrate", "text": "Hello", "speaker": "wanyan_liang"},
                    {"kind": "open_gates", "side": "n", "to": "a"},
                    {"kind": "ally", "side": "a", "with": "n"},
                ],
            }
        ],
    )
    events = eng.apply(EndTurn())
    produced = [e for e in events if not type(e).__name__.startswith(("Turn", "Morale", "Souls"))]
    assert produced == [
        Revealed(unit="b1"),
        GroupReleased(group="g", side="b"),
        Narration(text="Hello", speaker="wanyan_liang"),
        GatesOpened(side="n", to="a"),
        SidesAllied(side="a", ally="n"),
    ]


def test_defeat_names_the_enemy_as_winner(rules: Ruleset) -> None:
    sides = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("n", "tangut", "neutral"))
    units = [
        Unit("a1", "a", "han_soldier", 1000, (0, 0)),
        Unit("b1", "b", "soul_levy", 1000, (7, 5)),
        Unit("n1", "n", "fort_garrison", 100, (4, 4)),
    ]
    for loser, winner in (("a", "b"), ("b", "a")):
        eng = build(
            rules,
            FIELD,
            units,
            sides=sides,
            events=[
                {
                    "id": "lost",
                    "when": {"kind": "turn", "turn": 1, "side": "b"},
                    "do": [{"kind": "defeat", "side": loser}],
                }
            ],
        )
        events = eng.apply(EndTurn())
        assert events[-1] == GameOver(winner=winner, reason=triggers.REASON_EVENT)
        assert eng.state.over and eng.state.winner == winner
    # Two enemies who are not allied: nobody is named the winner.
    three = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("c", "jin", "enemy"))
    eng = build(rules, FIELD, [*units[:2], Unit("c1", "c", "soul_levy", 100, (4, 4))], sides=three)
    assert triggers.defeat_winner(eng.state, "a") is None
    assert triggers.defeat_winner(eng.state, "c") is None
    eng.state.side("b").allies.append("a")
    assert triggers.defeat_winner(eng.state, "c") == "a"  # a player side leads its camp


# -- neutral sides and fortresses --------------------------------------------------------------


def neutral_engine(rules: Ruleset, ruleset: Ruleset | None = None) -> Engine:
    """A walled town held by a neutral garrison, with a weak a-unit and a strong one outside."""
    sides = sides_of(
        ("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("n", "tangut", "neutral"), n={"gates": "town"}
    )
    return build(
        rules,
        FORT_FIELD,
        [
            Unit("a1", "a", "retainer", 300, (2, 2)),
            Unit("a2", "a", "han_soldier", 3000, (2, 1)),
            Unit("b1", "b", "soul_levy", 3000, (5, 2)),
            Unit("n1", "n", "fort_garrison", 5000, (4, 2)),
            Unit("n2", "n", "fort_garrison", 3000, (3, 2)),
        ],
        sides=sides,
        regions={"town": [(3, 1), (4, 1), (3, 2), (4, 2)]},
        ruleset=ruleset,
    )


def test_a_neutral_side_keeps_the_peace_until_attacked(rules: Ruleset) -> None:
    sides = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("n", "tangut", "neutral"))
    eng = build(
        rules,
        FIELD,
        [
            Unit("b1", "b", "soul_levy", 3000, (7, 0)),
            Unit("n2", "n", "fort_garrison", 100, (6, 0)),  # a weak neighbour b would love to hit
            Unit("n1", "n", "fort_garrison", 5000, (2, 4)),
            Unit("a1", "a", "retainer", 300, (1, 4)),  # a weak neighbour the fort would love to hit
            Unit("a2", "a", "han_soldier", 3000, (3, 4)),
        ],
        sides=sides,
    )
    assert not are_enemies(eng.state, "n", "a") and not are_enemies(eng.state, "b", "n")
    assert eng.attack_targets("a2") == ["n1"]  # a neutral may be attacked: that starts the war
    eng.apply(EndTurn())
    b_actions = play_ai_side_turn(eng)
    assert not any(isinstance(x, Attack) for x in b_actions)  # b leaves the garrison alone
    assert play_ai_side_turn(eng) == [EndTurn()]  # the neutral side does nothing at peace
    events = eng.apply(Attack(unit="a2", target="n1"))
    assert SideJoined(side="n", against="a") in events
    assert are_enemies(eng.state, "n", "a") and not are_enemies(eng.state, "n", "b")
    eng.apply_all([EndTurn(), EndTurn()])  # b's turn passes: the next AI turn is the fort's
    assert eng.state.active_side.id == "n"
    n_actions = play_ai_side_turn(eng)
    assert Attack(unit="n1", target="a1") in n_actions
    assert not any(isinstance(x, Move) for x in n_actions)  # it fights from where it stands


def test_closed_gates_keep_everyone_out_until_opened(rules: Ruleset) -> None:
    sides = sides_of(
        ("a", "yuqing", "player"),
        ("b", "hailing", "enemy"),
        ("c", "jin", "enemy"),
        ("n", "tangut", "neutral"),
        c={"allies": ("b",)},
        n={"gates": "town"},
    )
    eng = build(
        rules,
        FORT_FIELD,
        [
            Unit("a1", "a", "han_soldier", 1000, (2, 2)),
            Unit("b1", "b", "soul_levy", 1000, (5, 2)),
            Unit("c1", "c", "soul_levy", 1000, (5, 1)),
            Unit("n1", "n", "fort_garrison", 100, (7, 3)),
        ],
        sides=sides,
        regions={"town": [(3, 1), (4, 1), (3, 2), (4, 2)]},
    )
    town = eng.board.regions["town"]
    assert eng.board.fortress_hexes("town") == town
    for unit in ("a1", "b1", "c1"):
        assert not town & eng.moves(unit).destinations
        assert not town & set(eng.moves(unit).cost)  # not even passed through
    eng.state.side("n").gates_open_to.append("b")
    assert town & eng.moves("b1").destinations
    assert town & eng.moves("c1").destinations  # b's ally is let in as well
    assert not town & eng.moves("a1").destinations
    eng.apply(Move(unit="a1", to=at(eng, 2, 3)))  # a still walks round the walls


def test_only_siege_troops_assault_a_fortress(rules: Ruleset) -> None:
    eng = neutral_engine(rules)
    assert eng.board.terrain_at(eng.state.formations["n1"].pos).fortress
    assert eng.attack_targets("a2") == []
    before = state_hash(eng.state)
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Attack(unit="a2", target="n2"))
    assert exc.value.reason == "fortress" and state_hash(eng.state) == before
    han = rules.units["han_soldier"]
    siege_rules = rules.model_copy(
        update={"units": {**rules.units, "han_soldier": han.model_copy(update={"abilities": ("siege",)})}}
    )
    eng = neutral_engine(rules, siege_rules)
    assert eng.attack_targets("a2") == ["n2"]
    assert any(isinstance(e, SideJoined) for e in eng.apply(Attack(unit="a2", target="n2")))


def test_the_ai_leaves_held_groups_alone_and_ends_its_turn(rules: Ruleset) -> None:
    sides = sides_of(("a", "yuqing", "player"), ("b", "hailing", "enemy"), b={"held_groups": ("reserve",)})
    eng = build(
        rules,
        FIELD,
        [
            Unit("a1", "a", "retainer", 200, (3, 2)),
            Unit("b1", "b", "soul_levy", 3000, (4, 2)),  # held, next to a weak enemy
            Unit("b2", "b", "soul_levy", 3000, (7, 5)),
        ],
        sides=sides,
        extra={"b1": {"group": "reserve"}},
    )
    eng.apply(EndTurn())
    start = eng.state.formations["b1"].pos
    actions = play_ai_side_turn(eng)
    assert actions[-1] == EndTurn()
    assert all(getattr(x, "unit", None) != "b1" for x in actions)
    assert eng.state.formations["b1"].pos == start
    assert any(isinstance(x, Move | Attack) and x.unit == "b2" for x in actions)


# -- the shipped scenario ----------------------------------------------------------------------


def test_a1_has_objectives_and_events() -> None:
    sc = load_scenario(A1).scenario
    assert [o.id for o in sc.objective_specs] == ["sweep_valley", "hold_front", "break_host", "herd_rout", "bag_souls"]
    assert [o.bonus for o in sc.objective_specs] == [False, False, False, False, True]
    assert sc.objectives == tuple(o.text for o in sc.objective_specs)
    eng = Engine(sc, load_ruleset(), 3)
    assert set(eng.state.objectives.values()) == {"open"}
    events = eng.apply(EndTurn())
    assert [e.speaker for e in events if isinstance(e, Narration)] == ["wanyan_liang"]
    assert eng.state.fired_events == ["host_wheels"]


# -- validation --------------------------------------------------------------------------------


def errors_of(path: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as exc:
        load_scenario_file(path, load_ruleset())
    return exc.value.errors


LATE_HELP = """
[[events]]
id = "late_help"
when = { kind = "turn", turn = 5 }

[[events.do]]
kind = "reinforce"
side = "coalition"

[[events.do.formations]]
id = "late_retainers"
type = "retainer"
men = 2000
at = "valley"
"""

BROKEN = {
    # name: (old, new, (object, field, words in the message)); "+" appends ``new`` to the file.
    "trigger_kind": (
        'when = { kind = "turn", turn = 2, side = "coalition" }',
        'when = { kind = "dusk", turn = 2, side = "coalition" }',
        ("host_in_sight", "when.kind", "unknown kind 'dusk'"),
    ),
    "action_kind": (
        '{ kind = "objective", id = "bag_souls", status = "done" },',
        '{ kind = "fireworks" },',
        ("pouch_full", "do[0].kind", "unknown kind 'fireworks'"),
    ),
    "region": (
        'region = "the_front", side = "hailing"',
        'region = "the_back", side = "hailing"',
        ("front_lost", "when.region", "'the_back'"),
    ),
    "unit": ('"trapped_4"]', '"trapped_9"]', ("trapped_broken", "when.units[3]", "'trapped_9'")),
    "speaker": (
        'speaker = "xiang_yu", text = "They break!',
        'speaker = "sun_wukong", text = "They break!',
        ("host_broken", "do[1].speaker", "'sun_wukong'"),
    ),
    "side": (
        '{ kind = "victory", side = "coalition" }',
        '{ kind = "victory", side = "nobody" }',
        ("field_won", "do[1].side", "'nobody'"),
    ),
    "objective": (
        'id = "bag_souls", status = "done"',
        'id = "bag_more", status = "done"',
        ("pouch_full", "do[0].id", "'bag_more'"),
    ),
    "objectives_done": ('"break_host"] }', '"break_hosts"] }', ("field_won", "when.done[1]", "'break_hosts'")),
    "status": (
        'id = "bag_souls", status = "done"',
        'id = "bag_souls", status = "won"',
        ("pouch_full", "do[0].status", ""),
    ),
    "missing_field": ("turn = 2, ", "", ("host_in_sight", "when.turn", "required")),
    "unknown_field": (
        'id = "pouch_full"\n',
        'id = "pouch_full"\nonce = true\n',
        ("pouch_full", "once", "unknown field"),
    ),
    "after_turn_limit": (
        'id = "front_held"\nwhen = { kind = "turn", turn = 9,',
        'id = "front_held"\nwhen = { kind = "turn", turn = 99,',
        ("front_held", "when.turn", "after the last turn"),
    ),
    "first_turn": (
        'turn = 2, side = "coalition"',
        'turn = 1, side = "coalition"',
        ("host_in_sight", "when.turn", "briefing"),
    ),
    "starts_inside": (
        'region = "the_front", side = "hailing"',
        'region = "the_front", side = "coalition"',
        ("front_lost", "when.region", "starts inside"),
    ),
    "during": ('during = "hailing"', 'during = "tangut"', ("host_before_defile", "during", "'tangut'")),
    "unless": ('unless = ["front_lost"]', 'unless = ["front_lots"]', ("front_held", "unless[0]", "'front_lots'")),
    "duplicate_event": ('id = "pouch_full"', 'id = "field_won"', ("field_won", "id", "duplicate")),
    "no_id": ('id = "pouch_full"\n', "", ("events[8]", "id", "required")),
    "unit_type": (
        "+",
        LATE_HELP.replace('"retainer"', '"dragon"'),
        ("late_help", "do[0].formations[0].type", "'dragon'"),
    ),
    "reinforce_at": (
        "+",
        LATE_HELP.replace('"valley"', '"atlantis"'),
        ("late_help", "do[0].formations[0].at", "'atlantis'"),
    ),
    "reinforce_hidden": (
        "+",
        LATE_HELP.replace("men = 2000", "men = 2000\nhidden = true"),
        ("late_help", "do[0].formations[0].hidden", "ambush"),
    ),
    "reinforce_id": (
        "+",
        LATE_HELP.replace("late_retainers", "han_xin_5000"),
        ("late_help", "do[0].formations[0].id", "already used"),
    ),
    "selector": (
        'kind = "routed", units = ["trapped_1"',
        'kind = "routed", side = "hailing", units = ["trapped_1"',
        ("trapped_broken", "when", "exactly one"),
    ),
    "objective_side": ('id = "bag_souls"\n', 'id = "bag_souls"\nside = "tangut"\n', ("bag_souls", "side", "'tangut'")),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_event_is_one_precise_error(a1_copy: Path, name: str) -> None:
    old, new, (obj, field, words) = BROKEN[name]
    if old == "+":
        a1_copy.write_text(a1_copy.read_text(encoding="utf-8") + new, encoding="utf-8")
    else:
        replace_once(a1_copy, old, new)
    errs = errors_of(a1_copy)
    assert len(errs) == 1, "\n".join(map(str, errs))
    e = errs[0]
    assert (Path(e.file).name, e.object, e.field) == (f"{A1}.toml", obj, field), str(e)
    assert words in e.message, str(e)


def test_a_region_its_formations_start_in_is_refused_only_where_the_event_could_fire_at_once(a1_copy: Path) -> None:
    # Standing there from the start is what an event that waits for a later turn asks.
    old, new, _ = BROKEN["starts_inside"]
    replace_once(a1_copy, old, new)
    replace_once(a1_copy, "until_turn = 8\nunless", "from_turn = 2\nuntil_turn = 8\nunless")
    load_scenario_file(a1_copy, load_ruleset())
    replace_once(a1_copy, "from_turn = 2\n", "from_turn = 1\n")
    assert [(e.object, e.field) for e in errors_of(a1_copy)] == [("front_lost", "when.region")]


def test_the_good_copy_loads_and_every_problem_is_reported(a1_copy: Path) -> None:
    load_scenario_file(a1_copy, load_ruleset())
    for name in ("trigger_kind", "region", "speaker"):
        old, new, _ = BROKEN[name]
        replace_once(a1_copy, old, new)
    assert {(e.object, e.field) for e in errors_of(a1_copy)} == {
        ("host_in_sight", "when.kind"),
        ("front_lost", "when.region"),
        ("host_broken", "do[1].speaker"),
    }


def test_validate_prints_file_object_field_message(a1_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replace_once(a1_copy, *BROKEN["region"][:2])
    assert main(["validate", str(a1_copy)]) == 1
    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r".*a1_valley_mouth\.toml: front_lost: when\.region: unknown region 'the_back'", out), out


def test_gates_must_name_a_region(a1_copy: Path) -> None:
    replace_once(a1_copy, 'role = "enemy"\n', 'role = "enemy"\ngates = "datong"\n')
    e = errors_of(a1_copy)
    assert [(x.object, x.field) for x in e] == [("hailing", "sides[1].gates")] and "'datong'" in e[0].message


# -- on screen ---------------------------------------------------------------------------------


@pytest.fixture
def app() -> Iterator[App]:
    before = i18n.language()
    i18n.set_language("en")
    app = App((1280, 800))
    pygame.event.clear()
    yield app
    i18n.set_language(before)


def until_human_to_move(app: App, scene: BattleScene, frames: int = 400) -> None:
    """Frames until a person is to move again: the computer thinks off the frame loop, so on a
    busy machine even a fast computer turn can take more than one frame."""
    for _ in range(frames):
        if scene.session.human_to_move():
            return
        frame(app, dt=AI_STEP_DELAY)
    raise AssertionError("the computer never finished its turn")


def key(app: App, k: int) -> None:
    frame(app, pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def click(app: App, pos: tuple[int, int]) -> None:
    frame(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False),
    )


def story_match(rules: Ruleset) -> Match:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (1, 1)), Unit("b1", "b", "soul_levy", 1000, (6, 4))],
        objectives=[{"id": "hold", "text": "Hold the line."}, {"id": "bag", "text": "Bag souls.", "bonus": True}],
        events=[
            {
                "id": "b_speaks",
                "when": {"kind": "turn", "turn": 1, "side": "b"},
                "do": [
                    narrate("First words."),
                    {"kind": "narrate", "text": "Second words.", "speaker": "wanyan_liang"},
                ],
            },
            {
                "id": "held",
                "when": {"kind": "turn", "turn": 2},
                "do": [{"kind": "objective", "id": "hold", "status": "done"}],
            },
        ],
    )
    return Match(loaded_for(eng.scenario), 5, GameSettings(), seats={"a": "human", "b": "ai"})


def test_narrations_pop_up_in_turn_and_the_computer_waits_for_them(app: App, rules: Ruleset) -> None:
    scene = app.go("battle", match=story_match(rules))
    assert isinstance(scene, BattleScene)
    frame(app)
    assert scene.panels.objectives.visible and scene.panels.objectives.rect.height > 0
    key(app, pygame.K_o)
    assert not scene.panels.objectives.visible
    click(app, scene.panels.objectives.button.rect.center)
    assert scene.panels.objectives.visible

    key(app, pygame.K_e)
    record = scene.match.record
    assert record.actions == [EndTurn()] and scene.narration.queue == [
        ("First words.", None),
        ("Second words.", "wanyan_liang"),
    ]
    for _ in range(4):
        frame(app, dt=AI_STEP_DELAY)
    assert len(record.actions) == 1  # the computer waits for the reader
    key(app, pygame.K_e)  # and no order slips through the pop-up
    assert scene.narration.queue[0][0] == "First words." and len(record.actions) == 1
    click(app, (5, 400))
    assert scene.narration.queue == [("Second words.", "wanyan_liang")]
    key(app, pygame.K_RETURN)
    assert not scene.narration.active
    until_human_to_move(app, scene)
    assert scene.state.turn == 2 and scene.state.objectives["hold"] == "done"
    assert any("Objective achieved: Hold the line." in line for line in scene.log.lines)
    frame(app)
    assert (
        pygame.mask.from_threshold(app.screen.subsurface(scene.panels.objectives.rect), GOOD, (1, 1, 1, 255)).count()
        > 0
    )


def test_in_fast_mode_computer_turn_narrations_go_to_the_log(app: App, rules: Ruleset) -> None:
    scene = app.go("battle", match=story_match(rules))
    assert isinstance(scene, BattleScene)
    frame(app)
    key(app, pygame.K_SPACE)
    assert scene.computer.fast
    key(app, pygame.K_e)
    until_human_to_move(app, scene)
    assert not scene.narration.active
    assert "First words." in scene.log.lines and "Wanyan Liang: Second words." in scene.log.lines


def test_only_reinforcements_in_sight_are_announced(app: App, rules: Ruleset) -> None:
    def arrive(event_id: str, unit: str, at: str) -> dict[str, Any]:
        return {
            "id": event_id,
            "when": {"kind": "turn", "turn": 1, "side": "b"},
            "do": [
                {
                    "kind": "reinforce",
                    "side": "b",
                    "formations": [{"id": unit, "type": "soul_levy", "men": 500, "at": at}],
                }
            ],
        }

    def announced(events: list[dict[str, Any]]) -> list[str]:
        eng = build(
            rules,
            ("..............",) * 6,
            [Unit("a1", "a", "han_soldier", 1000, (1, 1)), Unit("b1", "b", "soul_levy", 1000, (12, 0))],
            events=events,
        )
        match = Match(loaded_for(eng.scenario), 5, GameSettings(), seats={"a": "human", "b": "ai"})
        scene = app.go("battle", match=match)
        assert isinstance(scene, BattleScene)
        frame(app)
        key(app, pygame.K_SPACE)  # the computer's turn goes by at once
        key(app, pygame.K_e)
        until_human_to_move(app, scene)
        assert match.state.turn == 2 and {"b_far", "b_near"} & set(match.state.formations)  # they did arrive
        return [line for line in scene.log.lines if line.startswith("Reinforcements reach")]

    assert announced([arrive("far", "b_far", "13,5")]) == []  # arrived out of sight: nobody saw it
    assert len(announced([arrive("near", "b_near", "3,1")])) == 1


def test_the_result_waits_for_the_closing_words(app: App, rules: Ruleset) -> None:
    eng = build(
        rules,
        FIELD,
        [Unit("a1", "a", "han_soldier", 1000, (1, 1)), Unit("b1", "b", "soul_levy", 1000, (6, 4))],
        events=[
            {
                "id": "end",
                "when": {"kind": "turn", "turn": 1, "side": "b"},
                "do": [narrate("It is over."), {"kind": "victory", "side": "a"}],
            }
        ],
    )
    scene = app.go("battle", match=Match(loaded_for(eng.scenario), 5, GameSettings(), seats={"a": "human", "b": "ai"}))
    assert isinstance(scene, BattleScene)
    frame(app)
    key(app, pygame.K_e)
    assert scene.state.over and app.scene is scene and scene.narration.active
    key(app, pygame.K_RETURN)
    assert type(app.scene).__name__ == "ResultScene"
