"""Reading and checking a scenario's ``[[objectives]]`` and ``[[events]]`` tables.

Each problem is one error naming the file, the object (the event or objective id, or
``events[2]`` when it has none) and the field inside it (``when.region``, ``do[1].speaker``).
The checks that need the map and the ruleset (regions, formation ids, unit types, heroes,
sides, objective and event ids) run after both are loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..core.board import Board
from ..core.places import event_regions
from ..core.rules import Ruleset
from ..core.scenario import FormationSpec, ObjectiveSpec, SideSpec
from ..core.scenario_events import (
    ACTION_KINDS,
    TRIGGER_KINDS,
    Ally,
    Defeat,
    EventSpec,
    Narrate,
    OnBagged,
    OnCharge,
    OnCutsLine,
    OnDestroyed,
    OnDuelBegun,
    OnEntersRegion,
    OnFallen,
    OnHeroWounded,
    OnObjectivesDone,
    OnOfficersSlain,
    OnRouted,
    OnSideWipedOut,
    OnSkillUsed,
    OnSouls,
    OnTurn,
    OpenGates,
    Reinforce,
    Release,
    Reveal,
    SetObjective,
    Shake,
    Victory,
    parse_offset,
)
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
            known = TRIGGER_KINDS if loc and loc[0] == "when" else ACTION_KINDS
            msg = f"unknown kind {err['ctx']['tag']!r} (known: {', '.join(known)})"
            loc = (*loc, "kind")
        elif kind == "union_tag_not_found":
            msg = "missing"
            loc = (*loc, "kind")
        out.append(error(path, obj, _field(loc), msg))
    return out


def _object_name(data: Any, plural: str, index: int) -> str:
    ident = data.get("id") if isinstance(data, dict) else None
    return ident if isinstance(ident, str) and ident else f"{plural}[{index}]"


def parse_objectives(path: Path, raw: list[Any]) -> tuple[list[ObjectiveSpec], list[ContentError]]:
    specs: list[ObjectiveSpec] = []
    errors: list[ContentError] = []
    for i, data in enumerate(raw):
        obj = _object_name(data, "objectives", i)
        try:
            spec = ObjectiveSpec.model_validate(data)
        except ValidationError as exc:
            errors += _validation_errors(path, obj, exc, data)
            continue
        if any(s.id == spec.id for s in specs):
            errors.append(error(path, obj, "id", "duplicate objective id"))
            continue
        specs.append(spec)
    return specs, errors


def parse_events(path: Path, raw: list[Any]) -> tuple[list[EventSpec], list[ContentError]]:
    specs: list[EventSpec] = []
    errors: list[ContentError] = []
    for i, data in enumerate(raw):
        obj = _object_name(data, "events", i)
        try:
            spec = EventSpec.model_validate(data)
        except ValidationError as exc:
            errors += _validation_errors(path, obj, exc, data)
            continue
        if any(s.id == spec.id for s in specs):
            errors.append(error(path, obj, "id", "duplicate event id"))
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
    """Collects errors for one object with a common field prefix."""

    def __init__(self, known: _Known, obj: str, prefix: str) -> None:
        self.known = known
        self.obj = obj
        self.prefix = prefix
        self.errors: list[ContentError] = []

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

    def hero(self, field: str, hero: str | None) -> None:
        if hero is not None and hero not in self.known.rules.heroes:
            self.fail(field, f"unknown hero {hero!r}")

    def region(self, field: str, region: str) -> None:
        if region not in self.known.board.regions:
            self.fail(field, f"unknown region {region!r}")

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
    return c.errors


def _check_trigger(known: _Known, ev: EventSpec) -> list[ContentError]:
    c = _Checker(known, ev.id, "when")
    w = ev.when
    if isinstance(w, OnTurn):
        c.side("side", w.side)
        if w.turn > known.turn_limit:
            c.fail("turn", f"after the last turn ({known.turn_limit})")
        elif w.turn == 1 and (w.side or known.first_side) == known.first_side:
            c.fail("turn", "the first side's turn 1 begins before any event is checked; use the briefing")
    elif isinstance(w, OnEntersRegion):
        c.region("region", w.region)
        c.side("side", w.side)
        c.unit("unit", w.unit)
        for k, u in enumerate(w.units):
            c.unit(f"units[{k}]", u)
        region = known.board.regions.get(w.region, frozenset())
        for f in known.formations.values():
            if f.side == w.side and w.selects(f.id) and f.pos in region:
                c.fail("region", f"{f.id} starts inside {w.region!r}, so the event would fire at once")
                break
    elif isinstance(w, (OnRouted, OnDestroyed)):
        c.unit("unit", w.unit)
        for k, u in enumerate(w.units):
            c.unit(f"units[{k}]", u)
        c.side("side", w.side)
    elif isinstance(w, OnBagged):
        for k, u in enumerate(w.units):
            c.unit(f"units[{k}]", u)
    elif isinstance(w, OnCharge):
        c.unit("unit", w.unit)
        for k, u in enumerate((*w.units, *w.targets)):
            c.unit(f"units[{k}]" if k < len(w.units) else f"targets[{k - len(w.units)}]", u)
    elif isinstance(w, OnHeroWounded):
        c.hero("hero", w.hero)
    elif isinstance(w, (OnSouls, OnSideWipedOut)):
        c.side("side", w.side)
    elif isinstance(w, OnObjectivesDone):
        for k, o in enumerate(w.done):
            c.objective(f"done[{k}]", o)
    elif isinstance(w, OnCutsLine):
        c.unit("unit", w.unit)
        c.side("side", w.side)
    elif isinstance(w, OnDuelBegun):
        c.hero("hero", w.hero)
    elif isinstance(w, OnOfficersSlain):
        c.side("side", w.side)
    elif isinstance(w, OnFallen):
        for k, u in enumerate(w.units):
            c.unit(f"units[{k}]", u)
    elif isinstance(w, OnSkillUsed):
        c.unit("unit", w.unit)
        if w.skill not in known.rules.skills:
            c.fail("skill", f"unknown skill {w.skill!r}")
    return c.errors


def _check_action(known: _Known, ev: EventSpec, j: int, a: BaseModel) -> list[ContentError]:
    c = _Checker(known, ev.id, f"do[{j}]")
    if isinstance(a, Reinforce):
        c.side("side", a.side)
        for k, r in enumerate(a.formations):
            f = f"formations[{k}]"
            if r.type not in known.rules.units:
                c.fail(f"{f}.type", f"unknown unit type {r.type!r}")
            elif r.hidden and "ambush" not in known.rules.units[r.type].abilities:
                c.fail(f"{f}.hidden", f"{r.type} has no ambush ability and cannot arrive hidden")
            c.hero(f"{f}.hero", r.hero)
            if r.max_men is not None and r.max_men < r.men:
                c.fail(f"{f}.max_men", "must be at least men")
            offset = parse_offset(r.at)
            if offset is None:
                c.region(f"{f}.at", r.at)
            elif known.board.at_offset(*offset) not in known.board:
                c.fail(f"{f}.at", f"{r.at!r} is outside the map")
    elif isinstance(a, Reveal):
        c.unit("unit", a.unit)
        if a.group is not None and a.group not in known.groups:
            c.fail("group", f"no formation is in group {a.group!r}")
    elif isinstance(a, Release):
        c.side("side", a.side)
        side = known.sides.get(a.side)
        if side is not None and a.group not in side.held_groups:
            c.fail("group", f"{a.side!r} holds no group {a.group!r}")
    elif isinstance(a, Narrate):
        c.hero("speaker", a.speaker)
    elif isinstance(a, SetObjective):
        c.objective("id", a.id)
    elif isinstance(a, (Victory, Defeat)):
        c.side("side", a.side)
    elif isinstance(a, OpenGates):
        c.side("side", a.side)
        c.side("to", a.to)
        side = known.sides.get(a.side)
        if side is not None and side.gates is None:
            c.fail("side", f"{a.side!r} holds no gates")
    elif isinstance(a, Shake):
        c.side("side", a.side)
    elif isinstance(a, Ally):
        c.side("side", a.side)
        c.side("with", a.with_)
        if a.side == a.with_:
            c.fail("with", "a side cannot ally with itself")
    return c.errors
