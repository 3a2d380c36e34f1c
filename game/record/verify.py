"""Re-running a record headless and checking every checkpoint (and the snapshot, if saved)."""

from __future__ import annotations

from dataclasses import dataclass

from ..content.errors import ContentErrors
from ..content.ruleset import load_ruleset
from ..content.scenarios import LoadedScenario, load_scenario
from ..core.engine import Engine, IllegalAction
from ..core.events import TurnEnded
from ..core.state import state_hash
from .errors import SaveError
from .model import GameRecord


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    actions: int
    turns: int
    hash: str
    # Why the replay diverged, naming the first checkpoint or action that differs.
    problem: str | None = None


def scenario_for(record: GameRecord) -> LoadedScenario:
    """The scenario a record was made with, refusing one whose content has changed."""
    sid = record.scenario_id
    try:
        loaded = load_scenario(sid)
    except KeyError:
        raise SaveError(f"unknown scenario {sid!r}: this version of the game does not have it") from None
    except ContentErrors as exc:
        raise SaveError(f"scenario {sid!r} does not load: {exc.errors[0]}") from None
    if loaded.content_version != record.content_version:
        change = content_change(record.content_version, loaded.content_version)
        raise SaveError(
            f"made with other content for scenario {sid}: {change} "
            f"since the save was made, so its moves cannot be replayed "
            f"(save {record.content_version}, game {loaded.content_version})"
        )
    return loaded


def content_change(saved: str, current: str) -> str:
    """What changed between two content versions ("<game>+<rules digest>/<scenario digest>")."""
    saved_rules, _, saved_map = saved.partition("/")
    rules, _, scenario_map = current.partition("/")
    saved_game, _, saved_data = saved_rules.partition("+")
    game, _, data = rules.partition("+")
    changed = []
    if saved_map != scenario_map:
        changed.append("its map or scenario file")
    if saved_data != data:
        changed.append("the game's unit and terrain data")
    if saved_game != game:
        changed.append(f"the game's version ({saved_game or '?'} to {game or '?'})")
    if not changed:
        return "the content"
    what = " and ".join([", ".join(changed[:-1]), changed[-1]] if len(changed) > 1 else changed)
    return f"{what} {'have' if len(changed) > 1 else 'has'} changed"


def replay_engine(record: GameRecord, upto: int | None = None, loaded: LoadedScenario | None = None) -> Engine:
    """An engine with the first ``upto`` actions (all by default) applied; IllegalAction escapes.
    ``loaded``: the scenario, when it is not a shipped one (generated fields in benchmarks)."""
    loaded = loaded or scenario_for(record)
    engine = Engine(loaded.scenario, load_ruleset(), record.seed, record.settings)
    for action in record.actions[:upto]:
        engine.apply(action)
    return engine


def verify(record: GameRecord, loaded: LoadedScenario | None = None) -> VerifyResult:
    """Re-run every action; the checkpoints, and the snapshot of a saved game, must agree."""
    loaded = loaded or scenario_for(record)
    engine = Engine(loaded.scenario, load_ruleset(), record.seed, record.settings)
    expected = list(record.checkpoints)
    seen = 0
    snap = record.snapshot
    if snap is not None:
        if snap.actions > len(record.actions):
            return _fail(engine, f"the snapshot is after action {snap.actions}; the record has {len(record.actions)}")
        if state_hash(snap.state) != snap.hash:
            return _fail(engine, f"the snapshot has been altered: its state does not hash to {snap.hash}")
    for i, action in enumerate(record.actions):
        if snap is not None and snap.actions == i and (problem := _snapshot_differs(engine, snap)):
            return _fail(engine, problem)
        try:
            events = engine.apply(action)
        except IllegalAction as exc:
            return _fail(engine, f"action {i + 1} ({action.kind}) is illegal on replay: {exc.message}")
        for ev in events:
            if not isinstance(ev, TurnEnded):
                continue
            h = state_hash(engine.state)
            if seen >= len(expected):
                return _fail(engine, f"checkpoint {seen + 1} after action {i + 1} is not in the record")
            cp = expected[seen]
            if cp.actions != i + 1 or cp.hash != h:
                return _fail(
                    engine,
                    f"checkpoint {seen + 1} (turn {cp.turn}, {cp.side}) differs: "
                    f"record {cp.hash} at action {cp.actions}, replay {h} at action {i + 1}",
                )
            seen += 1
    if seen != len(expected):
        return _fail(engine, f"checkpoint {seen + 1} of the record was never reached")
    if snap is not None and snap.actions == len(record.actions) and (problem := _snapshot_differs(engine, snap)):
        return _fail(engine, problem)
    return VerifyResult(True, len(record.actions), engine.state.turn, state_hash(engine.state))


def _snapshot_differs(engine: Engine, snap) -> str | None:
    h = state_hash(engine.state)
    if h == snap.hash:
        return None
    return f"the snapshot differs from the replay after action {snap.actions}: snapshot {snap.hash}, replay {h}"


def _fail(engine: Engine, problem: str) -> VerifyResult:
    st = engine.state
    return VerifyResult(False, st.action_index, st.turn, state_hash(st), problem)
