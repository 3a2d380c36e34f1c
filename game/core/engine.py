"""The one way in for change: ``Engine.apply(action)`` validates, mutates, returns events.

Every handler checks everything first and only then mutates, so an illegal action raises
``IllegalAction`` and leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from . import combat
from .actions import Action, Attack, EndTurn, Move
from .board import Board
from .events import Attacked, Destroyed, Event, GameOver, Moved, SoulsReleased, TurnEnded
from .hexgrid import Hex, distance
from .movement import MoveMap, are_enemies, search_moves
from .rng import Rng
from .rules import Ruleset
from .scenario import OUTCOME_ATTRITION, OUTCOME_DRAW, Scenario
from .state import Controller, Formation, GameState, SideState


class IllegalAction(Exception):
    """An action the rules do not allow. ``reason`` is a stable code, the message explains."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


class GameSettings(BaseModel):
    """Choices made before the battle that change how it plays; part of every record."""

    controllers: dict[str, Controller] = Field(default_factory=dict)
    difficulty: str = "normal"
    # Optional cap on turns below the scenario's own limit (headless simulations).
    max_turns: int | None = Field(None, ge=1)


def initial_state(scenario: Scenario, rules: Ruleset, settings: GameSettings) -> GameState:
    formations: dict[str, Formation] = {}
    for spec in scenario.formations:
        utype = rules.units[spec.type]
        formations[spec.id] = Formation(
            id=spec.id,
            side=spec.side,
            type=spec.type,
            men=spec.men,
            max_men=spec.max_men or spec.men,
            morale=utype.morale,
            hero=spec.hero,
            pos=spec.pos,
        )
    sides = [
        SideState(
            id=s.id,
            faction=s.faction,
            role=s.role,
            controller=settings.controllers.get(s.id, "human" if s.role == "player" else "ai"),
            men_start=sum(f.men for f in formations.values() if f.side == s.id),
        )
        for s in scenario.sides
    ]
    turn_limit = scenario.turn_limit
    if settings.max_turns is not None:
        turn_limit = min(turn_limit, settings.max_turns)
    return GameState(scenario_id=scenario.id, turn_limit=turn_limit, sides=sides, formations=formations)


