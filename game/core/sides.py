"""Who fights whom: allies, neutral sides that join when attacked, and fortress gates."""

from __future__ import annotations

from .board import Board
from .hexgrid import Hex
from .state import GameState, SideState


def _pair(state: GameState, side_a: str, side_b: str) -> tuple[SideState, SideState]:
    """``state.side(side_a), state.side(side_b)`` (KeyError for the first one missing), in one
    pass over the sides: every zone of control, sight and threat asks who fights whom."""
    a = b = None
    for s in state.sides:
        if a is None and s.id == side_a:
            a = s
        if b is None and s.id == side_b:
            b = s
    if a is None:
        raise KeyError(side_a)
    if b is None:
        raise KeyError(side_b)
    return a, b


def are_allied(state: GameState, side_a: str, side_b: str) -> bool:
    if side_a == side_b:
        return True
    a, b = _pair(state, side_a, side_b)
    return side_b in a.allies or side_a in b.allies


def are_enemies(state: GameState, side_a: str, side_b: str) -> bool:
    """Whether two sides fight each other now. A neutral side is at peace until attacked."""
    if side_a == side_b:
        return False
    a, b = _pair(state, side_a, side_b)
    if side_b in a.allies or side_a in b.allies:
        return False
    if a.role == "neutral":
        return side_b in a.hostile_to
    if b.role == "neutral":
        return side_a in b.hostile_to
    return True


def enemy_sides(state: GameState, side_id: str) -> frozenset[str]:
    """The sides at war with ``side_id`` now (``are_enemies``): asked once of the few sides
    where a zone of control or a list of enemies would ask it of every formation."""
    return frozenset(s.id for s in state.sides if are_enemies(state, side_id, s.id))


def may_attack(state: GameState, side_a: str, side_b: str) -> bool:
    """Enemies, or a neutral side that is not yet at war with ``side_a`` (attacking it starts that war)."""
    return not are_allied(state, side_a, side_b)


def gates_open(state: GameState, holder: SideState, side_id: str) -> bool:
    """Whether ``holder``'s gates let ``side_id`` in: its own men, the sides they were opened
    to, and those sides' allies. Being the holder's ally is not enough by itself."""
    if side_id == holder.id:
        return True
    return any(are_allied(state, side_id, s) for s in holder.gates_open_to)


def closed_hexes(state: GameState, board: Board, side_id: str) -> frozenset[Hex]:
    """The fortress hexes ``side_id`` may not enter because their gates are shut to it."""
    closed: frozenset[Hex] = frozenset()
    for holder in state.sides:
        if holder.gates is not None and not gates_open(state, holder, side_id):
            closed = closed | board.fortress_hexes(holder.gates)
    return closed
