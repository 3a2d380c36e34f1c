"""Re-running a record headless and checking every checkpoint (and the snapshot, if saved)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import __version__
from ..content.scenarios import LoadedScenario
from ..core.engine import Engine
from .model import GameRecord, Snapshot
from .rerun import Rerun
from .state_digest import chain_vouches, checkpoint_hash


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    actions: int
    turns: int
    hash: str
    # Why the replay diverged, naming the first checkpoint or action that differs.
    problem: str | None = None
    # Whether the action chain vouches for the actions too (``state_digest.chain_vouches``); a
    # record begun in format 2 or older is checked by its states alone.
    chained: bool = True


def replay_engine(record: GameRecord, upto: int | None = None, loaded: LoadedScenario | None = None) -> Engine:
    """An engine with the first ``upto`` actions (all by default) replayed and checked; SaveError
    (from ``scenario_for``) if the content changed, ValueError naming the problem if the record
    does not replay that far. ``loaded``: the scenario, when it is not a shipped one."""
    rerun = Rerun(record, loaded)
    if not rerun.run(upto):
        raise ValueError(rerun.problem)
    return rerun.engine


def verify(record: GameRecord, loaded: LoadedScenario | None = None) -> VerifyResult:
    """Re-run every action; the checkpoints, and the snapshot of a saved game, must agree."""
    rerun = Rerun(record, loaded)
    snap = record.snapshot
    if snap is not None:
        if snap.actions > len(record.actions):
            return _fail(rerun, f"the snapshot is after action {snap.actions}; the record has {len(record.actions)}")
        if checkpoint_hash(snap.state, record.legacy) != snap.hash:
            return _fail(rerun, f"the snapshot has been altered: its state does not hash to {snap.hash}")
        # The re-run as far as the snapshot, which must be the state it reaches there.
        if not rerun.run(snap.actions):
            return _fail(rerun, rerun.problem)
        if problem := _snapshot_differs(rerun, snap):
            return _fail(rerun, problem)
    if not rerun.run() or not rerun.finished_exactly():
        return _fail(rerun, rerun.problem)
    st = rerun.state
    return VerifyResult(
        True, len(record.actions), st.turn, checkpoint_hash(st, record.legacy), None, chain_vouches(record)
    )


def _snapshot_differs(rerun: Rerun, snap: Snapshot) -> str | None:
    h = checkpoint_hash(rerun.state, rerun.record.legacy)
    if h == snap.hash:
        return None
    return f"the snapshot differs from the replay after action {snap.actions}: snapshot {snap.hash}, replay {h}"


def _fail(rerun: Rerun, problem: str | None) -> VerifyResult:
    st = rerun.state
    made_by = rerun.record.game_version
    if made_by != __version__:
        # The same maps and data, other rules: an earlier game may well have played it otherwise.
        problem = f"{problem} (made by version {made_by} of the game, whose rules may differ from {__version__}'s)"
    return VerifyResult(
        False, st.action_index, st.turn, checkpoint_hash(st, rerun.record.legacy), problem, chain_vouches(rerun.record)
    )
