"""The computer general: tactics from the forecast and the threat map, faction behaviour,
difficulty, the time budget, legality and determinism."""

from __future__ import annotations

import dataclasses
import time

import pytest
from conftest import EngineFactory, Unit, loaded_for, make_board

from bench.stress import build_scenario, loaded_stress
from game.ai.driver import AI, make_ais, play_ai_turn
from game.ai.general import General
from game.ai.hailing import Hailing
from game.ai.jin import Jin
from game.ai.random_player import RandomAI
from game.core.actions import Action, Attack, Challenge, EndTurn, Move, UseSkill
from game.core.engine import Engine, GameSettings
from game.core.events import Attacked, Event
from game.core.hexgrid import Hex, distance
from game.core.rules import Ruleset
from game.core.scenario import AiHints, HoldSpec, ObjectiveSpec, Scenario
from game.core.scenario_events import EventSpec
from game.record.match import Match

FIELD = (".......",) * 5
WIDE = ("..........",) * 7
JIN_SIDES = (("a", "zhenguo", "player"), ("b", "jin", "enemy"))


def with_hints(eng: Engine, regions: dict[str, frozenset[Hex]], hints: AiHints, seed: int = 7) -> Engine:
    """The same battle with named regions and an ``[ai]`` table."""
    board = make_board(eng.rules, [r for r in _grid_of(eng)], regions)
    scenario = dataclasses.replace(eng.scenario, board=board, ai=hints)
    return Engine(scenario, eng.rules, seed, eng.settings)


def _grid_of(eng: Engine) -> list[str]:
    letters = {"plain": ".", "forest": "f", "hills": "h"}
    b = eng.board
    return ["".join(letters[b.terrain_at(b.at_offset(c, r)).id] for c in range(b.width)) for r in range(b.height)]


def play_side(eng: Engine, ai: General, limit: int = 60) -> list[Event]:
    """Let ``ai`` play until it ends its turn; every action it picks must be legal."""
    events: list[Event] = []
    for _ in range(limit):
        action = ai.next_action()
        assert action in eng.legal_actions(), f"illegal {action}"
        events += eng.apply(action)
        if isinstance(action, EndTurn) or eng.state.over:
            break
    return events


# -- the tactical core ------------------------------------------------------------------------


def test_takes_a_clearly_favourable_attack(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD, [Unit("han", "a", "han_soldier", 3000, (2, 2)), Unit("levy", "b", "soul_levy", 600, (3, 2))]
    )
    assert General(eng, "a").next_action() == Attack(unit="han", target="levy")


def test_avoids_a_suicidal_attack(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD, [Unit("ret", "a", "retainer", 100, (2, 2)), Unit("host", "b", "soul_levy", 10000, (3, 2))]
    )
    assert eng.attack_targets("ret") == ["host"]
    for level in ("easy", "normal", "hard"):
        assert not isinstance(General(eng, "a", level).next_action(), Attack)


def test_hard_general_springs_a_pincer(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("left", "a", "han_soldier", 1500, (2, 2)),
            Unit("right", "a", "han_soldier", 1500, (6, 2)),
            Unit("host", "b", "soul_levy", 9000, (3, 2)),
        ],
    )
    events = play_side(eng, General(eng, "a", "hard"))
    assert any(isinstance(e, Attacked) and e.pincer for e in events)


def test_holders_keep_their_front(small_engine: EngineFactory) -> None:
    base = small_engine(
        WIDE,
        [
            Unit("wing", "a", "sword_spirit", 700, (4, 3)),
            Unit("far", "a", "sword_spirit", 700, (0, 0)),
            Unit("host", "b", "soul_levy", 3000, (9, 6)),
        ],
    )
    front = frozenset(base.board.at_offset(c, r) for c in (3, 4, 5) for r in (2, 3, 4))
    hints = AiHints(hold=(HoldSpec(side="a", region="front", units=("wing", "far")),))
    eng = with_hints(base, {"front": front}, hints)
    free = play_side(base, General(base, "a"))  # without the hint the wing marches off
    assert base.state.formations["wing"].pos not in front or free == []
    play_side(eng, General(eng, "a"))
    assert eng.state.formations["wing"].pos in front
    # A holder away from its front heads for it.
    start = base.board.at_offset(0, 0)
    assert min(distance(eng.state.formations["far"].pos, h) for h in front) < min(distance(start, h) for h in front)


