"""The state snapshot a save carries: taken when a record is saved, trusted only after checks.

A snapshot lets a save load for play without re-running its actions. It is redundant with the
actions, so loading checks that it is the state it claims to be: its hash is the hash of its
state, it stands at the end of the record, a checkpoint at the same action (a save at a turn's
end) has the same hash, and everything it names exists in the scenario. Loading for play trusts
it after that; ``verify`` (and so ``replay --verify``) proves the rest by re-running every
action and comparing the state at the snapshot's action.
"""

from __future__ import annotations

from ..content.scenarios import LoadedScenario
from ..core.rules import Ruleset
from ..core.state import GameState, state_hash
from .errors import SaveError
from .model import GameRecord


def check_integrity(record: GameRecord) -> None:
    """A snapshot must be the state it claims to be, at the end of its record. Checked whenever
    a file is read; SaveError says what is wrong."""
    snap = record.snapshot
    if snap is None:
        return
    if snap.actions != len(record.actions):
        raise SaveError(
            f"damaged save: the snapshot was taken after {snap.actions} actions "
            f"but the record has {len(record.actions)}"
        )
    if snap.state.action_index != snap.actions:
        raise SaveError(
            f"the snapshot has been altered: its state is after action {snap.state.action_index}, not {snap.actions}"
        )
    actual = state_hash(snap.state)
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
    problem = _foreign(state, loaded, rules)
    if problem:
        raise SaveError(f"the snapshot does not fit scenario {record.scenario_id}: {problem}")
    return state


def _foreign(state: GameState, loaded: LoadedScenario, rules: Ruleset) -> str | None:
    """What in the state the scenario and rules do not know (it would break the game later)."""
    scenario = loaded.scenario
    if state.scenario_id != scenario.id:
        return f"it is a state of {state.scenario_id!r}"
    side_ids = [s.id for s in state.sides]
    if side_ids != list(scenario.side_ids()):
        return f"sides {side_ids} instead of {list(scenario.side_ids())}"
    if not 0 <= state.active < len(state.sides):
        return f"no side number {state.active} to move"
    for key, f in state.formations.items():
        if key != f.id:
            return f"formation {f.id!r} filed under {key!r}"
        if f.side not in side_ids:
            return f"formation {f.id!r} of unknown side {f.side!r}"
        if f.type not in rules.units:
            return f"formation {f.id!r} of unknown type {f.type!r}"
        if f.hero is not None and f.hero not in rules.heroes:
            return f"formation {f.id!r} led by unknown hero {f.hero!r}"
        if f.pos not in scenario.board:
            return f"formation {f.id!r} off the map at {f.pos}"
    return None
