"""Campaign balance: every campaign scenario played by the computer on both sides at normal
difficulty, seeds 1..N, through the same code as ``qiankun simulate``; prints the README's
Balance table.

    python -m bench.balance [--games N] [--jobs J] [--scenario ID ...] [--campaigns R] [--readme]

The target for the player's side is 35-75% of games won (a person should do better than the
computer), and every game must end within the scenario's turn limit.

``--campaigns R`` also plays R whole campaigns each, the computer commanding the player's side
too, carrying the army from battle to battle; at each camp it replenishes the formations that
lost most while its coins last. A defeat is fought again, up to ``MAX_BATTLES`` battles in all.
This shows whether losses carried forward leave later battles winnable.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bench.common import replace_between
from game.content.campaigns import load_campaigns
from game.content.scenarios import load_scenario
from game.simulate import AI_SAMPLES, run_game

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- balance:start -->", "<!-- balance:end -->"
LOW, HIGH = 0.35, 0.75
# Battles a computer-played campaign may fight (defeats included) before it counts as lost.
MAX_BATTLES = 12


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


def play_campaign(job: tuple[str, int]) -> dict[str, Any]:
    """One computer-played campaign (see the module docstring)."""
    from game.ai.driver import make_ais, play_ai_turn
    from game.core import campaign as camp
    from game.core.campaign import CampError
    from game.core.engine import GameSettings
    from game.record.match import Match
    from game.record.seats import Commander

    campaign_id, seed = job
    spec = load_campaigns().campaigns[campaign_id]
    progress = camp.new_progress(spec, seed)
    battles = 0
    # Each decision the camp put, and after which battle.
    offered: dict[str, str] = {}
    while not progress.finished(spec) and battles < MAX_BATTLES:
        battles += 1
        loaded = load_scenario(spec.scenarios[progress.stage])
        controllers: dict[str, Commander] = {s.id: "ai" for s in loaded.scenario.sides}
        match = Match(loaded, progress.battle_seed(), GameSettings(roster=progress.roster), seats=controllers)
        ais = make_ais(match)
        while not match.state.over:
            play_ai_turn(match, ais[match.state.active_side.id], others=ais)
        progress = camp.after_battle(progress, spec, loaded.scenario, match.state)
        # The camp's decisions go the chronicle's way (it marches on to the last battle).
        while (waiting := camp.pending_decision(progress, spec)) is not None:
            offered.setdefault(waiting.id, loaded.scenario.id)
            progress = camp.decide(progress, spec, waiting.id, waiting.chronicle)
        for carried in sorted(progress.roster.formations, key=lambda c: (c.men - c.max_men, c.key)):
            try:
                progress = camp.replenish(progress, spec, carried.key)
            except CampError:
                continue
    return {
        "campaign": campaign_id,
        "won": progress.finished(spec),
        "stage": progress.stage,
        "battles": battles,
        "souls": progress.souls_bagged(),
        "offered": offered,
    }


def campaign_table(runs: list[dict[str, Any]]) -> str:
    lines = [
        f"| campaign | runs | won within {MAX_BATTLES} battles | mean battles fought | mean souls bagged "
        "| decisions put (after which battle) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for cid in sorted({r["campaign"] for r in runs}):
        mine = [r for r in runs if r["campaign"] == cid]
        won = sum(r["won"] for r in mine)
        battles = statistics.fmean(r["battles"] for r in mine)
        souls = statistics.fmean(r["souls"] for r in mine)
        put = Counter((d, after) for r in mine for d, after in r["offered"].items())
        decisions = ", ".join(f"{d} {n} ({after})" for (d, after), n in sorted(put.items())) or "-"
        lines.append(
            f"| {cid} | {len(mine)} | {won} ({won / len(mine):.0%}) | {battles:.1f} | {souls:,.0f} | {decisions} |"
        )
    return "\n".join(lines)


def write_readme(text: str, readme: Path = README) -> None:
    """Put ``text`` between the markers, leaving the rest of the README as it is."""
    replace_between(readme, START, END, text)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m bench.balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="seeds 1..N per scenario (default 60)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--scenario", action="append", help="only this scenario (repeatable)")
    parser.add_argument("--campaigns", type=int, default=0, help="also play R whole campaigns each")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    scenarios = args.scenario or campaign_scenarios()
    jobs = [(sid, seed) for sid in scenarios for seed in range(1, args.games + 1)]
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(_play, jobs, chunksize=2))
    rows = [row(sid, [r for r in results if r["scenario"] == sid]) for sid in scenarios]
    text = table(rows)
    if args.campaigns:
        runs_jobs = [(c.id, seed) for c in load_campaigns().ordered() for seed in range(1, args.campaigns + 1)]
        with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            runs = list(pool.map(play_campaign, runs_jobs))
        text += "\n\n" + campaign_table(runs)
    print(text)
    if args.readme:
        write_readme(text)
    return rows


if __name__ == "__main__":
    main()
