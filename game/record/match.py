"""A game in progress together with its record: the only way clients apply actions.

The UI, the AI driver, ``simulate`` and replays all go through ``Match.apply`` so every game is
recorded the same way, with a checkpoint hash after each side's turn.
"""

from __future__ import annotations

from ..content.ruleset import load_ruleset
from ..content.scenarios import LoadedScenario
from ..core.actions import Action
from ..core.engine import Engine, GameSettings, IllegalAction
from ..core.events import Event, TurnEnded
from ..core.state import GameState, state_hash
from .model import Checkpoint, GameRecord
from .saves import SaveError
from .verify import scenario_for


class Match:
    def __init__(self, loaded: LoadedScenario, seed: int, settings: GameSettings) -> None:
        self.loaded = loaded
        self.engine = Engine(loaded.scenario, load_ruleset(), seed, settings)
        self.record = GameRecord(
            scenario_id=loaded.scenario.id,
            content_version=loaded.content_version,
            seed=seed,
            settings=settings,
        )

    @property
    def state(self) -> GameState:
        return self.engine.state

    def apply(self, action: Action) -> list[Event]:
        """Apply through the engine (raising IllegalAction unchanged) and record it."""
        events = self.engine.apply(action)
        self.record.actions.append(action)
        for ev in events:
            if isinstance(ev, TurnEnded):
                self.record.checkpoints.append(
                    Checkpoint(
                        actions=len(self.record.actions),
                        turn=ev.turn,
                        side=ev.side,
                        hash=state_hash(self.engine.state),
                    )
                )
        return events


def match_from_record(record: GameRecord) -> Match:
    """Rebuild a game in progress by replaying its record; SaveError if it does not replay."""
    match = Match(scenario_for(record), record.seed, record.settings)
    for i, action in enumerate(record.actions):
        try:
            match.apply(action)
        except IllegalAction as exc:
            raise SaveError(f"action {i + 1} does not replay: {exc.message}") from None
    return match
