"""The computer thinks in a background thread so the screen never freezes.

The AI plans on a read-only fogged view of the live state (rebuilt each decision, sharing the
live formations); the main thread only draws while a decision is pending and applies the
returned action itself, so the live state never changes under the AI. Every request carries a
token saying which position it was asked for; a result for any other position (a quickload, a
scene change, a duel answered meanwhile) is dropped, never applied.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from ..ai.driver import AI, SCREEN_BUDGET, Budget, think
from ..core.actions import Action


@dataclass
class _Job:
    token: Hashable
    ai: AI
    deadline: float
    thread: threading.Thread | None = None
    action: Action | None = None
    error: BaseException | None = None
    elapsed: float = 0.0
    done: threading.Event = field(default_factory=threading.Event)


class AIWorker:
    """At most one decision in flight; ``poll`` hands back the action once it is ready."""

    def __init__(self, budget: Budget = SCREEN_BUDGET) -> None:
        self.budget = budget
        self._job: _Job | None = None
        # When the current side-turn's thinking began: the per-turn budget runs from here.
        self._turn_key: Hashable = None
        self._turn_started = 0.0
        self.thinking_ms = 0.0

    @property
    def busy(self) -> bool:
        return self._job is not None

    def request(self, ai: AI, token: Hashable, turn_key: Hashable) -> None:
        """Start thinking for ``ai`` at the position ``token``; ``turn_key`` names the side-turn
        whose budget this decision spends."""
        if self._job is not None:
            return
        now = time.perf_counter()
        if turn_key != self._turn_key:
            self._turn_key = turn_key
            self._turn_started = now
        job = _Job(token, ai, self.budget.deadline(self._turn_started, now))
        # In the screen's context (its language and scale), which a new thread does not inherit.
        context = contextvars.copy_context()
        job.thread = threading.Thread(target=context.run, args=(self._run, job), name="ai-worker", daemon=True)
        self._job = job
        job.thread.start()

    @staticmethod
    def _run(job: _Job) -> None:
        start = time.perf_counter()
        try:
            job.action = think(job.ai, job.deadline)
        except BaseException as exc:  # handed to the main thread, which decides what to do
            job.error = exc
        finally:
            job.elapsed = time.perf_counter() - start
            job.done.set()

    def poll(self, token: Hashable) -> Action | None:
        """The action, if the decision is finished and was asked for the position ``token``.
        A finished decision for another position is dropped. An error in the AI is raised here."""
        job = self._job
        if job is None or not job.done.is_set():
            return None
        self._job = None
        self.thinking_ms += job.elapsed * 1000.0
        if job.token != token:
            return None
        if job.error is not None:
            raise job.error
        return job.action

    def cancel(self) -> None:
        """Forget the decision in flight: its thread ends by its deadline and its result is never
        read."""
        self._job = None
        self._turn_key = None

    def wait(self, timeout: float) -> bool:
        """Block until the decision in flight is finished (tests and shutdown only)."""
        job = self._job
        if job is None:
            return True
        return job.done.wait(timeout)
