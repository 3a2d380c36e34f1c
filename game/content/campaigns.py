"""Loading the campaigns (game/content/data/campaigns.toml) and checking them against the
scenarios and unit types they name."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..core.campaign_spec import CampaignSpec, UpgradeSpec
from ..core.rules import Ruleset
from ..paths import DATA_DIR, MAPS_DIR
from .errors import ContentError, ContentErrors, error
from .ruleset import M, load_ruleset, read_toml, validate_tables
from .scenarios import load_scenario, load_scenario_file, scenario_ids

CAMPAIGNS_FILE = DATA_DIR / "campaigns.toml"


@dataclass(frozen=True)
class Campaigns:
    campaigns: dict[str, CampaignSpec]
    upgrades: dict[str, UpgradeSpec]

    def ordered(self) -> list[CampaignSpec]:
        return [self.campaigns[k] for k in sorted(self.campaigns)]


def load_campaigns_file(
    path: Path = CAMPAIGNS_FILE, rules: Ruleset | None = None, maps_dir: Path = MAPS_DIR
) -> Campaigns:
    """Load and check the campaigns; raises ContentErrors listing every problem found."""
    rules = rules or load_ruleset()
    errors: list[ContentError] = []
    data = read_toml(path, errors)
    if data is None:
        raise ContentErrors(errors)
    for key in sorted(set(data) - {"campaigns", "upgrades"}):
        errors.append(error(path, key, "-", "unknown table (expected [campaigns.*] and [upgrades.*])"))
    upgrades = _tables(path, data.get("upgrades", {}), UpgradeSpec, "upgrades", errors)
    campaigns = _tables(path, data.get("campaigns", {}), CampaignSpec, "campaigns", errors)
    known = set(scenario_ids(maps_dir))
    for cid, spec in campaigns.items():
        obj = f"campaigns.{cid}"
        for uid in spec.upgrades:
            if uid not in upgrades:
                errors.append(error(path, obj, "upgrades", f"unknown upgrade {uid!r}"))
        for unit in spec.units:
            if unit not in rules.units:
                errors.append(error(path, obj, f"units.{unit}", "unknown unit type"))
        errors.extend(_story_errors(path, obj, spec, rules))
        for i, sid in enumerate(spec.scenarios):
            if sid not in known:
                errors.append(error(path, obj, f"scenarios.{i}", f"unknown scenario {sid!r}"))
                continue
            try:
                scenario = (
                    load_scenario(sid, maps_dir)
                    if rules is load_ruleset()
                    else load_scenario_file(maps_dir / f"{sid}.toml", rules)
                ).scenario
            except ContentErrors:
                errors.append(error(path, obj, f"scenarios.{i}", f"scenario {sid!r} does not load"))
                continue
            if scenario.campaign != cid:
                errors.append(error(path, obj, f"scenarios.{i}", f"{sid!r} belongs to campaign {scenario.campaign!r}"))
            side = next((s for s in scenario.sides if s.id == spec.side), None)
            if side is None or side.role != "player":
                errors.append(error(path, obj, "side", f"{spec.side!r} is not the player side of {sid!r}"))
    if errors:
        raise ContentErrors(errors)
    return Campaigns(campaigns, upgrades)


def _story_errors(path: Path, obj: str, spec: CampaignSpec, rules: Ruleset) -> list[ContentError]:
    """The decisions, endings and campaign debriefings must name what exists."""
    errors: list[ContentError] = []
    if spec.ending and spec.ending not in spec.endings:
        errors.append(error(path, obj, "ending", f"unknown ending {spec.ending!r}"))
    for i, rule in enumerate(spec.ending_rules):
        if rule.ending not in spec.endings:
            errors.append(error(path, obj, f"ending_rules.{i}.ending", f"unknown ending {rule.ending!r}"))
        if rule.battle not in spec.scenarios:
            errors.append(
                error(path, obj, f"ending_rules.{i}.battle", f"{rule.battle!r} is not a battle of this campaign")
            )
    for old, new in spec.retired_endings.items():
        if old in spec.endings:
            errors.append(error(path, obj, f"retired_endings.{old}", "an ending still in the game cannot be retired"))
        if new not in spec.endings:
            errors.append(error(path, obj, f"retired_endings.{old}", f"unknown ending {new!r}"))
    for sid in spec.debriefings:
        if sid not in spec.scenarios:
            errors.append(error(path, obj, f"debriefings.{sid}", "not a battle of this campaign"))
    seen: set[str] = set()
    for i, d in enumerate(spec.decisions):
        where = f"decisions.{i}"
        if d.id in seen:
            errors.append(error(path, obj, f"{where}.id", f"decision {d.id!r} given twice"))
        seen.add(d.id)
        if d.after is not None and d.after not in spec.scenarios:
            errors.append(error(path, obj, f"{where}.after", f"{d.after!r} is not a battle of this campaign"))
        if d.when == "aim_met" and not spec.souls_aim:
            errors.append(error(path, obj, f"{where}.when", "the campaign has no war aim"))
        if d.speaker is not None and d.speaker not in rules.heroes:
            errors.append(error(path, obj, f"{where}.speaker", f"unknown hero {d.speaker!r}"))
        for j, o in enumerate(d.options):
            if o.ending is not None and o.ending not in spec.endings:
                errors.append(error(path, obj, f"{where}.options.{j}.ending", f"unknown ending {o.ending!r}"))
    return errors


def _tables(path: Path, tables: object, model: type[M], prefix: str, errors: list[ContentError]) -> dict[str, M]:
    if not isinstance(tables, dict):
        errors.append(error(path, prefix, "-", "expected a table"))
        return {}
    return validate_tables(path, tables, model, errors, prefix=f"{prefix}.")


@lru_cache(maxsize=1)
def load_campaigns() -> Campaigns:
    """The shipped campaigns."""
    return load_campaigns_file()


def story_name_forms(script: str | None) -> tuple[tuple[str, str], ...]:
    """The names of the stories told in ``script`` as their prose writes them, each as
    (simplified, traditional) (none outside a story, or if the campaign data cannot be read)."""
    if script is None:
        return ()
    try:
        campaigns = load_campaigns().campaigns.values()
    except ContentErrors:
        return ()
    return tuple((f.simplified, f.traditional) for c in campaigns if c.names == script for f in c.name_forms)


def names_script(campaign_id: str | None) -> str | None:
    """The script a campaign's names are written in (None outside a campaign, or if the
    campaign data cannot be read: then names follow the reader's language)."""
    if campaign_id is None:
        return None
    try:
        spec = load_campaigns().campaigns.get(campaign_id)
    except ContentErrors:
        return None
    return spec.names if spec is not None else None
