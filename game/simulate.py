"""Headless AI-against-AI games: balance figures, regression checks and saved records."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from .ai.driver import make_ais, play_ai_turn
from .chronicle.tally import set_piece_results
from .chronicle.watch import ChronicleWatch
from .content.chronicle import set_pieces
from .content.scenarios import LoadedScenario
from .core.engine import GameSettings
from .core.events import Routed
from .core.state import state_hash
from .record.match import Match

# Key of the per-side-turn thinking times in a game's result; dropped before it is printed.
AI_SAMPLES = "_ai_turn_ms"


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


def run_game(
    loaded: LoadedScenario,
    seed: int,
    max_turns: int | None = None,
    save_dir: Path | None = None,
    difficulty: str = "normal",
    difficulties: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Play one game with every side under AI control and summarise it as a JSON-ready dict.
    ``difficulty`` is every side's level unless ``difficulties`` names one for the side. The
    per-turn thinking times are under ``AI_SAMPLES`` (for the summary; not printed)."""
    scenario = loaded.scenario
    settings = GameSettings(difficulty=difficulty, difficulties=difficulties or {}, max_turns=max_turns)
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in scenario.sides})
    watch = ChronicleWatch(set_pieces(scenario.id))
    match.listeners.append(lambda events: watch.seen(events, match.state))
    routs: Counter[str] = Counter()
    match.listeners.append(lambda events: routs.update(e.side for e in events if isinstance(e, Routed)))
    ais = make_ais(match)
    ai_ms: list[float] = []
    while not match.state.over:
        side = match.state.active_side.id
        ai_ms.append(play_ai_turn(match, ais[side], others=ais))
    state = match.state
    watch.finish(state)
    result: dict[str, Any] = {
        "scenario": scenario.id,
        "seed": seed,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "turns": state.turn,
        "actions": len(match.record.actions),
        "final_hash": state_hash(state),
        "sides": [
            {
                "id": s.id,
                "men_start": s.men_start,
                "men_end": state.men_of(s.id),
                "souls": s.pouch,
                "routs": routs[s.id],
            }
            for s in state.sides
        ],
        "souls_on_field": state.souls_on_field(),
        "ai_ms": _ms_stats(ai_ms),
        "set_pieces": set_piece_results(watch),
        "save": None,
        AI_SAMPLES: [round(ms, 2) for ms in ai_ms],
    }
    if save_dir is not None:
        path = save_dir / f"{scenario.id}-seed{seed}.json"
        match.save(path)
        result["save"] = str(path)
    return result


def _ms_stats(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 2) if values else 0.0,
        "p95": round(percentile(values, 95), 2),
        "max": round(max(values), 2) if values else 0.0,
    }


class Tally:
    """The summary of many games, counted as they come: its memory does not grow with the
    number of games (thinking times are counted by value; they are rounded to 0.01 ms)."""

    def __init__(self, side_ids: list[str]) -> None:
        self.side_ids = list(side_ids)
        self.games = 0
        self.wins: dict[str, int] = {side: 0 for side in side_ids} | {"draw": 0}
        self.turns = 0
        self.souls: dict[str, list[int]] = {side: [0, 0] for side in side_ids}  # total, games
        self.ai_ms: Counter[float] = Counter()

    def add(self, result: dict[str, Any]) -> None:
        self.games += 1
        self.wins[result["winner"] if result["winner"] in self.wins else "draw"] += 1
        self.turns += result["turns"]
        for s in result["sides"]:
            total = self.souls.setdefault(s["id"], [0, 0])
            total[0] += s["souls"]
            total[1] += 1
        self.ai_ms.update(result.get(AI_SAMPLES, []))

    @staticmethod
    def game_line(r: dict[str, Any]) -> str:
        """One game's result in a line."""
        sides = ", ".join(f"{s['id']} {s['men_start']:,}→{s['men_end']:,}" for s in r["sides"])
        return (
            f"seed {r['seed']}: winner {r['winner'] or 'none'} after {r['turns']} turns, "
            f"{r['actions']} actions; {sides}; AI ms median {r['ai_ms']['median']}"
        )

    def summary(self) -> dict[str, Any]:
        """Wins per side (a game without a winner is a draw), win rates, mean turns and souls,
        and the AI's thinking time per side-turn over all games."""
        n = self.games
        return {
            "games": n,
            "wins": dict(self.wins),
            "win_rate": {side: round(self.wins[side] / n, 4) if n else 0.0 for side in self.side_ids},
            "mean_turns": round(self.turns / n, 2) if n else 0.0,
            "mean_souls": {side: round(t / k, 2) if k else 0.0 for side, (t, k) in self.souls.items()},
            "ai_ms": _counted_stats(self.ai_ms),
        }


def _counted_stats(counts: Counter[float]) -> dict[str, float]:
    """``_ms_stats`` of the values ``counts`` holds, each as many times as it counts."""
    n = counts.total()
    if not n:
        return _ms_stats([])
    ordered = sorted(counts.items())

    def nth(k: int) -> float:  # the k-th smallest value, from 0
        for value, count in ordered:
            if k < count:
                return value
            k -= count
        raise IndexError(k)  # pragma: no cover - k < n

    middle = nth(n // 2) if n % 2 else (nth(n // 2 - 1) + nth(n // 2)) / 2
    p95 = nth(min(n - 1, max(0, round(95 / 100 * (n - 1)))))
    return {"median": round(middle, 2), "p95": round(p95, 2), "max": round(ordered[-1][0], 2)}


def summarise(results: list[dict[str, Any]], side_ids: list[str]) -> dict[str, Any]:
    """``Tally``'s summary of a list of games."""
    tally = Tally(side_ids)
    for r in results:
        tally.add(r)
    return tally.summary()


def summary_table(summary: dict[str, Any]) -> str:
    """The summary as a few aligned lines for people."""
    lines = [
        f"{summary['games']} games, mean {summary['mean_turns']} turns",
        f"{'side':<20} {'wins':>6} {'rate':>7} {'mean souls':>12}",
    ]
    for side, rate in summary["win_rate"].items():
        lines.append(f"{side:<20} {summary['wins'][side]:>6} {rate:>7.1%} {summary['mean_souls'][side]:>12,.1f}")
    draws = summary["wins"]["draw"]
    lines.append(f"{'draw':<20} {draws:>6} {draws / max(1, summary['games']):>7.1%}")
    ms = summary["ai_ms"]
    lines.append(f"AI ms per side-turn: median {ms['median']}, p95 {ms['p95']}, max {ms['max']}")
    return "\n".join(lines)
