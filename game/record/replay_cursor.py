"""A position in a recorded game that can move anywhere quickly: the replay viewer's model.

Moving forward applies the record's actions; moving back restores the state snapshot taken at
the nearest earlier checkpoint (the end of a side's turn) and re-runs only the actions after it,
so stepping back never costs more than one side-turn of actions. Snapshots are taken the first
time the cursor passes a checkpoint, so opening a long record costs nothing up front.

Pure: no pygame, no files. A record that does not replay (an illegal action, a checkpoint hash
that differs) is shown up to where it went wrong, and ``problem`` says why.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from ..content.errors import ContentErrors
from ..content.scenarios import LoadedScenario, load_scenario
from ..core.events import Event, TurnEnded
from ..core.state import GameState
from ..core.vision import Sight, sight_of
from ..forward import Forward
from .errors import SaveError
from .model import GameRecord
from .rerun import Rerun
from .snapshot import trusted_state


@dataclass(frozen=True)
class TurnMark:
    """Where a side's turn starts: the number of actions applied before it, the game turn and the side."""

    index: int
    turn: int
    side: str


@dataclass(frozen=True)
class _Snapshot:
    # The state as JSON: compact to keep, and a JSON round trip is an exact copy.
    state_json: str
    # The events of the action that led here (the EndTurn), so the log is right on arrival.
    events: list[Event]


