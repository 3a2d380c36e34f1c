"""Run every benchmark and print one markdown table of all figures (optionally into README.md).

    python -m bench.run_all [--quick] [--jobs J] [--readme]

``--readme`` replaces the table between the ``bench:start`` and ``bench:end`` markers of the
README's Benchmarks section with this run's figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from . import ai_turns, first_frame, frame, idle, replay, saves, stress, win_rates
from .common import ai_class, ai_digest, machine_note, markdown_table, replace_between

README = Path(__file__).resolve().parent.parent / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def write_readme(text: str, readme: Path = README) -> None:
    """Put ``text`` between the markers, leaving the rest of the README as it is."""
    replace_between(readme, START, END, text)


def _fresh(bench_main: Callable[[list[str]], dict[str, Any]], argv: list[str]) -> dict[str, Any]:
    """Run a timing bench in a process of its own: what an earlier bench left in memory (a full
    heap, warm or bloated caches) must not speed up or slow down the next one's figures."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(bench_main, argv).result()


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.run_all", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smoke-run every bench")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes for the win rates (default: all)")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    common = ["--quick"] if args.quick else []
    jobs = args.jobs or (1 if args.quick else os.cpu_count() or 1)
    digest = ai_digest()  # before the run: the AI's files may change while it goes on
    parts = {
        "ai_turns": _fresh(ai_turns.main, common),
        "stress": _fresh(stress.main, common),
        "replay": _fresh(replay.main, common),
        "saves": _fresh(saves.main, common),
        "idle": _fresh(idle.main, common),
        "frame": _fresh(frame.main, common),
        "first_frame": _fresh(first_frame.main, common),
        # On the mirror fields: the shipped scenarios are set pieces whose outcome turns on
        # what the story asks of each side (a random Wanyan Liang never comes back to A1's
        # valley, so nobody breaks his host), not on who plays better.
        "win_rates": win_rates.main([*common, "--jobs", str(jobs), "--scenario", win_rates.MIRROR]),
    }
    rows = [r for part in parts.values() for r in part["rows"]]
    where = "one process" if jobs <= 1 else f"{jobs} processes"
    notes = [
        f"Turn times on one core; win rates in {where}. {machine_note(None)}; "
        f"AI `{ai_class().__module__}.{ai_class().__name__}`, source digest {digest} (game/ai/*.py)."
    ]
    notes += [f"Win rates: {n}." for n in parts["win_rates"].get("notes", [])]
    notes.append(
        "Mirror fields: a generated 24×24 field per seed, 12 coalition formations a side without heroes, "
        "12 turns; neither side starts ahead."
    )
    notes.append(
        "Saves: the replay bench's 300-turn record (formations that only wander), written with its snapshot; "
        "replay --verify the fastest of 3 runs; the load for play and its JSON parse the fastest of 15, "
        "both without garbage collection (as timeit times)."
    )
    notes.append(
        "Idle: each screen left alone for 10 s after a second's warm-up, in the game's own frame loop, "
        + ("in a real window (Xvfb)" if os.environ.get("DISPLAY") else "on SDL's dummy video driver")
        + "; CPU time of the whole process."
    )
    notes.append(
        "First frame: `python -m game` to the main menu's first frame (the process closing right after it), "
        "against a process that opens a bare pygame window, each the median of 7 runs taken in turns, "
        + ("in a real window (Xvfb)." if os.environ.get("DISPLAY") else "on SDL's dummy video driver.")
    )
    notes.append(
        "Frame: the view panned at the arrow keys' pace, each frame timed in turn with the baseline blit "
        "(medians and means of 240 frames); the board's still parts are one kept picture, blitted from a band "
        "a little larger than the view (a view-wide copy out of a picture over 2048 pixels wide runs at half "
        "speed here), and the panels are kept pictures; the means include the frames that re-cut the band."
    )
    text = markdown_table(rows) + "\n\n" + "\n".join(notes)
    print("\n" + "=" * 40 + "\n")
    print(text)
    if args.readme:
        write_readme(text)
    return {"parts": parts, "rows": rows, "text": text}


if __name__ == "__main__":
    main(sys.argv[1:])
