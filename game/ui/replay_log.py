"""The replay viewer's event log: one line per event, worded as the battle screen's log words it,
and the test of whether a viewing side could have seen an event (its fog)."""

from __future__ import annotations

from collections.abc import Callable

from ..core.events import (
    Attacked,
    Destroyed,
    Event,
    Fled,
    GameOver,
    Looted,
    Moved,
    Narration,
    Rallied,
    Rested,
    Routed,
    SoulsCaptured,
    TurnEnded,
)
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.scenario import Scenario
from ..core.state import GameState
from ..i18n import _
from .board_view import Fog
from .hero_orders import hero_log_line
from .hud import unit_name
from .narration import log_line


def scenario_names(rules: Ruleset, scenario: Scenario) -> dict[str, str]:
    """Every formation the scenario can field, by id, as the log names it. A formation's name is
    its hero and troop type, which its scenario entry already has, so the log can name one
    destroyed before the position shown."""
    return {spec.id: unit_name(rules, spec) for spec in scenario.formations}  # type: ignore[arg-type]


def event_line(
    ev: Event,
    state: GameState,
    rules: Ruleset,
    scenario: Scenario,
    names: dict[str, str],
    side_name: Callable[[str], str],
) -> str | None:
    """The log line for ``ev`` (None for events the log does not tell)."""

    def name(unit: str) -> str:
        return names.get(unit, unit)

    if isinstance(ev, Moved):
        return _("{u} moves").format(u=name(ev.unit))
    if isinstance(ev, Attacked):
        return _("{a} attacks {d}: defender loses {dl:,}, attacker loses {al:,}").format(
            a=name(ev.unit), d=name(ev.target), dl=ev.defender_losses, al=ev.attacker_losses
        )
    if isinstance(ev, Destroyed):
        return _("A formation of {side} is destroyed").format(side=side_name(ev.side))
    if isinstance(ev, TurnEnded):
        return _("Turn {n}: {side}").format(n=ev.turn, side=side_name(ev.next_side))
    if isinstance(ev, Routed):
        return _("{u} breaks and routs!").format(u=name(ev.unit))
    if isinstance(ev, Fled):
        return None
    if isinstance(ev, Rallied):
        return _("{u} rallies").format(u=name(ev.unit))
    if isinstance(ev, SoulsCaptured):
        return _("{u} bags {n:,} souls into the pouch").format(u=name(ev.unit), n=ev.count)
    if isinstance(ev, Rested):
        return _("{u} rests").format(u=name(ev.unit))
    if isinstance(ev, Looted):
        return _("{u} stops to loot the baggage").format(u=name(ev.unit))
    if isinstance(ev, Narration):
        return _(ev.text)
    if isinstance(ev, GameOver):
        return _("The battle is over")
    return hero_log_line(ev, state, rules, names) or log_line(ev, scenario, side_name)


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
