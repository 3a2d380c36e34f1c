"""Reading and checking a scenario's ``[[objectives]]`` and ``[[events]]`` tables.

Each problem is one error naming the file, the object (the event or objective id, or
``events[2]`` when it has none) and the field inside it (``when.region``, ``do[1].speaker``).
The checks that need the map and the ruleset (regions, formation ids, unit types, heroes,
sides, objective and event ids) run after both are loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from ..core.action_kinds import ACTIONS
from ..core.board import Board
from ..core.event_kind import ActionSpec
from ..core.kinds import Registry, UnknownKind
from ..core.places import event_regions
from ..core.rules import Ruleset
from ..core.scenario import FormationSpec, ObjectiveSpec, SideSpec
from ..core.scenario_events import EventSpec, Reinforce
from ..core.trigger_kinds import TRIGGERS
from .errors import ContentError, error

# Friendlier words for pydantic's messages about lists.
_MESSAGES = {
    "too_short": "needs at least one entry",
    "tuple_type": "must be a list",
    "model_attributes_type": "must be a table",
    "model_type": "must be a table",
    "extra_forbidden": "unknown field",
}


def _field(parts: Iterable[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "-"


def _clean_loc(loc: Sequence[str | int], data: Any) -> list[str | int]:
    """The error's path in the file: pydantic's path without the union tags it inserts."""
    out: list[str | int] = []
    node = data
    tag_skipped = False
    for part in loc:
        if not tag_skipped and isinstance(node, dict) and node.get("kind") == part:
            tag_skipped = True
            continue  # the tag of a discriminated union, not a key of the table
        tag_skipped = False
        out.append(part)
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
    return out


def _validation_errors(path: Path, obj: str, exc: ValidationError, data: Any) -> list[ContentError]:
    raw = exc.errors()
    locs = [tuple(_clean_loc(e["loc"], data)) for e in raw]
    out: list[ContentError] = []
    for err, loc in zip(raw, locs, strict=True):
        kind = err["type"]
        if kind == "too_short" and any(other[: len(loc)] == loc and other != loc for other in locs):
            continue  # a list whose entries failed is not also "too short"
        msg = _MESSAGES.get(kind, str(err["msg"]).removeprefix("Value error, "))
        if kind == "union_tag_invalid":
            registry: Registry[Any] = TRIGGERS if loc and loc[0] == "when" else ACTIONS
            msg = _unknown(registry, str(err["ctx"]["tag"]))
            loc = (*loc, "kind")
        elif kind == "union_tag_not_found":
            msg = "missing"
            loc = (*loc, "kind")
        out.append(error(path, obj, _field(loc), msg))
    return out


def _unknown(registry: Registry[Any], name: str) -> str:
    """The registry's own words for a name it has no kind for."""
    try:
        registry.get(name)
    except UnknownKind as exc:
        return str(exc)
    return f"kind {name!r} does not fit here"


def _object_name(data: Any, plural: str, index: int) -> str:
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and ident else f"{plural}[{index}]"


def parse_objectives(path: Path, raw: list[Any]) -> tuple[list[ObjectiveSpec], list[ContentError]]:
    return _parse(path, raw, ObjectiveSpec, "objectives", "objective")


def parse_events(path: Path, raw: list[Any]) -> tuple[list[EventSpec], list[ContentError]]:
    return _parse(path, raw, EventSpec, "events", "event")


Table = TypeVar("Table", ObjectiveSpec, EventSpec)


def _parse(
    path: Path, raw: list[Any], model: type[Table], plural: str, noun: str
) -> tuple[list[Table], list[ContentError]]:
    """The tables of ``raw`` that validate and whose id is not taken already, and an error for
    each of the others."""
    specs: list[Table] = []
    errors: list[ContentError] = []
    for i, data in enumerate(raw):
        obj = _object_name(data, plural, i)
        try:
            spec = model.model_validate(data)
        except ValidationError as exc:
            errors += _validation_errors(path, obj, exc, data)
            continue
        if any(s.id == spec.id for s in specs):
            errors.append(error(path, obj, "id", f"duplicate {noun} id"))
            continue
        specs.append(spec)
    return specs, errors


@dataclass
class _Known:
    """What the events may refer to."""

    path: Path
    rules: Ruleset
    board: Board
    sides: dict[str, SideSpec]
    first_side: str
    turn_limit: int
    formations: dict[str, FormationSpec]
    reinforcements: set[str]
    # Map formations that failed their own checks: known by id, but with no spec.
    broken_formations: set[str]
    groups: set[str]
    objectives: set[str]
    events: set[str]


def declared_ids(raw: Iterable[Any]) -> set[str]:
    """The ids tables declare, broken tables included, so that naming one is not an error too."""
    return {d["id"] for d in raw if isinstance(d, dict) and isinstance(d.get("id"), str)}


