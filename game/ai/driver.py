"""Running AI turns against a match: used by ``simulate``, the tests and the battle screen."""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from ..core.actions import Action, EndTurn
from ..core.engine import IllegalAction
from ..record.match import Match
from .basic import BasicAI
from .general import General
from .styles import difficulty_for


class AI(Protocol):
    side_id: str

    def next_action(self, deadline: float | None = None) -> Action: ...


# A safety net: no side-turn may take more actions than this (a bug must not hang a game).
MAX_ACTIONS_PER_TURN = 500


def make_ais(match: Match) -> dict[str, General]:
    return {
        s.id: General(match.engine, s.id, difficulty_for(match.engine, s.id))
        for s in match.state.sides
        if not match.seats.is_human(s.id)
    }


def _decider(match: Match, ai: BasicAI, others: Mapping[str, BasicAI]) -> BasicAI | None:
    """Who acts next: ``ai``, or the side challenged to a duel: its own general from ``others``
    (who remembers what a refusal cost him), a new one if it has none, or None for a human."""
    side = match.engine.deciding_side()
    if side == ai.side_id:
        return ai
    if match.seats.is_human(side):
        return None
    if side in others:
        return others[side]
    return General(match.engine, side, difficulty_for(match.engine, side))


@dataclass(frozen=True)
class Budget:
    """Thinking time in seconds: per action, and for a whole side-turn, after which the AI's
    deadline is already past and it ends its turn by its quick fallback."""

    action: float
    turn: float

    def deadline(self, turn_started: float, now: float | None = None) -> float:
        now = time.perf_counter() if now is None else now
        return min(now + self.action, turn_started + self.turn)


# On screen nobody may wait long for the computer.
SCREEN_BUDGET = Budget(action=0.25, turn=3.0)
# Headless games (simulate, tests) only guard against a runaway AI: generous enough that the same
# seed plays the same game on any ordinary machine.
HEADLESS_BUDGET = Budget(action=5.0, turn=120.0)


def think(ai: AI, deadline: float | None) -> Action:
    """``ai.next_action(deadline)``, also for an AI whose ``next_action`` takes no deadline."""
    if deadline is not None and _takes_deadline(type(ai)):
        return ai.next_action(deadline=deadline)
    return ai.next_action()


@cache
def _takes_deadline(cls: type[AI]) -> bool:
    try:
        params = inspect.signature(cls.next_action).parameters
    except (TypeError, ValueError):
        return False
    return "deadline" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def play_ai_turn(
    match: Match,
    ai: BasicAI,
    on_action: Callable[[Action], None] | None = None,
    budget: Budget | None = HEADLESS_BUDGET,
    others: Mapping[str, BasicAI] | None = None,
) -> float:
    """Let ``ai`` play its whole side-turn; returns the thinking time in milliseconds. With a
    ``budget``, every decision gets a deadline (None: unlimited). A challenge to a duel is
    answered by the challenged side's general in ``others`` (e.g. all of ``make_ais``)."""
    thinking = 0.0
    turn_started = time.perf_counter()
    for _ in range(MAX_ACTIONS_PER_TURN):
        start = time.perf_counter()
        decider = _decider(match, ai, others or {})
        if decider is None:
            break  # a human must answer a challenge first
        action = think(decider, None if budget is None else budget.deadline(turn_started, start))
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
