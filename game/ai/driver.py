"""Running AI turns against a match: used by ``simulate``, the tests and the battle screen."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.actions import Action, EndTurn
from ..core.engine import IllegalAction
from ..record.match import Match
from .basic import BasicAI

# A safety net: no side-turn may take more actions than this (a bug must not hang a game).
MAX_ACTIONS_PER_TURN = 500


def make_ais(match: Match) -> dict[str, BasicAI]:
    return {s.id: BasicAI(match.engine, s.id) for s in match.state.sides if s.controller == "ai"}


def _decider(match: Match, ai: BasicAI) -> BasicAI | None:
    """Who acts next: ``ai``, or the side challenged to a duel (an AI of its own, or None for a
    human)."""
    side = match.engine.deciding_side()
    if side == ai.side_id:
        return ai
    if match.state.side(side).controller != "ai":
        return None
    return BasicAI(match.engine, side)


def play_ai_turn(match: Match, ai: BasicAI, on_action: Callable[[Action], None] | None = None) -> float:
    """Let ``ai`` play its whole side-turn; returns the thinking time in milliseconds."""
    thinking = 0.0
    for _ in range(MAX_ACTIONS_PER_TURN):
        start = time.perf_counter()
        decider = _decider(match, ai)
        if decider is None:
            break  # a human must answer a challenge first
        action = decider.next_action()
        thinking += time.perf_counter() - start
        try:
            match.apply(action)
        except IllegalAction:
            # The AI should never do this; end the turn rather than stall the game.
            match.apply(EndTurn())
            action = EndTurn()
        if on_action is not None:
            on_action(action)
        if isinstance(action, EndTurn) or match.state.over:
            break
    else:
        match.apply(EndTurn())
    return thinking * 1000.0
