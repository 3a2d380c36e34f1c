"""The state snapshot a save carries: taken when a record is saved, trusted only after checks.

A snapshot lets a save load for play without re-running its actions. It is redundant with the
actions, so loading checks that it is the state it claims to be: its hash is the hash of its
state, it stands at the end of the record, a checkpoint at the same action (a save at a turn's
end) has the same hash, everything it names (and every key it holds: hexes, sides, events...)
exists in the scenario, its numbers stay within what play can reach, every man is accounted for,
and the record's settings name known levels and sides. Loading for play trusts it after that;
``verify`` (and so ``replay --verify``) proves the rest by re-running every action and comparing
the state at the snapshot's action.
"""

from __future__ import annotations

from ..content.scenarios import MAX_MEN, LoadedScenario
from ..core.game_settings import DIFFICULTIES
from ..core.hexgrid import Hex
from ..core.officers import NEVER
from ..core.rules import MAX_EXPERIENCE, Ruleset
from ..core.scenario import Scenario
from ..core.state import Formation, GameState
from .errors import SaveError
from .model import GameRecord
from .state_digest import checkpoint_hash, unchained_checkpoint

# Far more than any scenario brings to the field (a snapshot is checked against its own scenario
# later; this stops a hostile file before its state is hashed).
MAX_FORMATIONS = 2_000
# What a unit type may carry (``rules.UnitType``), which a camp's upgrades may double at most,
# and the turns any skill's wait or effect may run.
MAX_AMMO = 99
MAX_CHARGES = 9
MAX_WAIT = 100


def check_integrity(record: GameRecord) -> None:
    """A snapshot must be the state it claims to be, at the end of its record. Checked whenever
    a file is read; SaveError says what is wrong."""
    problem = settings_problem(record, None) or unchained_checkpoint(record)
    if problem:
        raise SaveError(f"damaged save: {problem}")
    snap = record.snapshot
    if snap is None:
        return
    if len(snap.state.formations) > MAX_FORMATIONS:
        raise SaveError(
            f"damaged save: the snapshot holds {len(snap.state.formations):,} formations; "
            f"a battle has at most {MAX_FORMATIONS:,}"
        )
    if snap.actions != len(record.actions):
        raise SaveError(
            f"damaged save: the snapshot was taken after {snap.actions} actions "
            f"but the record has {len(record.actions)}"
        )
    if snap.state.action_index != snap.actions:
        raise SaveError(
            f"the snapshot has been altered: its state is after action {snap.state.action_index}, not {snap.actions}"
        )
    actual = checkpoint_hash(snap.state, record.legacy)
    if actual != snap.hash:
        raise SaveError(f"the snapshot has been altered: its state hashes to {actual}, not {snap.hash}")


def trusted_state(record: GameRecord, loaded: LoadedScenario, rules: Ruleset) -> GameState:
    """The snapshot's state, once it proves to be what it claims and to fit the scenario (a
    state naming what the scenario lacks would break the game later); SaveError says why not."""
    check_integrity(record)
    snap = record.snapshot
    assert snap is not None
    # A save at a turn's end: the checkpoint vouches for the snapshot. (Not checked on reading:
    # ``verify`` names a wrong checkpoint itself, by re-running the actions.)
    for n, cp in enumerate(record.checkpoints, 1):
        if cp.actions == snap.actions and cp.hash != snap.hash:
            raise SaveError(
                f"the snapshot does not match checkpoint {n} (turn {cp.turn}, {cp.side}): "
                f"snapshot {snap.hash}, checkpoint {cp.hash}"
            )
    state = snap.state
    problem = settings_problem(record, loaded.scenario) or _foreign(state, loaded, rules, _raised_ids(record))
    if problem:
        raise SaveError(f"the snapshot does not fit scenario {record.scenario_id}: {problem}")
    return state


def _foreign(
    state: GameState, loaded: LoadedScenario, rules: Ruleset, raised: frozenset[str] = frozenset()
) -> str | None:
    """What in the state the scenario and rules do not know (it would break the game later).
    ``raised``: the formations a campaign's camp raised for this battle (they are not in the
    scenario)."""
    scenario = loaded.scenario
    if state.scenario_id != scenario.id:
        return f"it is a state of {state.scenario_id!r}"
    side_ids = [s.id for s in state.sides]
    if side_ids != list(scenario.side_ids()):
        return f"sides {side_ids} instead of {list(scenario.side_ids())}"
    if not 0 <= state.active < len(state.sides):
        return f"no side number {state.active} to move"
    if state.winner is not None and state.winner not in side_ids:
        return f"the winner is unknown side {state.winner!r}"
    if state.turn_limit > scenario.turn_limit or state.turn > state.turn_limit:
        return f"turn {state.turn} of {state.turn_limit}, beyond the scenario's {scenario.turn_limit} turns"
    return (
        _foreign_sides(state, scenario, rules)
        or _foreign_formations(state, scenario, rules, raised)
        or _foreign_field(state, scenario, rules)
    )