def test_a_hard_general_lets_holders_go_once_the_hold_has_served(small_engine: EngineFactory) -> None:
    base = small_engine(
        WIDE,
        [Unit("wing", "a", "sword_spirit", 700, (4, 3)), Unit("host", "b", "soul_levy", 3000, (9, 6))],
    )
    front = frozenset(base.board.at_offset(c, r) for c in (3, 4, 5) for r in (2, 3, 4))
    board = make_board(base.rules, _grid_of(base), {"front": front})
    swept = EventSpec.model_validate(
        {"id": "swept", "when": {"kind": "turn", "turn": 30}, "do": [{"kind": "narrate", "text": "Swept."}]}
    )
    hints = AiHints(hold=(HoldSpec(side="a", region="front", units=("wing",), until="swept"),))
    scenario = dataclasses.replace(base.scenario, board=board, ai=hints, events=(swept,))

    def wing_after_a_turn(level: str, fired: bool) -> Hex:
        eng = Engine(scenario, base.rules, 7)
        if fired:
            eng.state.fired_events.append("swept")
        play_side(eng, General(eng, "a", level))
        return eng.state.formations["wing"].pos

    assert wing_after_a_turn("hard", fired=False) in front  # the trap is not yet sprung
    assert wing_after_a_turn("hard", fired=True) not in front  # sprung: the wing goes for the host
    assert wing_after_a_turn("normal", fired=True) in front  # a lesser general keeps its first orders


# -- Hailing: Wanyan Liang ----------------------------------------------------------------------


def test_ambushers_let_the_vanguard_pass_and_strike_the_rear(small_engine: EngineFactory) -> None:
    grid = ("...f...",) + FIELD[1:]
    units = [
        Unit("amb", "b", "ambush_host", 4000, (3, 0), hidden=True),
        Unit("far", "a", "han_soldier", 10, (0, 4)),
    ]
    strong = small_engine(grid, [*units, Unit("van", "a", "han_soldier", 3000, (4, 0))], sides=_hailing_first())
    assert General(strong, "b").next_action() == EndTurn()  # holds still beside the vanguard
    weak = small_engine(grid, [*units, Unit("rear", "a", "retainer", 800, (4, 0))], sides=_hailing_first())
    assert General(weak, "b").next_action() == Attack(unit="amb", target="rear")


def test_a_feint_falls_back_toward_the_hidden_ambush_instead_of_fighting(small_engine: EngineFactory) -> None:
    grid = ("f.........",) + WIDE[1:]
    units = [
        Unit("amb", "b", "ambush_host", 4000, (0, 0), hidden=True),
        Unit("bait", "b", "soul_levy", 3000, (6, 3)),
        Unit("chaser", "a", "retainer", 300, (7, 3)),  # a weak pursuer the bait could beat
    ]
    base = small_engine(grid, units, sides=_hailing_first())
    plain = General(base, "b").next_action()
    assert plain == Attack(unit="bait", target="chaser")  # without the order it would fight
    eng = with_hints(base, {}, AiHints(feint=("bait",)))
    action = General(eng, "b").next_action()
    amb = eng.state.formations["amb"].pos
    start = eng.state.formations["bait"].pos
    assert isinstance(action, Move) and action.unit == "bait"
    assert distance(action.to, amb) < distance(start, amb)  # toward the hidden friends
    # Once the ambush is sprung the feint is over: the bait turns and fights.
    eng.state.formations["amb"].hidden = False
    sprung = General(eng, "b")
    assert isinstance(sprung.persona, Hailing)
    sprung.persona.sprung.add("amb")
    assert sprung.next_action() == Attack(unit="bait", target="chaser")


def _hailing_first() -> tuple[tuple[str, str, str], ...]:
    return (("b", "hailing", "enemy"), ("a", "yuqing", "player"))


def test_wanyan_liang_reforms_routed_souls(small_engine: EngineFactory) -> None:
    eng = small_engine(
        WIDE,
        [
            Unit("liang", "b", "soul_levy", 6000, (2, 3), hero="wanyan_liang"),
            Unit("broken", "b", "soul_levy", 2000, (3, 3), max_men=5000),
            Unit("x", "a", "han_soldier", 100, (9, 0)),
        ],
        sides=_hailing_first(),
    )
    eng.state.formations["broken"].routed = True
    action = General(eng, "b").next_action()
    assert isinstance(action, UseSkill) and action.skill == "reform_the_routed"


