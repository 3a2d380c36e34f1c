"""When a battle is decided and who won it: one camp left standing, or the turn limit's rule."""

from __future__ import annotations

from .scenario import OUTCOME_ATTRITION, OUTCOME_DRAW, Scenario
from .sides import are_allied, are_enemies
from .state import GameState, SideState

# (winner or None for a draw, the reason GameOver carries)
Decision = tuple[str | None, str]


def attrition_shares(state: GameState) -> dict[str, float]:
    """Fighting (non-neutral) side -> the share of its enemies' starting men they no longer have:
    what the "attrition" rule compares when the last turn ends."""
    fighting = [s for s in state.sides if s.role != "neutral"]
    shares: dict[str, float] = {}
    for side in fighting:
        enemies = [s for s in fighting if are_enemies(state, side.id, s.id)]
        start = sum(s.men_start for s in enemies)
        lost = sum(s.men_start - state.men_of(s.id) for s in enemies)
        shares[side.id] = lost / start if start else 0.0
    return shares


def combatant_sides(state: GameState) -> list[SideState]:
    return [s for s in state.sides if s.role != "neutral"]


def decided_by_annihilation(state: GameState) -> Decision | None:
    """The decision when only one camp of allies has men left (or none has), else None."""
    fighting = combatant_sides(state)
    alive = [s for s in fighting if state.men_of(s.id) > 0]
    camps = {min(o.id for o in alive if are_allied(state, s.id, o.id)) for s in alive}
    if len(camps) == 1 and len(fighting) > 1:
        leader = sorted(s.id for s in alive if state.side(s.id).role == "player") or [alive[0].id]
        return leader[0], "annihilation"
    if not alive:
        return None, "annihilation"
    return None


def decided_at_turn_limit(state: GameState, scenario: Scenario) -> Decision:
    """The decision when the last turn ends, by the scenario's rule: a draw, attrition, or a side."""
    outcome = scenario.turn_limit_outcome
    if outcome == OUTCOME_DRAW:
        return None, "turn_limit"
    if outcome == OUTCOME_ATTRITION:
        return attrition_leader(state), "turn_limit"
    return outcome, "turn_limit"


def attrition_leader(state: GameState) -> str | None:
    """The side whose enemies lost the largest share of their starting men."""
    scores = sorted(((share, side) for side, share in attrition_shares(state).items()), reverse=True)
    if len(scores) < 2 or scores[0][0] == scores[1][0]:
        return None
    return scores[0][1]
