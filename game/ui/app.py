"""The window, the frame loop and the navigation between screens.

Navigation is the app's: a scene asks for a route by name (``routes.ROUTES``) and never builds
another scene. The screens form a stack: ``go`` starts afresh on a route, ``open`` shows a route
over the current screen (the save screen, the battle menu, a hand-over, a dialog) and ``back``
returns to the screen beneath."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from .. import i18n
from .audio import Audio
from .scene import Scene

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (800, 560)
FPS = 60
# While nothing moves the loop sleeps this long between looks at the event queue (input is
# answered within it, unnoticed) and draws nothing unless something changed. (pygame's own
# wait for an event polls the queue every millisecond: a few per cent of a core for nothing.)
IDLE_SLEEP = 1 / 30
# The longest step a frame advances timers by (after a sleep, or a stall of the machine).
MAX_DT = 0.1


class App:
    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        title: str = "Qiankun 乾坤",
        routes: dict[str, Callable[..., Scene]] | None = None,
        audio: Audio | None = None,
    ) -> None:
        os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
        # Only what the game uses: initialising audio would fail noisily on machines without it.
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.size = self.screen.get_size()
        self.clock = pygame.time.Clock()
        # Sound (silent unless given one: ``start`` opens the device; tests need none).
        self.audio = audio or Audio(mixer=None)
        if routes is None:
            from .routes import ROUTES  # the scenes, which know the app only by its interface

            routes = ROUTES
        self.routes = routes
        # The screens, the one shown last; those beneath are where ``back`` returns.
        self.stack: list[Scene] = []
        self.running = True
        self._widget_count = 0

    @property
    def scene(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    # -- navigation ---------------------------------------------------------------------------

    def go(self, route: str, **kwargs: Any) -> Scene:
        """Show ``route`` on its own: every screen shown before is dropped."""
        return self._show(route, kwargs, drop=len(self.stack))

    def open(self, route: str, **kwargs: Any) -> Scene:
        """Show ``route`` over the current screen; ``back`` returns to it."""
        return self._show(route, kwargs, drop=0)

    def swap(self, route: str, **kwargs: Any) -> Scene:
        """Show ``route`` in place of the current screen, above the same screens."""
        return self._show(route, kwargs, drop=min(1, len(self.stack)))

    def back(self) -> None:
        """Close the current screen and return to the one beneath (the main menu if none)."""
        if len(self.stack) <= 1:
            self.go("menu")
            return
        self.stack.pop().on_leave()
        top = self.stack[-1]
        if top.stale(self.size):
            top.resize(self.size)
        top.on_reveal()

    def home(self) -> None:
        self.go("menu")

    def switch(self, scene: Scene) -> None:
        """Put an already built scene in place of the current one (tests build scenes by hand)."""
        if self.stack:
            self.stack[-1] = scene
        else:
            self.stack.append(scene)
        if scene.stale(self.size):
            scene.resize(self.size)

    def _show(self, route: str, kwargs: dict[str, Any], drop: int) -> Scene:
        """Build the scene first (a scene that cannot open raises and nothing changes), then
        drop the ``drop`` top screens and show it."""
        scene = self.routes[route](self, **kwargs)
        for _ in range(drop):
            self.stack.pop().on_leave()
        self.stack.append(scene)
        scene.on_enter()
        return scene

    def unsaved(self) -> bool:
        return any(scene.unsaved() for scene in self.stack)

    def leave(self, to: str = "desktop") -> None:
        """Go to the main menu (``to="menu"``) or close the game, asking first when that would
        throw away progress not yet saved (asked again while asking, it goes)."""
        if self.unsaved() and not getattr(self.scene, "asks_to_leave", False):
            self.open("confirm_quit", to=to)
        elif to == "menu":
            self.home()
        else:
            self.quit()

    def quit(self) -> None:
        self.running = False

    # -- frames -------------------------------------------------------------------------------

    def step(self, events: list[pygame.event.Event], dt: float, draw: bool = True) -> None:
        """One frame: events, update, and (unless ``draw`` is False) drawing. Tests call this."""
        for event in events:
            if event.type == pygame.QUIT:
                self.leave()
                continue
            if event.type == pygame.VIDEORESIZE:
                w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
                self.size = (w, h)
                if self.screen.get_size() != self.size:
                    self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                if self.scene is not None:
                    self.scene.resize(self.size)
                continue
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                self.audio.play("click")
            if self.scene is not None:
                self.scene.process(event)
        scene = self.scene
        if scene is not None:
            scene.tick(dt)
        if draw:
            self.render()

    def render(self) -> None:
        """The top screen, over the screens beneath it while it is an overlay."""
        first = len(self.stack) - 1
        while first > 0 and self.stack[first].overlay:
            first -= 1
        for scene in self.stack[max(first, 0) :]:
            if scene.stale(self.size):
                scene.resize(self.size)
            scene.render(self.screen)

    def animating(self) -> bool:
        return self.scene is not None and self.scene.animating()

    def next_events(self) -> tuple[list[pygame.event.Event], float]:
        """The input of the next frame and the seconds it advances by: 60 frames a second while
        the screen animates; else after a short sleep (an idle game costs next to nothing)."""
        if self.animating():
            dt = self.clock.tick(FPS) / 1000.0
        else:
            time.sleep(IDLE_SLEEP)
            dt = self.clock.tick() / 1000.0
        return pygame.event.get(), min(dt, MAX_DT)

    def widgets_changed(self) -> bool:
        """Whether the widgets show something new without any input (a tooltip after a pause)."""
        count = len(self.scene.manager.get_sprite_group().sprites()) if self.scene is not None else 0
        changed, self._widget_count = count != self._widget_count, count
        return changed

    def frame(self) -> None:
        """One turn of the loop. A frame with nothing new is not drawn: the picture on screen is
        still right."""
        events, dt = self.next_events()
        draw = bool(events) or self.animating()
        self.step(events, dt, draw=False)
        if self.widgets_changed() or draw:
            self.render()
            pygame.display.flip()

    def run(self) -> None:
        while self.running:
            self.frame()
        pygame.quit()


def start(lang: str | None = None, route: str = "menu", **kwargs: Any) -> None:
    """Open the window on ``route`` (the main menu unless the command line asked for a battle or a
    replay), in the language asked for, else the one the player chose last time, else the
    system's."""
    from ..settings import load_settings

    apply_user_settings(lang)
    app = App(audio=Audio.start(load_settings()))
    app.go(route, **kwargs)
    app.run()


def apply_user_settings(lang: str | None = None) -> None:
    """The language (``lang`` if given, else the saved choice, else the system's) and the names'
    script from the settings file; a damaged file gives the defaults and one warning."""
    from ..settings import load_settings

    settings = load_settings(warn=True)
    i18n.set_language(lang or settings.language or i18n.detect_language())
    i18n.set_names_follow_story(settings.names_follow_story)