def test_wanyan_liang_rides_to_routed_souls(small_engine: EngineFactory) -> None:
    eng = small_engine(
        WIDE,
        [
            Unit("liang", "b", "soul_rider", 3000, (0, 3), hero="wanyan_liang"),
            Unit("broken", "b", "soul_levy", 2000, (5, 6), max_men=5000),
            Unit("x", "a", "han_soldier", 100, (9, 0)),
        ],
        sides=_hailing_first(),
    )
    eng.state.formations["broken"].routed = True
    before = distance(eng.state.formations["liang"].pos, eng.state.formations["broken"].pos)
    action = General(eng, "b").next_action()
    assert isinstance(action, Move) and action.unit == "liang"
    assert distance(action.to, eng.state.formations["broken"].pos) < before


def test_hailing_turns_back_when_the_palace_is_threatened(small_engine: EngineFactory) -> None:
    base = small_engine(
        WIDE,
        [
            Unit("host", "b", "soul_levy", 8000, (4, 3)),
            Unit("near", "a", "han_soldier", 200, (1, 3)),
            Unit("raider", "a", "han_soldier", 3000, (7, 4)),
        ],
        sides=_hailing_first(),
    )
    palace = frozenset(base.board.at_offset(c, r) for c in (8, 9) for r in (5, 6))
    threatened = with_hints(base, {"datong": palace}, AiHints(palace_region="datong"))
    raider = base.state.formations["raider"].pos
    near = base.state.formations["near"].pos
    calm = General(base, "b").next_action()
    alarmed = General(threatened, "b").next_action()
    assert isinstance(calm, Move) and distance(calm.to, near) < distance(calm.to, raider)
    assert isinstance(alarmed, Move) and distance(alarmed.to, raider) < distance(alarmed.to, near)


def test_hailing_pride_makes_it_overreach(small_engine: EngineFactory) -> None:
    units = [
        Unit("liang", "b", "soul_levy", 2000, (2, 2), hero="wanyan_liang"),
        Unit("han", "a", "han_soldier", 1500, (3, 2)),
    ]
    eng = small_engine(FIELD, units, sides=_hailing_first())
    calm = General(eng, "b")
    assert not isinstance(calm.next_action(), Attack)
    proud = General(eng, "b")
    assert isinstance(proud.persona, Hailing)
    proud.persona.hurt(eng.state.turn)  # e.g. a refused challenge
    assert proud.next_action() == Attack(unit="liang", target="han")


def _host_to_break(small_engine: EngineFactory) -> Scenario:
    """Wanyan Liang's host of four, which the coalition wins an objective by routing all at once,
    with a few Han soldiers in front of it."""
    base = small_engine(
        WIDE,
        [
            Unit("liang", "b", "soul_levy", 6000, (6, 3), hero="wanyan_liang"),
            Unit("front", "b", "soul_levy", 4000, (4, 3)),
            Unit("middle", "b", "soul_levy", 4000, (6, 4)),
            Unit("back", "b", "soul_levy", 4000, (9, 3)),
            Unit("han", "a", "han_soldier", 800, (5, 1)),
        ],
        sides=_hailing_first(),
    )
    broken = EventSpec.model_validate(
        {
            "id": "broken",
            "when": {"kind": "routed", "units": ["liang", "front", "middle", "back"]},
            "do": [{"kind": "objective", "id": "break_host", "status": "done"}],
        }
    )
    objective = ObjectiveSpec(id="break_host", text="Break the host.")
    return dataclasses.replace(base.scenario, events=(broken,), objective_specs=(objective,))


