"""The engine: initial state, validation of every action, turn order, victory."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit

from game.core.actions import Attack, EndTurn, Move
from game.core.engine import Engine, GameSettings, IllegalAction
from game.core.events import Attacked, Destroyed, Event, GameOver, Moved, SoulsReleased, TurnEnded
from game.core.hexgrid import Hex, distance
from game.core.rules import Ruleset
from game.core.scenario import Scenario
from game.core.state import state_hash
from game.record.seats import Seats

FIELD = (".......",) * 5


def refused(engine: Engine, action: Move | Attack | EndTurn, reason: str) -> IllegalAction:
    """Apply an illegal action: it must raise with ``reason`` and change nothing at all."""
    before = state_hash(engine.state)
    dump = engine.state.model_dump()
    with pytest.raises(IllegalAction) as exc:
        engine.apply(action)
    assert exc.value.reason == reason, exc.value.message
    assert exc.value.message and "\n" not in exc.value.message
    assert state_hash(engine.state) == before
    assert engine.state.model_dump() == dump
    return exc.value


# -- the initial state ----------------------------------------------------------------------


def test_initial_state_follows_the_scenario(engine: Engine, scenario: Scenario, rules: Ruleset) -> None:
    st = engine.state
    assert st.turn == 1 and st.active == 0 and st.action_index == 0
    assert not st.over and st.winner is None
    assert [s.id for s in st.sides] == ["a", "b"]
    assert set(st.formations) == {f.id for f in scenario.formations}
    for spec in scenario.formations:
        f = st.formations[spec.id]
        assert (f.side, f.type, f.men, f.pos, f.hero) == (spec.side, spec.type, spec.men, spec.pos, spec.hero)
        assert f.max_men == spec.men  # max_men defaults to the starting men
        assert f.morale == rules.units[spec.type].morale
        assert not f.moved and not f.acted and f.fatigue == 0
    for side in st.sides:
        assert side.men_start == sum(f.men for f in scenario.formations if f.side == side.id)
        assert side.pouch == 0
    assert all("controller" not in side for side in st.model_dump()["sides"])  # no part of the rules
    assert st.field_souls == {} and st.faded_souls == 0


def test_seats_are_chosen_else_by_role_and_settings_cap_the_turns(scenario: Scenario, rules: Ruleset) -> None:
    chosen = Seats.for_sides(scenario.sides, {"a": "ai", "b": "human"})
    assert not chosen.is_human("a") and chosen.is_human("b") and chosen.humans() == ["b"]
    by_role = Seats.for_sides(scenario.sides, {})
    assert by_role.commanders() == {"a": "human", "b": "ai"}
    st = Engine(scenario, rules, 1, GameSettings(max_turns=3)).state
    assert st.turn_limit == 3
    assert Engine(scenario, rules, 1, GameSettings(max_turns=99)).state.turn_limit == scenario.turn_limit


def test_explicit_max_men(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD, [Unit("x", "a", "han_soldier", 700, (0, 0), max_men=1000), Unit("y", "b", "soul_levy", 5, (6, 4))]
    )
    assert eng.state.formations["x"].max_men == 1000


# -- moving -----------------------------------------------------------------------------------


def test_move_goes_along_the_cheapest_path(engine: Engine) -> None:
    mm = engine.moves("a_han")
    dest = max(sorted(mm.destinations), key=lambda h: mm.cost[h])
    events = engine.apply(Move(unit="a_han", to=dest))
    assert events == [Moved(unit="a_han", path=tuple(mm.path_to(dest) or []))]
    f = engine.state.formations["a_han"]
    assert f.pos == dest and f.moved and not f.acted
    assert engine.state.action_index == 1


def test_move_refusals(engine: Engine) -> None:
    refused(engine, Move(unit="nobody", to=Hex(0, 0)), "unknown_unit")
    refused(engine, Move(unit="b_levy", to=engine.state.formations["b_levy"].pos + Hex(1, 0)), "not_your_unit")
    refused(engine, Move(unit="a_han", to=Hex(50, 50)), "off_map")
    han = engine.state.formations["a_han"]
    refused(engine, Move(unit="a_han", to=han.pos), "unreachable")  # standing still is no move
    refused(engine, Move(unit="a_han", to=engine.state.formations["a_retainer"].pos), "unreachable")
    far = max(engine.board.hexes(), key=lambda h: (distance(h, han.pos), h))
    refused(engine, Move(unit="a_han", to=far), "unreachable")
    dest = min(engine.moves("a_han").destinations)
    engine.apply(Move(unit="a_han", to=dest))
    back = min(engine.moves("a_retainer").destinations)
    refused(engine, Move(unit="a_han", to=back), "already_moved")


def test_units_of_the_other_side_cannot_move_until_their_turn(engine: Engine) -> None:
    levy = engine.state.formations["b_levy"]
    dest = min(engine.moves("b_levy").destinations)
    refused(engine, Move(unit="b_levy", to=dest), "not_your_unit")
    engine.apply(EndTurn())
    engine.apply(Move(unit="b_levy", to=dest))
    assert levy.pos == dest


# -- attacking --------------------------------------------------------------------------------


def _front(small_engine: EngineFactory, **kw: object) -> Engine:
    """a: han soldiers and a decapitation squad; b: two levies, one adjacent and one far."""
    return small_engine(
        FIELD,
        [
            Unit("han", "a", "han_soldier", 1000, (2, 2)),
            Unit("squad", "a", "decapitation_squad", 13, (2, 1)),
            Unit("ret", "a", "retainer", 100, (2, 4)),
            Unit("near", "b", "soul_levy", 5000, (3, 2)),
            Unit("far", "b", "soul_levy", 500, (6, 4)),
        ],
        **kw,
    )


def test_attack_refusals(small_engine: EngineFactory) -> None:
    eng = _front(small_engine)
    refused(eng, Attack(unit="ghost", target="near"), "unknown_unit")
    refused(eng, Attack(unit="han", target="ghost"), "unknown_unit")
    refused(eng, Attack(unit="near", target="han"), "not_your_unit")
    refused(eng, Attack(unit="han", target="far"), "not_adjacent")
    refused(eng, Attack(unit="han", target="squad"), "not_an_enemy")
    refused(eng, Attack(unit="han", target="han"), "not_an_enemy")
    refused(eng, Attack(unit="squad", target="near"), "cannot_attack")  # no line combat
    eng.apply(Attack(unit="han", target="near"))
    refused(eng, Attack(unit="han", target="near"), "already_acted")
    # No moving after fighting.
    refused(eng, Move(unit="han", to=eng.board.at_offset(1, 3)), "already_moved")


def test_move_then_attack_is_one_turn(small_engine: EngineFactory) -> None:
    eng = _front(small_engine)
    eng.apply(Move(unit="ret", to=eng.board.at_offset(5, 4)))
    events = eng.apply(Attack(unit="ret", target="far"))
    assert isinstance(events[0], Attacked)
    f = eng.state.formations["ret"]
    assert f.moved and f.acted


def test_attack_effects(small_engine: EngineFactory) -> None:
    eng = _front(small_engine)
    near_pos = eng.state.formations["near"].pos
    han_pos = eng.state.formations["han"].pos
    events = eng.apply(Attack(unit="han", target="near"))
    hit = events[0]
    assert isinstance(hit, Attacked) and hit.defender_losses > 0 and hit.attacker_losses > 0
    assert eng.state.formations["near"].men == 5000 - hit.defender_losses
    assert eng.state.formations["han"].men == 1000 - hit.attacker_losses
    assert SoulsReleased(at=near_pos, count=hit.defender_losses) in events
    assert SoulsReleased(at=han_pos, count=hit.attacker_losses) in events
    # The fallen of each side lie where they fell.
    assert eng.state.field_souls == {
        near_pos.key(): {"b": hit.defender_losses},
        han_pos.key(): {"a": hit.attacker_losses},
    }
    assert eng.state.formations["han"].experience == 1
    assert eng.state.formations["near"].experience == 1


def test_destroyed_formations_leave_the_board_and_their_souls_stay(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("han", "a", "han_soldier", 1000, (2, 2)),
            Unit("crumbs", "b", "soul_levy", 20, (3, 2)),
            Unit("other", "b", "soul_levy", 20, (6, 4)),
        ],
    )
    pos = eng.state.formations["crumbs"].pos
    events = eng.apply(Attack(unit="han", target="crumbs"))
    assert Destroyed(unit="crumbs", side="b", at=pos) in events
    assert "crumbs" not in eng.state.formations
    assert eng.state.field_souls[pos.key()] == {"b": 20}
    assert not eng.state.over  # "other" is still on the field
    # The hex is free again.
    assert pos not in eng.state.occupancy()


# -- turns ------------------------------------------------------------------------------------


def test_turn_order_and_per_turn_flags(engine: Engine) -> None:
    dest = min(engine.moves("a_han").destinations)
    engine.apply(Move(unit="a_han", to=dest))
    events = engine.apply(EndTurn())
    assert events == [TurnEnded(side="a", next_side="b", turn=1)]
    assert engine.state.active_side.id == "b" and engine.state.turn == 1
    # a's flags stay set during b's turn; a's units are not b's to use.
    assert engine.state.formations["a_han"].moved
    bdest = min(engine.moves("b_rider").destinations)
    engine.apply(Move(unit="b_rider", to=bdest))
    events = engine.apply(EndTurn())
    assert events == [TurnEnded(side="b", next_side="a", turn=2)]
    assert engine.state.turn == 2 and engine.state.active == 0
    # At the start of its turn a side's formations are fresh again; the other side's are not.
    assert not engine.state.formations["a_han"].moved
    assert engine.state.formations["b_rider"].moved
    engine.apply(Move(unit="a_han", to=min(engine.moves("a_han").destinations)))


def test_three_sides_take_turns_in_order(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("x", "a", "han_soldier", 100, (0, 0)),
            Unit("y", "b", "soul_levy", 100, (6, 4)),
            Unit("z", "n", "fort_garrison", 100, (6, 0)),
        ],
        sides=(("a", "yuqing", "player"), ("n", "tangut", "neutral"), ("b", "hailing", "enemy")),
    )
    order = []
    for _ in range(4):
        order.append(eng.state.active_side.id)
        eng.apply(EndTurn())
    assert order == ["a", "n", "b", "a"]
    assert eng.state.turn == 2


# -- the end of the game ----------------------------------------------------------------------


def test_annihilation_wins_and_ends_the_game(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [Unit("han", "a", "han_soldier", 1000, (2, 2)), Unit("last", "b", "soul_levy", 20, (3, 2))],
    )
    events = eng.apply(Attack(unit="han", target="last"))
    assert events[-1] == GameOver(winner="a", reason="annihilation")
    st = eng.state
    assert st.over and st.winner == "a" and st.end_reason == "annihilation"
    assert eng.legal_actions() == []
    refused(eng, EndTurn(), "game_over")
    refused(eng, Move(unit="han", to=eng.board.at_offset(0, 0)), "game_over")


def test_neutrals_do_not_keep_a_battle_going(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("han", "a", "han_soldier", 1000, (2, 2)),
            Unit("last", "b", "soul_levy", 20, (3, 2)),
            Unit("fort", "n", "fort_garrison", 500, (6, 0)),
        ],
        sides=(("a", "yuqing", "player"), ("b", "hailing", "enemy"), ("n", "tangut", "neutral")),
    )
    eng.apply(Attack(unit="han", target="last"))
    assert eng.state.over and eng.state.winner == "a"


def _play_to_turn_limit(eng: Engine) -> list[Event]:
    events = []
    while not eng.state.over:
        events.extend(eng.apply(EndTurn()))
    return events


@pytest.mark.parametrize("outcome, winner", [("draw", None), ("b", "b"), ("a", "a")])
def test_turn_limit_outcome_set_by_the_scenario(small_engine: EngineFactory, outcome: str, winner: str | None) -> None:
    eng = _front(small_engine, turn_limit=2, outcome=outcome)
    eng.apply(Attack(unit="han", target="near"))  # a is ahead on losses; the scenario decides anyway
    events = _play_to_turn_limit(eng)
    st = eng.state
    assert st.over and st.winner == winner and st.end_reason == "turn_limit"
    assert events[-1] == GameOver(winner=winner, reason="turn_limit")
    # Every side had exactly two turns: four turn ends. An event's turn is the one the next
    # side plays; the last one, with no next side, names the final turn.
    ends = [e for e in events if isinstance(e, TurnEnded)]
    assert [(e.side, e.next_side, e.turn) for e in ends] == [
        ("a", "b", 1),
        ("b", "a", 2),
        ("a", "b", 2),
        ("b", "b", 2),
    ]
    assert st.turn == 2


def test_attrition_goes_to_the_side_that_destroyed_the_larger_share(small_engine: EngineFactory) -> None:
    eng = _front(small_engine, turn_limit=1, outcome="attrition")
    eng.apply(Attack(unit="han", target="near"))  # ~600 of b's 5,500 for ~70 of a's 1,113
    _play_to_turn_limit(eng)
    assert eng.state.winner == "a"

    # A feeble attack loses more of its own side, in proportion, than it destroys.
    eng = small_engine(
        FIELD,
        [Unit("ret", "a", "retainer", 400, (2, 2)), Unit("levy", "b", "soul_levy", 1500, (3, 2))],
        turn_limit=1,
        outcome="attrition",
    )
    hit = eng.apply(Attack(unit="ret", target="levy"))[0]
    assert isinstance(hit, Attacked)
    assert "ret" in eng.state.formations
    assert hit.attacker_losses / 400 > hit.defender_losses / 1500
    _play_to_turn_limit(eng)
    assert eng.state.winner == "b" and eng.state.end_reason == "turn_limit"


def test_attrition_with_no_losses_is_a_draw(small_engine: EngineFactory) -> None:
    eng = _front(small_engine, turn_limit=3, outcome="attrition")
    _play_to_turn_limit(eng)
    assert eng.state.over and eng.state.winner is None and eng.state.turn == 3


def test_max_turns_ends_the_game_early(scenario: Scenario, rules: Ruleset) -> None:
    eng = Engine(scenario, rules, 5, GameSettings(max_turns=2))
    n = len(_play_to_turn_limit(eng))
    assert eng.state.turn == 2 and eng.state.over
    assert n == 4 + 1  # four turn ends and the game over


# -- legal actions ----------------------------------------------------------------------------


def test_legal_actions_are_complete_and_all_apply(small_engine: EngineFactory) -> None:
    eng = _front(small_engine)
    acts = eng.legal_actions()
    assert acts[-1] == EndTurn()
    assert acts == eng.legal_actions()  # stable
    attacks = [a for a in acts if isinstance(a, Attack)]
    assert attacks == [Attack(unit="han", target="near")]  # the squad may not, 'far' is far
    moves = {(a.unit, a.to) for a in acts if isinstance(a, Move)}
    for unit in ("han", "squad", "ret"):
        assert {to for u, to in moves if u == unit} == set(eng.moves(unit).destinations)
    assert not any(u in ("near", "far") for u, _ in moves)
    for a in acts:
        trial = _front(small_engine)
        trial.apply(a)  # must not raise


def test_legal_actions_shrink_as_units_are_used(small_engine: EngineFactory) -> None:
    eng = _front(small_engine)
    eng.apply(Attack(unit="han", target="near"))
    acts = eng.legal_actions()
    assert not any(getattr(a, "unit", None) == "han" for a in acts)
    eng.apply(Move(unit="ret", to=eng.board.at_offset(1, 3)))
    acts = eng.legal_actions()
    assert not any(isinstance(a, Move) and a.unit == "ret" for a in acts)


# -- the engine's API: one way each ------------------------------------------------------------


def test_a_clone_is_the_same_game_on_a_state_of_its_own(engine: Engine) -> None:
    twin = engine.clone()
    assert twin.hash() == engine.hash() == state_hash(engine.state) and twin.state == engine.state
    twin.apply(EndTurn())
    assert twin.hash() != engine.hash() and engine.state.action_index == 0


def test_is_legal_says_what_apply_would_and_changes_nothing(engine: Engine) -> None:
    before = engine.hash()
    legal = engine.legal_actions()
    assert legal and all(engine.is_legal(a) for a in legal)
    f = engine.state.formations_of("a")[0]
    assert not engine.is_legal(Move(unit=f.id, to=Hex(99, 99)))
    assert not engine.is_legal(Move(unit="nobody", to=f.pos))
    assert engine.hash() == before  # asking tries on a clone


def test_seeing_another_state_keeps_the_game(engine: Engine) -> None:
    view = engine.state.model_copy(deep=True)
    seen = engine.seeing(view)
    assert seen.state is view and (seen.scenario, seen.rules, seen.seed, seen.settings) == (
        engine.scenario,
        engine.rules,
        engine.seed,
        engine.settings,
    )
