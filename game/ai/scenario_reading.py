"""What a general reads from a scenario's events: the ground whose taking wins or loses the
battle, the hosts the enemy wins something by breaking all at once, the formations whose loss
is a defeat. Each trigger and action kind says what may be read from it (its hint), so nothing
here looks at a kind by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.event_kind import ActionHint, TriggerHint
from ..core.hexgrid import Hex
from ..core.scenario_events import EventSpec

if TYPE_CHECKING:
    from .general import General

# (event, the region whose taking fires it, what the trigger says of it)
Ground = tuple[tuple[EventSpec, frozenset[Hex], TriggerHint], ...]
# (event id, formations it waits to see broken, the share of their men that may still stand in
# order then: 0 when every one of them must be routed at once)
Hosts = tuple[tuple[str, tuple[str, ...], float], ...]
# A host is at least this many formations: fewer are a detachment, and fight.
HOST_SIZE = 3


def _trigger(spec: EventSpec) -> TriggerHint:
    return spec.when.hint()


def _actions(spec: EventSpec) -> list[ActionHint]:
    return [a.hint() for a in spec.actions]


def hosts_to_keep_whole(general: General) -> Hosts:
    """Groups of this side's formations whose breaking (all routed at once, or all but a share of
    their men) wins the enemy something: the battle itself, or an objective of the enemy's."""
    scenario = general.game.scenario
    me = general.side_id
    ours = {f.id for f in scenario.formations if f.side == me}
    owner = {o.id: o.side or scenario.default_player_side() for o in scenario.objective_specs}
    out = []
    for spec in scenario.events:
        hint = _trigger(spec)
        host = hint.routed_together
        if len(host) < HOST_SIZE or not set(host) <= ours:
            continue
        if any(_favours_enemy(action, me, owner) for action in _actions(spec)):
            out.append((spec.id, host, hint.standing_share))
    return tuple(out)


def _favours_enemy(action: ActionHint, me: str, owner: dict[str, str]) -> bool:
    if action.wins is not None:
        return action.wins != me
    if action.loses is not None:
        return action.loses == me
    if action.achieves is not None:
        return owner.get(action.achieves, me) != me
    return False


def _region_endings(general: General) -> list[tuple[EventSpec, TriggerHint, set[str], set[str]]]:
    """Every event fired by taking a region of the map that ends the battle, with the sides it
    declares winners and losers."""
    regions = general.game.board.regions
    out = []
    for spec in general.game.scenario.events:
        when = _trigger(spec)
        if when.ground is None or when.ground[0] not in regions:
            continue
        actions = _actions(spec)
        winners = {a.wins for a in actions if a.wins is not None}
        losers = {a.loses for a in actions if a.loses is not None}
        if winners or losers:
            out.append((spec, when, winners, losers))
    return out


def winning_ground(general: General) -> Ground:
    """Regions whose taking by this side's formations ends the battle in its favour."""
    me = general.side_id

    def ours(side: str, unopposed: bool, wins: bool | None, loses: bool | None) -> bool:
        return side == me and (bool(wins) or loses is False)

    return _ground(general, ours)


def losing_ground(general: General) -> Ground:
    """Regions whose unopposed taking by another side ends the battle against this one: while
    one of ours stands in them, they cannot fire."""
    me = general.side_id
    return _ground(
        general, lambda side, unopposed, wins, loses: unopposed and side != me and (bool(loses) or wins is False)
    )


def _ground(general: General, keep: Callable[[str, bool, bool | None, bool | None], bool]) -> Ground:
    """The region endings ``keep`` picks, told the side that takes the region, whether only
    unopposed, and whether the ending makes this side win and lose (None: it names no winner,
    or no loser)."""
    me, regions = general.side_id, general.game.board.regions
    out = []
    for spec, when, winners, losers in _region_endings(general):
        assert when.ground is not None
        region, side, unopposed, _units = when.ground
        wins = me in winners if winners else None
        loses = me in losers if losers else None
        if keep(side, unopposed, wins, loses):
            out.append((spec, regions[region], when))
    return tuple(out)


def vital_units(general: General) -> frozenset[str]:
    """This side's formations whose destruction is a scenario's defeat for it."""
    me = general.side_id
    out: set[str] = set()
    for spec in general.game.scenario.events:
        lost = _trigger(spec).lost
        if lost and any(a.loses == me for a in _actions(spec)):
            out.update(lost)
    return frozenset(out)