def test_a_hard_general_keeps_one_formation_of_a_host_in_reserve(small_engine: EngineFactory, rules: Ruleset) -> None:
    """Where the enemy wins by routing a whole host at once, a hard general holds one of it back
    out of reach, near its commander; a normal general throws every formation in."""
    scenario = _host_to_break(small_engine)

    def one_turn(level: str) -> tuple[set[str], int]:
        """Who struck, and how near the enemy the back formation ended."""
        eng = Engine(scenario, rules, 7)
        general = General(eng, "b", level)
        reserves = general.persona.reserves()
        assert level != "hard" or reserves == {"back"}  # the farthest fresh one, never the hero's own
        events = play_side(eng, general)
        struck = {e.unit for e in events if isinstance(e, Attacked)}
        return struck, distance(eng.state.formations["back"].pos, eng.state.formations["han"].pos)

    (hard_struck, hard_gap), (normal_struck, normal_gap) = one_turn("hard"), one_turn("normal")
    assert "back" not in hard_struck and hard_gap >= 3  # kept out of the fight
    assert hard_struck  # the rest of the host still fights
    assert "back" in normal_struck or normal_gap < hard_gap  # thrown in with the rest


def test_a_threatened_palace_calls_the_reserve_back_to_fight(small_engine: EngineFactory, rules: Ruleset) -> None:
    scenario = _host_to_break(small_engine)
    eng = Engine(scenario, rules, 7)
    palace = frozenset(eng.board.at_offset(c, r) for c in (4, 5, 6) for r in (0,))  # beside the Han soldiers
    board = make_board(rules, _grid_of(eng), {"datong": palace})
    alarmed = Engine(dataclasses.replace(scenario, board=board, ai=AiHints(palace_region="datong")), rules, 7)
    general = General(alarmed, "b", "hard")
    general.next_action()  # he looks at the field: the palace is threatened
    assert isinstance(general.persona, Hailing)
    assert general.persona.threatening == {"han"} and general.persona.reserves() == frozenset()
    calm = General(eng, "b", "hard")
    calm.next_action()
    assert calm.persona.reserves() == {"back"}


# -- Jin: Wanyan Wuzhu --------------------------------------------------------------------------


def _jin_retreat(small_engine: EngineFactory) -> Engine:
    base = small_engine(
        WIDE,
        [
            Unit("guard", "b", "jurchen_veteran", 1500, (7, 3)),
            Unit("main", "b", "jurchen_horse", 1500, (6, 4)),
            Unit("yue", "a", "zhenguo_rider", 10000, (9, 3), hero="yue_fei"),
        ],
        sides=(("b", "jin", "enemy"), ("a", "zhenguo", "player")),
    )
    fort = frozenset(base.board.at_offset(0, r) for r in range(7))
    return with_hints(base, {"fort": fort}, AiHints(refuge_region="fort", rear_guard=("guard",)))


def test_jin_rear_guard_stands_while_the_rest_flee_to_the_fort(small_engine: EngineFactory) -> None:
    eng = _jin_retreat(small_engine)
    guard_at = eng.state.formations["guard"].pos
    main_at = eng.state.formations["main"].pos
    play_side(eng, General(eng, "b"))
    assert eng.state.formations["guard"].pos == guard_at
    assert eng.board.offset(eng.state.formations["main"].pos)[0] < eng.board.offset(main_at)[0] - 1


def test_a_hard_general_marches_on_ground_whose_taking_wins_the_battle(small_engine: EngineFactory) -> None:
    base = small_engine(
        WIDE,
        [Unit("runner", "b", "soul_rider", 2000, (5, 3)), Unit("guard", "a", "han_soldier", 4000, (9, 3))],
        sides=_hailing_first(),
    )
    goal = frozenset(base.board.at_offset(0, r) for r in range(2, 5))
    board = make_board(base.rules, _grid_of(base), {"goal": goal})
    win = EventSpec.model_validate(
        {
            "id": "taken",
            "when": {"kind": "enters_region", "region": "goal", "side": "b", "unit": "runner"},
            "do": [{"kind": "defeat", "side": "a"}],
        }
    )
    scenario = dataclasses.replace(base.scenario, board=board, events=(win,))
    start = base.state.formations["runner"].pos

    def first_move(level: str) -> Hex:
        """Where the runner heads first (where it stands if it does not move)."""
        eng = Engine(scenario, base.rules, 7)
        action = General(eng, "b", level).next_action()
        return action.to if isinstance(action, Move) and action.unit == "runner" else start

    def to_goal(h: Hex) -> int:
        return min(distance(h, g) for g in goal)

    assert to_goal(first_move("hard")) < to_goal(start)  # it rides for the winning ground
    assert to_goal(first_move("normal")) >= to_goal(start)  # the normal general rides at the enemy


