"""Loading the ruleset (terrain, unit types, heroes, factions) from TOML files.

Each file is a set of tables keyed by id. Errors are collected, not raised one at a time, so
``validate`` can report every problem in one run.
"""

from __future__ import annotations

import hashlib
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .. import __version__
from ..core.kinds import UnknownKind
from ..core.rules import Faction, Hero, Ruleset, Skill, TerrainType, UnitType
from ..core.skill_kinds import SKILLS
from ..paths import DATA_DIR
from .errors import ContentError, ContentErrors, error, from_validation

M = TypeVar("M", bound=BaseModel)

RULESET_FILES: dict[str, type[BaseModel]] = {
    "terrain.toml": TerrainType,
    "units.toml": UnitType,
    "heroes.toml": Hero,
    "factions.toml": Faction,
    "skills.toml": Skill,
}


def read_toml(path: Path, errors: list[ContentError]) -> dict[str, Any] | None:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        errors.append(error(path, "-", "-", "file not found"))
    except tomllib.TOMLDecodeError as exc:
        errors.append(error(path, "-", "-", f"not valid TOML: {exc}"))
    except (OSError, UnicodeDecodeError) as exc:
        errors.append(error(path, "-", "-", f"cannot read: {exc}"))
    return None


def load_model(path: Path, model: type[M], obj: str | None = None) -> M:
    """Read a TOML file and validate it as ``model``; ContentErrors name the file, the object
    (``obj``, else the file's own ``id``, else its name) and the field."""
    errors: list[ContentError] = []
    data = read_toml(path, errors)
    if data is None:
        raise ContentErrors(errors)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContentErrors(from_validation(path, obj or str(data.get("id", path.stem)), exc)) from None


def load_tables(path: Path, model: type[M], errors: list[ContentError]) -> dict[str, M]:
    """Validate every top-level table of a TOML file as ``model``, its key being the id."""
    data = read_toml(path, errors)
    if data is None:
        return {}
    return validate_tables(path, data, model, errors)


def validate_tables(
    path: Path, tables: dict[str, Any], model: type[M], errors: list[ContentError], prefix: str = ""
) -> dict[str, M]:
    """Validate each table of ``tables`` as ``model``, its key being the id; errors name the
    object as ``prefix`` + key."""
    out: dict[str, M] = {}
    for key, body in tables.items():
        obj = f"{prefix}{key}"
        if not isinstance(body, dict):
            errors.append(error(path, obj, "-", "expected a table"))
            continue
        if "id" in body and body["id"] != key:
            errors.append(error(path, obj, "id", "must match the table name or be left out"))
            continue
        try:
            out[key] = model.model_validate({**body, "id": key})
        except ValidationError as exc:
            errors.extend(from_validation(path, obj, exc))
    return out


def _cross_check(rules: dict[str, dict[str, Any]], data_dir: Path) -> list[ContentError]:
    errors: list[ContentError] = []
    factions = rules["factions.toml"]
    move_classes = {u.move_class for u in rules["units.toml"].values()}
    for uid, u in rules["units.toml"].items():
        if u.faction not in factions:
            errors.append(error(data_dir / "units.toml", uid, "faction", f"unknown faction {u.faction!r}"))
    for hid, h in rules["heroes.toml"].items():
        if h.faction not in factions:
            errors.append(error(data_dir / "heroes.toml", hid, "faction", f"unknown faction {h.faction!r}"))
    errors += _cross_check_skills(rules, data_dir)
    for tid, t in rules["terrain.toml"].items():
        for cls in t.move_cost:
            if cls not in move_classes:
                errors.append(
                    error(
                        data_dir / "terrain.toml",
                        tid,
                        f"move_cost.{cls}",
                        "no unit type has this movement class",
                    )
                )
    return errors


def _declared(path: Path, loaded: dict[str, Any]) -> set[str] | None:
    """The ids a data file declares, whether or not they validated; None if it cannot be read
    (that error is reported already, and nothing can be said about what it holds)."""
    data = read_toml(path, [])
    if data is None:
        return None
    return set(loaded) | set(data)


def _cross_check_skills(rules: dict[str, dict[str, Any]], data_dir: Path) -> list[ContentError]:
    """Heroes name skills that exist; skills name unit types, terrain and heroes that exist.
    An object that failed its own validation still counts as existing (it is reported once)."""
    errors: list[ContentError] = []
    skills = _declared(data_dir / "skills.toml", rules["skills.toml"])
    units = _declared(data_dir / "units.toml", rules["units.toml"])
    terrain = _declared(data_dir / "terrain.toml", rules["terrain.toml"])
    heroes = _declared(data_dir / "heroes.toml", rules["heroes.toml"])
    move_classes = {u.move_class for u in rules["units.toml"].values()}

    def unknown(name: str, known: set[str] | None) -> bool:
        return known is not None and name not in known

    for hid, h in rules["heroes.toml"].items():
        for i, sid in enumerate(h.skills):
            if unknown(sid, skills):
                errors.append(error(data_dir / "heroes.toml", hid, f"skills.{i}", f"unknown skill {sid!r}"))
    path = data_dir / "skills.toml"
    for sid, s in rules["skills.toml"].items():
        for field in ("affects", "granted_to", "only_units"):
            for i, uid in enumerate(getattr(s, field)):
                if unknown(uid, units):
                    errors.append(error(path, sid, f"{field}.{i}", f"unknown unit type {uid!r}"))
        for field in ("stand_on", "drop_on"):
            for i, tid in enumerate(getattr(s, field)):
                if unknown(tid, terrain):
                    errors.append(error(path, sid, f"{field}.{i}", f"unknown terrain {tid!r}"))
        for i, cls in enumerate(s.move_classes):
            if units is not None and cls not in move_classes:
                errors.append(error(path, sid, f"move_classes.{i}", f"no unit type has movement class {cls!r}"))
        try:
            kind = SKILLS.get(s.effect)
        except UnknownKind as exc:
            errors.append(error(path, sid, "effect", str(exc)))
        else:
            errors += [error(path, sid, field, message) for field, message in kind.check(s)]
        if s.bearer is not None and unknown(s.bearer, heroes):
            errors.append(error(path, sid, "bearer", f"unknown hero {s.bearer!r}"))
    return errors


def content_digest(paths: list[Path]) -> str:
    """A short digest of the given files' bytes, in the given order."""
    return digest_of([(p.name, p.read_bytes()) for p in paths])


def digest_of(parts: list[tuple[str, bytes]]) -> str:
    """A short digest of (file name, content) pairs, in the given order."""
    h = hashlib.sha256()
    for name, data in parts:
        h.update(name.encode())
        h.update(data)
    return h.hexdigest()[:10]


def load_ruleset_from(data_dir: Path) -> Ruleset:
    errors: list[ContentError] = []
    tables = {name: load_tables(data_dir / name, model, errors) for name, model in RULESET_FILES.items()}
    errors += _cross_check(tables, data_dir)
    if errors:
        raise ContentErrors(errors)
    version = f"{__version__}+{content_digest([data_dir / n for n in RULESET_FILES])}"
    return Ruleset(
        version=version,
        terrain=tables["terrain.toml"],
        units=tables["units.toml"],
        heroes=tables["heroes.toml"],
        factions=tables["factions.toml"],
        skills=tables["skills.toml"],
    )


@lru_cache(maxsize=1)
def load_ruleset() -> Ruleset:
    """The game's own ruleset, loaded once per process."""
    return load_ruleset_from(DATA_DIR)
