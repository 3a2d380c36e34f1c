"""Tallies of a feat: men of an objective's ``tally`` formations struck down, counted either as
every man of them fallen (``fallen_men``) or, when the objective names whose feat it is
(``tally_by``), only the men its named formations strike down in fighting, their counter-blows
included. The second kind is kept in ``GameState.tallies`` as the blows land, because a
formation's losses no longer say who dealt them."""

from __future__ import annotations

from collections.abc import Iterable

from .action_kinds.reinforce import fielded
from .scenario import ObjectiveSpec, Scenario
from .state import Formation, GameState


def fallen_men(scenario: Scenario, state: GameState, units: Iterable[str]) -> int:
    """Men of ``units`` struck down so far: what each had when it took the field (at the start,
    or on arriving as a reinforcement) less what it has now; none for one not yet arrived, and
    never below none for one that has gathered souls back into its ranks."""
    wanted = set(units)
    start = {u: men for u, men in fielded(scenario, state).items() if u in wanted}
    formations = state.formations
    return sum(max(0, men - (formations[u].men if u in formations else 0)) for u, men in start.items())


def credited(objective: ObjectiveSpec, f: Formation) -> bool:
    """Whether ``f``'s blows count towards the objective's tally."""
    return f.id in objective.tally_by or f.type in objective.tally_by


def credit_blows(
    scenario: Scenario,
    state: GameState,
    attacker: Formation,
    defender: Formation,
    attacker_losses: int,
    defender_losses: int,
) -> None:
    """Add an exchange of blows to every tally it counts for (before the losses are taken, so a
    formation wiped out by the blow is still known by its type)."""
    for objective in scenario.objective_specs:
        if not objective.tally_by:
            continue
        men = 0
        if credited(objective, attacker) and defender.id in objective.tally:
            men += min(defender_losses, defender.men)
        if credited(objective, defender) and attacker.id in objective.tally:
            men += min(attacker_losses, attacker.men)
        if men > 0:
            state.tallies[objective.id] = state.tallies.get(objective.id, 0) + men


def tally_men(scenario: Scenario, state: GameState, objective: ObjectiveSpec) -> int:
    """The men the objective's tally counts so far."""
    if objective.tally_by:
        return state.tallies.get(objective.id, 0)
    return fallen_men(scenario, state, objective.tally)
