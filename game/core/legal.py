"""Enumerating the legal actions of the side to move (random players, tests, AI baselines)."""

from __future__ import annotations

from .actions import Action, Attack, EndTurn, Move
from .engine import Engine
from .movement import enemy_zoc, search_moves


def legal_actions(engine: Engine) -> list[Action]:
    """Every legal action for the side to move, in a stable order; EndTurn is always last."""
    state = engine.state
    if state.over:
        return []
    side = state.active_side.id
    occupancy = state.occupancy()
    zoc = enemy_zoc(state, side)
    actions: list[Action] = []
    for f in state.formations_of(side):
        if engine.can_move(f):
            move_map = search_moves(state, engine.board, engine.rules, f, occupancy, zoc)
            actions.extend(Move(unit=f.id, to=h) for h in sorted(move_map.destinations))
        actions.extend(Attack(unit=f.id, target=t) for t in engine.attack_targets(f.id))
    actions.append(EndTurn())
    return actions
