"""What a battle cost each side, from the scenario, the settings and the final state.

The state keeps each side's men at the start, its pouch and the formations still on the field,
but not a history, so some figures are bounded by what the final state can tell:

- Men lost are net: men at the start and those who arrived later, less those standing at the
  end. Souls that drifted back into their own ranks (the Hailing host re-forms) are men lost
  and found again, and are not counted.
- Men who arrived later: the state counts them for all sides together (``men_entered``). When
  one side alone was reinforced they are all its own; when several were, they are split by the
  scenario's numbers if those add up to the total (no campaign army changed them, every column
  found room), and are otherwise not known (None).
- Formations broken: those routed when the battle ended. One that broke and rallied is not
  counted, because the state does not remember it.
- Formations destroyed: those that took the field (deployed at the start, or arrived with an
  event that fired) and are gone from it. A column that found no room to arrive is counted as
  destroyed (no shipped scenario crowds its entry so).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.engine import GameSettings, initial_state
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.scenario_events import Reinforce
from ..core.state import GameState


@dataclass(frozen=True)
class SideSummary:
    side: str
    men_start: int
    # None: cannot be told from the final state (see the module notes).
    men_arrived: int | None
    men_lost: int | None
    men_standing: int
    souls_bagged: int
    broken: int
    destroyed: int


def fielded(scenario: Scenario, rules: Ruleset, settings: GameSettings, state: GameState) -> dict[str, str]:
    """Formation id -> side, for every formation that took the field: those the battle began with
    (the campaign's raised formations too, as ``initial_state`` places them) and those brought
    in by reinforcement events that fired."""
    start = initial_state(scenario, rules, settings)
    out = {f.id: f.side for f in start.formations.values()}
    fired = set(state.fired_events)
    for event in scenario.events:
        if event.id in fired:
            for action in event.actions:
                if isinstance(action, Reinforce):
                    out.update({r.id: action.side for r in action.formations})
    return out


def _arrived(scenario: Scenario, settings: GameSettings, state: GameState) -> dict[str, int | None]:
    """Side -> men brought in by reinforcements (None where the final state cannot tell)."""
    by_spec: dict[str, int] = {}
    fired = set(state.fired_events)
    for event in scenario.events:
        if event.id in fired:
            for action in event.actions:
                if isinstance(action, Reinforce):
                    by_spec[action.side] = by_spec.get(action.side, 0) + sum(r.men for r in action.formations)
    out: dict[str, int | None] = {s.id: 0 for s in state.sides}
    if len(by_spec) == 1:
        out[next(iter(by_spec))] = state.men_entered
    elif by_spec:
        exact = settings.roster is None and sum(by_spec.values()) == state.men_entered
        out.update({side: (men if exact else None) for side, men in by_spec.items()})
    return out


def summarise(scenario: Scenario, rules: Ruleset, settings: GameSettings, state: GameState) -> list[SideSummary]:
    """One summary per side, in turn order."""
    took_field = fielded(scenario, rules, settings, state)
    arrived = _arrived(scenario, settings, state)
    out: list[SideSummary] = []
    for side in state.sides:
        standing = state.men_of(side.id)
        came = arrived[side.id]
        out.append(
            SideSummary(
                side=side.id,
                men_start=side.men_start,
                men_arrived=came,
                men_lost=None if came is None else max(0, side.men_start + came - standing),
                men_standing=standing,
                souls_bagged=side.pouch,
                broken=sum(1 for f in state.formations_of(side.id) if f.routed),
                destroyed=sum(1 for fid, s in took_field.items() if s == side.id and fid not in state.formations),
            )
        )
    return out


def took_part(row: SideSummary, role: str) -> bool:
    """Whether a side belongs in the table: every fighting side, and a neutral one only if the
    battle touched it (it lost men or formations, or bagged souls)."""
    return role != "neutral" or bool(row.men_lost or row.destroyed or row.broken or row.souls_bagged)