class ReplayCursor:
    def __init__(
        self,
        record: GameRecord,
        loaded: LoadedScenario | None = None,
        sight: bool = False,
        start: tuple[int, GameState] | None = None,
        snapshots: bool = True,
    ) -> None:
        """``loaded``: the scenario, when the caller already has it (else it is looked up and
        checked against the record's content version). A record made with content the game no
        longer has and does not carry opens at its snapshot, the one position that can still
        be shown, and ``problem`` says why it goes no further; without a snapshot, SaveError.
        ``sight``: also keep what each side saw after each action of the current side-turn
        (``sight_after``), for a log that shows only what one side's eyes caught.
        ``start``: the state after that many actions, when the caller has it: the cursor opens
        there and never goes earlier (``floor``), so nothing before it is re-run.
        ``snapshots``: False for one pass forward (a log rebuilt from the record): no state is
        kept at the checkpoints passed, which are still checked, so going back re-runs from the
        floor."""
        self.record = record
        self._track_sight = sight
        self._keep_snapshots = snapshots
        # Position -> side -> what it saw there, for the current side-turn and the position
        # before it.
        self._sights: dict[int, dict[str, Sight]] = {}
        try:
            self._rerun = Rerun(record, loaded)
        except SaveError as exc:
            self._rerun = _as_saved_only(record, exc)
            assert record.snapshot is not None
            start = (record.snapshot.actions, self._rerun.state)
        self.loaded = self._rerun.loaded
        self.engine = self._rerun.engine
        self.rules = self.engine.rules
        self._snapshots: dict[int, _Snapshot] = {0: _Snapshot(self._dump(), [])}
        # Events of each action applied since the last snapshot, oldest first: the log of the
        # current side-turn, rebuilt for free by the re-run after a jump.
        self._recent: list[tuple[int, list[Event]]] = []
        # The events of the action applied last, and the position after it.
        self._last: tuple[int, list[Event]] | None = None
        # Actions that can be shown: all of them, unless one turns out not to replay.
        self.length = len(record.actions)
        self._marks = self._marks_from_record()
        # The earliest position the cursor shows.
        self.floor = 0
        if start is not None:
            n, state = start
            self.floor = max(0, min(n, self.length))
            self._snapshots = {self.floor: _Snapshot(state.model_dump_json(), [])}
            self._restore(self.floor)
        else:
            self._note_sight()

    # -- where we are ---------------------------------------------------------------------

    state = Forward[GameState]("engine", "state")

    @property
    def problem(self) -> str | None:
        """Why the record stops replaying where it does (None while it replays exactly)."""
        return self._rerun.problem

    @property
    def position(self) -> int:
        """Actions applied so far (0 = the start of the battle)."""
        return self.engine.state.action_index

    def at_end(self) -> bool:
        return self.position >= self.length

    def last_events(self) -> list[Event]:
        """The events of the last applied action (empty at the start)."""
        if self._last is not None and self._last[0] == self.position:
            return list(self._last[1])
        snap = self._snapshots.get(self.position)
        return list(snap.events) if snap is not None else []

    def sight_after(self, n: int, side: str) -> Sight | None:
        """What ``side`` saw after the first ``n`` actions, for ``n`` from the action before the
        current side-turn to the position shown (with ``sight=True``); else None."""
        return self._sights.get(n, {}).get(side)

    def _note_sight(self) -> None:
        if not self._track_sight:
            return
        st, board, rules = self.engine.state, self.engine.board, self.engine.rules
        self._sights[self.position] = {s.id: sight_of(st, board, rules, s.id) for s in st.sides}

    def recent_events(self) -> list[tuple[int, list[Event]]]:
        """(action number, events) for the actions of the current side-turn up to here, oldest
        first, beginning with the action that started it (the previous EndTurn)."""
        out: list[tuple[int, list[Event]]] = []
        start = self._recent[0][0] - 1 if self._recent else self.position
        snap = self._snapshots.get(start)
        if snap is not None and start > 0:
            out.append((start, list(snap.events)))
        return out + list(self._recent)

    # -- turn marks -----------------------------------------------------------------------

    def _marks_from_record(self) -> list[TurnMark]:
        """Side-turn starts from the record's checkpoints. A checkpoint names the side whose turn
        ended and the game turn now running, so a side-turn's turn comes from the checkpoint
        before it and its side from the one that ends it (or the turn order, for the last)."""
        cps = [cp for cp in self.record.checkpoints if cp.actions <= self.length]
        order = [s.id for s in self.engine.state.sides]
        marks = [TurnMark(0, 1, self.engine.state.active_side.id)]
        for k, cp in enumerate(cps):
            if cp.actions >= self.length:
                break  # the record ends with that EndTurn: nothing starts there
            if k + 1 < len(cps):
                side = cps[k + 1].side
            else:
                side = order[(order.index(cp.side) + 1) % len(order)] if cp.side in order else cp.side
            marks.append(TurnMark(cp.actions, cp.turn, side))
        return marks

    def turn_marks(self) -> list[TurnMark]:
        return list(self._marks)

    def _fix_mark(self) -> None:
        """Label the mark at the current position from the state itself, once reached."""
        i = bisect_right([m.index for m in self._marks], self.position) - 1
        if i >= 0 and self._marks[i].index == self.position:
            st = self.engine.state
            mark = TurnMark(self.position, st.turn, st.active_side.id)
            if self._marks[i] != mark:
                self._marks[i] = mark

    def mark_index(self) -> int:
        """Which side-turn the position is in (an index into ``turn_marks``)."""
        return max(0, bisect_right([m.index for m in self._marks], self.position) - 1)

    # -- moving ---------------------------------------------------------------------------

    def seek(self, index: int) -> None:
        """Go to the position after ``index`` actions (clamped to what can be shown)."""
        index = max(self.floor, min(index, self.length))
        if index == self.position:
            return
        if index < self.position or self._nearest_snapshot(index) > self.position:
            base = self._nearest_snapshot(index)
            self._restore(base)
        self._advance(index)
        self._fix_mark()

    def step_forward(self) -> bool:
        """Apply the next action; False at the end (or where the record stops replaying)."""
        if self.at_end():
            return False
        before = self.position
        self._advance(before + 1)
        self._fix_mark()
        return self.position > before

    def step_back(self) -> bool:
        if self.position <= self.floor:
            return False
        self.seek(self.position - 1)
        return True

    def next_turn(self) -> None:
        """To the start of the next side's turn (the end of the record if there is none)."""
        later = [m.index for m in self._marks if m.index > self.position]
        self.seek(later[0] if later else self.length)

    def previous_turn(self) -> None:
        """To the start of this side-turn, or of the one before if already at a start."""
        earlier = [m.index for m in self._marks if m.index < self.position]
        self.seek(earlier[-1] if earlier else 0)

    def goto_turn(self, turn: int) -> bool:
        """To the start of game turn ``turn``; False (and no move) if the record has no such turn."""
        for m in self._marks:
            if m.turn == turn:
                self.seek(m.index)
                return True
        return False

    def turns(self) -> int:
        """The highest game turn the record reaches."""
        return max((m.turn for m in self._marks), default=1)

    # -- plumbing -------------------------------------------------------------------------

    def _dump(self) -> str:
        return self.engine.state.model_dump_json()

    def _nearest_snapshot(self, index: int) -> int:
        return max(i for i in self._snapshots if i <= index)

    def _restore(self, index: int) -> None:
        self._rerun.restart(GameState.model_validate_json(self._snapshots[index].state_json))
        self._recent = []
        self._sights = {}
        self._note_sight()

    def _advance(self, index: int) -> None:
        """The record's actions up to ``index``, re-run and checked (``Rerun.run``). Where one
        does not replay, the record is shown only up to there; a state that differs from the
        record's checkpoint is shown, and the record ends with it."""
        if not self._rerun.run(upto=index, each=self._applied):
            self.length = min(self.length, self.position)
            self._marks = [m for m in self._marks if m.index <= self.length]

    def _applied(self, events: list[Event]) -> None:
        """Keep what the views need of the action just applied."""
        self._recent.append((self.position, events))
        self._last = (self.position, events)
        self._note_sight()
        if any(isinstance(ev, TurnEnded) for ev in events):
            self._turn_ended(events)

    def _turn_ended(self, events: list[Event]) -> None:
        """A side's turn ended: keep a snapshot the first time (if snapshots are kept)."""
        n = self.position
        if self._keep_snapshots and n not in self._snapshots:
            self._snapshots[n] = _Snapshot(self._dump(), events)
        self._recent = []
        self._sights = {k: v for k, v in self._sights.items() if k >= n - 1}

    def snapshots(self) -> int:
        """How many snapshots are kept (for tests and the benchmark)."""
        return len(self._snapshots)


def _as_saved_only(record: GameRecord, why: SaveError) -> Rerun:
    """A re-run that stands at ``record``'s snapshot with the game's own content, for a record
    whose moves cannot be re-run; ``why`` is raised again if not even that can be shown."""
    if record.snapshot is None:
        raise why
    try:
        current = load_scenario(record.scenario_id)
    except (KeyError, ContentErrors):
        raise why from None
    state = trusted_state(record, current, current.ruleset())
    rerun = Rerun(record, current, start=state)
    rerun.problem = (
        f"made with other content by version {record.game_version} of the game, which did not put it in the "
        f"save: its moves cannot be re-run, only the position it was saved at shown"
    )
    return rerun