def test_a_hard_general_keeps_a_formation_on_ground_the_enemy_must_not_take(small_engine: EngineFactory) -> None:
    base = small_engine(
        WIDE,
        [
            Unit("near", "a", "han_soldier", 1000, (4, 3)),
            Unit("far", "a", "han_soldier", 1000, (7, 5)),
            Unit("host", "b", "soul_levy", 3000, (9, 0)),
        ],
    )
    gate = frozenset(base.board.at_offset(c, r) for c in (0, 1) for r in (2, 3, 4))
    board = make_board(base.rules, _grid_of(base), {"gate": gate})
    lost = EventSpec.model_validate(
        {
            "id": "lost",
            "when": {"kind": "enters_region", "region": "gate", "side": "b", "unopposed": True},
            "do": [{"kind": "defeat", "side": "a"}],
        }
    )
    scenario = dataclasses.replace(base.scenario, board=board, events=(lost,))

    eng = Engine(scenario, base.rules, 7)
    play_side(eng, General(eng, "a", "hard"))
    assert eng.state.formations["near"].pos in gate  # the nearest goes to stand in it
    assert eng.state.formations["far"].pos not in gate  # one is enough: the other goes on
    normal = Engine(scenario, base.rules, 7)
    play_side(normal, General(normal, "a", "normal"))
    assert normal.state.formations["near"].pos not in gate


def _jin_at_the_pass(small_engine: EngineFactory, hinted: bool) -> Engine:
    base = small_engine(
        ("..............",) * 9,
        [
            Unit("van", "b", "jurchen_veteran", 2000, (6, 4)),
            Unit("north", "b", "jurchen_horse", 1500, (1, 1)),
            Unit("south", "b", "jurchen_veteran", 1500, (1, 7)),
            Unit("bar", "a", "crossbowman", 800, (10, 4)),
            Unit("decoy", "a", "crossbowman", 300, (6, 8)),
        ],
        sides=(("b", "jin", "enemy"), ("a", "zhenguo", "player")),
    )
    gap = frozenset(base.board.at_offset(c, r) for c in (10, 11) for r in (3, 4, 5))
    return with_hints(base, {"gap": gap}, AiHints(pass_region="gap" if hinted else None))


def test_jin_mass_behind_the_vanguard_to_force_a_pass(small_engine: EngineFactory) -> None:
    def attacks(eng: Engine) -> list[tuple[str, str]]:
        return [(e.unit, e.target) for e in play_side(eng, General(eng, "b")) if isinstance(e, Attacked)]

    free = _jin_at_the_pass(small_engine, hinted=False)
    # Unordered, the army turns aside for easy prey (the vanguard, or a wing that flanks it).
    assert any(target == "decoy" for _unit, target in attacks(free))
    eng = _jin_at_the_pass(small_engine, hinted=True)
    start = {k: f.pos for k, f in eng.state.formations.items()}
    gap = eng.board.regions["gap"]
    struck = attacks(eng)
    pos = {k: f.pos for k, f in eng.state.formations.items()}

    def to_gap(h: Hex) -> int:
        return min(distance(h, g) for g in gap)

    assert ("van", "bar") in struck and ("van", "decoy") not in struck  # it drives at the pass
    assert to_gap(pos["van"]) < to_gap(start["van"])
    for unit in ("north", "south"):  # and the others close up behind it
        assert distance(pos[unit], pos["van"]) < distance(start[unit], pos["van"])


def test_jin_strike_first_at_whoever_bars_the_pass(small_engine: EngineFactory) -> None:
    eng = _jin_at_the_pass(small_engine, hinted=True)
    general = General(eng, "b")
    general.next_action()  # looks at the field
    assert isinstance(general.persona, Jin)
    assert general.persona.barring == frozenset({"bar"}) and general.persona.vanguard == "van"
    bar, decoy = eng.state.formations["bar"], eng.state.formations["decoy"]
    assert general.persona.target_weight(bar) > general.persona.target_weight(decoy) == 1.0


