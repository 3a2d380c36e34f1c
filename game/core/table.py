"""What the rule modules see of a game in play and may ask of it.

Skills, duels, officers and scenario events act on a game the engine is running: they read its
scenario, board, rules, settings and state, draw from its dice and ask what a formation may do.
They are given a ``Table`` (the ``Engine`` is the one there is), typed here rather than by the
Engine's module, so that no rule module imports the engine that imports it.
"""

from __future__ import annotations

from typing import Protocol

from .board import Board
from .events import Event
from .game_settings import GameSettings
from .rng import Rng
from .rules import Ruleset
from .scenario import Scenario
from .state import Formation, GameState


class Table(Protocol):
    scenario: Scenario
    board: Board
    rules: Ruleset
    settings: GameSettings
    state: GameState

    def rng(self) -> Rng:
        """The dice of the action being applied (a counter-based stream)."""
        ...

    def formation(self, unit_id: str) -> Formation:
        """The formation by id (IllegalAction if there is none)."""
        ...

    def can_act(self, f: Formation) -> bool:
        """Whether ``f`` may still be given an order this turn."""
        ...

    def can_move(self, f: Formation) -> bool: ...

    def can_capture(self, f: Formation) -> bool: ...

    def attack_targets(self, unit_id: str) -> list[str]: ...

    def fire_targets(self, unit_id: str) -> list[str]: ...

    def strike(self, attacker: Formation, defender: Formation) -> list[Event]:
        """A melee blow of ``attacker`` on ``defender``, carried out."""
        ...

    def finish(self, winner: str | None, reason: str) -> list[Event]:
        """End the battle."""
        ...
