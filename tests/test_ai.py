"""The basic AI: legal, decisive when the forecast favours it, prudent when it does not."""

from __future__ import annotations

import pytest
from conftest import EngineFactory, Unit, loaded_for

from game.ai.basic import BasicAI
from game.ai.driver import MAX_ACTIONS_PER_TURN, make_ais, play_ai_turn
from game.core.actions import Action, Attack, EndTurn, Move
from game.core.engine import GameSettings
from game.core.hexgrid import distance
from game.core.legal import legal_actions
from game.core.scenario import Scenario
from game.core.state import state_hash
from game.record.match import Match
from game.record.seats import Commander

FIELD = (".......",) * 5
ALL_AI = GameSettings()
AIS: dict[str, Commander] = {"a": "ai", "b": "ai"}


def ai_game(scenario: Scenario, seed: int) -> Match:
    """AI against AI, checking every action against legal_actions before it is applied."""
    match = Match(loaded_for(scenario), seed, ALL_AI, seats=AIS)
    ais = {s.id: BasicAI(match.engine, s.id) for s in match.state.sides}
    side_turns = 0
    while not match.state.over:
        side_turns += 1
        assert side_turns <= 2 * scenario.turn_limit, "the game outlived its turn limit"
        for _ in range(MAX_ACTIONS_PER_TURN):
            # A challenge to a duel is answered by the side challenged.
            decider = ais[match.engine.deciding_side()]
            action = decider.next_action()
            assert action in legal_actions(match.engine), f"AI chose an illegal {action}"
            match.apply(action)
            if isinstance(action, EndTurn) or match.state.over:
                break
        else:  # pragma: no cover - the assertion is the point
            raise AssertionError("the AI never ended its turn")
    return match


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ai_plays_only_legal_actions_and_the_game_ends(scenario: Scenario, seed: int) -> None:
    match = ai_game(scenario, seed)
    st = match.state
    assert st.over and st.turn <= scenario.turn_limit
    assert st.end_reason in ("annihilation", "turn_limit")
    kinds = {a.kind for a in match.record.actions}
    assert {"move", "attack", "end_turn"} <= kinds  # it manoeuvres and it fights


def test_ai_game_through_the_driver_is_reproducible(scenario: Scenario) -> None:
    def run(seed: int) -> tuple[list[Action], str]:
        match = Match(loaded_for(scenario), seed, ALL_AI, seats=AIS)
        ais = make_ais(match)
        assert set(ais) == {"a", "b"}
        while not match.state.over:
            play_ai_turn(match, ais[match.state.active_side.id])
        assert match.state.turn <= scenario.turn_limit
        return match.record.actions, state_hash(match.state)

    first = run(11)
    assert run(11) == first


def test_ai_attacks_a_weak_neighbour(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [Unit("han", "a", "han_soldier", 3000, (2, 2), hero="han_xin"), Unit("levy", "b", "soul_levy", 500, (3, 2))],
    )
    fc = eng.forecast(Attack(unit="han", target="levy"))
    assert fc.destroys_defender
    assert BasicAI(eng, "a").next_action() == Attack(unit="han", target="levy")


def test_ai_moves_in_to_strike_then_strikes(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [Unit("han", "a", "han_soldier", 3000, (0, 2)), Unit("levy", "b", "soul_levy", 800, (3, 2))],
    )
    ai = BasicAI(eng, "a")
    first = ai.next_action()
    assert isinstance(first, Move) and first.unit == "han"
    assert distance(first.to, eng.state.formations["levy"].pos) == 1
    eng.apply(first)
    assert ai.next_action() == Attack(unit="han", target="levy")


def test_ai_does_not_attack_a_hopeless_target(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [Unit("ret", "a", "retainer", 100, (2, 2)), Unit("host", "b", "soul_levy", 10000, (3, 2))],
    )
    fc = eng.forecast(Attack(unit="ret", target="host"))
    assert fc.attacker_losses[1] == 100 and fc.defender_losses[1] < 10  # suicide
    assert eng.attack_targets("ret") == ["host"]  # it could, legally
    action = BasicAI(eng, "a").next_action()
    assert not isinstance(action, Attack)
    assert action == EndTurn()  # in contact with no good attack: hold the line


def test_ai_prefers_the_better_of_two_attacks(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("han", "a", "han_soldier", 2000, (2, 2)),
            Unit("big", "b", "soul_levy", 20000, (3, 2)),  # costly to fight
            Unit("small", "b", "soul_levy", 300, (1, 2)),  # wiped out for nothing
        ],
    )
    assert BasicAI(eng, "a").next_action() == Attack(unit="han", target="small")


def test_ai_advances_towards_the_enemy_when_it_cannot_fight(scenario: Scenario) -> None:
    match = Match(loaded_for(scenario), 3, ALL_AI, seats=AIS)
    eng = match.engine

    def gap() -> int:
        return sum(
            min(distance(f.pos, e.pos) for e in eng.state.formations_of("b")) for f in eng.state.formations_of("a")
        )

    before = gap()
    play_ai_turn(match, BasicAI(eng, "a"))
    assert gap() < before


def test_ai_ends_the_turn_when_it_is_not_its_turn_or_the_game_is_over(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [Unit("han", "a", "han_soldier", 3000, (2, 2)), Unit("levy", "b", "soul_levy", 10, (3, 2))],
    )
    assert BasicAI(eng, "b").next_action() == EndTurn()
    eng.apply(Attack(unit="han", target="levy"))
    assert eng.state.over
    assert BasicAI(eng, "a").next_action() == EndTurn()


def test_neutral_ai_keeps_its_gates_shut(small_engine: EngineFactory) -> None:
    eng = small_engine(
        FIELD,
        [
            Unit("fort", "n", "fort_garrison", 3000, (2, 2)),
            Unit("levy", "b", "soul_levy", 100, (3, 2)),
            Unit("x", "a", "han_soldier", 10, (6, 4)),
        ],
        sides=(("n", "tangut", "neutral"), ("a", "yuqing", "player"), ("b", "hailing", "enemy")),
    )
    assert eng.state.active_side.id == "n"
    assert BasicAI(eng, "n").next_action() == EndTurn()


def test_driver_ends_the_turn_if_the_ai_blunders(small_engine: EngineFactory) -> None:
    """A buggy AI must not stall the game: the driver ends its turn instead."""
    eng = small_engine(
        FIELD,
        [Unit("han", "a", "han_soldier", 3000, (2, 2)), Unit("levy", "b", "soul_levy", 500, (6, 4))],
    )
    match = Match(loaded_for(eng.scenario), 1, ALL_AI, seats=AIS)

    class Blunderer(BasicAI):
        def next_action(self) -> Attack:  # type: ignore[override]
            return Attack(unit="han", target="levy")  # not adjacent

    seen: list[object] = []
    play_ai_turn(match, Blunderer(match.engine, "a"), on_action=seen.append)
    assert seen == [EndTurn()]
    assert match.record.actions == [EndTurn()]
    assert match.state.active_side.id == "b"
