"""Loading the chronicle's set pieces (game/content/data/chronicle.toml) and checking every sign
against the scenario it watches: its events, its formations and the engine's event kinds."""

from __future__ import annotations

import typing
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from ..chronicle.spec import Fired, Happened, SetPiece, Survives
from ..core.events import Event
from ..core.scenario import Scenario
from ..paths import DATA_DIR, MAPS_DIR
from .errors import ContentError, ContentErrors, error
from .ruleset import read_toml, validate_tables
from .scenarios import load_scenario, scenario_ids

CHRONICLE_FILE = DATA_DIR / "chronicle.toml"
Chronicle = dict[str, tuple[SetPiece, ...]]


def _event_kinds() -> dict[str, type[BaseModel]]:
    """The engine's event kinds by name ("skill_used" -> SkillUsed)."""
    union = typing.get_args(Event)[0]
    kinds: dict[str, type[BaseModel]] = {}
    for model in typing.get_args(union):
        kinds[model.model_fields["kind"].default] = model
    return kinds


def _formation_ids(scenario: Scenario) -> set[str]:
    """Formations on the map at the start and those the scenario's events bring in later."""
    ids = {f.id for f in scenario.formations}
    for event in scenario.events:
        for action in event.actions:
            ids.update(f.id for f in getattr(action, "formations", ()))
    return ids


def _sign_errors(path: Path, obj: str, piece: SetPiece, scenario: Scenario) -> list[ContentError]:
    sign = piece.when
    if isinstance(sign, Fired):
        if sign.event not in {e.id for e in scenario.events}:
            return [error(path, obj, "when.event", f"no event {sign.event!r} in {scenario.id}")]
        return []
    if isinstance(sign, Survives):
        if sign.unit not in _formation_ids(scenario):
            return [error(path, obj, "when.unit", f"no formation {sign.unit!r} in {scenario.id}")]
        return []
    assert isinstance(sign, Happened)
    model = _event_kinds().get(sign.event)
    if model is None:
        return [error(path, obj, "when.event", f"unknown engine event {sign.event!r}")]
    fields = set(model.model_fields)
    errors: list[ContentError] = []
    named: list[tuple[str, str]] = [(f"when.where.{k}", k) for k in sign.where]
    named += [(f"when.at_least.{k}", k) for k in sign.at_least]
    named += [(f"when.{k}", v) for k, v in (("who", sign.who), ("count", sign.count)) if v is not None]
    for where, name in named:
        if name not in fields:
            errors.append(error(path, obj, where, f"{sign.event!r} has no field {name!r}"))
    return errors


def load_chronicle_file(path: Path = CHRONICLE_FILE, maps_dir: Path = MAPS_DIR) -> Chronicle:
    """Every scenario's set pieces, in the file's order; ContentErrors lists every problem."""
    errors: list[ContentError] = []
    data = read_toml(path, errors)
    if data is None:
        raise ContentErrors(errors)
    known = set(scenario_ids(maps_dir))
    chronicle: Chronicle = {}
    for sid, tables in data.items():
        if sid not in known:
            errors.append(error(path, sid, "-", f"unknown scenario {sid!r}"))
            continue
        if not isinstance(tables, dict):
            errors.append(error(path, sid, "-", "expected a table of set pieces"))
            continue
        pieces = validate_tables(path, tables, SetPiece, errors, prefix=f"{sid}.")
        scenario = load_scenario(sid, maps_dir).scenario
        for key, piece in pieces.items():
            errors.extend(_sign_errors(path, f"{sid}.{key}", piece, scenario))
        chronicle[sid] = tuple(pieces.values())
    if errors:
        raise ContentErrors(errors)
    return chronicle


@lru_cache(maxsize=1)
def load_chronicle() -> Chronicle:
    """The shipped chronicle."""
    return load_chronicle_file()


def set_pieces(scenario_id: str) -> tuple[SetPiece, ...]:
    """The set pieces of one scenario (none for a scenario the chronicle does not tell)."""
    pieces: Any = load_chronicle().get(scenario_id, ())
    return tuple(pieces)
