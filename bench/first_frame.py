"""How long the game takes from the command to the main menu's first frame on screen.

    python -m bench.first_frame [--runs N] [--quick]

``python -m game`` runs in a fresh process with ``QIANKUN_EXIT_AFTER_FIRST_FRAME=1``, which closes
the game right after its first frame is shown; the figure is that process's whole wall time (so
it includes the interpreter's start and exit), the median of N runs, after one run of each not
counted (as an installed game starts: its bytecode written, its files in the disk cache; the
bench lets Python write bytecode even where the environment says not to). Baseline, timed in the same
run and the same way: a process that only opens a bare pygame window of the same size and shows
one frame. Under Xvfb (DISPLAY set) in a real window, else on SDL's dummy driver.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .common import machine_note, markdown_table

TARGET_S = 1.5
TARGET_RATIO = 5.0
ROOT = Path(__file__).resolve().parent.parent
BARE_WINDOW = (
    "import pygame\n"
    "pygame.display.init()\n"
    "screen = pygame.display.set_mode((1280, 800), pygame.RESIZABLE)\n"
    "screen.fill((20, 22, 26))\n"
    "pygame.display.flip()\n"
    "pygame.quit()\n"
)


def _env(saves: str) -> dict[str, str]:
    env = dict(os.environ, SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", QIANKUN_SAVES_DIR=saves)
    env["QIANKUN_EXIT_AFTER_FIRST_FRAME"] = "1"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not env.get("DISPLAY"):
        env.setdefault("SDL_VIDEODRIVER", "dummy")
    return env


def _run_s(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(runs: int) -> dict[str, list[float]]:
    """Seconds of each run of the game and of the bare window, taken in turns so that a busy
    moment of the machine falls on both alike."""
    times: dict[str, list[float]] = {"game": [], "bare": []}
    with tempfile.TemporaryDirectory() as saves:  # the default settings, whatever the player chose
        env = _env(saves)
        bare, game = [sys.executable, "-c", BARE_WINDOW], [sys.executable, "-m", "game", "--lang", "en"]
        _run_s(bare, env), _run_s(game, env)  # the warm-up, not counted
        for _ in range(runs):
            times["bare"].append(_run_s(bare, env))
            times["game"].append(_run_s(game, env))
    return times


def table_rows(times: dict[str, list[float]]) -> list[dict[str, str]]:
    game, bare = statistics.median(times["game"]), statistics.median(times["bare"])
    return [
        {
            "figure": f"main menu's first frame from the command (median of {len(times['game'])})",
            "measured": f"{game * 1000:.0f} ms",
            "baseline": f"a bare pygame window's first frame: {bare * 1000:.0f} ms",
            "ratio": f"{game / bare:.1f}×" if bare > 0 else "–",
            "target": f"≤ {TARGET_S:g} s and ≤ {TARGET_RATIO:g}× the bare window",
        }
    ]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.first_frame", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run of each (smoke test)")
    parser.add_argument("--runs", type=int, default=None, help="runs of each process (7)")
    args = parser.parse_args(argv)
    runs = args.runs or (1 if args.quick else 7)
    times = measure(runs)
    rows = table_rows(times)
    print(markdown_table(rows))
    where = "a real window (Xvfb)" if os.environ.get("DISPLAY") else "SDL's dummy video driver"
    print(f"\n({machine_note(None)}; {where})")
    return {"times": times, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
