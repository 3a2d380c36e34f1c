"""The first computer general: fight where the forecast favours it, else advance or hold.

One action per call, re-evaluated from the current state every time, so what the AI does is
always legal for the state it sees and the UI can show it move by move.
"""

from __future__ import annotations

from ..core import combat
from ..core.actions import Action, Attack, EndTurn, Move
from ..core.engine import Engine
from ..core.hexgrid import Hex, distance, neighbours
from ..core.movement import are_enemies, enemy_zoc, search_moves
from ..core.state import Formation
from .distance_field import cost_field

# Extra worth of wiping a formation out rather than just bleeding it.
DESTROY_BONUS = 0.5


class BasicAI:
    def __init__(self, engine: Engine, side_id: str) -> None:
        self.engine = engine
        self.side_id = side_id
        self._holding: set[str] = set()
        self._turn_key: tuple[int, int] | None = None
        self._fields: dict[tuple[str, frozenset[Hex]], dict[Hex, int]] = {}

    # -- public ---------------------------------------------------------------------------

    def next_action(self) -> Action:
        """The next action for this side; EndTurn when it has nothing better to do."""
        engine = self.engine
        state = engine.state
        if state.over or state.active_side.id != self.side_id:
            return EndTurn()
        if self._turn_key != (state.turn, state.active):
            self._turn_key = (state.turn, state.active)
            self._holding.clear()
        if state.active_side.role == "neutral":
            return EndTurn()
        own = [f for f in state.formations_of(self.side_id) if f.id not in self._holding]
        enemies = [f for f in state.formations.values() if are_enemies(state, self.side_id, f.side)]
        if not enemies:
            return EndTurn()
        best = self._best_attack(own)
        if best is not None:
            return best
        for f in own:
            if engine.can_move(f):
                move = self._advance(f, enemies)
                if move is not None:
                    return move
            self._holding.add(f.id)
        return EndTurn()

    # -- attacks --------------------------------------------------------------------------

    def _value(self, f: Formation) -> float:
        return self.engine.rules.units[f.type].melee

    def _score(self, attacker: Formation, defender: Formation) -> float:
        engine = self.engine
        setup = combat.setup_attack(engine.state, engine.board, engine.rules, attacker, defender)
        fc = combat.forecast_from(setup)
        score = fc.defender_losses[1] * self._value(defender) - fc.attacker_losses[1] * self._value(attacker)
        if fc.defender_losses[1] >= defender.men:
            score += DESTROY_BONUS * defender.men * self._value(defender)
        return score

    def _best_attack(self, own: list[Formation]) -> Action | None:
        """The most favourable attack, from where a unit stands or after one move."""
        engine = self.engine
        state = engine.state
        occupancy = state.occupancy()
        zoc = enemy_zoc(state, self.side_id)
        best: tuple[float, Action] | None = None
        for f in own:
            if not engine.can_attack(f):
                continue
            # From where it stands.
            for target_id in engine.attack_targets(f.id):
                s = self._score(f, state.formations[target_id])
                if s > 0 and (best is None or s > best[0]):
                    best = (s, Attack(unit=f.id, target=target_id))
            if not engine.can_move(f):
                continue
            move_map = search_moves(state, engine.board, engine.rules, f, occupancy, zoc)
            for dest in sorted(move_map.destinations):
                for n in neighbours(dest):
                    target_id = occupancy.get(n)
                    if target_id is None:
                        continue
                    target = state.formations[target_id]
                    if not are_enemies(state, f.side, target.side):
                        continue
                    moved = f.model_copy(update={"pos": dest})
                    # A small preference for not moving: an attack from here loses nothing.
                    s = self._score(moved, target) * 0.98
                    if s > 0 and (best is None or s > best[0]):
                        best = (s, Move(unit=f.id, to=dest))
        return best[1] if best else None

    # -- movement -------------------------------------------------------------------------

    def _field(self, move_class: str, enemies: list[Formation]) -> dict[Hex, int]:
        goals = frozenset(e.pos for e in enemies)
        key = (move_class, goals)
        if key not in self._fields:
            if len(self._fields) > 8:
                self._fields.clear()
            self._fields[key] = cost_field(self.engine.board, move_class, goals)
        return self._fields[key]

    def _advance(self, f: Formation, enemies: list[Formation]) -> Move | None:
        """Close on the enemy, preferring good ground; None means hold where it is."""
        engine = self.engine
        if any(distance(f.pos, e.pos) == 1 for e in enemies):
            return None  # in contact and no good attack: hold the line
        utype = engine.rules.units[f.type]
        field = self._field(utype.move_class, enemies)
        here = field.get(f.pos, 1 << 30)
        move_map = engine.moves(f.id)
        board = engine.board
        best: tuple[tuple[int, int, int, int], Hex] | None = None
        for dest in move_map.destinations:
            d = field.get(dest)
            if d is None or d >= here:
                continue
            rank = (d, -board.terrain_at(dest).defence, dest.q, dest.r)
            if best is None or rank < best[0]:
                best = (rank, dest)
        return Move(unit=f.id, to=best[1]) if best else None
