"""What an idle screen costs: the main menu, a battle waiting for the player and a paused replay,
each left alone for a while in the game's own frame loop, in CPU time of the process (all its
threads) as a share of one core.

    python -m bench.idle [--seconds S] [--warm-up S] [--size WxH] [--quick]

Baselines, timed in the same run: a bare pygame window whose loop does nothing but look at its
event queue as often as the game's idle loop does (the floor), and the battle drawn by the loop
the game used before, 60 frames a second whatever happens (the ceiling the idle loop replaces).
Run it under Xvfb (DISPLAY set) for a real window; headless, SDL's dummy driver is used.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import machine_note, markdown_table

if TYPE_CHECKING:
    from game.ui.app import App

TARGET = 2.0  # % of one core
WARM_UP = 1.0  # seconds each screen runs before it is timed


def _cpu_share(loop: Callable[[], object], seconds: float, warm_up: float = WARM_UP) -> float:
    """Percent of one core the process spends running ``loop`` over ``seconds`` of wall time,
    after ``warm_up`` seconds not counted (the screen's first pictures and caches)."""
    stop = time.perf_counter() + warm_up
    while time.perf_counter() < stop:
        loop()
    cpu, wall = time.process_time(), time.perf_counter()
    stop = wall + seconds
    while time.perf_counter() < stop:
        loop()
    return 100.0 * (time.process_time() - cpu) / (time.perf_counter() - wall)


def _screen(route: str, size: tuple[int, int], **kwargs: Any) -> App:
    from game.ui.app import App

    app = App(size)
    app.go(route, **kwargs)
    return app


def measure(seconds: float, size: tuple[int, int], warm_up: float = WARM_UP) -> dict[str, float]:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.content.scenarios import load_scenario
    from game.record.match import new_match
    from game.record.saves import load_record
    from game.simulate import run_game
    from game.ui.app import FPS, IDLE_SLEEP

    def idle(app: App) -> Callable[[], None]:
        return app.frame  # the game's own loop, one turn at a time

    figures: dict[str, float] = {}
    pygame.display.init()
    pygame.display.set_mode(size)

    def bare_window() -> None:
        time.sleep(IDLE_SLEEP)
        pygame.event.get()

    figures["bare window"] = _cpu_share(bare_window, seconds, warm_up)

    app = _screen("menu", size)
    figures["main menu"] = _cpu_share(idle(app), seconds, warm_up)
    battle = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1)
    app = _screen("battle", size, match=battle)
    figures["battle, the player to move"] = _cpu_share(idle(app), seconds, warm_up)

    def every_frame() -> None:  # the loop before: events polled, everything drawn, 60 times a second
        app.clock.tick(FPS)
        app.step(pygame.event.get(), 1 / FPS)
        pygame.display.flip()

    figures["battle, redrawn 60 times a second"] = _cpu_share(every_frame, seconds, warm_up)
    with tempfile.TemporaryDirectory() as folder:
        result = run_game(load_scenario("b3_tangut_border"), 1, max_turns=2, save_dir=Path(folder))
        record = load_record(Path(result["save"]))
    app = _screen("replay", size, record=record)
    figures["replay viewer, paused"] = _cpu_share(idle(app), seconds, warm_up)
    pygame.display.quit()
    return figures


def table_rows(figures: dict[str, float], seconds: float) -> list[dict[str, str]]:
    floor, ceiling = figures["bare window"], figures["battle, redrawn 60 times a second"]
    rows = []
    for name in ("main menu", "battle, the player to move", "replay viewer, paused"):
        share = figures[name]
        rows.append(
            {
                "figure": f"idle CPU over {seconds:g} s: {name}",
                "measured": f"{share:.2f}% of a core",
                "baseline": f"bare window {floor:.2f}%; the battle redrawn every frame {ceiling:.1f}%",
                "ratio": f"{share / ceiling:.3f}× the redrawn battle" if ceiling > 0 else "–",
                "target": f"≤ {TARGET:g}% of a core",
            }
        )
    return rows


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.idle", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one second a screen (smoke test)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds each screen is left alone (10)")
    parser.add_argument("--warm-up", type=float, default=None, help="seconds a screen runs before it is timed (1)")
    parser.add_argument("--size", default="1280x800", help="window size WxH")
    args = parser.parse_args(argv)
    seconds = args.seconds or (1.0 if args.quick else 10.0)
    size = tuple(int(n) for n in args.size.lower().split("x"))
    warm_up = args.warm_up if args.warm_up is not None else (0.2 if args.quick else WARM_UP)
    figures = measure(seconds, size, warm_up)  # type: ignore[arg-type]
    rows = table_rows(figures, seconds)
    print(markdown_table(rows))
    where = "a real window (Xvfb)" if os.environ.get("DISPLAY") else "SDL's dummy video driver"
    print(f"\n({machine_note(None)}; {where}, {args.size})")
    return {"figures": figures, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