def test_wuzhu_seeks_yue_fei_for_a_duel(small_engine: EngineFactory) -> None:
    units = [
        Unit("wuzhu", "b", "personal_guard", 1000, (2, 2), hero="wanyan_wuzhu"),
        Unit("yue", "a", "zhenguo_rider", 1000, (3, 2), hero="yue_fei"),
    ]
    eng = small_engine(FIELD, units, sides=(("b", "jin", "enemy"), ("a", "zhenguo", "player")))
    assert General(eng, "b").next_action() == Challenge(unit="wuzhu", target="yue")
    far = small_engine(
        WIDE,
        [
            Unit("wuzhu", "b", "personal_guard", 1000, (4, 3), hero="wanyan_wuzhu"),
            Unit("near", "a", "crossbowman", 300, (1, 3)),
            Unit("yue", "a", "zhenguo_rider", 1000, (7, 3), hero="yue_fei"),
        ],
        sides=(("b", "jin", "enemy"), ("a", "zhenguo", "player")),
    )
    action = General(far, "b").next_action()
    yue = far.state.formations["yue"].pos
    assert isinstance(action, Move) and distance(action.to, yue) < distance(far.state.formations["wuzhu"].pos, yue)


def test_a_challenge_is_answered_by_the_challenged_sides_own_general(small_engine: EngineFactory) -> None:
    units = [
        Unit("wuzhu", "b", "personal_guard", 1000, (2, 2), hero="wanyan_wuzhu"),
        Unit("yue", "a", "zhenguo_rider", 1000, (3, 2), hero="yue_fei"),
    ]
    eng = small_engine(FIELD, units, sides=(("b", "jin", "enemy"), ("a", "zhenguo", "player")))
    match = Match(loaded_for(eng.scenario), 7, GameSettings(), seats={"a": "ai", "b": "ai"})
    answers: list[bool] = []

    class Remembering(General):
        def _answer_duel(self):  # type: ignore[no-untyped-def]
            answer = super()._answer_duel()
            answers.append(answer.accept)
            return answer

    ais = {"b": General(match.engine, "b"), "a": Remembering(match.engine, "a")}
    play_ai_turn(match, ais["b"], others=ais)
    assert match.record.actions[0] == Challenge(unit="wuzhu", target="yue")
    assert len(answers) == 1 and match.record.actions[1].kind == "answer_duel"


# -- difficulty, budget, legality, determinism ----------------------------------------------------


def test_difficulty_changes_the_choice(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD, [Unit("han", "a", "han_soldier", 1000, (2, 2)), Unit("host", "b", "soul_levy", 12000, (3, 2))]
    )
    host = eng.state.formations["host"].pos
    # The easy general weighs its own losses lightly and wades in; the normal and the hard one,
    # counting every man (nothing here is won by a kill), hold the line.
    bold = General(eng, "a", "easy").next_action()
    assert isinstance(bold, (Move, Attack))
    assert not isinstance(bold, Move) or distance(bold.to, host) == 1
    for level in ("normal", "hard"):
        assert General(eng, "a", level).next_action() == EndTurn()


def test_an_easy_general_leaves_some_formations_without_orders_each_turn(rules: Ruleset) -> None:
    scenario = build_scenario(rules, 2, size=24, per_side=12, factions=("yuqing", "yuqing"), heroes=False)
    seen: dict[str, list[frozenset[str]]] = {}
    for level in ("easy", "hard"):
        match = Match(loaded_stress(scenario), 2, GameSettings(), seats={"north": "ai", "south": "ai"})
        general = General(match.engine, "north", level)
        waiting = []
        for _turn in range(3):
            waiting.append(frozenset(f.id for f in match.state.formations_of("north") if general._hesitates(f)))
            play_ai_turn(match, general, budget=None)
            play_ai_turn(match, General(match.engine, "south", "normal"), budget=None)
        seen[level] = waiting
    assert all(not w for w in seen["hard"])  # a hard general's orders always arrive
    easy = seen["easy"]
    assert all(0 < len(w) < 12 for w in easy)  # some wait, most do not
    assert len(set(easy)) > 1  # and not the same ones every turn


def test_a_hesitating_formation_stands_still_and_a_hero_never_hesitates(small_engine: EngineFactory) -> None:
    eng = small_engine(
        WIDE,
        [Unit(f"s{i}", "a", "han_soldier", 500, (0, i)) for i in range(7)]
        + [Unit("hx", "a", "han_soldier", 500, (1, 3), hero="han_xin"), Unit("host", "b", "soul_levy", 3000, (9, 3))],
    )
    general = General(eng, "a", "easy")
    waiting = {f.id for f in eng.state.formations_of("a") if general._hesitates(f)}
    assert waiting and "hx" not in waiting
    start = {f.id: f.pos for f in eng.state.formations_of("a")}
    play_side(eng, general)
    assert all(eng.state.formations[u].pos == start[u] for u in waiting)
    assert any(eng.state.formations[u].pos != start[u] for u in start if u not in waiting)


