"""The scene interface the app drives: handle events, update, draw."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from .. import i18n
from .theme import theme

if TYPE_CHECKING:
    from .app import App


class Scene:
    """A screen with its own widget manager; widgets vanish with the scene."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.manager = pygame_gui.UIManager(app.size, theme(i18n.language()))
        self.build()

    # Scenes override these.
    def build(self) -> None:
        """Create the widgets for the current window size."""

    def handle(self, event: pygame.event.Event) -> None:
        """React to one event (after pygame_gui has seen it)."""

    def update(self, dt: float) -> None:
        """Advance timers; ``dt`` in seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((20, 22, 26))

    # Shared plumbing.
    def resize(self, size: tuple[int, int]) -> None:
        self.manager.set_window_resolution(size)
        self.manager.clear_and_reset()
        self.build()

    def process(self, event: pygame.event.Event) -> None:
        self.manager.process_events(event)
        self.handle(event)

    def tick(self, dt: float) -> None:
        self.update(dt)
        self.manager.update(dt)

    def render(self, surface: pygame.Surface) -> None:
        self.draw(surface)
        self.manager.draw_ui(surface)
