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
from ..core.rules import Faction, Hero, Ruleset, TerrainType, UnitType
from ..paths import DATA_DIR
from .errors import ContentError, ContentErrors, error, from_validation

M = TypeVar("M", bound=BaseModel)

RULESET_FILES: dict[str, type[BaseModel]] = {
    "terrain.toml": TerrainType,
    "units.toml": UnitType,
    "heroes.toml": Hero,
    "factions.toml": Faction,
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


def load_tables(path: Path, model: type[M], errors: list[ContentError]) -> dict[str, M]:
    """Validate every top-level table of a TOML file as ``model``, its key being the id."""
    data = read_toml(path, errors)
    if data is None:
        return {}
    out: dict[str, M] = {}
    for key, body in data.items():
        if not isinstance(body, dict):
            errors.append(error(path, key, "-", "expected a table"))
            continue
        if "id" in body and body["id"] != key:
            errors.append(error(path, key, "id", "must match the table name or be left out"))
            continue
        try:
            out[key] = model.model_validate({**body, "id": key})
        except ValidationError as exc:
            errors.extend(from_validation(path, key, exc))
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


def content_digest(paths: list[Path]) -> str:
    """A short digest of the given files' bytes, in the given order."""
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
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
    )


@lru_cache(maxsize=1)
def load_ruleset() -> Ruleset:
    """The game's own ruleset, loaded once per process."""
    return load_ruleset_from(DATA_DIR)
