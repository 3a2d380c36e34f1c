"""Campaign balance: every campaign scenario played by the computer on both sides at normal
difficulty, seeds 1..N, through the same code as ``qiankun simulate``; prints the README's
Balance table.

    python -m bench.balance [--games N] [--jobs J] [--scenario ID ...] [--readme]

The target for the player's side is 35-75% of games won (a person should do better than the
computer), and every game must end within the scenario's turn limit.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from game.content.campaigns import load_campaigns
from game.content.scenarios import load_scenario
from game.simulate import AI_SAMPLES, run_game

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- balance:start -->", "<!-- balance:end -->"
LOW, HIGH = 0.35, 0.75


def _play(job: tuple[str, int]) -> dict[str, Any]:
    scenario_id, seed = job
    result = run_game(load_scenario(scenario_id), seed)
    result.pop(AI_SAMPLES, None)
    return result


def campaign_scenarios() -> list[str]:
    return [sid for spec in load_campaigns().ordered() for sid in spec.scenarios]


def row(scenario_id: str, results: list[dict[str, Any]]) -> dict[str, Any]:
    scenario = load_scenario(scenario_id).scenario
    player = scenario.default_player_side()
    enemy = next(s.id for s in scenario.sides if s.role == "enemy")
    wins = sum(1 for r in results if r["winner"] == player)
    souls = {
        side: statistics.fmean(s["souls"] for r in results for s in r["sides"] if s["id"] == side)
        for side in (player, enemy)
    }
    return {
        "scenario": scenario_id,
        "player": player,
        "games": len(results),
        "wins": wins,
        "rate": wins / len(results),
        "mean_turns": statistics.fmean(r["turns"] for r in results),
        "max_turns": max(r["turns"] for r in results),
        "turn_limit": scenario.turn_limit,
        "souls": souls,
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| scenario | games | player-side wins | mean turns | mean souls bagged (player / enemy) | in target |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        ok = LOW <= r["rate"] <= HIGH and r["max_turns"] <= r["turn_limit"]
        player, enemy = r["souls"].values()
        lines.append(
            f"| {r['scenario']} ({r['player']}) | {r['games']} | {r['wins']} ({r['rate']:.0%}) "
            f"| {r['mean_turns']:.1f} of {r['turn_limit']} | {player:,.0f} / {enemy:,.0f} | {'yes' if ok else 'NO'} |"
        )
    return "\n".join(lines)


def write_readme(text: str, readme: Path = README) -> None:
    body = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(body):
        raise SystemExit(f"{readme}: no {START} ... {END} markers to write between")
    readme.write_text(pattern.sub(lambda _: f"{START}\n{text}\n{END}", body), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m bench.balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="seeds 1..N per scenario (default 60)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    scenarios = args.scenario or campaign_scenarios()
    jobs = [(sid, seed) for sid in scenarios for seed in range(1, args.games + 1)]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(_play, jobs, chunksize=2))
    rows = [row(sid, [r for r in results if r["scenario"] == sid]) for sid in scenarios]
    text = table(rows)
    print(text)
    if args.readme:
        write_readme(text)
    return rows


if __name__ == "__main__":
    main()
