"""Enumerating the legal actions of the deciding side, all at once or formation by formation
(random players, search, tests, AI baselines)."""

from __future__ import annotations

from . import duel, skills
from .actions import Action, AnswerDuel, Attack, Blast, Capture, EndTurn, Fire, Move, Rest
from .hexgrid import neighbours
from .movement import MAX_FATIGUE_TO_FORCE
from .state import Formation
from .table import Table
from .vision import search_moves_seen


def legal_actions(engine: Table, forced_marches: bool = False) -> list[Action]:
    """Every legal action in a stable order; EndTurn is last. Forced marches (the same hexes
    and more, at a cost) are listed only when asked for, to keep the list short."""
    state = engine.state
    if state.over:
        return []
    if state.pending_duel is not None:
        return [AnswerDuel(accept=True), AnswerDuel(accept=False)]
    actions: list[Action] = []
    for orders in legal_orders_by_formation(engine, forced_marches).values():
        actions.extend(orders)
    actions.append(EndTurn())
    return actions


def legal_orders_by_formation(engine: Table, forced_marches: bool = False) -> dict[str, list[Action]]:
    """Formation id -> its legal orders, for every formation of the side to move that has any, in
    the order of ``legal_actions`` (which is these lists one after another, then EndTurn). Empty
    when the game is over or a challenge to a duel awaits its answer (no formation is ordered then)."""
    state = engine.state
    if state.over or state.pending_duel is not None:
        return {}
    by_formation: dict[str, list[Action]] = {}
    for f in state.formations_of(state.active_side.id):
        orders = _orders(engine, f, forced_marches)
        if orders:
            by_formation[f.id] = orders
    return by_formation


def legal_orders(engine: Table, unit_id: str, forced_marches: bool = False) -> list[Action]:
    """The legal orders of one formation now (empty for one that is not the moving side's, or
    while a challenge awaits its answer)."""
    state = engine.state
    f = engine.formation(unit_id)
    if state.over or state.pending_duel is not None or f.side != state.active_side.id:
        return []
    return _orders(engine, f, forced_marches)


def _orders(engine: Table, f: Formation, forced_marches: bool) -> list[Action]:
    state = engine.state
    actions: list[Action] = []
    if engine.can_move(f):
        move_map = search_moves_seen(state, engine.board, engine.rules, f)
        actions.extend(Move(unit=f.id, to=h) for h in sorted(move_map.destinations))
        if forced_marches and f.fatigue <= MAX_FATIGUE_TO_FORCE:
            forced = search_moves_seen(state, engine.board, engine.rules, f, forced=True)
            extra = sorted(forced.destinations - move_map.destinations)
            actions.extend(Move(unit=f.id, to=h, forced=True) for h in extra)
    actions.extend(Attack(unit=f.id, target=t) for t in engine.attack_targets(f.id))
    actions.extend(Fire(unit=f.id, target=t) for t in engine.fire_targets(f.id))
    if engine.can_act(f) and f.charges > 0:
        for t in engine.fire_targets(f.id) or _adjacent_enemies(engine, f.id):
            actions.append(Blast(unit=f.id, at=state.formations[t].pos))
    if engine.can_capture(f):
        actions.append(Capture(unit=f.id))
    if engine.can_act(f) and not f.moved:
        actions.append(Rest(unit=f.id))
    actions.extend(_skill_actions(engine, f.id))
    return actions


def _adjacent_enemies(engine: Table, unit_id: str) -> list[str]:
    f = engine.state.formations[unit_id]
    around = set(neighbours(f.pos))
    return [t for t in engine.attack_targets(unit_id) if engine.state.formations[t].pos in around]


def _skill_actions(engine: Table, unit_id: str) -> list[Action]:
    """Skills and challenges the formation's hero can use now (see game.core.skills and duel)."""
    return [*skills.legal_uses(engine, unit_id), *duel.legal_challenges(engine, unit_id)]
