"""A game in progress together with its record: the only way clients apply actions.

The UI, the AI driver, ``simulate`` and replays all go through ``Match.apply`` so every game is
recorded the same way, with a checkpoint hash after each side's turn. The match also keeps who
commands each side (``seats``), outside the rules state: ask ``match.seats.is_human(side)``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path

from ..content.bundle import pack
from ..content.scenarios import LoadedScenario, load_scenario
from ..core import vision
from ..core.actions import Action, EndTurn, Move
from ..core.engine import Engine, GameSettings
from ..core.events import Event, Moved
from ..core.state import GameState, copy_state
from ..forward import Forward
from .action_chain import ActionChain
from .errors import SaveError
from .made_with import scenario_for
from .model import MAX_SEED, GameRecord, Snapshot
from .names import clean_name
from .rerun import Rerun, checkpoints_after
from .saves import write_record
from .seats import Commander, Seat, Seats
from .snapshot import settings_problem, trusted_state
from .state_digest import checkpoint_hash


class Match:
    def __init__(
        self,
        loaded: LoadedScenario,
        seed: int,
        settings: GameSettings,
        record: GameRecord | None = None,
        seats: Mapping[str, Seat | Commander] | None = None,
    ) -> None:
        """A new game, or with ``record`` (whose snapshot is trusted) the game it was saved at.
        ``seats``: who commands each side, if not as the record says (a side named by neither:
        by its role)."""
        self.loaded = loaded
        state = record.snapshot.state if record is not None and record.snapshot is not None else None
        self.engine = Engine(loaded.scenario, loaded.ruleset(), seed, settings, state)
        chosen = seats if seats is not None else record.seats if record is not None else {}
        self.seats = Seats.for_sides(loaded.scenario.sides, chosen)
        if record is None:
            record = GameRecord(
                scenario_id=loaded.scenario.id,
                content_version=loaded.content_version,
                seed=seed,
                settings=settings,
                seats=self.seats.for_record(),
            )
        else:
            # The game in play owns its record and state: the loaded record is left as it was.
            record = record.model_copy(
                update={
                    "snapshot": None,
                    "actions": list(record.actions),
                    "checkpoints": list(record.checkpoints),
                    "seats": self.seats.for_record(),
                }
            )
        self.record = record
        # The digest of the record's actions so far, for the next checkpoint.
        self._chain = ActionChain.after(record.actions, record.checkpoints, len(record.actions))
        # How many of the record's actions the newest save of this game holds.
        self.saved_actions = len(record.actions)
        # States before each undoable move of the current side's turn, newest last, and why
        # there is none when there is none: "nothing" (no move yet), "not_a_move" (a blow,
        # a capture, an order with dice), "revealed" (a move that showed something new),
        # "new_turn".
        self._undo: list[tuple[GameState, str]] = []
        self.undo_refusal = "nothing"
        # Called with the events of every applied action (statistics, sound, logs).
        self.listeners: list[Callable[[list[Event]], None]] = []
        # The campaign this battle belongs to (a CampaignRun), for the screens after it.
        self.campaign: object | None = None

    state = Forward[GameState]("engine", "state")

    def apply(self, action: Action) -> list[Event]:
        """Apply through the engine (raising IllegalAction unchanged) and record it."""
        # Only a person takes a move back; the computer's moves need no snapshot.
        human = self.seats.is_human(self.engine.state.active_side.id)
        before = (self._snapshot(), self._chain.digest) if isinstance(action, Move) and human else None
        seen_before = self._enemies_seen() if before is not None else None
        events = self._apply_and_record(action)
        if before is not None and self._undoable(events, seen_before):
            self._undo.append(before)
        else:
            self._undo.clear()
            self.undo_refusal = "new_turn" if isinstance(action, EndTurn) else "revealed" if before else "not_a_move"
        return events

    def _apply_and_record(self, action: Action) -> list[Event]:
        events = self.engine.apply(action)
        self.record.actions.append(action)
        for listener in self.listeners:
            listener(events)
        digest = self._chain.add(action)
        self.record.checkpoints.extend(checkpoints_after(events, self.engine.state, digest, self.record.legacy))
        return events

    def saved_record(self, name: str | None = None) -> GameRecord:
        """This game as a save holds it: the record, a snapshot of the state it stands at (so
        it loads without re-running), when and under which name (None for the game's own
        saves: autosaves, quicksave) it was saved. BadSaveName if ``name`` cannot be one."""
        if self.record.content is None:  # packed once, the first time the game is saved
            self.record.content = pack(self.loaded)
        state = copy_state(self.engine.state)
        return self.record.model_copy(
            update={
                "actions": list(self.record.actions),
                "checkpoints": list(self.record.checkpoints),
                "snapshot": Snapshot(
                    actions=state.action_index, hash=checkpoint_hash(state, self.record.legacy), state=state
                ),
                "name": None if name is None else clean_name(name),
                "saved_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
        )

    def save(self, path: Path, name: str | None = None) -> Path:
        """Write this game to ``path`` (atomically; SaveError says why not), under the player's
        ``name`` if it has one (see ``names``); a named save is the name the game goes by next."""
        saved = self.saved_record(name)
        write_record(saved, path)
        self.saved_actions = len(self.record.actions)
        self.record.saved_at = saved.saved_at
        if saved.name is not None:
            self.record.name = saved.name
        return path

    def unsaved(self) -> bool:
        """Whether actions have been played since the game was last saved or loaded."""
        return len(self.record.actions) > self.saved_actions

    # -- undo -------------------------------------------------------------------------------

    def _enemies_seen(self) -> frozenset[str]:
        e = self.engine
        side = e.state.active_side.id
        return frozenset(f.id for f in vision.seen_formations(e.state, e.board, e.rules, side) if f.side != side)

    def _snapshot(self) -> GameState:
        return copy_state(self.engine.state)

    def _undoable(self, events: list[Event], seen_before: frozenset[str] | None) -> bool:
        """A plain move that used no dice and showed the mover nothing new may be taken back."""
        if not events or not all(isinstance(ev, Moved) and not ev.interrupted for ev in events):
            return False
        return seen_before is not None and self._enemies_seen() <= seen_before

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        """Take back the last undoable move: the state and the record return to before it."""
        if not self._undo:
            return False
        self.engine.state, self._chain.digest = self._undo.pop()
        self.record.actions.pop()
        if not self._undo:
            self.undo_refusal = "nothing"
        if len(self.record.actions) < self.saved_actions:
            self.saved_actions = -1  # the newest save holds a move that is no longer played
        return True


def match_from_record(record: GameRecord, loaded: LoadedScenario | None = None) -> Match:
    """Rebuild a game in progress: from its snapshot when it has one that stands at its end and
    checks out (nothing is re-run), else by re-running its actions, every checkpoint checked
    (``Rerun``). SaveError says why not. ``loaded``: the scenario, when it is not a shipped one
    (generated fields in benchmarks)."""
    loaded = loaded or scenario_for(record)
    snap = record.snapshot
    if snap is not None and snap.actions == len(record.actions):
        state = trusted_state(record, loaded, loaded.ruleset())
    else:
        problem = settings_problem(record, loaded.scenario)
        if problem:
            raise SaveError(f"damaged save: {problem}")
        rerun = Rerun(record, loaded)
        if not rerun.run() or not rerun.finished_exactly():
            raise SaveError(str(rerun.problem))
        state = rerun.state
    # A copy, so that two games loaded from one record never share a state.
    own_state = copy_state(state)
    snapshot = Snapshot(actions=own_state.action_index, hash=checkpoint_hash(own_state, record.legacy), state=own_state)
    return Match(loaded, record.seed, record.settings, record.model_copy(update={"snapshot": snapshot}))


def match_at_turn(record: GameRecord, turn: int | None) -> Match:
    """The game as it stood when game turn ``turn`` began (where the record ends, if sooner or
    if ``turn`` is None), re-run and checked; SaveError says why not."""
    if turn is None:
        return match_from_record(record)
    rerun = Rerun(record)
    if not rerun.run(until_turn=turn):
        raise SaveError(str(rerun.problem))
    n = rerun.position
    trimmed = record.model_copy(
        update={
            "actions": record.actions[:n],
            "checkpoints": [cp for cp in record.checkpoints if cp.actions <= n],
            "snapshot": Snapshot(actions=n, hash=checkpoint_hash(rerun.state, record.legacy), state=rerun.state),
        }
    )
    return Match(rerun.loaded, record.seed, record.settings, trimmed)


def new_match(
    scenario_id: str,
    controllers: Mapping[str, Seat | Commander],
    seed: int | None,
    difficulty: str = "normal",
    difficulties: dict[str, str] | None = None,
) -> Match:
    """A new battle of ``scenario_id``, each side commanded as ``controllers`` says."""
    loaded = load_scenario(scenario_id)
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    settings = GameSettings(difficulty=difficulty, difficulties=difficulties or {})
    return Match(loaded, seed, settings, seats=controllers)
