"""Who fights whom: allies, neutral sides that join when attacked, and fortress gates."""

from __future__ import annotations

from .state import GameState


def are_allied(state: GameState, side_a: str, side_b: str) -> bool:
    if side_a == side_b:
        return True
    a, b = state.side(side_a), state.side(side_b)
    return side_b in a.allies or side_a in b.allies


def are_enemies(state: GameState, side_a: str, side_b: str) -> bool:
    """Whether two sides fight each other now. A neutral side is at peace until attacked."""
    if side_a == side_b:
        return False
    a, b = state.side(side_a), state.side(side_b)
    if side_b in a.allies or side_a in b.allies:
        return False
    if a.role == "neutral":
        return side_b in a.hostile_to
    if b.role == "neutral":
        return side_a in b.hostile_to
    return True


def may_attack(state: GameState, side_a: str, side_b: str) -> bool:
    """Enemies, or a neutral side that is not yet at war with ``side_a`` (attacking it starts that war)."""
    return not are_allied(state, side_a, side_b)
