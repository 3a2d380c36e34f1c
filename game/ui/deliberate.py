"""A deliberate act on a screen that guards a secret (the hotseat curtain): a press that counts
only when it was begun and finished on purpose after the screen appeared.

Input queued before the screen opened, the second click of a double-click, a key held down
since before or a key's auto-repeat must not pass it. So the screen ignores everything for
``ARM_MS`` after it opens, and then needs a fresh press *and* its release: a key pressed down
after that (not one already held) and let go, or a mouse button pressed down and let go.
Times are the events' own (``timestamp``, in pygame ticks) where they carry one, else the
moment they are handled.
"""

from __future__ import annotations

from collections.abc import Iterable

import pygame
import pygame_gui

# How long after it opens a curtain ignores all input: longer than a double-click's two
# presses or a key's first repeat, short enough not to be noticed by someone who means it.
ARM_MS = 600


def event_time(event: pygame.event.Event) -> int:
    """When ``event`` happened, in pygame ticks."""
    stamp = event.dict.get("timestamp")
    return int(stamp) if isinstance(stamp, (int, float)) else pygame.time.get_ticks()


class DeliberateAct:
    """Reads a screen's input and says which of its ``keys`` or buttons was deliberately used.

    ``feed`` takes every event the screen gets and returns the key (a pygame key code) or the
    pygame_gui button (the ``ui_element``) that was deliberately pressed, else None."""

    def __init__(self, opened_at: int, held: Iterable[int] = ()) -> None:
        self.opened_at = opened_at
        self.armed_at = opened_at + ARM_MS
        # Keys down now (from before the screen opened, or pressed since): their repeats and
        # their releases are no fresh press.
        self.held: set[int] = set(held)
        # The key pressed down deliberately, waiting for its release.
        self.key_down: int | None = None
        # Whether the left button went down after the screen was armed (a button press counts
        # only then: pygame_gui reports it on the release).
        self.mouse_down = False

    @classmethod
    def opening_now(cls) -> DeliberateAct:
        """For a screen opening now: the keys held down at this moment count as held."""
        pressed = pygame.key.get_pressed() if pygame.display.get_init() else None
        held = [] if pressed is None else [k for k in range(len(pressed)) if pressed[k]]
        return cls(pygame.time.get_ticks(), held)

    def armed(self, event: pygame.event.Event) -> bool:
        return event_time(event) >= self.armed_at

    def feed(self, event: pygame.event.Event, keys: Iterable[int]) -> int | object | None:
        if event.type == pygame.KEYDOWN:
            repeat = event.key in self.held
            self.held.add(event.key)
            if not repeat and self.armed(event) and event.key in set(keys) and self.key_down is None:
                self.key_down = event.key
            return None
        if event.type == pygame.KEYUP:
            self.held.discard(event.key)
            if self.key_down == event.key:
                self.key_down = None
                return event.key if self.armed(event) else None
            return None
        if event.type == pygame.MOUSEBUTTONDOWN and event.dict.get("button") == 1:
            self.mouse_down = self.armed(event)
            return None
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            pressed, self.mouse_down = self.mouse_down, False
            return event.ui_element if pressed else None  # reported after the release: its time is later
        return None
