"""The battle menu (Esc or the Menu button in a battle) and the question asked before progress
that has not been saved is thrown away."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..i18n import _
from ..record.errors import SaveError
from .dialog import DialogScene
from .fonts import font
from .hud import GOLD
from .pages import modal_panel
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App
    from .battle import BattleScene

WIDTH = 320
BUTTON_H = 40


class BattleMenuScene(Scene):
    """Resume, save, load, settings, help, leave: over the battle, which waits beneath."""

    overlay = True

    def __init__(self, app: App, battle: BattleScene) -> None:
        self.battle = battle
        super().__init__(app)

    def _entries(self) -> list[tuple[str, str]]:
        return [
            ("resume", _("Resume")),
            ("save", _("Save or load a game")),
            ("settings", _("Settings")),
            ("help", _("Help and keys")),
            ("menu", _("Quit to the main menu")),
            ("desktop", _("Quit the game")),
        ]

    def _box(self) -> pygame.Rect:
        w, h = self.app.size
        height = 24 + font(22, True).get_linesize() + 16 + len(self._entries()) * (px(BUTTON_H) + 8) + 16
        box = pygame.Rect(0, 0, min(px(WIDTH), w - 40), height)
        box.center = (w // 2, h // 2)
        return box

    def build(self) -> None:
        box = self._box()
        y = box.y + 24 + font(22, True).get_linesize() + 16
        self.buttons: dict[UIButton, str] = {}
        for key, label in self._entries():
            button = UIButton(pygame.Rect(box.x + 24, y, box.width - 48, px(BUTTON_H)), label, self.manager)
            self.buttons[button] = key
            y += px(BUTTON_H) + 8

    def choose(self, key: str) -> None:
        app = self.app
        if key == "resume":
            app.back()
        elif key == "save":
            app.swap("saves", battle=self.battle)
        elif key == "settings":
            app.open("settings")
        elif key == "help":
            app.open("help")
        elif key in ("menu", "desktop"):
            app.back()
            app.leave(key)

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.choose(self.buttons[event.ui_element])
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.choose("resume")
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.choose("help")

    def draw(self, surface: pygame.Surface) -> None:
        box = self._box()
        modal_panel(surface, box, shade_alpha=140)
        title = font(22, True).render(_("Battle menu"), True, GOLD)
        surface.blit(title, (box.centerx - title.get_width() // 2, box.y + 20))


def confirm_quit(app: App, to: str) -> DialogScene:
    """The question before leaving a battle that has moves not yet saved."""

    def go() -> None:
        if to == "menu":
            app.home()
        else:
            app.quit()

    def save_and_go() -> None:
        try:
            for scene in app.stack:
                scene.save_progress()
        except SaveError as exc:
            app.open("dialog", title=_("The game could not be saved"), text=str(exc), choices=[(_("Back"), None)])
            return
        go()

    dialog = DialogScene(
        app,
        _("Leave the battle?"),
        _("Moves made since the game was last saved will be lost."),
        [
            (_("Save, then leave"), save_and_go),
            (_("Leave without saving"), go),
            (_("Stay"), None),
        ],
    )
    dialog.asks_to_leave = True
    return dialog