class Engine:
    """Holds one game's state and applies actions to it."""

    def __init__(
        self,
        scenario: Scenario,
        rules: Ruleset,
        seed: int,
        settings: GameSettings | None = None,
        state: GameState | None = None,
    ) -> None:
        self.scenario = scenario
        self.rules = rules
        self.board: Board = scenario.board
        self.seed = seed
        self.settings = settings or GameSettings()
        self.state = state if state is not None else initial_state(scenario, rules, self.settings)

    # -- queries ----------------------------------------------------------------------

    def formation(self, unit_id: str) -> Formation:
        try:
            return self.state.formations[unit_id]
        except KeyError:
            raise IllegalAction("unknown_unit", f"there is no formation {unit_id!r}") from None

    def moves(self, unit_id: str) -> MoveMap:
        return search_moves(self.state, self.board, self.rules, self.formation(unit_id))

    def can_move(self, f: Formation) -> bool:
        return not f.moved and not f.acted and f.side == self.state.active_side.id

    def can_attack(self, f: Formation) -> bool:
        utype = self.rules.units[f.type]
        return not f.acted and f.side == self.state.active_side.id and "no_line_combat" not in utype.abilities

    def attack_targets(self, unit_id: str) -> list[str]:
        """Enemy formations this unit may attack from where it stands."""
        f = self.formation(unit_id)
        if not self.can_attack(f):
            return []
        return [
            e.id
            for e in sorted(self.state.formations.values(), key=lambda x: x.id)
            if are_enemies(self.state, f.side, e.side) and distance(f.pos, e.pos) == 1
        ]

    def forecast(self, action: Attack) -> combat.Forecast:
        attacker, defender = self._check_attack(action)
        return combat.forecast_from(combat.setup_attack(self.state, self.board, self.rules, attacker, defender))

    # -- applying actions -------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        if self.state.over:
            raise IllegalAction("game_over", "the game is over")
        if isinstance(action, Move):
            events = self._move(action)
        elif isinstance(action, Attack):
            events = self._attack(action)
        elif isinstance(action, EndTurn):
            events = self._end_turn()
        else:  # pragma: no cover - the union is closed
            raise IllegalAction("unknown_action", f"unknown action {action!r}")
        self.state.action_index += 1
        events.extend(self._check_victory())
        return events

    def apply_all(self, actions: Sequence[Action]) -> list[Event]:
        events: list[Event] = []
        for a in actions:
            events.extend(self.apply(a))
        return events

    # Move ----------------------------------------------------------------------------

    def _check_move(self, action: Move) -> tuple[Formation, list[Hex]]:
        f = self.formation(action.unit)
        if f.side != self.state.active_side.id:
            raise IllegalAction("not_your_unit", f"{f.id} belongs to {f.side}, not the side to move")
        if f.moved:
            raise IllegalAction("already_moved", f"{f.id} has already moved this turn")
        if f.acted:
            raise IllegalAction("already_acted", f"{f.id} has already acted this turn")
        to = Hex(*action.to)
        if to not in self.board:
            raise IllegalAction("off_map", f"{to.key()} is not on the map")
        move_map = search_moves(self.state, self.board, self.rules, f)
        if to not in move_map.destinations:
            raise IllegalAction("unreachable", f"{f.id} cannot reach {to.key()} this turn")
        path = move_map.path_to(to)
        assert path is not None
        return f, path

    def _move(self, action: Move) -> list[Event]:
        f, path = self._check_move(action)
        f.pos = path[-1]
        f.moved = True
        return [Moved(unit=f.id, path=tuple(path))]

    # Attack --------------------------------------------------------------------------

    def _check_attack(self, action: Attack) -> tuple[Formation, Formation]:
        attacker = self.formation(action.unit)
        defender = self.formation(action.target)
        if attacker.side != self.state.active_side.id:
            raise IllegalAction("not_your_unit", f"{attacker.id} belongs to {attacker.side}, not the side to move")
        if attacker.acted:
            raise IllegalAction("already_acted", f"{attacker.id} has already acted this turn")
        if "no_line_combat" in self.rules.units[attacker.type].abilities:
            raise IllegalAction("cannot_attack", f"{attacker.id} cannot fight formed troops")
        if not are_enemies(self.state, attacker.side, defender.side):
            raise IllegalAction("not_an_enemy", f"{defender.id} is not an enemy of {attacker.id}")
        if distance(attacker.pos, defender.pos) != 1:
            raise IllegalAction("not_adjacent", f"{defender.id} is not next to {attacker.id}")
        return attacker, defender

    def _attack(self, action: Attack) -> list[Event]:
        attacker, defender = self._check_attack(action)
        setup = combat.setup_attack(self.state, self.board, self.rules, attacker, defender)
        rng = Rng(self.seed, self.state.action_index)
        attacker_losses, defender_losses = combat.roll_exchange(setup, rng)
        attacker.acted = True
        attacker.moved = True  # no moving after fighting
        attacker.experience += 1
        defender.experience += 1
        events: list[Event] = [
            Attacked(
                unit=attacker.id,
                target=defender.id,
                attacker_losses=attacker_losses,
                defender_losses=defender_losses,
            )
        ]
        events += self._take_losses(defender, defender_losses)
        events += self._take_losses(attacker, attacker_losses)
        return events

    def _take_losses(self, f: Formation, losses: int) -> list[Event]:
        """Remove men; the fallen become wandering souls on the hex; empty formations go."""
        if losses <= 0:
            return []
        f.men -= losses
        key = f.pos.key()
        self.state.field_souls[key] = self.state.field_souls.get(key, 0) + losses
        events: list[Event] = [SoulsReleased(at=f.pos, count=losses)]
        if f.men <= 0:
            del self.state.formations[f.id]
            events.append(Destroyed(unit=f.id, side=f.side, at=f.pos))
        return events

    # End turn ------------------------------------------------------------------------

    def _end_turn(self) -> list[Event]:
        state = self.state
        ending = state.active_side
        state.active = (state.active + 1) % len(state.sides)
        if state.active == 0:
            if state.turn >= state.turn_limit:
                return [TurnEnded(side=ending.id, next_side=ending.id, turn=state.turn)] + (
                    self._finish_at_turn_limit()
                )
            state.turn += 1
        nxt = state.active_side
        for f in state.formations.values():
            if f.side == nxt.id:
                f.moved = False
                f.acted = False
        return [TurnEnded(side=ending.id, next_side=nxt.id, turn=state.turn)]

    # Victory -------------------------------------------------------------------------

    def _combatant_sides(self) -> list[SideState]:
        return [s for s in self.state.sides if s.role != "neutral"]

    def _check_victory(self) -> list[Event]:
        state = self.state
        if state.over:
            return []
        alive = [s for s in self._combatant_sides() if state.men_of(s.id) > 0]
        if len(alive) == 1 and len(self._combatant_sides()) > 1:
            return self._finish(alive[0].id, "annihilation")
        if not alive:
            return self._finish(None, "annihilation")
        return []

    def _finish_at_turn_limit(self) -> list[Event]:
        outcome = self.scenario.turn_limit_outcome
        if outcome == OUTCOME_DRAW:
            return self._finish(None, "turn_limit")
        if outcome == OUTCOME_ATTRITION:
            return self._finish(self._attrition_leader(), "turn_limit")
        return self._finish(outcome, "turn_limit")

    def _attrition_leader(self) -> str | None:
        """The side whose enemies lost the largest share of their starting men."""
        scores: list[tuple[float, str]] = []
        for side in self._combatant_sides():
            enemies = [s for s in self._combatant_sides() if are_enemies(self.state, side.id, s.id)]
            start = sum(s.men_start for s in enemies)
            lost = sum(s.men_start - self.state.men_of(s.id) for s in enemies)
            scores.append((lost / start if start else 0.0, side.id))
        scores.sort(reverse=True)
        if len(scores) < 2 or scores[0][0] == scores[1][0]:
            return None
        return scores[0][1]

    def _finish(self, winner: str | None, reason: str) -> list[Event]:
        self.state.over = True
        self.state.winner = winner
        self.state.end_reason = reason
        return [GameOver(winner=winner, reason=reason)]
