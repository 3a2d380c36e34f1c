"""What a battle frame costs at 1920x1080: drawn while the view pans at the arrow keys' pace (formations, place names,
the enemy reach and the unit panel shown), and while a march is animated.

    python -m bench.frame [--frames N] [--size WxH] [--quick]

Baseline, timed in the same run: one blit of a pre-rendered full-screen picture to the window,
the least a frame can cost. Targets (issue 15): a panning frame at most 3x that blit; while an
animation runs, at least 60 frames a second. Headless (SDL's dummy driver) unless DISPLAY is set.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from .common import machine_note, markdown_table


def _interleaved_ms(steps: dict[str, Callable[[int], None]], frames: int) -> dict[str, float]:
    """The median milliseconds of each step, the steps taken in turn frame by frame so that a
    busy moment on a shared machine weighs on all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in steps}
    for i in range(frames):
        for name, step in steps.items():
            start = time.perf_counter()
            step(i)
            times[name].append(time.perf_counter() - start)
    medians = {name: 1000 * statistics.median(t) for name, t in times.items()}
    means = {f"{name}_mean": 1000 * statistics.mean(t) for name, t in times.items()}
    return medians | means


def measure(frames: int, size: tuple[int, int]) -> dict[str, float]:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.core.actions import Move
    from game.record.match import new_match
    from game.ui.app import App
    from game.ui.battle import BattleScene
    from game.ui.map_view import PAN_SPEED

    app = App(size)
    match = new_match("a1_valley_mouth", {"coalition": "human", "hailing": "ai"}, seed=1)
    scene = app.go("battle", match=match)
    assert isinstance(scene, BattleScene)
    while app.scene is not scene:  # the briefing, if the settings show it
        app.back()
    scene.prefs = scene.prefs.model_copy(update={"own_speed": "slow", "hints": False})
    hero = next(f for f in scene.state.formations_of("coalition") if f.hero == "xiang_yu")
    scene.session.selected = hero.id
    scene._after_change([])
    scene.panels.threat_toggle.toggle()
    for _ in range(3):
        app.step([], 1 / 60)

    picture = pygame.Surface(size).convert()
    picture.fill((40, 60, 40))

    step = PAN_SPEED / 60  # the arrow keys' pace at 60 frames a second

    def blit(_i: int) -> None:
        app.screen.blit(picture, (0, 0))

    def pan(i: int) -> None:
        scene.camera.pan(step if i % 60 < 30 else -step, 0)
        app.render()

    figures = _interleaved_ms({"blit": blit, "pan": pan}, frames)
    # A march shown slowly: every frame advances the motion and draws it.
    reach = scene.match.engine.moves(hero.id).destinations
    far = max(reach, key=lambda h: len(scene.match.engine.moves(hero.id).path_to(h) or []))
    scene.submit(Move(unit=hero.id, to=far))
    animated = 0
    start = time.perf_counter()
    while scene.motion.active and animated < frames:
        app.step([], 1 / 240)  # a slow clock, so the march lasts for the frames timed
        animated += 1
    elapsed = time.perf_counter() - start
    figures["animated_fps"] = animated / elapsed if elapsed > 0 else 0.0
    figures["animated_frames"] = animated
    return figures


def table_rows(f: dict[str, float], size: str) -> list[dict[str, str]]:
    blit = f["blit"]
    return [
        {
            "figure": f"battle frame while panning, {size} (A1, unit panel and enemy reach shown)",
            "measured": f"{f['pan']:.2f} ms (mean {f['pan_mean']:.2f} ms)",
            "baseline": f"one full-screen blit {blit:.2f} ms",
            "ratio": f"{f['pan'] / blit:.1f}× (mean {f['pan_mean'] / f['blit_mean']:.1f}×)" if blit > 0 else "–",
            "target": "≤ 3× the blit",
        },
        {
            "figure": f"frames a second while a march is animated, {size} ({int(f['animated_frames'])} frames)",
            "measured": f"{f['animated_fps']:.0f} fps",
            "baseline": f"one full-screen blit {blit:.2f} ms",
            "ratio": "–",
            "target": "≥ 60 fps",
        },
    ]


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench.frame", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few frames (smoke test)")
    parser.add_argument("--frames", type=int, default=None, help="frames timed (default 240)")
    parser.add_argument("--size", default="1920x1080", help="window size WxH")
    args = parser.parse_args(argv)
    frames = args.frames or (10 if args.quick else 240)
    size = tuple(int(n) for n in args.size.lower().split("x"))
    figures = measure(frames, size)  # type: ignore[arg-type]
    rows = table_rows(figures, args.size)
    print(markdown_table(rows))
    where = "a real window (Xvfb)" if os.environ.get("DISPLAY") else "SDL's dummy video driver"
    print(f"\n({machine_note()}; {where}; medians of {frames} frames)")
    return {"figures": figures, "rows": rows}


if __name__ == "__main__":
    main(sys.argv[1:])
