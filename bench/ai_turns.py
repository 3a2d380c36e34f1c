"""AI side-turn times on every shipped scenario, against a legal-action enumeration.

Plays whole AI-against-AI games through the same driver as ``qiankun simulate``, one process,
and times every side-turn; before each, one enumeration of the active side's legal actions on
the same state is timed as the baseline. Run from the repository root:

    python -m bench.ai_turns [--quick] [--seeds N] [--max-turns T] [--scenario ID ...]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from game.ai.driver import make_ais, play_ai_turn
from game.content.scenarios import load_scenario, scenario_ids
from game.core.engine import GameSettings
from game.record.match import Match

from .common import enumeration_ms, machine_note, markdown_table, ratio, row, summary

TARGET_MEDIAN = "median ≤ 150 ms"
TARGET_P95 = "p95 ≤ 400 ms"


def time_game(scenario_id: str, seed: int, max_turns: int | None) -> tuple[list[float], list[float], dict[str, Any]]:
    """One AI-against-AI game: per side-turn AI ms, per side-turn baseline ms, and the outcome."""
    loaded = load_scenario(scenario_id)
    settings = GameSettings(max_turns=max_turns)
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in loaded.scenario.sides})
    ais = make_ais(match)
    ai_ms: list[float] = []
    base_ms: list[float] = []
    while not match.state.over:
        base_ms.append(enumeration_ms(match.engine))
        ai_ms.append(play_ai_turn(match, ais[match.state.active_side.id]))
    outcome = {"seed": seed, "winner": match.state.winner, "turns": match.state.turn}
    return ai_ms, base_ms, outcome


def run(scenarios: Sequence[str], seeds: Sequence[int], max_turns: int | None) -> list[dict[str, Any]]:
    results = []
    for scenario_id in scenarios:
        ai_ms: list[float] = []
        base_ms: list[float] = []
        games = []
        for seed in seeds:
            ai, base, outcome = time_game(scenario_id, seed, max_turns)
            ai_ms += ai
            base_ms += base
            games.append(outcome)
        ai_s, base_s = summary(ai_ms), summary(base_ms)
        results.append(
            {
                "scenario": scenario_id,
                "games": games,
                "ai_ms": ai_s,
                "enumeration_ms": base_s,
                "ratio_median": ratio(ai_s["median"], base_s["median"]),
                "ratio_p95": ratio(ai_s["p95"], base_s["p95"]),
            }
        )
    return results


def table_rows(results: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    rows = []
    for r in results:
        ai, base = r["ai_ms"], r["enumeration_ms"]
        label = f"AI side-turn, {r['scenario']} ({len(r['games'])} games, {ai['n']} side-turns)"
        rows.append(
            row(
                f"{label}: median",
                f"{ai['median']:.1f} ms",
                f"{base['median']:.1f} ms (legal-action enumeration)",
                r["ratio_median"],
                TARGET_MEDIAN,
            )
        )
        rows.append(
            row(
                f"{label}: p95 (max {ai['max']:.0f} ms)",
                f"{ai['p95']:.1f} ms",
                f"{base['p95']:.1f} ms",
                r["ratio_p95"],
                TARGET_P95,
            )
        )
    return rows


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_turns", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one seed, two turns per game (smoke run)")
    parser.add_argument("--seeds", type=int, default=None, help="games per scenario, seeds 1..N (default 5)")
    parser.add_argument("--max-turns", type=int, default=None, help="cap on turns per game (default: none)")
    parser.add_argument("--scenario", action="append", default=None, help="only this scenario (repeatable)")
    args = parser.parse_args(argv)
    seeds = range(1, 1 + (args.seeds or (1 if args.quick else 5)))
    max_turns = args.max_turns or (2 if args.quick else None)
    results = run(args.scenario or scenario_ids(), list(seeds), max_turns)
    for r in results:
        ai, base = r["ai_ms"], r["enumeration_ms"]
        print(
            f"{r['scenario']}: {len(r['games'])} games, {ai['n']} side-turns; AI median {ai['median']} ms, "
            f"p95 {ai['p95']} ms, max {ai['max']} ms; enumeration median {base['median']} ms; "
            f"ratio {r['ratio_median']} (median), {r['ratio_p95']} (p95); "
            f"winners {dict(Counter(str(g['winner']) for g in r['games']))}"
        )
    rows = table_rows(results)
    print()
    print(markdown_table(rows))
    print(f"\n({machine_note()})")
    return {"results": results, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
