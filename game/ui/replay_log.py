"""The replay viewer's event log: one line per event, worded as the battle screen's log words it,
and the test of whether a viewing side could have seen an event (its fog)."""

from __future__ import annotations

from ..core.events import (
    Event,
)
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from .board_view import Fog
from .hud import unit_name


def scenario_names(rules: Ruleset, scenario: Scenario) -> dict[str, str]:
    """Every formation the scenario can field, by id, as the log names it. A formation's name is
    its hero and troop type, which its scenario entry already has, so the log can name one
    destroyed before the position shown."""
    return {spec.id: unit_name(rules, spec) for spec in scenario.formations}  # type: ignore[arg-type]


def witnessed(ev: Event, fog: Fog | None) -> bool:
    """Whether the side whose fog is ``fog`` saw ``ev``: an event of a formation it sees, of a
    hex in its sight, or one that is no secret (turns, narration). None: everything is shown."""
    if fog is None:
        return True
    units = [u for u in (getattr(ev, "unit", None), getattr(ev, "target", None)) if isinstance(u, str)]
    units += list(getattr(ev, "units", None) or ())
    if units:
        return any(u in fog.shown for u in units)
    at = getattr(ev, "at", None)
    if isinstance(at, Hex):
        return at in fog.visible
    return True
