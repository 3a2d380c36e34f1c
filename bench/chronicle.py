"""The chronicle on the board: how often each battle's set pieces come in computer-against-computer
games at normal, and on which turns; prints the README's Chronicle table.

    python -m bench.chronicle [--games N] [--seed S] [--jobs J] [--scenario ID ...] [--readme]

Every game is the one ``qiankun chronicle SCENARIO --seed S`` plays (``qiankun simulate``'s game,
watched). The goal is every set piece in at least half of the games, on seeds the tests never use
(the default, 90000 on, is far from theirs).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.common import replace_between
from game.chronicle.tally import ChronicleTally
from game.content.chronicle import load_chronicle
from game.content.scenarios import load_scenario
from game.simulate import run_game

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- chronicle:start -->", "<!-- chronicle:end -->"
FIRST_SEED = 90_000


def _play(job: tuple[str, int]) -> dict[str, Any]:
    scenario_id, seed = job
    return run_game(load_scenario(scenario_id), seed)


def table(summaries: list[dict[str, Any]]) -> str:
    lines = [
        "| scenario | set piece | came in | turns (first / median / last) | at the goal |",
        "| --- | --- | --- | --- | --- |",
    ]
    for summary in summaries:
        games = summary["games"]
        for row in summary["set_pieces"]:
            turns = f"{row['first_turn']} / {row['median_turn']:g} / {row['last_turn']}" if row["came"] else "-"
            ok = "yes" if row["share"] >= summary["goal_share"] else "NO"
            lines.append(
                f"| {summary['scenario']} | {row['title']} | {row['came']} of {games} ({row['share']:.0%}) "
                f"| {turns} | {ok} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m bench.chronicle", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per scenario (default 100)")
    parser.add_argument("--seed", type=int, default=FIRST_SEED, help=f"the first seed (default {FIRST_SEED})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    chronicle = load_chronicle()
    scenarios = args.scenario or list(chronicle)
    jobs = [(sid, args.seed + i) for sid in scenarios for i in range(args.games)]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(_play, jobs, chunksize=2))
    summaries = []
    for sid in scenarios:
        tally = ChronicleTally(chronicle[sid])
        for result in results:
            if result["scenario"] == sid:
                tally.add(result)
        summaries.append(tally.summary() | {"scenario": sid})
    text = table(summaries)
    print(text)
    if args.readme:
        replace_between(README, START, END, text)
    return summaries


if __name__ == "__main__":
    main()