def _foreign_sides(state: GameState, scenario: Scenario, rules: Ruleset) -> str | None:
    side_ids = set(scenario.side_ids())
    groups = _groups(scenario)
    for side, spec in zip(state.sides, scenario.sides, strict=True):
        if side.faction != spec.faction or side.faction not in rules.factions:
            return f"side {side.id!r} of faction {side.faction!r}, not {spec.faction!r}"
        if side.role != spec.role:
            return f"side {side.id!r} in the role {side.role!r}, not {spec.role!r}"
        for name in ("allies", "hostile_to", "gates_open_to"):
            unknown = sorted(set(getattr(side, name)) - side_ids)
            if unknown:
                return f"side {side.id!r} names unknown side {unknown[0]!r} in {name}"
        if side.gates is not None and side.gates not in scenario.board.regions:
            return f"side {side.id!r} keeps the gates of unknown region {side.gates!r}"
        unknown = sorted(set(side.held_groups) - groups)
        if unknown:
            return f"side {side.id!r} holds unknown group {unknown[0]!r}"
        if len(side.explored) > len(scenario.board.terrain):
            return f"side {side.id!r} has explored {len(side.explored)} hexes of a map of {len(scenario.board.terrain)}"
        for key in side.explored:
            if _hex(key, scenario) is None:
                return f"side {side.id!r} has explored {key!r}, not a hex of the map"
    return None


def _foreign_formations(state: GameState, scenario: Scenario, rules: Ruleset, raised: frozenset[str]) -> str | None:
    side_ids = set(scenario.side_ids())
    known = _formation_ids(scenario) | raised
    groups = _groups(scenario)
    taken: dict[Hex, str] = {}
    for key, f in state.formations.items():
        if key != f.id:
            return f"formation {f.id!r} filed under {key!r}"
        if f.id not in known:
            return f"formation {f.id!r} is neither in the scenario nor brought in by it"
        if f.side not in side_ids:
            return f"formation {f.id!r} of unknown side {f.side!r}"
        if f.type not in rules.units:
            return f"formation {f.id!r} of unknown type {f.type!r}"
        if f.hero is not None and f.hero not in rules.heroes:
            return f"formation {f.id!r} led by unknown hero {f.hero!r}"
        if f.pos not in scenario.board:
            return f"formation {f.id!r} off the map at {f.pos}"
        if f.pos in taken:
            return f"formations {taken[f.pos]!r} and {f.id!r} on the same hex {f.pos.key()}"
        taken[f.pos] = f.id
        if not 0 < f.men <= f.max_men <= MAX_MEN:
            return f"formation {f.id!r} has {f.men} men of {f.max_men} (at most {MAX_MEN:,})"
        if scenario.board.move_cost(f.pos, rules.units[f.type].move_class) is None:
            return f"formation {f.id!r} stands where it cannot, on {scenario.board.terrain_at(f.pos).id}"
        if f.group is not None and f.group not in groups:
            return f"formation {f.id!r} of unknown group {f.group!r}"
        problem = _out_of_bounds(f, rules, scenario)
        if problem:
            return f"formation {f.id!r} {problem}"
        unknown = sorted(set(f.cooldowns) - set(rules.skills))
        if unknown:
            return f"formation {f.id!r} waits for unknown skill {unknown[0]!r}"
    if state.men_ever() > MAX_MEN * len(known):
        return f"{state.men_ever():,} men took the field, more than its formations can hold"
    return None


def _out_of_bounds(f: Formation, rules: Ruleset, scenario: Scenario) -> str | None:
    """What a formation holds beyond what play can give it (a camp's upgrades included)."""
    if f.experience > MAX_EXPERIENCE:
        return f"has experience {f.experience} (at most {MAX_EXPERIENCE})"
    ammo = rules.units[f.type].ammo
    if (ammo is None) != (f.ammo is None) or (f.ammo is not None and not 0 <= f.ammo <= 2 * MAX_AMMO):
        return f"has ammunition {f.ammo} for a type of {ammo}"
    if f.charges > 2 * MAX_CHARGES:
        return f"has {f.charges} charges (at most {2 * MAX_CHARGES})"
    if any(not 0 <= n <= MAX_WAIT for n in f.cooldowns.values()):
        return f"waits {max(f.cooldowns.values())} turns for a skill (at most {MAX_WAIT})"
    # A mark that never runs out (an officer slain) lasts to ``NEVER``.
    if any(n != NEVER and not 0 <= n <= scenario.turn_limit + MAX_WAIT for n in f.effects.values()):
        return f"has an effect lasting to turn {max(f.effects.values())}"
    return None


