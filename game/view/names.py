"""How the screens name sides and formations, in the current language."""

from __future__ import annotations

from typing import Protocol

from .. import i18n
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.scenario_events import Reinforce
from ..i18n import _


class _Named(Protocol):
    @property
    def type(self) -> str: ...

    @property
    def hero(self) -> str | None: ...


def unit_name(rules: Ruleset, f: _Named) -> str:
    """How the chronicles name a formation: its commander and troop type, or its troop type."""
    type_name = _(rules.units[f.type].name) if f.type in rules.units else f.type
    if f.hero is not None and f.hero in rules.heroes:
        return f"{i18n.name(rules.heroes[f.hero].name)} · {type_name}"
    return type_name


def hero_name(rules: Ruleset, hero: str) -> str:
    return i18n.name(rules.heroes[hero].name) if hero in rules.heroes else hero


def side_name(scenario: Scenario, side_id: str | None) -> str:
    for s in scenario.sides:
        if s.id == side_id:
            return i18n.name(s.name)
    return side_id or ""


def formation_names(rules: Ruleset, scenario: Scenario) -> dict[str, str]:
    """Every formation the scenario can field, by id: those deployed at the start and those its
    events bring in, so one destroyed or not yet arrived still has a name."""
    names = {spec.id: unit_name(rules, spec) for spec in scenario.formations}
    for event in scenario.events:
        for action in event.actions:
            if isinstance(action, Reinforce):
                names.update({r.id: unit_name(rules, r) for r in action.formations})
    return names
