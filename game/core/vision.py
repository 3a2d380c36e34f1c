"""Fog of war and ambush: what each side sees.

Simplified for now: every side sees every formation that is not hidden in ambush.
"""

from __future__ import annotations

from .board import Board
from .events import Event, Revealed
from .hexgrid import Hex
from .movement import MoveMap, search_moves
from .rules import Ruleset
from .scenario import FormationSpec
from .state import Formation, GameState


def new_formation(spec: FormationSpec, rules: Ruleset) -> Formation:
    utype = rules.units[spec.type]
    return Formation(
        id=spec.id,
        side=spec.side,
        type=spec.type,
        men=spec.men,
        max_men=spec.max_men or spec.men,
        morale=utype.morale,
        hero=spec.hero,
        pos=spec.pos,
        ammo=utype.ammo,
        charges=utype.area_charges,
        hidden=spec.hidden,
        group=spec.group,
    )


def sees_formation(state: GameState, board: Board, rules: Ruleset, side_id: str, f: Formation) -> bool:
    return f.side == side_id or not f.hidden


def refresh_explored(state: GameState, board: Board, rules: Ruleset, side_id: str) -> None:
    return None


def search_moves_seen(state: GameState, board: Board, rules: Ruleset, f: Formation, forced: bool = False) -> MoveMap:
    return search_moves(state, board, rules, f, forced=forced)


def walk(
    state: GameState, board: Board, rules: Ruleset, f: Formation, path: list[Hex]
) -> tuple[list[Hex], list[Event]]:
    return path, []


def revealed(f: Formation) -> list[Event]:
    return [Revealed(unit=f.id)]
