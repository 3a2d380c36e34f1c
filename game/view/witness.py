"""Whether a side saw an event happen: one rule for the battle log, the hotseat report and the
replay viewer's log, so no screen tells a player what their formations could not have seen.

Pure: no pygame. The caller says what the side saw around the action (``vision.Sight``):
the formations it saw just before the action or sees after it, and the hexes it sees after it
(``sight_around``).
"""

from __future__ import annotations

from collections.abc import Set

from ..core.events import Event, Narration, ObjectiveChanged
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.sides import are_enemies
from ..core.state import GameState
from ..core.vision import Sight


def sight_around(after: Sight, seen_before: Set[str] | None = None) -> Sight:
    """What a side saw of one action: ``after`` is its sight once the action is done,
    ``seen_before`` the formations it saw just before (a formation that left its sight, or was
    destroyed, was still seen doing it)."""
    if not seen_before:
        return after
    return Sight(seen=frozenset(after.seen) | frozenset(seen_before), visible=after.visible)


def objective_owner(scenario: Scenario, objective_id: str) -> str | None:
    """The side an objective belongs to (the player side when the scenario names none)."""
    spec = next((o for o in scenario.objective_specs if o.id == objective_id), None)
    if spec is None:
        return None
    return spec.side or scenario.default_player_side()


def witnessed(
    ev: Event,
    side: str,
    sight: Sight,
    state: GameState,
    scenario: Scenario,
    rules: Ruleset,
    hearing_limited: bool,
) -> bool:
    """Whether ``side`` saw ``ev``: an event of a formation it saw, of a hex it sees, one of its
    own objectives, or one that is no secret (turns, alliances). With ``hearing_limited`` (two
    people at one screen, or a replay through one side's eyes) a narration is heard only where
    its speaker is seen or is a friend: a hero's words must not tell what the eyes did not."""
    if isinstance(ev, ObjectiveChanged):
        return objective_owner(scenario, ev.objective) in (side, None)
    if isinstance(ev, Narration):
        return not hearing_limited or hears(ev.speaker, side, sight, state, rules)
    units = [u for u in (getattr(ev, name, None) for name in ("unit", "target", "challenger")) if isinstance(u, str)]
    units += list(getattr(ev, "units", None) or ())  # reinforcements: seen arriving, or not at all
    units += list(getattr(ev, "bagged_units", None) or ())
    if units:
        return any(u in sight.seen for u in units)
    at = getattr(ev, "at", None)
    if isinstance(at, Hex):
        return at in sight.visible
    return True


def hears(speaker: str | None, side: str, sight: Sight, state: GameState, rules: Ruleset) -> bool:
    """Whether ``side`` hears a hero speak: a friend always, an enemy only when seen; a hero no
    longer in the field is heard by the sides of his own faction."""
    if speaker is None:
        return True
    f = next((f for f in state.formations.values() if f.hero == speaker), None)
    if f is None:
        hero = rules.heroes.get(speaker)
        return hero is not None and hero.faction == state.side(side).faction
    return not are_enemies(state, side, f.side) or f.id in sight.seen
