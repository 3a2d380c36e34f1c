"""The scene interface the app drives: handle events, update, draw."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core.interfaces import IUITooltipInterface
from pygame_gui.elements import UITooltip

from .. import i18n
from ..content.campaigns import story_name_forms
from .theme import theme

if TYPE_CHECKING:
    from .app import App


def asks_back(event: pygame.event.Event, back_button: object | None) -> bool:
    """Whether ``event`` asks a screen to go back: Esc, or its Back button pressed."""
    if event.type == pygame.KEYDOWN:
        return bool(event.key == pygame.K_ESCAPE)
    return event.type == pygame_gui.UI_BUTTON_PRESSED and back_button is not None and event.ui_element is back_button


class Manager(pygame_gui.UIManager):
    """pygame_gui's manager with tooltips that wrap Chinese as Chinese wraps: between any two
    characters, never with an added hyphen (the library hyphenates a line with no spaces)."""

    def create_tool_tip(self, *args: Any, **kwargs: Any) -> IUITooltipInterface:
        tip = super().create_tool_tip(*args, **kwargs)
        if isinstance(tip, UITooltip) and (box := tip.text_block) is not None and box.allow_split_dashes:
            box.allow_split_dashes = False
            box.rebuild()
            tip.rect_width = box.rect.size[0]
            tip.set_dimensions(box.rect.size)
        return tip


class Scene:
    """A screen with its own widget manager; widgets vanish with the scene.

    Scenes never build each other: they ask the app for a route (``app.go``, ``app.open``,
    ``app.back``; see ``app.App``)."""

    # An overlay (a dialog, the battle menu) is drawn over the scene beneath it.
    overlay = False
    # The music the app plays when the scene is shown (None: whatever plays goes on).
    music: str | None = None
    # The question asked before leaving: closing the window while it shows really closes.
    asks_to_leave = False
    # Whether the scene belongs to a story whose names keep their own script (``story_script``);
    # a scene without one (the settings, a dialog) shows names as the scene beneath it does.
    tells_story = False

    def __init__(self, app: App) -> None:
        self.app = app
        self.built_size = app.size
        self.built_language = i18n.language()
        self.manager = Manager(app.size, theme(i18n.language()))
        if self.tells_story:
            self.tell_story()
        self.built_story = i18n.story_script()
        self.build()

    def story_script(self) -> str | None:
        """The script the names of this scene's story keep (a campaign's ``names``; None: the
        reader's own). Read once the scene's own data is set, before it is built."""
        return None

    def tell_story(self) -> None:
        """Show names in this scene's story script: the app calls it whenever the scene comes to
        the top (the one place the script is set)."""
        script = self.story_script()
        i18n.set_story_script(script, story_name_forms(script))

    # Scenes override these.
    def build(self) -> None:
        """Create the widgets for the current window size."""

    def on_enter(self) -> None:
        """Called once the app shows this scene for the first time; a scene may move on from
        here (the battle goes straight to a hand-over or its result)."""

    def on_reveal(self) -> None:
        """Called when the scene over this one has closed and this one is on top again."""

    def on_leave(self) -> None:
        """Called when the scene is dropped for good (not when another opens over it)."""

    def unsaved(self) -> bool:
        """Whether closing now would lose something the player has not saved."""
        return False

    def save_progress(self) -> None:
        """Save what ``unsaved`` says would be lost (SaveError escapes with the reason)."""

    def handle(self, event: pygame.event.Event) -> None:
        """React to one event (after pygame_gui has seen it)."""

    def update(self, dt: float) -> None:
        """Advance timers; ``dt`` in seconds."""

    def animating(self) -> bool:
        """Whether the screen changes by itself now (a computer's turn, a replay playing, marks
        fading): then frames run at full rate; else the app waits for input."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((20, 22, 26))

    # Shared plumbing.
    def stale(self, size: tuple[int, int]) -> bool:
        """Whether the widgets were built for another window size, language or story script."""
        return (
            self.built_size != size or self.built_language != i18n.language() or self.built_story != i18n.story_script()
        )

    def resize(self, size: tuple[int, int]) -> None:
        """Build the widgets again, for a new size or (with a new theme and font) language."""
        self.built_size = size
        self.built_story = i18n.story_script()
        if self.built_language != i18n.language():
            self.built_language = i18n.language()
            self.manager = Manager(size, theme(i18n.language()))
        else:
            self.manager.set_window_resolution(size)
            # Untyped in pygame_gui; called on our subclass, so the config's exclusion of pygame_gui misses it.
            self.manager.clear_and_reset()  # type: ignore[no-untyped-call]
        self.build()
        # Widgets take their looks at their first update; a scene under an overlay is not updated.
        self.manager.update(0.0)

    def process(self, event: pygame.event.Event) -> None:
        self.manager.process_events(event)
        self.handle(event)

    def tick(self, dt: float) -> None:
        self.update(dt)
        self.manager.update(dt)

    def render(self, surface: pygame.Surface) -> None:
        self.draw(surface)
        self.manager.draw_ui(surface)
