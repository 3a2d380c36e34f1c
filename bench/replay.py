"""Stepping back one turn in the replay viewer, against one turn of stepping forward.

A long record (default 300 turns) is played on a generated 24×24 field by wanderers: every
formation of the side moves to a destination drawn from the game's counter-based RNG, then the
side ends its turn, so no battle ends the game early and every run plays the same record. The
viewer's cursor first plays the record through once (as a viewer playing it would), then, for
sampled side-turns, stands on the last action before the turn's EndTurn and steps back one turn
(to the start of the side-turn before) and, as the worst case, one action (a snapshot restored
and the side-turn re-run). The baseline is the forward stepping through that side-turn's actions,
timed in the same run. Run from the repository root:

    python -m bench.replay [--quick] [--turns N] [--samples N] [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from game.content.ruleset import load_ruleset
from game.core.actions import EndTurn, Move
from game.core.engine import GameSettings, IllegalAction
from game.core.rng import Rng
from game.record.match import Match
from game.record.replay_cursor import ReplayCursor

from .common import machine_note, markdown_table, ratio, row, summary
from .stress import build_scenario, loaded_stress

SIZE, PER_SIDE = 24, 12
TARGET = "max < 150 ms"


def wanderers_record(turns: int, seed: int) -> tuple[Match, Any]:
    """A ``turns``-turn game of formations that only move: the same record for the same seed."""
    rules = load_ruleset()
    scenario = build_scenario(
        rules, seed, SIZE, PER_SIDE, factions=("yuqing", "yuqing"), turn_limit=turns, heroes=False
    )
    loaded = loaded_stress(scenario)
    settings = GameSettings()
    match = Match(loaded, seed, settings, seats={s.id: "ai" for s in scenario.sides})
    rng = Rng(seed, 1 << 40)  # a stream of its own, apart from the game's
    while not match.state.over:
        side = match.state.active_side.id
        for f in match.state.formations_of(side):
            if f.id not in match.state.formations or not match.engine.can_move(f):
                continue
            dests = sorted(match.engine.moves(f.id).destinations, key=lambda h: (h.q, h.r))
            if dests:
                # A formation that came into view may block the way: then it stays.
                with contextlib.suppress(IllegalAction):
                    match.apply(Move(unit=f.id, to=dests[int(rng.random() * len(dests))]))
        match.apply(EndTurn())
    return match, loaded


def measure(turns: int, samples: int, seed: int) -> dict[str, Any]:
    started = time.perf_counter()
    match, loaded = wanderers_record(turns, seed)
    record = match.record
    made_s = time.perf_counter() - started
    cursor = ReplayCursor(record, loaded)
    start = time.perf_counter()
    cursor.seek(cursor.length)  # played through once: every checkpoint has its snapshot
    full_ms = (time.perf_counter() - start) * 1000.0
    marks = [m.index for m in cursor.turn_marks()] + [cursor.length]
    # Side-turns spread over the record, the last ones included (the state is largest there).
    spans = [(marks[k], marks[k + 1]) for k in range(1, len(marks) - 1) if marks[k + 1] - marks[k] >= 2]
    picked = [spans[round(i * (len(spans) - 1) / max(1, samples - 1))] for i in range(min(samples, len(spans)))]
    back_turn, back_action, forward = [], [], []
    for begin, end in picked:
        last = end - 1  # the side-turn's last action before its EndTurn
        cursor.seek(begin)
        t = time.perf_counter()
        while cursor.position < last:
            cursor.step_forward()
        forward.append((time.perf_counter() - t) * 1000.0)
        t = time.perf_counter()
        cursor.previous_turn()  # to this side-turn's start
        cursor.previous_turn()  # and to the one before: one whole turn back
        back_turn.append((time.perf_counter() - t) * 1000.0)
        cursor.seek(last)
        t = time.perf_counter()
        cursor.step_back()
        back_action.append((time.perf_counter() - t) * 1000.0)
    return {
        "turns": turns,
        "actions": len(record.actions),
        "record_seconds": round(made_s, 1),
        "full_pass_ms": round(full_ms, 1),
        "back_turn_ms": summary(back_turn),
        "back_action_ms": summary(back_action),
        "forward_turn_ms": summary(forward),
        "raw": {"back_turn": back_turn, "back_action": back_action, "forward": forward},
    }


def table_rows(r: dict[str, Any]) -> list[dict[str, str]]:
    base = r["forward_turn_ms"]["median"]
    label = f"{r['turns']}-turn record, {r['actions']} actions"
    rows = []
    for key, what in (("back_turn_ms", "back one turn"), ("back_action_ms", "back one action (re-runs a side-turn)")):
        s = r[key]
        rows.append(
            row(
                f"Replay viewer: {what}, {label}",
                f"median {s['median']} ms, max {s['max']} ms (n={s['n']})",
                f"one side-turn stepped forward: median {base} ms",
                ratio(s["median"], base),
                TARGET,
            )
        )
    return rows


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.replay", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short record and few samples (smoke test)")
    parser.add_argument("--turns", type=int, default=None)
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    turns = args.turns or (6 if args.quick else 300)
    samples = args.samples or (3 if args.quick else 30)
    result = measure(turns, samples, args.seed)
    rows = table_rows(result)
    print(markdown_table(rows))
    print(
        f"\n{machine_note()}; record made in {result['record_seconds']} s, "
        f"first pass through it {result['full_pass_ms']} ms; median of the forward baseline "
        f"{statistics.median(result['raw']['forward']):.2f} ms."
    )
    return {**result, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
