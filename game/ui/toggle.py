"""What switches a panel or an overlay on and off: its button, or its key pressed alone."""

from __future__ import annotations

import pygame
import pygame_gui


def toggles(event: pygame.event.Event, button: object | None, key: int) -> bool:
    """Whether ``event`` presses ``button`` or ``key`` (without Ctrl or Alt, which mean other
    things)."""
    if event.type == pygame_gui.UI_BUTTON_PRESSED:
        return button is not None and event.ui_element is button
    return event.type == pygame.KEYDOWN and event.key == key and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT)
