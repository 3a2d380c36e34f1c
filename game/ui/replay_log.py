"""The replay viewer's event log: the names it gives formations, even those destroyed before the
position shown (whether a side saw an event is ``witness.witnessed``)."""

from __future__ import annotations

from ..core.rules import Ruleset
from ..core.scenario import Scenario
from .hud import unit_name


def scenario_names(rules: Ruleset, scenario: Scenario) -> dict[str, str]:
    """Every formation the scenario can field, by id, as the log names it. A formation's name is
    its hero and troop type, which its scenario entry already has, so the log can name one
    destroyed before the position shown."""
    return {spec.id: unit_name(rules, spec) for spec in scenario.formations}  # type: ignore[arg-type]
