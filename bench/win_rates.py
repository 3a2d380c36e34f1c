"""Win rates of the AI against the random-legal-action player, and of hard against easy.

Every pairing is played from both sides of the scenario over seeds 1..N. The baseline for each
figure is the same side's win rate when the weaker player is on both sides (random against
random, easy against easy), played in the same run: the scenario is not symmetric, so a side can
win some games on position alone. ``--scenario mirror`` plays on generated mirror fields instead
(one per seed, 24×24 hexes, 12 coalition formations a side, no heroes, 12 turns): there neither
side starts ahead, so what wins is the general. Run from the repository root:

    python -m bench.win_rates [--quick] [--games N] [--jobs J] [--max-turns T] [--scenario ID|mirror]
        [--pairings STRONG-WEAK,...]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game.content.ruleset import load_ruleset
from game.content.scenarios import LoadedScenario, load_scenario
from game.core.engine import GameSettings
from game.core.game_settings import Difficulty
from game.record.match import Match

from .common import ai_takes_difficulty, machine_note, make_player, markdown_table, play_side_turn, row
from .stress import build_scenario, loaded_stress

SCENARIO = "a1_valley_mouth"
MIRROR = "mirror"
MIRROR_SIZE, MIRROR_FORMATIONS, MIRROR_TURNS = 24, 12, 12
# One game: scenario id, seed, player kind per side, turn cap.
Job = tuple[str, int, dict[str, str], int | None]
# The computer's levels by name (the other player kind, random, has none).
LEVELS: dict[str, Difficulty] = {"easy": "easy", "normal": "normal", "hard": "hard"}
# (strong, weak, target win rate of the strong player)
PAIRINGS: tuple[tuple[str, str, float], ...] = (("normal", "random", 0.95), ("hard", "easy", 0.70))


def load(scenario_id: str, seed: int) -> LoadedScenario:
    """A shipped scenario, or for ``mirror`` the generated mirror field of this seed."""
    if scenario_id != MIRROR:
        return load_scenario(scenario_id)
    scenario = build_scenario(
        load_ruleset(),
        seed,
        MIRROR_SIZE,
        MIRROR_FORMATIONS,
        factions=("yuqing", "yuqing"),
        turn_limit=MIRROR_TURNS,
        heroes=False,
    )
    return loaded_stress(scenario)


def play_match(job: Job) -> str | None:
    """One game with a named player per side; returns the winning side id (None: a draw)."""
    scenario_id, seed, kinds, max_turns = job
    loaded = load(scenario_id, seed)
    settings = GameSettings(max_turns=max_turns)
    if "difficulties" in GameSettings.model_fields:
        # Recorded per side too, so the record says which level played where.
        settings.difficulties = {side: LEVELS[kind] for side, kind in kinds.items() if kind != "random"}
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in loaded.scenario.sides})
    players = {side: make_player(kind, match.engine, side) for side, kind in kinds.items()}
    while not match.state.over:
        play_side_turn(match, players)
    return match.state.winner


def _jobs_for(
    scenario_id: str, sides: list[str], player: str, other: str, games: int, max_turns: int | None
) -> Iterator[tuple[str, Job]]:
    """(side, job) for ``player`` on each side in turn against ``other`` everywhere else."""
    for side in sides:
        kinds = {s: (player if s == side else other) for s in sides}
        for seed in range(1, games + 1):
            yield side, (scenario_id, seed, kinds, max_turns)


def _wins(
    pool: ProcessPoolExecutor | None,
    scenario_id: str,
    sides: list[str],
    player: str,
    other: str,
    games: int,
    max_turns: int | None,
) -> dict[str, int]:
    """Games won by ``player`` on each side."""
    tagged = list(_jobs_for(scenario_id, sides, player, other, games, max_turns))
    jobs = [job for _, job in tagged]
    winners = list(pool.map(play_match, jobs)) if pool is not None else [play_match(j) for j in jobs]
    wins = dict.fromkeys(sides, 0)
    for (side, _), winner in zip(tagged, winners, strict=True):
        wins[side] += winner == side
    return wins


def run(
    scenario_id: str,
    games: int,
    jobs: int,
    max_turns: int | None,
    pairings: Sequence[tuple[str, str, float]] = PAIRINGS,
) -> list[dict[str, Any]]:
    sides = [s.id for s in load(scenario_id, 1).scenario.sides]
    pool = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        results = []
        for strong, weak, target in pairings:
            won = _wins(pool, scenario_id, sides, strong, weak, games, max_turns)
            base = _wins(pool, scenario_id, sides, weak, weak, games, max_turns)
            for side in sides:
                results.append(
                    {
                        "player": strong,
                        "opponent": weak,
                        "side": side,
                        "games": games,
                        "wins": won[side],
                        "rate": won[side] / games,
                        "baseline_wins": base[side],
                        "baseline_rate": base[side] / games,
                        "target": target,
                    }
                )
        return results
    finally:
        if pool is not None:
            pool.shutdown()


def pooled(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pairing over both sides together: the scenario's lean toward one side cancels out."""
    out = []
    for strong, weak, target in PAIRINGS:
        mine = [r for r in results if r["player"] == strong and r["opponent"] == weak]
        if not mine:
            continue
        games = sum(r["games"] for r in mine)
        wins = sum(r["wins"] for r in mine)
        base = sum(r["baseline_wins"] for r in mine)
        out.append(
            {
                "player": strong,
                "opponent": weak,
                "side": "either side",
                "games": games,
                "wins": wins,
                "rate": wins / games if games else 0.0,
                "baseline_wins": base,
                "baseline_rate": base / games if games else 0.0,
                "target": target,
            }
        )
    return out


