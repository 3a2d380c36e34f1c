"""One frame of a battle rendered headless to a PNG (the ``screenshot`` command)."""

from __future__ import annotations

import io
from pathlib import Path

import pygame

from ..record.match import Match
from ..record.saves import write_atomic
from .app import App
from .battle import BattleScene


def render_screenshot(match: Match, out: Path, size: tuple[int, int], view: str = "all") -> None:
    """Draw ``match`` as the battle screen shows it (through ``view``'s eyes, or everything)
    and write it to the PNG ``out`` (through a temporary file, so a failed write leaves an
    earlier picture whole; OSError says why it could not be written)."""
    app = App(size)
    try:
        scene = BattleScene(app, match, show_handover=False, view_side=view)
        app.switch(scene)
        app.step([], 0.0)
        png = io.BytesIO()
        pygame.image.save(app.screen, png, "shot.png")
    finally:
        # Only the display: quitting pygame would invalidate the cached fonts of later renders
        # in the same process.
        pygame.display.quit()
    write_atomic(out, png.getvalue())  # checked, then renamed over the old one
