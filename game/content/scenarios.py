"""Scenarios: a TOML file beside its Tiled map in ``game/maps/``, checked against the ruleset."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..core.board import Board
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.scenario import (
    OUTCOME_ATTRITION,
    OUTCOME_DRAW,
    AiHints,
    DuelRules,
    FormationSpec,
    OfficerSpec,
    Scenario,
    SideSpec,
    SideTexts,
)
from ..core.scenario_events import EventSpec, Reinforce
from ..paths import DATA_DIR, MAPS_DIR
from .errors import ContentError, ContentErrors, error, from_validation
from .event_checks import check_events, check_region_labels, declared_ids, parse_events, parse_objectives
from .ruleset import digest_of, load_model, load_ruleset
from .tmx import HexLayout, PlacedFormation, load_tmx, played_bytes

# A formation's men, as a campaign's roster bounds them (``core.campaign``).
MAX_MEN = 10_000_000


class EndingDebriefing(BaseModel):
    """What the player reads when the battle ends by ``event`` (a scenario event that decides it)."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    event: str
    text: str = Field(min_length=1)


class ScenarioFile(BaseModel):
    """The schema of a scenario .toml file."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    campaign: str | None = None
    map: str
    turn_limit: int = Field(ge=1, le=500)
    turn_limit_outcome: str = OUTCOME_ATTRITION
    briefing: str = ""
    # What the player reads after the battle, won or lost (the campaign's debriefing).
    debriefing_victory: str = ""
    debriefing_defeat: str = ""
    # [[debriefings]]: the debriefing of an ending a scenario event decides, over the two above.
    debriefings: list[EndingDebriefing] = Field(default_factory=list)
    # [[side_texts]]: the briefing, objectives and debriefings of a side other than the player's.
    side_texts: list[SideTexts] = Field(default_factory=list)
    # [[officers]]: named officers of formations, cut down one by one by an officer-killing hero.
    officers: list[OfficerSpec] = Field(default_factory=list)
    # [[objectives]] and [[events]] tables, checked one by one (event_checks) so each error
    # names its objective or event.
    objectives: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    sides: list[SideSpec] = Field(min_length=2)
    # Hints for the computer generals (regions and formations they should know about).
    ai: AiHints = AiHints()
    # How this battle's duels are decided, where the story fought them otherwise than the game's rule.
    duel: DuelRules = DuelRules()


def _officer_and_ending_errors(
    path: Path, obj: str, spec: ScenarioFile, units: set[str], event_ids: set[str]
) -> list[ContentError]:
    """Officers serve in formations of the map, once each; endings name events of the file."""
    errors: list[ContentError] = []
    seen: set[str] = set()
    for i, officer in enumerate(spec.officers):
        if officer.unit not in units:
            errors.append(error(path, obj, f"officers.{i}.unit", f"unknown formation {officer.unit!r}"))
        if officer.id in seen:
            errors.append(error(path, obj, f"officers.{i}.id", f"officer {officer.id!r} listed twice"))
        seen.add(officer.id)
    for i, ending in enumerate(spec.debriefings):
        if ending.event not in event_ids:
            errors.append(error(path, obj, f"debriefings.{i}.event", f"unknown event {ending.event!r}"))
    return errors


def _side_text_errors(path: Path, obj: str, spec: ScenarioFile, event_ids: set[str]) -> list[ContentError]:
    """Side texts are for sides of the file other than the player's, once each; their objectives
    have ids of their own and stand against objectives of the file; endings name its events."""
    errors: list[ContentError] = []
    roles = {s.id: s.role for s in spec.sides}
    objective_ids = set(declared_ids(spec.objectives))
    seen_sides: set[str] = set()
    seen_ids = set(objective_ids)
    for i, texts in enumerate(spec.side_texts):
        where = f"side_texts.{i}"
        if texts.side not in roles:
            errors.append(error(path, obj, f"{where}.side", f"unknown side {texts.side!r}"))
        elif roles[texts.side] == "player":
            errors.append(error(path, obj, f"{where}.side", "the player side's texts are the scenario's own"))
        if texts.side in seen_sides:
            errors.append(error(path, obj, f"{where}.side", f"side {texts.side!r} has texts twice"))
        seen_sides.add(texts.side)
        for k, objective in enumerate(texts.objectives):
            if objective.id in seen_ids:
                errors.append(error(path, obj, f"{where}.objectives.{k}.id", f"objective {objective.id!r} twice"))
            seen_ids.add(objective.id)
            if objective.against is not None and objective.against not in objective_ids:
                msg = f"unknown objective {objective.against!r}"
                errors.append(error(path, obj, f"{where}.objectives.{k}.against", msg))
        for k, ending in enumerate(texts.debriefings):
            if ending.event not in event_ids:
                errors.append(error(path, obj, f"{where}.debriefings.{k}.event", f"unknown event {ending.event!r}"))
    return errors


def _ai_hint_errors(
    path: Path, obj: str, hints: AiHints, sides: set[str], units: set[str], board: Board, event_ids: set[str]
) -> list[ContentError]:
    """Every region, formation and event an ``[ai]`` hint names must exist."""
    errors: list[ContentError] = []
    for name in ("palace_region", "refuge_region", "pass_region", "feint_region"):
        region = getattr(hints, name)
        if region is not None and region not in board.regions:
            errors.append(error(path, obj, f"ai.{name}", f"unknown region {region!r}"))
    for name in ("rear_guard", "feint", "charge", "follow", "sweepers", "lane"):
        for unit in getattr(hints, name):
            if unit not in units:
                errors.append(error(path, obj, f"ai.{name}", f"unknown formation {unit!r}"))
    for name in ("palace_alarm_event", "retreat_event"):
        event = getattr(hints, name)
        if event is not None and event not in event_ids:
            errors.append(error(path, obj, f"ai.{name}", f"unknown event {event!r}"))
    for i, hold in enumerate(hints.hold):
        if hold.side not in sides:
            errors.append(error(path, obj, f"ai.hold.{i}.side", f"unknown side {hold.side!r}"))
        if hold.region not in board.regions:
            errors.append(error(path, obj, f"ai.hold.{i}.region", f"unknown region {hold.region!r}"))
        for unit in hold.units:
            if unit not in units:
                errors.append(error(path, obj, f"ai.hold.{i}.units", f"unknown formation {unit!r}"))
        if hold.until is not None and hold.until not in event_ids:
            errors.append(error(path, obj, f"ai.hold.{i}.until", f"unknown event {hold.until!r}"))
        if hold.after is not None and hold.after not in event_ids:
            errors.append(error(path, obj, f"ai.hold.{i}.after", f"unknown event {hold.after!r}"))
    for i, reserve in enumerate(hints.reserve):
        if reserve.side not in sides:
            errors.append(error(path, obj, f"ai.reserve.{i}.side", f"unknown side {reserve.side!r}"))
        for unit in reserve.units:
            if unit not in units:
                errors.append(error(path, obj, f"ai.reserve.{i}.units", f"unknown formation {unit!r}"))
        for name, events in (("after", (reserve.after,) if reserve.after else ()), ("until", reserve.until)):
            for event in events:
                if event not in event_ids:
                    errors.append(error(path, obj, f"ai.reserve.{i}.{name}", f"unknown event {event!r}"))
    return errors


@dataclass(frozen=True)
class LoadedScenario:
    scenario: Scenario
    layout: HexLayout
    toml_path: Path
    map_path: Path
    # Changes whenever the scenario, its map or the ruleset changes; goes into every record.
    content_version: str
    # The unit, terrain, hero, faction and skill data it was loaded with (None: the game's own),
    # and the folder they came from (None when it is gone, as for a save's unpacked bundle).
    rules: Ruleset | None = None
    rules_dir: Path | None = None

    def ruleset(self) -> Ruleset:
        """The data this scenario is played with."""
        return self.rules if self.rules is not None else load_ruleset()


def _reinforcement_bounds(path: Path, events: list[EventSpec]) -> list[ContentError]:
    """A reinforcement's men are bounded like a formation's on the map."""
    errors = []
    for event in events:
        for j, action in enumerate(event.actions):
            for k, r in enumerate(getattr(action, "formations", ())):
                for name in ("men", "max_men"):
                    if (getattr(r, name, None) or 0) > MAX_MEN:
                        errors.append(
                            error(path, event.id, f"do[{j}].formations[{k}].{name}", f"must be at most {MAX_MEN:,}")
                        )
    return errors


def _hiding_error(spec: FormationSpec, rules: Ruleset, board: Board) -> str | None:
    """Only ambushers start hidden, and only on ground that hides them."""
    if not spec.hidden:
        return None
    if "ambush" not in rules.units[spec.type].abilities:
        return f"{spec.type} has no ambush ability and cannot start hidden"
    terrain = board.terrain_at(spec.pos)
    if not terrain.cover:
        return f"{terrain.id} gives no cover to hide in"
    return None


def _formation_specs(
    path: Path,
    placed: list[PlacedFormation],
    sides: dict[str, SideSpec],
    rules: Ruleset,
    board: Board,
    errors: list[ContentError],
) -> list[FormationSpec]:
    specs: list[FormationSpec] = []
    occupied: dict[Hex, str] = {}
    for p in placed:
        fields = dict(p.fields)
        unit = fields.pop("unit", None)
        try:
            spec = FormationSpec.model_validate({**fields, "type": unit, "id": p.id, "pos": p.pos})
        except ValidationError as exc:
            errors.extend(
                e if e.field != "type" else error(path, p.id, "unit", e.message)
                for e in from_validation(path, p.id, exc)
            )
            continue
        if spec.side not in sides:
            errors.append(error(path, p.id, "side", f"unknown side {spec.side!r}"))
            continue
        if spec.type not in rules.units:
            errors.append(error(path, p.id, "unit", f"unknown unit type {spec.type!r}"))
            continue
        if spec.hero is not None and spec.hero not in rules.heroes:
            errors.append(error(path, p.id, "hero", f"unknown hero {spec.hero!r}"))
            continue
        too_many = next((n for n in ("men", "max_men") if (getattr(spec, n) or 0) > MAX_MEN), None)
        if too_many is not None:
            errors.append(error(path, p.id, too_many, f"must be at most {MAX_MEN:,}"))
            continue
        if spec.max_men is not None and spec.max_men < spec.men:
            errors.append(error(path, p.id, "max_men", "must be at least men"))
            continue
        if spec.pos not in board:
            errors.append(error(path, p.id, "position", "outside the map"))
            continue
        if board.move_cost(spec.pos, rules.units[spec.type].move_class) is None:
            errors.append(
                error(
                    path,
                    p.id,
                    "position",
                    f"{spec.type} cannot stand on {board.terrain_at(spec.pos).id}",
                )
            )
            continue
        hiding = _hiding_error(spec, rules, board)
        if hiding is not None:
            errors.append(error(path, p.id, "hidden", hiding))
            continue
        if spec.pos in occupied:
            errors.append(error(path, p.id, "position", f"same hex as {occupied[spec.pos]}"))
            continue
        occupied[spec.pos] = p.id
        specs.append(spec)
    return specs


def load_scenario_file(toml_path: Path, rules: Ruleset | None = None, rules_dir: Path | None = None) -> LoadedScenario:
    """Load and check one scenario with ``rules`` (read from ``rules_dir``; by default the
    game's own); raises ContentErrors listing every problem found."""
    if rules is None:
        rules, rules_dir = load_ruleset(), DATA_DIR
    spec = load_model(toml_path, ScenarioFile)
    errors: list[ContentError] = []
    obj = spec.id
    if spec.id != toml_path.stem:
        errors.append(error(toml_path, obj, "id", f"must match the file name {toml_path.stem!r}"))
    sides = {s.id: s for s in spec.sides}
    if len(sides) != len(spec.sides):
        errors.append(error(toml_path, obj, "sides", "side ids must be unique"))
    for i, s in enumerate(spec.sides):
        if s.faction not in rules.factions:
            errors.append(error(toml_path, obj, f"sides.{i}.faction", f"unknown faction {s.faction!r}"))
    if spec.turn_limit_outcome not in (OUTCOME_ATTRITION, OUTCOME_DRAW, *sides):
        errors.append(error(toml_path, obj, "turn_limit_outcome", "must be 'attrition', 'draw' or a side id"))
    objectives, objective_errors = parse_objectives(toml_path, spec.objectives)
    events, event_errors = parse_events(toml_path, spec.events)
    errors += objective_errors + event_errors
    errors += _reinforcement_bounds(toml_path, events)
    map_path = (toml_path.parent / spec.map).resolve()
    if toml_path.parent.resolve() not in map_path.parents:
        errors.append(error(toml_path, obj, "map", "must be a file beside the scenario"))
        raise ContentErrors(errors)
    tmx = load_tmx(map_path, rules, errors)
    if tmx is None:
        raise ContentErrors(errors)
    formations = _formation_specs(map_path, tmx.formations, sides, rules, tmx.board, errors)
    for sid in sides:
        if not any(f.side == sid for f in formations) and sides[sid].role != "neutral":
            errors.append(error(map_path, sid, "formations", "side has no formations on the map"))
    errors += check_events(
        toml_path,
        events,
        objectives,
        spec.sides,
        formations,
        tmx.board,
        rules,
        spec.turn_limit,
        event_ids=declared_ids(spec.events),
        objective_ids=declared_ids(spec.objectives),
        formation_ids={p.id for p in tmx.formations},
    )
    errors += check_region_labels(map_path, events, tmx.board)
    errors += _officer_and_ending_errors(
        toml_path, obj, spec, {f.id for f in formations}, set(declared_ids(spec.events))
    )
    errors += _side_text_errors(toml_path, obj, spec, set(declared_ids(spec.events)))
    # Hints may name formations that arrive with a reinforcement too.
    arriving = {r.id for ev in events for a in ev.actions if isinstance(a, Reinforce) for r in a.formations}
    errors += _ai_hint_errors(
        toml_path,
        obj,
        spec.ai,
        set(sides),
        {p.id for p in tmx.formations} | arriving,
        tmx.board,
        set(declared_ids(spec.events)),
    )
    if errors:
        raise ContentErrors(errors)
    scenario = Scenario(
        id=spec.id,
        title=spec.title,
        campaign=spec.campaign,
        sides=tuple(spec.sides),
        turn_limit=spec.turn_limit,
        turn_limit_outcome=spec.turn_limit_outcome,
        objectives=tuple(o.text for o in objectives),
        briefing=spec.briefing,
        debriefing_victory=spec.debriefing_victory,
        debriefing_defeat=spec.debriefing_defeat,
        board=tmx.board,
        formations=tuple(formations),
        map_file=map_path.name,
        objective_specs=tuple(objectives),
        events=tuple(events),
        ai=spec.ai,
        officers=tuple(spec.officers),
        debriefings=tuple((d.event, d.text) for d in spec.debriefings),
        side_texts=tuple(spec.side_texts),
        duel=spec.duel,
    )
    # The map's place names are left out: they are shown, never played (``played_bytes``).
    played = [(toml_path.name, toml_path.read_bytes()), (map_path.name, played_bytes(map_path))]
    version = f"{rules.version}/{digest_of(played)}"
    return LoadedScenario(scenario, tmx.layout, toml_path, map_path, version, rules, rules_dir)


def scenario_paths(maps_dir: Path = MAPS_DIR) -> list[Path]:
    return sorted(maps_dir.glob("*.toml"))


def scenario_ids(maps_dir: Path = MAPS_DIR) -> list[str]:
    return [p.stem for p in scenario_paths(maps_dir)]


def load_scenario(scenario_id: str, maps_dir: Path = MAPS_DIR) -> LoadedScenario:
    """A shipped scenario by id (read once). Raises KeyError for an unknown id."""
    if scenario_id not in scenario_ids(maps_dir):
        raise KeyError(scenario_id)
    return _load_once(maps_dir, scenario_id)


@cache
def _load_once(maps_dir: Path, scenario_id: str) -> LoadedScenario:
    return load_scenario_file(maps_dir / f"{scenario_id}.toml")
