"""Re-running a record: the one way a record's actions are played again, and the one place the
checkpoint rule is written.

The checkpoint rule: after every action that ends a side's turn the record holds a checkpoint,
the hash of the state at that moment and the digest of the actions that led there
(``checkpoints_after``, ``action_chain``). ``Match`` writes checkpoints with
it as a game is played; ``Rerun`` re-applies a record's actions and compares each turn's end with
the record's checkpoint, stopping at the first action that does not replay or the first state
that differs. ``Rerun.run`` is the one loop that re-runs actions: ``verify``, the replay viewer's
cursor, loading a save without a snapshot and screenshots at a turn all go through it, and taking
over from a replay starts from the state the viewer's re-run reached (``take_over``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from ..content.scenarios import LoadedScenario
from ..core.engine import Engine, IllegalAction
from ..core.events import Event, TurnEnded
from ..core.state import GameState
from ..forward import Forward
from .action_chain import ActionChain
from .made_with import scenario_for
from .model import Checkpoint, GameRecord
from .state_digest import LegacyCheckpoints, checkpoint_hash


def checkpoints_after(
    events: list[Event], state: GameState, digest: str, legacy: LegacyCheckpoints | None
) -> list[Checkpoint]:
    """The checkpoints a record holds after an action with ``events`` that led to ``state``,
    the actions so far chained to ``digest``: one for each side's turn it ended (none for most
    actions). ``legacy``: the record's, for how its hashes are made."""
    turn_ends = [ev for ev in events if isinstance(ev, TurnEnded)]
    if not turn_ends:
        return []
    h = checkpoint_hash(state, legacy)
    return [
        Checkpoint(actions=state.action_index, turn=ev.turn, side=ev.side, hash=h, digest=digest) for ev in turn_ends
    ]


class Rerun:
    """An engine playing ``record``'s actions again, one at a time, checked at every turn's end.

    ``loaded``: the scenario, when the caller already has it (else it is looked up and checked
    against the record's content version; SaveError if it does not match). ``start``: the state
    after that many actions, when the caller has it (a kept snapshot): the re-run goes on from
    there. ``problem`` says why the record stopped replaying (None while it replays exactly)."""

    def __init__(
        self, record: GameRecord, loaded: LoadedScenario | None = None, start: GameState | None = None
    ) -> None:
        self.record = record
        self.loaded = loaded if loaded is not None else scenario_for(record)
        self.engine = Engine(self.loaded.scenario, self.loaded.ruleset(), record.seed, record.settings, start)
        self._expected = list(record.checkpoints)
        self._expected_at = [cp.actions for cp in self._expected]
        self.problem: str | None = None
        self.restart(self.engine.state)

    state = Forward[GameState]("engine", "state")

    @property
    def position(self) -> int:
        """How many of the record's actions the state stands after."""
        return self.engine.state.action_index

    def at_end(self) -> bool:
        return self.position >= len(self.record.actions)

    def restart(self, state: GameState) -> None:
        """Go on from ``state`` (a state of this record, kept earlier): the checkpoints before it
        count as passed."""
        self.engine.state = state
        self._passed = bisect_right(self._expected_at, state.action_index)
        self._chain = ActionChain.after(self.record.actions, self._expected, state.action_index)

    def run(
        self,
        upto: int | None = None,
        until_turn: int | None = None,
        each: Callable[[list[Event]], None] | None = None,
    ) -> bool:
        """Apply the record's actions until ``upto`` are applied (all by default), or until game
        turn ``until_turn`` begins or the battle ends, calling ``each`` with every applied
        action's events. False, and stopped, at the first problem: an action that does not
        replay (not applied), or one that leads to a state other than the record's checkpoint
        (applied, and ``each`` called: a viewer shows where it went wrong). ``problem`` says
        which; a re-run that found one may still go over the actions before it again (True
        then means this run met no problem)."""
        end = len(self.record.actions) if upto is None else min(upto, len(self.record.actions))
        while self.position < end:
            if until_turn is not None and (self.state.turn >= until_turn or self.state.over):
                break
            i = self.position
            action = self.record.actions[i]
            try:
                events = self.engine.apply(action)
            except IllegalAction as exc:
                self.problem = self.problem or f"action {i + 1} ({action.kind}) is illegal on replay: {exc.message}"
                return False
            digest = self._chain.add(action)
            differs = None
            for made in checkpoints_after(events, self.engine.state, digest, self.record.legacy):
                differs = differs or self._compare(made)
            self.problem = self.problem or differs
            if each is not None:
                each(events)
            if differs is not None:
                return False
        return True

    def finished_exactly(self) -> bool:
        """After a run to the end: whether every checkpoint of the record was reached (else
        ``problem`` says which was not)."""
        if self.problem is None and self._passed < len(self._expected):
            self.problem = f"checkpoint {self._passed + 1} of the record was never reached"
        return self.problem is None

    def _compare(self, made: Checkpoint) -> str | None:
        """The checkpoint rule checked: the turn that just ended is the record's next checkpoint."""
        k = self._passed
        self._passed += 1
        if k >= len(self._expected):
            return f"checkpoint {k + 1} after action {made.actions} is not in the record"
        cp = self._expected[k]
        if cp.digest is not None and cp.actions == made.actions and cp.digest != made.digest:
            first = self._expected[k - 1].actions + 1 if k > 0 else 1
            return (
                f"the actions before checkpoint {k + 1} (turn {cp.turn}, {cp.side}) are not those it was made "
                f"with: one of actions {first} to {cp.actions} has been changed, moved, added or removed"
            )
        if cp.actions != made.actions or cp.hash != made.hash:
            return (
                f"checkpoint {k + 1} (turn {cp.turn}, {cp.side}) differs: "
                f"record {cp.hash} at action {cp.actions}, replay {made.hash} after action {made.actions}"
            )
        return None
