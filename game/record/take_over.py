"""Taking over a recorded battle: a new game that starts where the record stands, under other
commanders, re-running nothing.

Who commands each side is no part of the rules state nor of any hash (``seats``), so the record's
actions and checkpoints up to the moment are the new game's own: it starts from the state the
replay viewer's re-run reached there (``ReplayCursor``) and verifies as a whole from its first
action, like any game.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import __version__
from ..content.scenarios import LoadedScenario
from ..core.state import GameState, copy_state
from .errors import SaveError
from .match import Match
from .model import GameRecord, Snapshot
from .seats import Commander, Seat, Seats
from .state_digest import checkpoint_hash


def take_over(
    record: GameRecord,
    state: GameState,
    seats: Mapping[str, Commander],
    loaded: LoadedScenario,
) -> Match:
    """A new game from ``state``, where ``record`` stands after ``state.action_index`` of its
    actions (as a re-run of the record reached it, with ``loaded``), each side commanded as
    ``seats`` says. SaveError if the record's checkpoint there says the state is another."""
    n = state.action_index
    if n > len(record.actions):
        raise SaveError(f"the record has {len(record.actions)} actions, not {n}")
    own = copy_state(state)  # the new game's own: the viewer goes on with its state
    h = checkpoint_hash(own, record.legacy)
    checkpoints = [cp for cp in record.checkpoints if cp.actions <= n]
    for k, cp in enumerate(checkpoints, 1):
        if cp.actions == n and cp.hash != h:
            raise SaveError(f"checkpoint {k} (turn {cp.turn}, {cp.side}) of the record differs from the replay there")
    start = record.model_copy(
        update={
            "game_version": __version__,
            "actions": record.actions[:n],
            "checkpoints": checkpoints,
            "snapshot": Snapshot(actions=n, hash=h, state=own),
            "name": None,
            "saved_at": None,
        }
    )
    # A side a person still commands keeps its pass phrase: a game taken over from a sealed
    # record stays sealed, and its curtain asks for the phrase.
    before = Seats(record.seats)
    chosen = {
        side: Seat(commander=who, seal=before.seal(side) if who == "human" else None) for side, who in seats.items()
    }
    match = Match(loaded, record.seed, record.settings, start, seats=chosen)
    match.saved_actions = 0  # a new game: no save holds it yet
    return match
