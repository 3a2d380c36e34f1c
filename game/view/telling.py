"""The words a screen gives a scenario kind: a ``Teller`` (``game.core.event_kind``) that
translates the kind's msgids in the reader's language and names sides, heroes and formations as
every screen names them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.action_kinds import ACTIONS
from ..core.events import Event
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.state import GameState
from ..i18n import _, format_men, ngettext
from .names import hero_name


def _one_each(unit_ids: Sequence[str]) -> tuple[str, int]:
    return ", ".join(unit_ids), len(unit_ids)


@dataclass(frozen=True)
class ScreenTeller:
    scenario: Scenario
    state: GameState
    rules: Ruleset
    side_name: Callable[[str], str]
    # Formation ids -> their names run together, and how many they are.
    unit_names: Callable[[Sequence[str]], tuple[str, int]] = _one_each
    owners: frozenset[str] = field(default_factory=frozenset)

    def text(self, message: str) -> str:
        return _(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext(singular, plural, n)

    def side(self, side_id: str) -> str:
        return self.side_name(side_id)

    def hero(self, hero_id: str) -> str:
        return hero_name(self.rules, hero_id)

    def men(self, count: int) -> str:
        return format_men(count)

    def units(self, unit_ids: Sequence[str]) -> tuple[str, int]:
        return self.unit_names(unit_ids)

    def objective_owners(self) -> set[str]:
        return set(self.owners)


def action_log_line(ev: Event, teller: ScreenTeller) -> str | None:
    """The log line for what a scenario action did, or None if it makes none."""
    for kind in ACTIONS:
        line = kind.describe(ev, teller)
        if line is not None:
            return line
    return None
