"""The UI scale: one factor for the game's text, panels and buttons, read by the theme, the font
helper and every layout whose pixel sizes must grow with the text (``px``).

The scale is the profile's (``Profile.ui_scale``). It is read at draw time in hundreds of places,
so rather than passed to each it is kept in one ContextVar, ``UI_SCALE``, set from the profile as
the window starts and when the player chooses another scale (``App.set_ui_scale``); the test of
module-level state allows it by name."""

from __future__ import annotations

from contextvars import ContextVar

# The scales the settings offer, in per cent.
SCALE_CHOICES = (100, 125, 150, 175, 200)
# The screen height at which each 25% step of scale is earned: 1080 lines give 125%, 1440 give
# 150%, 2160 (4K) give 200%; below 1080, 100%.
LINES_PER_STEP = 864

# The window the 100% layout needs (the smallest window the game opens): a layout at p% needs
# p% of it, so a larger scale than the window holds is not used (the settings' Back button
# would fall off the screen).
BASE_WINDOW = (800, 560)

UI_SCALE: ContextVar[float] = ContextVar("ui_scale", default=1.0)


def ui_scale() -> float:
    """The current UI scale (1.0 for 100%)."""
    return UI_SCALE.get()


def set_ui_scale(percent: int) -> None:
    """Draw at ``percent`` from now on (the app calls it with its profile's scale)."""
    UI_SCALE.set(max(50, min(400, int(percent))) / 100.0)


def px(n: float) -> int:
    """``n`` pixels at 100%, at the current scale."""
    return round(n * UI_SCALE.get())


def default_scale(screen: tuple[int, int]) -> int:
    """The scale (per cent) that makes the HUD readable on a screen of this size: the largest
    choice the screen's height earns, and never one whose 100% layout would not fit."""
    w, h = screen
    fits = [p for p in SCALE_CHOICES if p <= 100 * h / LINES_PER_STEP and p <= 100 * w / 1536]
    return max(fits, default=SCALE_CHOICES[0])


def fitting(percent: int, window: tuple[int, int]) -> int:
    """``percent``, or the largest scale below it whose layout ``window`` holds."""
    w, h = window
    fits = [
        p for p in SCALE_CHOICES if p <= percent and w * 100 >= BASE_WINDOW[0] * p and h * 100 >= BASE_WINDOW[1] * p
    ]
    return max(fits, default=min(percent, SCALE_CHOICES[0]))
