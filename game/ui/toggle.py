"""What switches a panel or an overlay on and off: its button, or its key pressed alone."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton


def toggles(event: pygame.event.Event, button: object | None, key: int) -> bool:
    """Whether ``event`` presses ``button`` or ``key`` (without Ctrl or Alt, which mean other
    things)."""
    if event.type == pygame_gui.UI_BUTTON_PRESSED:
        return button is not None and event.ui_element is button
    return event.type == pygame.KEYDOWN and event.key == key and not event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT)


class Switch:
    """Something shown or hidden at a press of its button (which stays pressed while it is on)
    or of its key: pass every event to ``handle``, which is True when the event was the switch's."""

    def __init__(self, key: int) -> None:
        self.key = key
        self.on = False
        self.button: UIButton | None = None

    def toggle(self) -> None:
        self.on = not self.on
        self.mark()

    def mark(self) -> None:
        """Show the button pressed while the switch is on."""
        if self.button is not None:
            self.button.select() if self.on else self.button.unselect()

    def handle(self, event: pygame.event.Event) -> bool:
        if toggles(event, self.button, self.key):
            self.toggle()
            return True
        return False