def test_a_deadline_in_the_past_returns_at_once(scenario: Scenario, rules: Ruleset) -> None:
    eng = Engine(scenario, rules, 3)
    start = time.perf_counter()
    action = General(eng, "a").next_action(deadline=start - 1.0)
    assert time.perf_counter() - start < 0.05
    assert action in eng.legal_actions()


@pytest.mark.parametrize("seed", range(6))
def test_never_an_illegal_action_in_random_states(scenario: Scenario, rules: Ruleset, seed: int) -> None:
    eng = Engine(scenario, rules, seed)
    players = {s.id: RandomAI(eng, s.id) for s in eng.state.sides}
    for step in range(30 + 25 * seed):
        if eng.state.over:
            break
        eng.apply(players[eng.deciding_side()].next_action())
        if step % 10 == 9 and not eng.state.over:
            side = eng.deciding_side()
            for level in ("easy", "normal", "hard"):
                assert General(eng, side, level).next_action() in eng.legal_actions()


def test_same_seed_same_game(scenario: Scenario) -> None:
    def run(seed: int, level: str) -> list[Action]:
        settings = GameSettings(difficulty=level)
        match = Match(loaded_for(scenario), seed, settings, seats={"a": "ai", "b": "ai"})
        ais = make_ais(match)
        while not match.state.over:
            play_ai_turn(match, ais[match.state.active_side.id])
        return match.record.actions

    assert run(5, "easy") == run(5, "easy")
    assert run(5, "hard") == run(5, "hard")


def test_normal_general_beats_a_random_player(scenario: Scenario) -> None:
    wins = 0
    for seed in range(3):
        match = Match(loaded_for(scenario), seed, GameSettings(), seats={"a": "ai", "b": "ai"})
        players: dict[str, AI] = {"a": General(match.engine, "a"), "b": RandomAI(match.engine, "b")}
        while not match.state.over:
            match.apply(players[match.engine.deciding_side()].next_action())
        wins += match.state.winner == "a"
    assert wins == 3


def test_enemies_seen_this_turn_still_threaten_the_ground_they_stand_on_once_out_of_sight(
    small_engine: EngineFactory,
) -> None:
    """Nobody moves in another side's turn: a host the scout saw stands where it was seen after
    the scout has ridden off, and the general still weighs its reach; a general that never saw
    it does not. Forgotten once its ground is in sight again without it, and at the next turn."""
    field = (".................",) * 5
    units = [
        Unit("scout", "a", "warrior", 500, (8, 2)),
        Unit("ret", "a", "retainer", 800, (0, 2)),
        Unit("host", "b", "soul_levy", 9000, (12, 2)),
    ]
    eng = small_engine(field, units)
    board = eng.board
    host_at = eng.state.formations["host"].pos
    beside = board.at_offset(11, 2)

    def known(general: General) -> set[str]:
        general.next_action()  # a decision: the general looks at the field as it stands
        return {s.id for s in general.known_enemies()}

    general = General(eng, "a", "normal")
    assert known(general) == {"host"}
    eng.apply(Move(unit="scout", to=board.at_offset(2, 2)))
    assert known(general) == {"host"} and "host" not in general.engine.state.formations
    assert general.threat().at(beside) > 0
    newcomer = General(eng, "a", "normal")
    assert known(newcomer) == set() and newcomer.threat().at(beside) == 0

    eng.apply(EndTurn())
    eng.apply(EndTurn())  # the host's turn came between: it may have marched anywhere
    assert eng.state.formations["host"].pos == host_at
    assert known(general) == set()

    scout = eng.state.formations["scout"]
    scout.pos = board.at_offset(8, 2)
    assert known(general) == {"host"}
    scout.pos = board.at_offset(2, 2)
    assert known(general) == {"host"}
    del eng.state.formations["host"]
    scout.pos = board.at_offset(8, 2)
    assert known(general) == set()  # its ground in sight and empty: it is gone
    scout.pos = board.at_offset(2, 2)
    assert known(general) == set()
