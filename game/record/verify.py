"""Re-running a record headless and checking every checkpoint."""

from __future__ import annotations

from dataclasses import dataclass

from ..content.errors import ContentErrors
from ..content.ruleset import load_ruleset
from ..content.scenarios import LoadedScenario, load_scenario
from ..core.engine import Engine, IllegalAction
from ..core.events import TurnEnded
from ..core.state import state_hash
from .model import GameRecord
from .saves import SaveError


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
    try:
        loaded = load_scenario(record.scenario_id)
    except KeyError:
        raise SaveError(f"unknown scenario {record.scenario_id!r}") from None
    except ContentErrors as exc:
        raise SaveError(f"scenario {record.scenario_id!r} does not load: {exc.errors[0]}") from None
    if loaded.content_version != record.content_version:
        raise SaveError(
            f"made with other content for {record.scenario_id} "
            f"(save {record.content_version}, game {loaded.content_version})"
        )
    return loaded


def replay_engine(record: GameRecord, upto: int | None = None) -> Engine:
    """An engine with the first ``upto`` actions (all by default) applied; IllegalAction escapes."""
    loaded = scenario_for(record)
    engine = Engine(loaded.scenario, load_ruleset(), record.seed, record.settings)
    for action in record.actions[:upto]:
        engine.apply(action)
    return engine


def verify(record: GameRecord) -> VerifyResult:
    loaded = scenario_for(record)
    engine = Engine(loaded.scenario, load_ruleset(), record.seed, record.settings)
    expected = list(record.checkpoints)
    seen = 0
    for i, action in enumerate(record.actions):
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
    return VerifyResult(True, len(record.actions), engine.state.turn, state_hash(engine.state))


def _fail(engine: Engine, problem: str) -> VerifyResult:
    st = engine.state
    return VerifyResult(False, st.action_index, st.turn, state_hash(st), problem)
