"""The state a battle opens with: the scenario's formations (with what a campaign carries in),
its sides, turn limit and objectives, and what each side has explored before the first move."""

from __future__ import annotations

from . import vision
from .game_settings import GameSettings
from .roster import carry_in, carry_key, place_raised
from .rules import Ruleset
from .scenario import Scenario
from .state import Formation, GameState, SideState


def initial_state(scenario: Scenario, rules: Ruleset, settings: GameSettings) -> GameState:
    formations: dict[str, Formation] = {}
    for spec in scenario.formations:
        formations[spec.id] = vision.new_formation(spec, rules)
        if settings.roster is not None:
            carry_in(formations[spec.id], carry_key(spec.hero, spec.id), settings.roster)
    if settings.roster is not None:
        place_raised(formations, scenario.board, rules, settings.roster)
    sides = [
        SideState(
            id=s.id,
            faction=s.faction,
            role=s.role,
            men_start=sum(f.men for f in formations.values() if f.side == s.id),
            allies=list(s.allies),
            held_groups=list(s.held_groups),
            gates=s.gates,
        )
        for s in scenario.sides
    ]
    turn_limit = scenario.turn_limit
    if settings.max_turns is not None:
        turn_limit = min(turn_limit, settings.max_turns)
    state = GameState(
        scenario_id=scenario.id,
        turn_limit=turn_limit,
        sides=sides,
        formations=formations,
        objectives={o.id: "open" for o in scenario.objective_specs},
    )
    for s in sides:
        vision.refresh_explored(state, scenario.board, rules, s.id)
    return state
