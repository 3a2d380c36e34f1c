"""Saves: ``replay --verify`` of a long record, and loading a save for play from its snapshot.

The record is the replay bench's: a game of ``--turns`` turns (300 by default) on a generated
24×24 field where every formation wanders each side-turn (the same record for the same seed),
saved as the game saves it, with its snapshot. Both figures are measured against parsing the
same file's JSON (``json.loads`` of its bytes) in the same run:

- verify: reading the file and re-running every action with every checkpoint checked, as
  ``qiankun replay SAVE --verify`` does, in actions per second (the fastest of 3 runs); baseline
  the parse time per action.
- load for play: reading the file and building the game from its snapshot (``load_record`` +
  ``match_from_record``), the fastest of several runs; baseline the fastest parse.
- verify on real battles: one game of every shipped scenario played by the computer on both
  sides (fighting, souls, morale, events: harder than wandering), each verified whole and cut
  at the checkpoint nearest its middle; the speed is the slope between the two (the actions
  added over the time they add), so loading the scenario and starting the engine cancel out.

Run from the repository root:

    python -m bench.saves [--quick] [--turns N] [--seed N] [--repeats N] [--verify-runs N]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from game.record.match import match_from_record
from game.record.saves import load_record
from game.record.verify import verify

from .common import machine_note, markdown_table, ratio, row, time_ms
from .replay import wanderers_record

TARGET_VERIFY = "≥ 2,000 actions/s"
TARGET_LOAD = "< 100 ms and ≤ 3× the parse"


def measure(turns: int, seed: int, repeats: int, verify_runs: int = 1) -> dict[str, Any]:
    match, loaded = wanderers_record(turns, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = match.save(Path(folder) / "long.json")
        size = path.stat().st_size
        actions = len(match.record.actions)
        parse_ms = time_ms(lambda: json.loads(path.read_bytes()), repeats, without_gc=True)

        verify_ms = float("inf")
        for _ in range(verify_runs):
            start = time.perf_counter()
            result = verify(load_record(path), loaded)
            verify_ms = min(verify_ms, (time.perf_counter() - start) * 1000.0)
            if not result.ok:
                raise SystemExit(f"the bench's own record does not verify: {result.problem}")

        def load_for_play() -> None:
            played = match_from_record(load_record(path), loaded)
            assert played.state.action_index == actions

        load_ms = time_ms(load_for_play, repeats, without_gc=True)
    return {
        "turns": match.state.turn,
        "actions": actions,
        "bytes": size,
        "parse_ms": round(parse_ms, 2),
        "verify_ms": round(verify_ms, 1),
        "verify_actions_per_s": round(actions / (verify_ms / 1000.0)),
        "parse_actions_per_s": round(actions / (parse_ms / 1000.0)),
        "verify_ratio": ratio(verify_ms, parse_ms),
        "load_ms": round(load_ms, 2),
        "load_ratio": ratio(load_ms, parse_ms),
    }


def _fastest_verify_ms(record: Any, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = verify(record)
        best = min(best, (time.perf_counter() - start) * 1000.0)
        if not result.ok:
            raise SystemExit(f"a real battle does not verify: {result.problem}")
    return best


def _first_half(record: Any) -> Any:
    """The record cut at the checkpoint nearest its middle (a record as a save at that turn's end
    would hold it, less its snapshot)."""
    half = len(record.actions) // 2
    cut = min(record.checkpoints, key=lambda cp: abs(cp.actions - half)).actions
    return record.model_copy(
        update={
            "actions": record.actions[:cut],
            "checkpoints": [cp for cp in record.checkpoints if cp.actions <= cut],
            "snapshot": None,
        }
    )


def measure_real(seed: int, runs: int) -> dict[str, Any]:
    """The verify speed on one computer-played game of each shipped scenario (see the module)."""
    from game.ai.driver import make_ais, play_ai_turn
    from game.content.scenarios import load_scenario, scenario_ids
    from game.core.engine import GameSettings
    from game.record.match import Match

    added_actions, added_ms, parse_ms, parsed_actions = 0, 0.0, 0.0, 0
    for sid in scenario_ids():
        loaded = load_scenario(sid)
        match = Match(loaded, seed, GameSettings(), seats={s.id: "ai" for s in loaded.scenario.sides})
        ais = make_ais(match)
        while not match.state.over:
            play_ai_turn(match, ais[match.state.active_side.id], budget=None, others=ais)
        record = match.saved_record()
        half = _first_half(record)
        added_actions += len(record.actions) - len(half.actions)
        added_ms += _fastest_verify_ms(record, runs) - _fastest_verify_ms(half, runs)
        text = record.model_dump_json()
        parse_ms += time_ms(partial(json.loads, text), runs, without_gc=True)
        parsed_actions += len(record.actions)
    per_action_ms = added_ms / max(1, added_actions)
    parse_per_action_ms = parse_ms / max(1, parsed_actions)
    return {
        "real_scenarios": len(scenario_ids()),
        "real_actions": added_actions,
        "real_verify_actions_per_s": round(1000.0 / per_action_ms) if per_action_ms > 0 else 0,
        "real_parse_us_per_action": round(parse_per_action_ms * 1000.0, 2),
        "real_verify_ratio": ratio(per_action_ms, parse_per_action_ms),
    }


def table_rows(r: dict[str, Any]) -> list[dict[str, str]]:
    label = f"{r['turns']}-turn record, {r['actions']:,} actions, {r['bytes'] / 1e6:.1f} MB"
    per_action_us = r["parse_ms"] * 1000.0 / max(1, r["actions"])
    return [
        row(
            f"replay --verify, {label}",
            f"{r['verify_actions_per_s']:,} actions/s ({r['verify_ms']:.0f} ms)",
            f"JSON parse: {per_action_us:.2f} µs per action ({r['parse_ms']} ms)",
            r["verify_ratio"],
            TARGET_VERIFY,
        ),
        row(
            f"load for play from the snapshot, {label}",
            f"{r['load_ms']} ms",
            f"JSON parse: {r['parse_ms']} ms",
            r["load_ratio"],
            TARGET_LOAD,
        ),
        *(
            [
                row(
                    f"replay --verify, real battles: one computer-played game of each of the "
                    f"{r['real_scenarios']} scenarios (slope over {r['real_actions']:,} actions)",
                    f"{r['real_verify_actions_per_s']:,} actions/s",
                    f"JSON parse: {r['real_parse_us_per_action']:.2f} µs per action",
                    r["real_verify_ratio"],
                    TARGET_VERIFY,
                )
            ]
            if "real_actions" in r
            else []
        ),
    ]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.saves", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short record (smoke test)")
    parser.add_argument("--turns", type=int, default=None, help="turns in the record (default 300)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=None, help="runs of each load; the fastest counts")
    parser.add_argument("--verify-runs", type=int, default=None, help="runs of the verify; the fastest counts")
    args = parser.parse_args(argv)
    turns = args.turns or (6 if args.quick else 300)
    repeats = args.repeats or (3 if args.quick else 15)
    verify_runs = args.verify_runs or (1 if args.quick else 3)
    result = measure(turns, args.seed, repeats, verify_runs)
    if not args.quick:
        result |= measure_real(args.seed, verify_runs)
    rows = table_rows(result)
    print(markdown_table(rows))
    print(
        f"\n({machine_note()}; verify the fastest of {verify_runs} runs, "
        f"the parse and the load the fastest of {repeats}, without garbage collection)"
    )
    return {**result, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
