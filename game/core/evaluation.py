"""What a game is worth to one side, finished or not: the value a search backs up.

A finished game is worth 1 to the winner and its allies, -1 to the other sides, 0 to everyone
in a draw. An unfinished one is worth the share of its camp's starting men still standing (not
routed) less the share of its enemies' still standing, scaled into [-UNFINISHED_SCALE,
UNFINISHED_SCALE] so that a decided game always counts for more than any undecided one.
"""

from __future__ import annotations

from .sides import are_allied, are_enemies
from .state import GameState

WON = 1.0
LOST = -1.0
DRAWN = 0.0
UNFINISHED_SCALE = 0.9


def value(state: GameState, side_id: str) -> float:
    """The game's worth to ``side_id``, in [-1, 1] (see the module's docstring)."""
    if state.over:
        if state.winner is None:
            return DRAWN
        return WON if are_allied(state, side_id, state.winner) else LOST
    own = [s.id for s in state.sides if (s.role != "neutral" or s.id == side_id) and are_allied(state, side_id, s.id)]
    foes = [s.id for s in state.sides if are_enemies(state, side_id, s.id)]
    return UNFINISHED_SCALE * (standing_share(state, own) - standing_share(state, foes))


def standing_share(state: GameState, side_ids: list[str]) -> float:
    """The share, from 0 to 1, of these sides' starting men in formations that have not routed
    (men joining later count up to the start's number)."""
    start = sum(state.side(s).men_start for s in side_ids)
    if start <= 0:
        return 0.0
    standing = sum(f.men for s in side_ids for f in state.formations_of(s) if not f.routed)
    return min(1.0, standing / start)
