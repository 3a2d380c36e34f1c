"""The window, the frame loop and the navigation between screens.

Navigation is the app's: a scene asks for a route by name (``routes.ROUTES``) and never builds
another scene. The screens form a stack: ``go`` starts afresh on a route, ``open`` shows a route
over the current screen (the save screen, the battle menu, a hand-over, a dialog) and ``back``
returns to the screen beneath."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from .. import i18n
from ..profile import Profile
from ..record.saves_folder import SavesFolder
from . import scale
from .audio import Audio
from .scene import Manager, Scene
from .theme import theme

DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (800, 560)
# What the desktop keeps for itself around a window: its bars and the window's title bar.
DESKTOP_MARGIN = (64, 120)
# Set (to anything) by the first-frame benchmark: the game closes once the first frame is shown.
EXIT_AFTER_FIRST_FRAME = "QIANKUN_EXIT_AFTER_FIRST_FRAME"
FPS = 60
# While nothing moves the loop sleeps this long between looks at the event queue (input is
# answered within it, unnoticed) and draws nothing unless something changed. (pygame's own
# wait for an event polls the queue every millisecond: a few per cent of a core for nothing.)
IDLE_SLEEP = 1 / 30
# The longest step a frame advances timers by (after a sleep, or a stall of the machine).
MAX_DT = 0.1


def desktop_size() -> tuple[int, int]:
    """The size of the screen the window opens on (the first one); SDL's dummy driver reports
    one too. Needs the display initialised."""
    sizes = pygame.display.get_desktop_sizes()
    return tuple(sizes[0]) if sizes else DEFAULT_SIZE  # type: ignore[return-value]


def opening_size(desktop: tuple[int, int]) -> tuple[int, int]:
    """The window's first size on a desktop of this size: all of it but room for the desktop's
    bars and the title bar, and never below the smallest size the screens are laid out for."""
    return (
        max(MIN_SIZE[0], desktop[0] - DESKTOP_MARGIN[0]),
        max(MIN_SIZE[1], desktop[1] - DESKTOP_MARGIN[1]),
    )


class App:
    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        title: str = "Qiankun 乾坤",
        routes: dict[str, Callable[..., Scene]] | None = None,
        fullscreen: bool = False,
        audio: Audio | None = None,
        saves: SavesFolder | None = None,
        profile: Profile | None = None,
    ) -> None:
        os.environ.setdefault("SDL_VIDEO_CENTERED", "1")
        # Only what the game uses: initialising audio would fail noisily on machines without it.
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(title)
        # The window's size while not full screen (restored on leaving full screen).
        self.windowed_size = size
        self.fullscreen = fullscreen
        self.screen = self._set_mode()
        self.size = self.screen.get_size()
        self.exit_after_first_frame = bool(os.environ.get(EXIT_AFTER_FIRST_FRAME))
        self.clock = pygame.time.Clock()
        # Sound (silent unless given one: ``start`` opens the device; tests need none).
        self.audio = audio or Audio(mixer=None)
        # The player's saves folder, settings, language and scale, made at start (``start``); a
        # window opened without one (tests, benchmarks) reads the settings as a start would and
        # keeps the language and scale in use.
        if profile is None:
            profile = Profile.load().with_language(i18n.language()).with_scale(round(scale.ui_scale() * 100))
        self.profile = profile
        scale.set_ui_scale(scale.fitting(profile.ui_scale, self.size))  # no larger than the window holds
        # Where games are saved and loaded (the one door for saving: screens ask it).
        self.saves = saves or self.profile.saves_folder()
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
        self._tell_story()
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
        self._tell_story()
        if scene.stale(self.size):
            scene.resize(self.size)

    def _show(self, route: str, kwargs: dict[str, Any], drop: int) -> Scene:
        """Build the scene first (a scene that cannot open raises and nothing changes), then
        drop the ``drop`` top screens and show it."""
        scene = self.routes[route](self, **kwargs)
        for _ in range(drop):
            self.stack.pop().on_leave()
        self.stack.append(scene)
        self._tell_story()
        if scene.music is not None:
            self.audio.music(scene.music)
        scene.on_enter()
        return scene

    def _tell_story(self) -> None:
        """Names in the script of the story on screen: the topmost scene that tells one (none:
        the reader's own script). Scenes built for another script are built again on drawing."""
        teller = next((s for s in reversed(self.stack) if s.tells_story), None)
        if teller is not None:
            teller.tell_story()
        else:
            i18n.set_story_script(None)

    def unsaved(self) -> bool:
        return any(scene.unsaved() for scene in self.stack)

    def leave(self, to: str = "desktop") -> None:
        """Go to the main menu (``to="menu"``) or close the game, asking first when that would
        throw away progress not yet saved (asked again while asking, it goes)."""
        if self.unsaved() and not (self.scene is not None and self.scene.asks_to_leave):
            self.open("confirm_quit", to=to)
        elif to == "menu":
            self.home()
        else:
            self.quit()

    def quit(self) -> None:
        self.running = False

    # -- the window ---------------------------------------------------------------------------

    def _set_mode(self) -> pygame.Surface:
        if self.fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)

    def set_fullscreen(self, on: bool) -> None:
        """Fill the screen, or go back to a window of the size it had; every screen is laid out
        again for the new size."""
        if on == self.fullscreen:
            return
        if on:
            self.windowed_size = self.size
        self.fullscreen = on
        self.screen = self._set_mode()
        self._relayout(self.screen.get_size())

    def toggle_fullscreen(self) -> None:
        """F11: full screen or back, remembered for the next start."""
        self.set_fullscreen(not self.fullscreen)
        self.remember(fullscreen=self.fullscreen)

    def set_language(self, lang: str) -> None:
        """Text in ``lang`` from now on (the screens shown are built again by whoever asked)."""
        self.profile = self.profile.with_language(lang)
        i18n.set_language(lang)

    def use_profile(self, profile: Profile) -> None:
        """Play with another profile from now on: its saves folder, settings, language and scale."""
        self.profile = profile
        self.saves = profile.saves_folder()
        use_language(profile)
        self.set_ui_scale(profile.ui_scale)

    def update_settings(self, **changes: object) -> None:
        """Write some settings and keep them in the profile (OSError and ValidationError escape:
        the caller says it could not)."""
        self.profile = self.profile.update_settings(**changes)

    def store_settings(self, **changes: object) -> str | None:
        """Write some settings as ``update_settings`` does; when the file cannot be written, the
        sentence that tells the player so (None when it was written)."""
        try:
            self.update_settings(**changes)
        except OSError as exc:
            return i18n._("The settings could not be saved: {reason}").format(reason=exc.strerror or exc)
        return None

    def remember(self, **changes: object) -> None:
        """Write a window setting changed by a key; a settings file that cannot be written only
        means the next start does not remember it."""
        with contextlib.suppress(OSError):
            self.update_settings(**changes)

    def set_ui_scale(self, percent: int) -> None:
        """Text, panels and buttons at ``percent``: every screen's widgets built anew with the
        theme at that scale."""
        self.profile = self.profile.with_scale(percent)
        self._rescale()

    def _rescale(self) -> None:
        """The profile's scale, or as much of it as the window holds, with every screen's
        widgets built anew at it."""
        scale.set_ui_scale(scale.fitting(self.profile.ui_scale, self.size))
        for scene in self.stack:
            scene.manager = Manager(self.size, theme(i18n.language()))
        self._relayout(self.size, force=True)

    def _scale_fits(self) -> bool:
        """Whether the scale in use is the one the window holds now (else ``_rescale``)."""
        return round(scale.ui_scale() * 100) == scale.fitting(self.profile.ui_scale, self.size)

    def _relayout(self, size: tuple[int, int], force: bool = False) -> None:
        self.size = size
        if not force and not self._scale_fits():
            self._rescale()
            return
        for scene in self.stack:
            if force or scene.stale(size):
                scene.resize(size)

    # -- frames -------------------------------------------------------------------------------

    def step(self, events: list[pygame.event.Event], dt: float, draw: bool = True) -> None:
        """One frame: events, update, and (unless ``draw`` is False) drawing. Tests call this."""
        for event in events:
            if event.type == pygame.QUIT:
                self.leave()
                continue
            if event.type == pygame.VIDEORESIZE:
                if self.fullscreen:  # the screen's size is the screen's: a late event says nothing
                    self._relayout(self.screen.get_size())
                    continue
                w, h = max(MIN_SIZE[0], event.w), max(MIN_SIZE[1], event.h)
                self.size = self.windowed_size = (w, h)
                if self.screen.get_size() != self.size:
                    self.screen = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                if not self._scale_fits():
                    self._rescale()  # a window too small for the scale chosen uses what it holds
                elif self.scene is not None:
                    self.scene.resize(self.size)
                continue
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
                continue
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                self.audio.play("click")
            if self.scene is not None:
                self.scene.process(event)
        scene = self.scene
        if scene is not None:
            scene.tick(dt)
        self.audio.update()
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
            if self.exit_after_first_frame:
                self.quit()

    def run(self) -> None:
        while self.running:
            self.frame()
        pygame.quit()


def start(lang: str | None = None, route: str = "menu", **kwargs: Any) -> None:
    """Open the window on ``route`` (the main menu unless the command line asked for a battle or a
    replay), in the language asked for, else the one the player chose last time, else the
    system's."""
    profile = apply_user_settings(lang)
    pygame.display.init()
    desktop = desktop_size()
    profile = profile.with_scale(profile.settings.ui_scale or scale.default_scale(desktop))
    scale.set_ui_scale(profile.ui_scale)
    app = App(
        opening_size(desktop),
        fullscreen=profile.settings.fullscreen,
        audio=Audio.start(profile.settings),
        profile=profile,
    )
    app.go(route, **kwargs)
    app.run()


def apply_user_settings(lang: str | None = None) -> Profile:
    """The profile at start: the saves folder, the settings kept there (a damaged file gives the
    defaults and one warning), the language (``lang`` if given, else the saved choice, else the
    system's) and the names' script put to use (the window's settings are applied as it opens)."""
    profile = Profile.load(lang, warn=True)
    use_language(profile)
    return profile


def use_language(profile: Profile) -> None:
    """The profile's language and names' script, for every text drawn from now on."""
    i18n.set_language(profile.language)
    i18n.set_names_follow_story(profile.settings.names_follow_story)