def check_events(
    path: Path,
    events: list[EventSpec],
    objectives: list[ObjectiveSpec],
    sides: list[SideSpec],
    formations: list[FormationSpec],
    board: Board,
    rules: Ruleset,
    turn_limit: int,
    *,
    event_ids: set[str] | None = None,
    objective_ids: set[str] | None = None,
    formation_ids: set[str] | None = None,
) -> list[ContentError]:
    """Every reference an event or objective makes, checked against the map and the ruleset.

    ``*_ids`` add ids declared by tables or map objects that failed their own checks (and were
    reported there), so that references to them are not reported a second time."""
    errors: list[ContentError] = []
    known = _Known(
        path=path,
        rules=rules,
        board=board,
        sides={s.id: s for s in sides},
        first_side=sides[0].id if sides else "",
        turn_limit=turn_limit,
        formations={f.id: f for f in formations},
        reinforcements=set(),
        broken_formations=set(formation_ids or ()) - {f.id for f in formations},
        groups={f.group for f in formations if f.group},
        objectives={o.id for o in objectives} | (objective_ids or set()),
        events={e.id for e in events} | (event_ids or set()),
    )
    for i, s in enumerate(sides):
        if s.gates is not None and s.gates not in board.regions:
            errors.append(error(path, s.id, f"sides[{i}].gates", f"unknown region {s.gates!r}"))
    for o in objectives:
        if o.side is not None and o.side not in known.sides:
            errors.append(error(path, o.id, "side", f"unknown side {o.side!r}"))
        for k, by in enumerate(o.tally_by):
            if by not in known.formations and by not in rules.units:
                errors.append(error(path, o.id, f"tally_by.{k}", f"unknown formation or unit type {by!r}"))
    # Reinforcement ids first: triggers and reveals may name formations that arrive later.
    for ev in events:
        for j, action in enumerate(ev.actions):
            if isinstance(action, Reinforce):
                errors += _collect_reinforcements(known, ev, j, action)
    for ev in events:
        errors += _check_conditions(known, ev)
        errors += _check_trigger(known, ev)
        for j, action in enumerate(ev.actions):
            errors += _check_action(known, ev, j, action)
    return errors


def check_region_labels(map_path: Path, events: Iterable[EventSpec], board: Board) -> list[ContentError]:
    """Every region an event names is a place the story talks about: the map must give it a
    ``label`` to draw. The error names the map, the region and the field to add."""
    errors: list[ContentError] = []
    for region, (event, field) in sorted(event_regions(events).items()):
        if region in board.regions and region not in board.labels:
            message = f"needs a label, the place name drawn on the map: event {event!r} names it ({field})"
            errors.append(error(map_path, region, "label", message))
    return errors


class _Checker:
    """Collects errors for one object with a common field prefix: the ``References`` a trigger
    or action kind checks its table against."""

    def __init__(self, known: _Known, obj: str, prefix: str, waits: bool = False) -> None:
        self.known = known
        self.waits = waits
        self.obj = obj
        self.prefix = prefix
        self.errors: list[ContentError] = []
        self.rules = known.rules
        self.board = known.board
        self.sides = known.sides
        self.first_side = known.first_side
        self.turn_limit = known.turn_limit
        self.formations = known.formations
        self.groups = known.groups

    def fail(self, field: str, message: str) -> None:
        name = ".".join(p for p in (self.prefix, field) if p) or "-"
        self.errors.append(error(self.known.path, self.obj, name, message))

    def side(self, field: str, side: str | None) -> None:
        if side is not None and side not in self.known.sides:
            self.fail(field, f"unknown side {side!r}")

    def unit(self, field: str, unit: str | None) -> None:
        k = self.known
        if unit is None or unit in k.formations or unit in k.reinforcements or unit in k.broken_formations:
            return
        self.fail(field, f"unknown formation {unit!r}")

    def units(self, field: str, units: Sequence[str]) -> None:
        for k, unit in enumerate(units):
            self.unit(f"{field}[{k}]", unit)

    def hero(self, field: str, hero: str | None) -> None:
        if hero is not None and hero not in self.known.rules.heroes:
            self.fail(field, f"unknown hero {hero!r}")

    def region(self, field: str, region: str) -> None:
        if region not in self.known.board.regions:
            self.fail(field, f"unknown region {region!r}")

    def about_side(self, side: str, holds: Callable[[SideSpec], bool], field: str, message: str) -> None:
        spec = self.known.sides.get(side)
        if spec is not None and not holds(spec):
            self.fail(field, message)

    def objective(self, field: str, objective: str) -> None:
        if objective not in self.known.objectives:
            self.fail(field, f"unknown objective {objective!r}")


def _collect_reinforcements(known: _Known, ev: EventSpec, j: int, action: Reinforce) -> list[ContentError]:
    c = _Checker(known, ev.id, f"do[{j}]")
    for k, r in enumerate(action.formations):
        if r.id in known.formations or r.id in known.reinforcements or r.id in known.broken_formations:
            c.fail(f"formations[{k}].id", f"formation id {r.id!r} is already used")
        known.reinforcements.add(r.id)
        if r.group:
            known.groups.add(r.group)
    return c.errors


def _check_conditions(known: _Known, ev: EventSpec) -> list[ContentError]:
    c = _Checker(known, ev.id, "")
    for name in ("after", "unless"):
        for k, other in enumerate(getattr(ev, name)):
            if other not in known.events:
                c.fail(f"{name}[{k}]", f"unknown event {other!r}")
            elif other == ev.id:
                c.fail(f"{name}[{k}]", "an event cannot wait for itself")
    if ev.from_turn is not None and ev.until_turn is not None and ev.from_turn > ev.until_turn:
        c.fail("until_turn", "must not be before from_turn")
    if ev.during is not None and ev.during not in known.sides:
        c.fail("during", f"unknown side {ev.during!r}")
    return c.errors


def _check_trigger(known: _Known, ev: EventSpec) -> list[ContentError]:
    c = _Checker(known, ev.id, "when", waits=ev.from_turn is not None and ev.from_turn > 1)
    ev.when.check(c)
    return c.errors


def _check_action(known: _Known, ev: EventSpec, j: int, action: ActionSpec) -> list[ContentError]:
    c = _Checker(known, ev.id, f"do[{j}]")
    action.check(c)
    return c.errors
