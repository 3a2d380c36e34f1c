"""The UI scale: one factor for the game's text, panels and buttons, read by the theme, the font
helper and every layout whose pixel sizes must grow with the text (``px``)."""

from __future__ import annotations

# The scales the settings offer, in per cent.
SCALE_CHOICES = (100, 125, 150, 175, 200)
# The screen height at which each 25% step of scale is earned: 1080 lines give 125%, 1440 give
# 150%, 2160 (4K) give 200%; below 1080, 100%.
LINES_PER_STEP = 864

_scale = 1.0


def ui_scale() -> float:
    """The current UI scale (1.0 for 100%)."""
    return _scale


def set_ui_scale(percent: int) -> None:
    global _scale
    _scale = max(50, min(400, int(percent))) / 100.0


def px(n: float) -> int:
    """``n`` pixels at 100%, at the current scale."""
    return round(n * _scale)


def default_scale(screen: tuple[int, int]) -> int:
    """The scale (per cent) that makes the HUD readable on a screen of this size: the largest
    choice the screen's height earns, and never one whose 100% layout would not fit."""
    w, h = screen
    fits = [p for p in SCALE_CHOICES if p <= 100 * h / LINES_PER_STEP and p <= 100 * w / 1536]
    return max(fits, default=SCALE_CHOICES[0])