def table_rows(results: Sequence[dict[str, Any]], scenario_id: str) -> list[dict[str, str]]:
    rows = []
    for r in [*results, *pooled(results)]:
        lift = round(100 * (r["rate"] - r["baseline_rate"]))
        side = r["side"] if r["side"] == "either side" else f"as {r['side']}"
        rows.append(
            row(
                f"{r['player']} vs {r['opponent']}, {r['player']} {side} ({scenario_id})",
                f"{r['rate']:.0%} ({r['wins']}/{r['games']})",
                f"{r['baseline_rate']:.0%} ({r['baseline_wins']}/{r['games']}) {r['opponent']} vs {r['opponent']}",
                None,
                f"≥ {r['target']:.0%}",
            )
            | {"ratio": f"{lift:+d} pp"}
        )
    return rows


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.win_rates", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one game per pairing and side, two turns (smoke run)")
    parser.add_argument("--games", type=int, default=None, help="games per pairing and side, seeds 1..N (default 20)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--max-turns", type=int, default=None, help="cap on turns per game (default: the scenario's)")
    parser.add_argument("--scenario", default=SCENARIO, help=f"a scenario id, or {MIRROR} (generated mirror fields)")
    parser.add_argument(
        "--pairings",
        default=None,
        help="which pairings to play, as STRONG-WEAK,... (default: "
        + ",".join(f"{s}-{w}" for s, w, _ in PAIRINGS)
        + ")",
    )
    args = parser.parse_args(argv)
    pairings = PAIRINGS
    if args.pairings:
        wanted = {tuple(p.split("-", 1)) for p in args.pairings.split(",")}
        pairings = tuple(p for p in PAIRINGS if (p[0], p[1]) in wanted)
        if len(pairings) != len(wanted):
            parser.error(f"--pairings: choose from {', '.join(f'{s}-{w}' for s, w, _ in PAIRINGS)}")
    games = args.games or (1 if args.quick else 20)
    jobs = args.jobs or (1 if args.quick else os.cpu_count() or 1)
    max_turns = args.max_turns or (2 if args.quick else None)
    results = run(args.scenario, games, jobs, max_turns, pairings)
    notes = []
    if not ai_takes_difficulty():
        notes.append("this AI takes no difficulty, so hard and easy play the same game")
    if max_turns is not None:
        notes.append(f"games capped at {max_turns} turns")
    for note in notes:
        print(f"note: {note}")
    for r in results:
        print(
            f"{r['player']} as {r['side']} vs {r['opponent']}: won {r['wins']}/{r['games']} ({r['rate']:.0%}); "
            f"{r['opponent']} vs itself on that side: {r['baseline_wins']}/{r['games']} ({r['baseline_rate']:.0%}); "
            f"target ≥ {r['target']:.0%}"
        )
    rows = table_rows(results, "mirror fields" if args.scenario == MIRROR else args.scenario)
    print()
    print(markdown_table(rows))
    print(f"\n({machine_note(jobs)})")
    return {"results": results, "rows": rows, "notes": notes}


if __name__ == "__main__":
    main(sys.argv[1:])
