"""Upkeep at the start of a side's turn: effects and cooldowns run down, tired men who stood
still recover, souls drift, routed formations flee or rally, heroes inspire, duels go on."""

from __future__ import annotations

from . import duel, morale, skills, souls, vision
from .events import Event
from .fatigue import IDLE_FATIGUE
from .table import Table


def start_side_turn(table: Table, side_id: str) -> list[Event]:
    state, board, rules = table.state, table.board, table.rules
    events: list[Event] = []
    for f in state.formations_of(side_id):
        if not f.moved and not f.acted:
            f.fatigue = max(0, f.fatigue - IDLE_FATIGUE)
        f.moved = False
        f.acted = False
        f.forced = False
        f.charge_run = 0
        f.effects = {k: v for k, v in f.effects.items() if v > state.turn}
        f.cooldowns = {k: v - 1 for k, v in f.cooldowns.items() if v > 1}
    events += souls.drift(state, rules, side_id)
    events += skills.start_of_turn(table, side_id)
    events += morale.start_of_turn(state, board, rules, side_id)
    events += morale.check_routs(state, rules)
    events += vision.refresh_explored(state, board, rules, side_id)
    events += duel.start_of_turn(table, side_id)
    return events
