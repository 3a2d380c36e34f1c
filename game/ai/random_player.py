"""A player that picks uniformly among the legal actions: the floor every general must beat.

Its draws come from the counter-based RNG keyed by (seed, action index), so the same game from
the same seed is always the same. It ends its turn after a bounded number of actions, so a game
against it finishes.
"""

from __future__ import annotations

from ..core.actions import Action, AnswerDuel, EndTurn
from ..core.engine import Engine
from ..core.rng import Rng

# A distinct stream so its draws never coincide with the game's own.
RANDOM_STREAM = 0x5EED_0000
# Chance of ending the turn early on any action, so not every unit always acts.
END_CHANCE = 0.05


class RandomAI:
    def __init__(self, engine: Engine, side_id: str, difficulty: str = "normal") -> None:
        self.game = engine
        self.side_id = side_id
        self.difficulty = difficulty

    def next_action(self, deadline: float | None = None) -> Action:
        engine = self.game
        state = engine.state
        if state.over:
            return EndTurn()
        rng = Rng(engine.seed ^ RANDOM_STREAM, state.action_index)
        if state.pending_duel is not None:
            return AnswerDuel(accept=rng.random() < 0.5)
        if state.active_side.id != self.side_id:
            return EndTurn()
        actions = engine.legal_actions()
        if len(actions) <= 1 or rng.random() < END_CHANCE:
            return EndTurn()
        return actions[rng.randint(0, len(actions) - 2)]  # EndTurn is last; ending is chosen above
