"""``qiankun validate``: check maps, scenarios and data; every error names file, object and field."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..content.campaigns import CAMPAIGNS_FILE, load_campaigns_file
from ..content.errors import ContentError, ContentErrors
from ..content.ruleset import RULESET_FILES, load_ruleset, load_ruleset_from, read_toml
from ..content.scenarios import load_scenario_file, scenario_paths
from ..core.rules import Ruleset
from ..paths import DATA_DIR, MAPS_DIR
from .errors import EXIT_FAIL, EXIT_OK, CliError
from .inputs import exists


def cmd_validate(args: argparse.Namespace) -> int:
    errors: list[ContentError] = []
    files = 0
    paths: list[Path] = list(args.paths) or [DATA_DIR, MAPS_DIR]
    for path in paths:
        if not exists(path):
            raise CliError(f"{path}: no such file or folder")
        n, errs = _validate_path(path)
        files += n
        errors += errs
    if errors:
        for e in errors:
            print(e)
        return EXIT_FAIL
    print(f"ok {files} files")
    return EXIT_OK


def _validate_path(path: Path) -> tuple[int, list[ContentError]]:
    """(files checked, errors) for a data folder, a maps folder, or one file."""
    if path.is_dir():
        if (path / "units.toml").exists():
            return _validate_ruleset(path)
        return _validate_folder(path)
    if path.name in RULESET_FILES:
        return _validate_ruleset(path.parent)
    if path.name == CAMPAIGNS_FILE.name or (path.suffix == ".toml" and "campaigns" in (read_toml(path, []) or {})):
        return _validate_campaigns(path)
    if path.suffix == ".toml":
        try:
            load_scenario_file(path, _shipped_rules())
        except ContentErrors as exc:
            return 2, exc.errors
        return 2, []
    if path.suffix == ".tmx":
        from ..content.tmx import load_tmx

        errs: list[ContentError] = []
        # A map is checked through the scenarios that use it: only they say which sides and
        # unit types its formation objects may name.
        owners = [p for p in scenario_paths(path.parent) if _map_of(p) == path.name]
        for owner in owners:
            try:
                load_scenario_file(owner, _shipped_rules())
            except ContentErrors as exc:
                errs += [e for e in exc.errors if e not in errs]
        if not owners:
            load_tmx(path, _shipped_rules(), errs)
        return 1, errs
    return 0, [ContentError(str(path), "-", "-", "not a scenario (.toml), map (.tmx) or data folder")]


def _validate_folder(path: Path) -> tuple[int, list[ContentError]]:
    """Every scenario in a folder, and every map no scenario uses; a folder without a scenario
    is an error saying what it holds (a map alone cannot say which sides and units it may name)."""
    scenarios = scenario_paths(path)
    total, errs = 0, []
    for p in scenarios:
        n, e = _validate_path(p)
        total += n
        errs += e
    used = {_map_of(p) for p in scenarios}
    maps = sorted(p for p in path.glob("*.tmx") if p.name not in used)
    for p in maps:
        n, e = _validate_path(p)
        total += n
        errs += e
    if not scenarios:
        if maps:
            found = f"{len(maps)} map{'s' if len(maps) > 1 else ''} (.tmx) but no scenario (.toml): "
            found += "formations are checked through the scenario that uses their map"
        else:
            found = "nothing to validate: no scenario (.toml), map (.tmx) or data (units.toml) in it"
        errs.append(ContentError(str(path), "-", "-", found))
    return total, errs


def _map_of(scenario_toml: Path) -> str | None:
    """The map file a scenario names, if its TOML can be read at all."""
    data = read_toml(scenario_toml, [])
    return data.get("map") if data else None


def _validate_ruleset(folder: Path) -> tuple[int, list[ContentError]]:
    try:
        rules = load_ruleset_from(folder)
    except ContentErrors as exc:
        return len(RULESET_FILES), exc.errors
    if not (folder / CAMPAIGNS_FILE.name).exists():
        return len(RULESET_FILES), []
    n, errs = _validate_campaigns(folder / CAMPAIGNS_FILE.name, rules)
    return len(RULESET_FILES) + n, errs


def _validate_campaigns(path: Path, rules: Ruleset | None = None) -> tuple[int, list[ContentError]]:
    """The campaigns, checked against the shipped scenarios they list."""
    try:
        load_campaigns_file(path, rules or _shipped_rules(), MAPS_DIR)
    except ContentErrors as exc:
        return 1, exc.errors
    return 1, []


def _shipped_rules() -> Ruleset:
    try:
        return load_ruleset()
    except ContentErrors as exc:
        raise CliError(f"the game's own data is broken: {exc.errors[0]}", EXIT_FAIL) from None
