"""The computer's turns on the battle screen: it thinks off the main thread (``AIWorker``), its
decisions are applied when ready (``apply``: through the session, and shown), and they are paced
so the viewer can follow them (the move speed setting, Space for fast, Esc to skip showing the
rest of a side-turn)."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..ai.basic import BasicAI
from ..ai.driver import make_ais
from ..core.actions import Action, EndTurn
from ..session import BattleSession
from ..settings import AI_SPEEDS
from .ai_worker import AIWorker

# Seconds between two computer actions when they are shown move by move, at the normal speed.
AI_STEP_DELAY = AI_SPEEDS["normal"]
# Longest a frame waits for the computer's next decision (fast mode), so the screen stays live.
AI_FRAME_WAIT = 0.012


class ComputerTurns:
    def __init__(
        self,
        session: BattleSession,
        apply: Callable[[Action], bool],
        held: Callable[[], bool],
        stopped: Callable[[], bool],
        speed: Callable[[], str],
    ) -> None:
        """``apply`` gives an action and shows it (False: refused); ``held``: the last move is
        still being shown; ``stopped``: the screen has moved on (another over it, a narration);
        ``speed``: the player's setting for the computer's moves."""
        self.session = session
        self.apply, self.held, self.stopped, self.speed = apply, held, stopped, speed
        self.ais: dict[str, BasicAI] = dict(make_ais(session.match))
        self.worker = AIWorker()
        # Seconds before the next decision is applied (the last one is still being shown).
        self.timer = 0.0
        # Space: every computer move shown fast for the rest of the game.
        self.fast = False
        # The side-turn whose remaining moves are not shown (Esc).
        self.skipped: tuple[int, int] | None = None

    def to_move(self) -> bool:
        """Whether the computer decides now: its side's turn, or its answer to a challenge."""
        return self.session.computer_to_decide()

    def delay(self) -> float:
        """Seconds a computer's move stays on screen before the next, by the player's setting."""
        return AI_SPEEDS[self.speed()]

    def shown_fast(self) -> bool:
        """Whether computer moves are applied without pause: the speed setting, Space for the
        game, or Esc for the rest of the current side-turn."""
        return self.fast or self.skipped == self._turn() or self.delay() == 0

    def toggle_fast(self) -> None:
        self.fast = not self.fast

    def skip_this_turn(self) -> None:
        self.skipped = self._turn()

    def cancel(self) -> None:
        """A decision being worked out for a game that is left is never applied."""
        self.worker.cancel()

    def _turn(self) -> tuple[int, int]:
        state = self.session.state
        return (state.turn, state.active)

    def _token(self) -> tuple[int, int, str]:
        """The position a decision is asked for; a result for any other one is dropped."""
        session = self.session
        return (id(session.match), session.state.action_index, session.engine.deciding_side())

    def update(self, dt: float) -> None:
        """Apply the deciding computer's action once its worker has it and the last one has been
        shown, then set it thinking about the next. The frame never waits for it longer than
        AI_FRAME_WAIT; in fast mode that slice of the frame is used for further actions."""
        session = self.session
        if not self.to_move() or self.held():
            return  # the last move is still being shown
        self.timer -= dt
        frame_end = time.perf_counter() + AI_FRAME_WAIT
        if self.shown_fast():
            self.timer = 0.0  # a pause left from moves shown earlier is not waited out
        while True:
            if self.timer <= 0 and (action := self.worker.poll(self._token())) is not None:
                if not self.apply(action) and session.state.pending_duel is None:
                    self.apply(EndTurn())
                # What the viewer did not see is not waited for.
                self.timer = 0.0 if self.shown_fast() or not session.last_seen else self.delay()
                if self.stopped() or not self.to_move():
                    return
            if not self.worker.busy:
                side = session.engine.deciding_side()
                self.worker.request(self.ais[side], self._token(), self._turn())
            remaining = frame_end - time.perf_counter()
            if not self.shown_fast() or self.timer > 0 or remaining <= 0 or not self.worker.wait(remaining):
                return
