"""``qiankun simulate``: AI against AI, headless, one line per game in seed order and a summary."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Protocol

from ..content.scenarios import load_scenario
from .errors import EXIT_OK, CliError
from .inputs import loaded_scenario, writable_folder
from .parser import MAX_SEED

SimJob = tuple[str, int, int | None, str | None, str, dict[str, str]]


def simulate_one(job: SimJob) -> dict[str, Any]:
    """One game (in a worker process when there are several)."""
    from ..simulate import run_game

    scenario_id, seed, max_turns, save_dir, difficulty, per_side = job
    save = Path(save_dir) if save_dir else None
    return run_game(load_scenario(scenario_id), seed, max_turns, save, difficulty, per_side)


def parse_difficulties(values: Sequence[str], side_ids: Sequence[str]) -> tuple[str, dict[str, str]]:
    """``--difficulty`` values: ``LEVEL`` for every side, ``SIDE=LEVEL`` for one side. Returns
    (every side's level, the sides' own levels)."""
    from ..core.game_settings import DIFFICULTIES

    default, per_side = "normal", {}
    for value in values:
        side, _eq, level = value.rpartition("=")
        if level not in DIFFICULTIES:
            raise CliError(f"unknown difficulty {level!r} in --difficulty {value} (levels: {', '.join(DIFFICULTIES)})")
        if not _eq:
            default = level
        elif side in side_ids:
            per_side[side] = level
        else:
            raise CliError(f"unknown side {side!r} in --difficulty {value} (sides: {', '.join(side_ids)})")
    return default, per_side


class GameTally(Protocol):
    """What counts games as they come: ``simulate``'s wins and times, ``chronicle``'s set pieces."""

    games: int

    def add(self, result: dict[str, Any]) -> None: ...

    def game_line(self, result: dict[str, Any]) -> str: ...


def cmd_simulate(args: argparse.Namespace) -> int:
    from ..simulate import Tally, summary_table

    tally = Tally(list(loaded_scenario(args.scenario).scenario.side_ids()))
    play_games(args, args.max_turns, args.save_dir, tally)
    summary = tally.summary()
    print(json.dumps({"summary": summary}, ensure_ascii=False) if args.json else summary_table(summary), flush=True)
    return EXIT_OK


def play_games(args: argparse.Namespace, max_turns: int | None, save_to: Path | None, tally: GameTally) -> None:
    """Play ``args.games`` AI games of ``args.scenario`` from ``args.seed`` on (``args.jobs``
    processes at most), at the ``args.difficulty`` levels, printing each game's line as it comes
    (a JSON line with ``args.json``) and counting it in ``tally``."""
    from ..record.errors import SaveError

    side_ids = list(loaded_scenario(args.scenario).scenario.side_ids())
    default, per_side = parse_difficulties(args.difficulty, side_ids)
    last_seed = args.seed + args.games - 1
    if last_seed > MAX_SEED:
        raise CliError(
            f"--seed {args.seed} with --games {args.games} would reach seed {last_seed}, "
            f"above the largest seed {MAX_SEED}"
        )
    save_dir = None if save_to is None else str(writable_folder(save_to, "--save-dir"))
    # Made as they are played: memory does not grow with --games.
    jobs: Iterator[SimJob] = (
        (args.scenario, args.seed + i, max_turns, save_dir, default, per_side) for i in range(args.games)
    )
    progress = Progress(args.games) if sys.stderr.isatty() else None
    workers = min(args.jobs, args.games, cores())
    try:
        if workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            with ProcessPoolExecutor(max_workers=workers) as pool:
                _print_results(in_order(pool, jobs, 2 * workers), args.json, progress, tally)
        else:
            _print_results(map(simulate_one, jobs), args.json, progress, tally)
    except SaveError as exc:
        raise CliError(str(exc)) from None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def in_order(pool: Executor, jobs: Iterable[SimJob], ahead: int) -> Iterator[dict[str, Any]]:
    """The games' results in seed order, with at most ``ahead`` games queued at a time."""
    pending: deque[Future[dict[str, Any]]] = deque()
    for job in jobs:
        pending.append(pool.submit(simulate_one, job))
        if len(pending) >= ahead:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


class Progress:
    """``12/100 games, 3.1 s`` rewritten in place on a terminal's stderr."""

    def __init__(self, total: int) -> None:
        import time

        self.total = total
        self.clock = time.perf_counter
        self.start = self.clock()

    def show(self, done: int) -> None:
        end = "\n" if done >= self.total else ""
        print(f"\r{done}/{self.total} games, {self.clock() - self.start:.1f} s", end=end, file=sys.stderr, flush=True)


def _print_results(
    results: Iterable[dict[str, Any]], as_json: bool, progress: Progress | None, tally: GameTally
) -> None:
    """Print each game's line in seed order as it comes, counting it in ``tally``."""
    from ..simulate import AI_SAMPLES

    if progress is not None:
        progress.show(0)
    for r in results:
        tally.add(r)
        r = {k: v for k, v in r.items() if k != AI_SAMPLES}
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr, flush=True)  # the line is not left under the output
        if as_json:
            print(json.dumps(r, ensure_ascii=False), flush=True)
        else:
            print(tally.game_line(r), flush=True)
        if progress is not None:
            progress.show(tally.games)