def _foreign_field(state: GameState, scenario: Scenario, rules: Ruleset) -> str | None:
    side_ids = set(scenario.side_ids())
    for key, by_side in state.field_souls.items():
        if _hex(key, scenario) is None:
            return f"souls lie at {key!r}, not a hex of the map"
        for side, count in by_side.items():
            if side not in side_ids:
                return f"souls at {key} of unknown side {side!r}"
            if count <= 0:
                return f"{count} souls at {key}"
    for key, loads in state.baggage.items():
        if _hex(key, scenario) is None:
            return f"baggage lies at {key!r}, not a hex of the map"
        if loads < 0:
            return f"{loads} loads of baggage at {key}"
    events = {e.id for e in scenario.events}
    unknown = sorted(set(state.fired_events) - events)
    if unknown:
        return f"unknown event {unknown[0]!r} has fired"
    objectives = {o.id for o in scenario.objective_specs}
    unknown = sorted(set(state.objectives) - objectives)
    if unknown:
        return f"unknown objective {unknown[0]!r}"
    unknown = sorted(set(state.wounded_heroes) - set(rules.heroes))
    if unknown:
        return f"unknown hero {unknown[0]!r} wounded"
    if state.men_accounted() != state.men_ever():
        return f"{state.men_accounted():,} men and souls are accounted for, but {state.men_ever():,} took the field"
    duel = state.pending_duel
    if duel is not None and not {duel.challenger, duel.target} <= set(state.formations):
        return f"a duel between {duel.challenger!r} and {duel.target!r}, not both on the field"
    return None


def settings_problem(record: GameRecord, scenario: Scenario | None) -> str | None:
    """What the record's settings and seats name that the game or the scenario does not know: a
    level of the computer's play, or a side (the snapshot's sides without ``scenario``). None
    when they fit."""
    settings = record.settings
    levels = [settings.difficulty, *settings.difficulties.values()]
    unknown_level = next((level for level in levels if level not in DIFFICULTIES), None)
    if unknown_level is not None:
        return f"unknown difficulty {unknown_level!r} in its settings (levels: {', '.join(DIFFICULTIES)})"
    if scenario is not None:
        side_ids = scenario.side_ids()
    elif record.snapshot is not None:
        side_ids = [side.id for side in record.snapshot.state.sides]
    else:
        return None
    named = [*record.seats, *settings.difficulties]
    if record.legacy is not None:
        named += record.legacy.commanders
    if settings.roster is not None:
        named.append(settings.roster.side)
    unknown_side = next((side for side in named if side not in side_ids), None)
    if unknown_side is not None:
        return f"unknown side {unknown_side!r} in its settings (sides: {', '.join(side_ids)})"
    return None


def _raised_ids(record: GameRecord) -> frozenset[str]:
    roster = record.settings.roster
    return frozenset() if roster is None else frozenset(c.key for c in roster.formations if c.raised)


def _hex(key: str, scenario: Scenario) -> Hex | None:
    """The hex of a "q,r" key, if it is one of the map's."""
    try:
        h = Hex.parse(key)
    except (ValueError, TypeError):
        return None
    return h if h in scenario.board else None


def _formation_ids(scenario: Scenario) -> set[str]:
    """Every formation the scenario places or an event of it brings in."""
    ids = {f.id for f in scenario.formations}
    for event in scenario.events:
        for action in event.actions:
            ids.update(r.id for r in getattr(action, "formations", ()) if hasattr(r, "id"))
    return ids


def _groups(scenario: Scenario) -> set[str]:
    """Every group a formation of the scenario (or one an event brings in) may belong to."""
    groups = {f.group for f in scenario.formations if f.group}
    for side in scenario.sides:
        groups.update(side.held_groups)
    for event in scenario.events:
        for action in event.actions:
            groups.update(r.group for r in getattr(action, "formations", ()) if getattr(r, "group", None))
            if getattr(action, "group", None):
                groups.add(action.group)
    return groups
