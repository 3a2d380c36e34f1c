"""The window and the frame loop; scenes do the rest."""

from __future__ import annotations

import os

import pygame

from .. import i18n
from .scene import Scene

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (800, 560)
FPS = 60


class App:
    def __init__(self, size: tuple[int, int] = DEFAULT_SIZE, title: str = "Qiankun 乾坤") -> None:
        os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
        # Only what the game uses: initialising audio would fail noisily on machines without it.
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.size = self.screen.get_size()
        self.clock = pygame.time.Clock()
        self.scene: Scene | None = None
        self.running = True

    def switch(self, scene: Scene) -> None:
        self.scene = scene

    def quit(self) -> None:
        self.running = False

    def step(self, events: list[pygame.event.Event], dt: float) -> None:
        """One frame: events, update, draw. Tests call this directly."""
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type == pygame.VIDEORESIZE:
                w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
                self.size = (w, h)
                if self.screen.get_size() != self.size:
                    self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                if self.scene is not None:
                    self.scene.resize(self.size)
                continue
            if self.scene is not None:
                self.scene.process(event)
        if self.scene is not None:
            self.scene.tick(dt)
            self.scene.render(self.screen)

    def run(self) -> None:
        while self.running:
            dt = self.clock.tick(FPS) / 1000.0
            self.step(pygame.event.get(), dt)
            pygame.display.flip()
        pygame.quit()


def start(lang: str | None = None) -> None:
    """Open the window on the main menu."""
    from .menu import MenuScene

    i18n.set_language(lang or i18n.detect_language())
    app = App()
    app.switch(MenuScene(app))
    app.run()
