"""Invariants under random play: legal actions apply, illegal ones change nothing, men and
souls are conserved, and a replay of the same actions reproduces every state hash."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from game.core.actions import ACTION_LIST_ADAPTER, Action, Attack, EndTurn, Move
from game.core.engine import Engine, IllegalAction
from game.core.hexgrid import Hex, distance
from game.core.legal import legal_actions
from game.core.rules import Ruleset
from game.core.scenario import Scenario
from game.core.state import GameState, state_hash

ILLEGAL_KINDS = (
    "unknown_unit",
    "unknown_target",
    "enemy_unit",
    "unreachable",
    "off_map",
    "non_adjacent",
    "friend",
    "move_twice",
    "act_twice",
)


def check_invariants(engine: Engine, applied: int) -> None:
    gs: GameState = engine.state
    rules = engine.rules
    start = sum(s.men_start for s in gs.sides) + gs.men_entered
    on_board = sum(f.men for f in gs.formations.values())
    pouches = sum(s.pouch for s in gs.sides)
    assert start == on_board + gs.souls_on_field() + pouches + gs.faded_souls
    assert gs.men_ever() == gs.men_accounted()
    assert all(n > 0 for by_side in gs.field_souls.values() for n in by_side.values())
    assert all(by_side for by_side in gs.field_souls.values())
    assert all(engine.board.terrain.get(Hex.parse(k)) is not None for k in gs.field_souls)
    assert gs.faded_souls >= 0 and all(s.pouch >= 0 for s in gs.sides)
    positions = [f.pos for f in gs.formations.values()]
    assert len(positions) == len(set(positions)), "two formations on one hex"
    for f in gs.formations.values():
        assert 0 < f.men <= f.max_men
        assert 0 <= f.morale <= 100 and 0 <= f.fatigue <= 100 and f.experience >= 0
        assert f.pos in engine.board
        assert engine.board.move_cost(f.pos, rules.units[f.type].move_class) is not None
        # Acting ends moving, except for a breakthrough charge that broke its enemy.
        assert f.moved or not f.acted or "may_move_after_attack" in f.effects
    assert gs.action_index == applied
    assert 1 <= gs.turn <= gs.turn_limit
    assert 0 <= gs.active < len(gs.sides)


def illegal_action(engine: Engine, kind: str, data: st.DataObject) -> tuple[Action, str] | None:
    """An action that must be refused in the current state and the reason it must give."""
    gs = engine.state
    if gs.pending_duel is not None:
        return EndTurn(), "duel_pending"  # while a challenge waits, only its answer is legal
    side = gs.active_side.id
    own = gs.formations_of(side)
    enemies = [f for f in gs.formations.values() if f.side != side]
    hexes = sorted(engine.board.hexes())
    if kind == "unknown_unit":
        return Move(unit="ghost", to=data.draw(st.sampled_from(hexes))), "unknown_unit"
    if kind == "unknown_target" and own:
        f = data.draw(st.sampled_from(own))
        return Attack(unit=f.id, target="ghost"), "unknown_unit"
    if kind == "enemy_unit" and enemies:
        e = data.draw(st.sampled_from(enemies))
        if data.draw(st.booleans()) or not own:
            return Move(unit=e.id, to=data.draw(st.sampled_from(hexes))), "not_your_unit"
        return Attack(unit=e.id, target=data.draw(st.sampled_from(own)).id), "not_your_unit"
    movers = [f for f in own if engine.can_move(f)]
    if kind == "unreachable" and movers:
        f = data.draw(st.sampled_from(movers))
        away = [h for h in hexes if h not in engine.moves(f.id).destinations]
        return Move(unit=f.id, to=data.draw(st.sampled_from(away))), "unreachable"
    if kind == "off_map" and movers:
        f = data.draw(st.sampled_from(movers))
        return Move(unit=f.id, to=Hex(data.draw(st.integers(30, 10**6)), -1)), "off_map"
    fighters = [f for f in own if engine.can_attack(f)]
    if kind == "non_adjacent" and fighters:
        f = data.draw(st.sampled_from(fighters))
        far = [e for e in enemies if distance(e.pos, f.pos) > 1]
        if far:
            return Attack(unit=f.id, target=data.draw(st.sampled_from(far)).id), "not_adjacent"
    if kind == "friend" and fighters:
        f = data.draw(st.sampled_from(fighters))
        return Attack(unit=f.id, target=data.draw(st.sampled_from(own)).id), "not_an_enemy"
    if kind == "move_twice":
        moved = [f for f in own if f.moved and not f.routed]
        if moved:
            return Move(
                unit=data.draw(st.sampled_from(moved)).id, to=data.draw(st.sampled_from(hexes))
            ), "already_moved"
    if kind == "act_twice" and enemies:
        acted = [f for f in own if f.acted and not f.routed]
        if acted:
            return Attack(
                unit=data.draw(st.sampled_from(acted)).id, target=data.draw(st.sampled_from(enemies)).id
            ), "already_acted"
    return None


def pick_legal(engine: Engine, data: st.DataObject) -> Action:
    acts = legal_actions(engine, forced_marches=True)
    if engine.state.pending_duel is not None:
        return data.draw(st.sampled_from(acts))  # accept or refuse
    assert acts and acts[-1] == EndTurn()
    if len(acts) == 1 or data.draw(st.integers(0, 99)) < 15:
        return acts[-1]
    return data.draw(st.sampled_from(acts[:-1]))


def probe(engine: Engine, data: st.DataObject) -> None:
    """Any (unit, hex) or (unit, target) pair is accepted exactly when legal_actions lists it."""
    legal = legal_actions(engine)
    ids = sorted(engine.state.formations)
    unit = data.draw(st.sampled_from(ids))
    if data.draw(st.booleans()):
        action: Action = Move(unit=unit, to=data.draw(st.sampled_from(sorted(engine.board.hexes()))))
    else:
        action = Attack(unit=unit, target=data.draw(st.sampled_from(ids)))
    listed = action in legal
    before = state_hash(engine.state)
    trial = Engine(engine.scenario, engine.rules, engine.seed, engine.settings, engine.state.model_copy(deep=True))
    try:
        trial.apply(action)
    except IllegalAction:
        assert not listed, f"{action} is listed as legal but refused"
    else:
        assert listed, f"{action} is accepted but not listed as legal"
    assert state_hash(engine.state) == before


@settings(max_examples=25)
@given(data=st.data(), seed=st.integers(0, (1 << 63) - 1), steps=st.integers(10, 140))
def test_random_play_keeps_every_invariant(
    scenario: Scenario, rules: Ruleset, data: st.DataObject, seed: int, steps: int
) -> None:
    engine = Engine(scenario, rules, seed)
    applied: list[Action] = []
    hashes: list[str] = []
    check_invariants(engine, 0)
    for _ in range(steps):
        if engine.state.over:
            before = state_hash(engine.state)
            for action in (EndTurn(), *legal_actions(engine)):
                try:
                    engine.apply(action)
                except IllegalAction as exc:
                    assert exc.reason == "game_over"
                else:  # pragma: no cover - the assertion is the point
                    raise AssertionError("an action was accepted after the game ended")
            assert state_hash(engine.state) == before
            break
        roll = data.draw(st.integers(0, 9))
        if roll < 3:
            kind = data.draw(st.sampled_from(ILLEGAL_KINDS))
            bad = illegal_action(engine, kind, data)
            if bad is not None:
                action, reason = bad
                before = state_hash(engine.state)
                try:
                    engine.apply(action)
                except IllegalAction as exc:
                    assert exc.reason == reason, f"{kind}: {action} -> {exc.reason}"
                else:  # pragma: no cover - the assertion is the point
                    raise AssertionError(f"illegal {kind} action accepted: {action}")
                assert state_hash(engine.state) == before
                check_invariants(engine, len(applied))
                continue
        if roll == 3:
            probe(engine, data)
            continue
        action = pick_legal(engine, data)
        engine.apply(action)
        applied.append(action)
        hashes.append(state_hash(engine.state))
        check_invariants(engine, len(applied))

    event(f"game over: {engine.state.over}")
    attacks = sum(isinstance(a, Attack) for a in applied)
    event("attacks: " + ("3 or more" if attacks >= 3 else str(attacks)))

    # The action list through JSON, as a record stores it, replays to the same hashes.
    replayed = ACTION_LIST_ADAPTER.validate_json(ACTION_LIST_ADAPTER.dump_json(applied))
    assert replayed == applied
    again = Engine(scenario, rules, seed)
    for i, action in enumerate(replayed):
        again.apply(action)
        assert state_hash(again.state) == hashes[i], f"replay diverged at action {i + 1}"
    assert again.state == engine.state


@settings(max_examples=10)
@given(seed=st.integers(0, (1 << 63) - 1))
def test_a_different_seed_only_changes_dice(scenario: Scenario, rules: Ruleset, seed: int) -> None:
    """Moves and turn ends never consume randomness: the hash does not depend on the seed."""
    a, b = Engine(scenario, rules, seed), Engine(scenario, rules, seed ^ 0x5A5A)
    for _ in range(6):
        acts = [x for x in legal_actions(a) if not isinstance(x, Attack)]
        action = acts[len(acts) // 2] if len(acts) > 1 else EndTurn()
        a.apply(action)
        b.apply(action)
        assert state_hash(a.state) == state_hash(b.state)
