"""Shared pieces of the benchmarks: players by name, one side-turn of play, timing and tables."""

from __future__ import annotations

import gc
import hashlib
import inspect
import os
import platform
import re
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from game.ai import driver
from game.ai.basic import BasicAI
from game.ai.random_player import RandomAI
from game.core.actions import Action, AnswerDuel, EndTurn
from game.core.engine import Engine, IllegalAction
from game.core.legal import legal_actions
from game.record.match import Match
from game.simulate import percentile

# Player names the benches accept: the random floor, or the real AI at a difficulty.
PLAYER_KINDS = ("random", "easy", "normal", "hard")


class Player(Protocol):
    side_id: str

    def next_action(self) -> Action: ...


def ai_class() -> Callable[..., Player]:
    """The AI class the driver plays with: the one ``make_ais`` builds, else the basic AI."""
    general: Callable[..., Player] | None = getattr(driver, "General", None)
    return general or BasicAI


def ai_takes_difficulty() -> bool:
    """Whether the AI's constructor takes a ``difficulty``; if not, every level plays alike."""
    return "difficulty" in inspect.signature(ai_class()).parameters


def make_player(kind: str, engine: Engine, side_id: str) -> Player:
    if kind == "random":
        return RandomAI(engine, side_id)
    if kind not in PLAYER_KINDS:
        raise ValueError(f"unknown player kind {kind!r}; expected one of {', '.join(PLAYER_KINDS)}")
    cls = ai_class()
    if ai_takes_difficulty():
        return cls(engine, side_id, difficulty=kind)
    return cls(engine, side_id)


def play_side_turn(match: Match, players: dict[str, Player], max_actions: int = driver.MAX_ACTIONS_PER_TURN) -> float:
    """Play the active side's whole turn, asking whichever side must decide (a challenged side
    answers its duel); returns the thinking time in milliseconds. An illegal choice ends the
    turn, as the driver does, so a faulty player cannot stall a benchmark."""
    side = match.state.active_side.id
    thinking = 0.0
    turn_started = time.perf_counter()
    for _ in range(max_actions):
        start = time.perf_counter()
        action = _think(players[match.engine.deciding_side()], turn_started, start)
        thinking += time.perf_counter() - start
        try:
            match.apply(action)
        except IllegalAction:
            # A pending duel must be answered before the turn can end.
            action = AnswerDuel(accept=False) if match.state.pending_duel is not None else EndTurn()
            match.apply(action)
        if match.state.over or match.state.active_side.id != side:
            break
    else:
        match.apply(EndTurn())
    return thinking * 1000.0


def _think(player: Player, turn_started: float, now: float) -> Action:
    """Ask ``player`` under the driver's headless time budget, as ``qiankun simulate`` does
    (when the driver has one)."""
    budget = getattr(driver, "HEADLESS_BUDGET", None)
    think = getattr(driver, "think", None)
    if budget is None or think is None:
        return player.next_action()
    action: Action = think(player, budget.deadline(turn_started, now))
    return action


def time_ms(fn: Callable[[], Any], repeats: int = 1, without_gc: bool = False) -> float:
    """The fastest of ``repeats`` timings of ``fn()`` in milliseconds (the least disturbed run).
    ``without_gc``: as ``timeit`` does, keep the garbage collector out of the timed runs (time
    both a figure and its baseline so), so that a collection of whatever earlier work left
    behind does not land in a random run of either."""
    best = float("inf")
    was_enabled = gc.isenabled()
    try:
        for _ in range(max(1, repeats)):
            if without_gc:
                gc.collect()
                gc.disable()
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
            if was_enabled:
                gc.enable()
    finally:
        if was_enabled:
            gc.enable()
    return best * 1000.0


def enumeration_ms(engine: Engine, repeats: int = 1) -> float:
    """The baseline: one enumeration of the deciding side's legal actions on this state."""
    return time_ms(lambda: legal_actions(engine), repeats)


def summary(values: Sequence[float]) -> dict[str, float]:
    """Median, p95 and max in milliseconds, rounded, with the sample count."""
    return {
        "n": len(values),
        "median": round(statistics.median(values), 2) if values else 0.0,
        "p95": round(percentile(list(values), 95), 2),
        "max": round(max(values), 2) if values else 0.0,
    }


def ratio(measured: float, baseline: float) -> float | None:
    return round(measured / baseline, 1) if baseline > 0 else None


def row(figure: str, measured: str, baseline: str, ratio_: float | None, target: str) -> dict[str, str]:
    return {
        "figure": figure,
        "measured": measured,
        "baseline": baseline,
        "ratio": "–" if ratio_ is None else f"{ratio_}×",
        "target": target,
    }


def markdown_table(rows: Sequence[dict[str, str]]) -> str:
    """The figures as a markdown table ready to paste into README.md."""
    lines = ["| figure | measured | baseline | ratio | target |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {r['figure']} | {r['measured']} | {r['baseline']} | {r['ratio']} | {r['target']} |" for r in rows]
    return "\n".join(lines)


def ai_digest() -> str:
    """A short digest of the AI's source files, to tell which AI version produced the figures."""
    folder = Path(driver.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def machine_note(jobs: int | None = 1) -> str:
    """Date, Python and machine, and how many processes did the timing (None: leave it out)."""
    cores = os.cpu_count() or 1
    note = f"{date.today().isoformat()}, Python {platform.python_version()}, {cores} cores, shared"
    if jobs is None:
        return note
    return note + ("; timed on one core" if jobs <= 1 else f"; {jobs} processes")


def replace_between(path: Path, start: str, end: str, text: str) -> None:
    """Put ``text`` between the ``start`` and ``end`` markers of a file, leaving the rest as it is."""
    body = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(body):
        raise SystemExit(f"{path}: no {start} ... {end} markers to write between")
    path.write_text(pattern.sub(lambda _: f"{start}\n{text}\n{end}", body), encoding="utf-8")
