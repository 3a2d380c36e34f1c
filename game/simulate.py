"""Headless AI-against-AI games: balance figures, regression checks and saved records."""

from __future__ import annotations

import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from .ai.driver import make_ais, play_ai_turn
from .content.scenarios import LoadedScenario
from .core.engine import GameSettings
from .core.events import Routed
from .core.state import state_hash
from .record.match import Match
from .record.saves import save_record


def _percentile(values: list[float], pct: float) -> float:
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
) -> dict[str, Any]:
    """Play one game with every side under AI control and summarise it as a JSON-ready dict."""
    scenario = loaded.scenario
    settings = GameSettings(
        controllers={s.id: "ai" for s in scenario.sides},
        difficulty=difficulty,
        max_turns=max_turns,
    )
    match = Match(loaded, seed, settings)
    routs: Counter[str] = Counter()
    match.listeners.append(lambda events: routs.update(e.side for e in events if isinstance(e, Routed)))
    ais = make_ais(match)
    ai_ms: list[float] = []
    while not match.state.over:
        side = match.state.active_side.id
        ai_ms.append(play_ai_turn(match, ais[side]))
    state = match.state
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
        "ai_ms": {
            "median": round(statistics.median(ai_ms), 2) if ai_ms else 0.0,
            "p95": round(_percentile(ai_ms, 95), 2),
            "max": round(max(ai_ms), 2) if ai_ms else 0.0,
        },
        "save": None,
    }
    if save_dir is not None:
        path = save_dir / f"{scenario.id}-seed{seed}.json"
        save_record(match.record, path)
        result["save"] = str(path)
    return result
