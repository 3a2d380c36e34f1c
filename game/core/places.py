"""Places on the map: the regions a scenario names for the reader, where each name goes, and
which regions the battle's objectives turn on.

A region is a place when the map gives it a label (``Board.labels``). The board view draws the
names and outlines the objective regions from what this module works out; content validation
uses ``event_regions`` to insist that every region the story names has a name to show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .board import Board
from .hexgrid import Hex, distance, from_centre, neighbours
from .scenario import Scenario
from .scenario_events import EventSpec, Reinforce, parse_offset
from .state import GameState

# A region this small gets a name beside it when its own hexes are crowded.
SMALL_REGION = 3


@dataclass(frozen=True)
class Place:
    """A labelled region and where its name may go."""

    region: str
    label: str  # English msgid
    hexes: frozenset[Hex]
    # Hexes to centre the name on, best first: the first is the anchor, near the region's
    # centre and clear of any smaller place inside it (whose name goes there); a small region
    # lists its neighbours last.
    candidates: tuple[Hex, ...]
    objective: bool

    @property
    def anchor(self) -> Hex:
        return self.candidates[0]


@dataclass(frozen=True)
class MapPlaces:
    """The places of one scenario and its objective regions."""

    # Labelled regions, most important first (drawn first, dropped last when crowded).
    places: tuple[Place, ...]
    # Region id -> hexes of every region an objective turns on.
    objective_regions: dict[str, frozenset[Hex]]
    # The events those regions come from (``objective_events``), in file order.
    events: tuple[EventSpec, ...]

    def anchors(self) -> dict[str, Hex]:
        return {p.region: p.anchor for p in self.places}

    def live_objective_regions(self, state: GameState) -> frozenset[str]:
        """Objective regions that still matter: one of their events may still fire."""
        if state.over:
            return frozenset()
        return frozenset(r for e in self.events if (r := trigger_region(e)) is not None and may_still_fire(e, state))


def trigger_region(spec: EventSpec) -> str | None:
    ground = spec.when.hint().ground
    return ground[0] if ground is not None else None


def is_decisive(spec: EventSpec) -> bool:
    """An event that settles an objective or the battle."""
    return any(a.hint().decisive for a in spec.actions)


def objective_events(events: Iterable[EventSpec]) -> tuple[EventSpec, ...]:
    """The events the objectives turn on: every decisive event (one that changes an objective or
    ends the battle) and, through their ``after`` and ``unless``, every event that decides
    whether a decisive one can fire. In file order."""
    events = tuple(events)
    by_id = {e.id: e for e in events}
    todo = [e for e in events if is_decisive(e)]
    found: set[str] = set()
    while todo:
        e = todo.pop()
        if e.id in found:
            continue
        found.add(e.id)
        todo += [by_id[other] for other in (*e.after, *e.unless) if other in by_id]
    return tuple(e for e in events if e.id in found)


def objective_region_ids(events: Iterable[EventSpec]) -> frozenset[str]:
    """Regions named by the trigger of an event the objectives turn on: ground to take, reach or
    not let the enemy into. Where reinforcements arrive is not among them: nobody has to go there."""
    return frozenset(r for e in objective_events(events) if (r := trigger_region(e)) is not None)


def event_regions(events: Iterable[EventSpec]) -> dict[str, tuple[str, str]]:
    """Every region an event names (a trigger's region, a reinforcement's ``at``), with the first
    event and field that names it; offsets ("12,7") are not regions."""
    out: dict[str, tuple[str, str]] = {}
    for e in events:
        region = trigger_region(e)
        if region is not None:
            out.setdefault(region, (e.id, "when.region"))
        for j, action in enumerate(e.actions):
            if isinstance(action, Reinforce):
                for k, r in enumerate(action.formations):
                    if parse_offset(r.at) is None:
                        out.setdefault(r.at, (e.id, f"do[{j}].formations[{k}].at"))
    return out


def may_still_fire(spec: EventSpec, state: GameState) -> bool:
    """Whether ``spec`` has not fired and nothing yet rules it out for good."""
    fired = state.fired_events
    if spec.id in fired or any(e in fired for e in spec.unless):
        return False
    return spec.until_turn is None or state.turn <= spec.until_turn


def label_candidates(board: Board, region: str) -> tuple[Hex, ...]:
    """Where the name of ``region`` may go, best first (see ``Place.candidates``)."""
    hexes = board.regions.get(region, frozenset())
    inner: set[Hex] = set()
    for other, label in board.labels.items():
        area = board.regions.get(other, frozenset())
        if other != region and label and len(area) < len(hexes) and area <= hexes:
            inner |= area
    # Clear of the inner places and of their edges first, then beside them, then on them.
    beside = {n for h in inner for n in neighbours(h)} - inner
    ordered = from_centre(hexes)
    out = sorted(ordered, key=lambda h: 2 if h in inner else 1 if h in beside else 0)
    if len(hexes) <= SMALL_REGION and out:
        ring = {n for h in hexes for n in neighbours(h) if n in board and n not in hexes}
        out += sorted(ring, key=lambda n: (distance(n, out[0]), n))
    return tuple(out)


def map_places(scenario: Scenario) -> MapPlaces:
    """The labelled places of a scenario, most important first (objective regions, then the
    smaller before the larger), and the regions its objectives turn on."""
    board = scenario.board
    objective = objective_region_ids(scenario.events)
    places = [
        Place(region, label, board.regions[region], label_candidates(board, region), region in objective)
        for region, label in board.labels.items()
        if board.regions.get(region)
    ]
    places.sort(key=lambda p: (not p.objective, len(p.hexes), p.region))
    return MapPlaces(
        places=tuple(places),
        objective_regions={r: board.regions[r] for r in sorted(objective) if board.regions.get(r)},
        events=objective_events(scenario.events),
    )
