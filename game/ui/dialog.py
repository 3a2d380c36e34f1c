"""A question over the current screen: a title, a few words and a row of answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from .fonts import font
from .hud import GOLD
from .pages import modal_panel, paragraph, paragraph_height
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from .app import App

# (label, what it does); the dialog is closed before the action runs.
Choice = tuple[str, Callable[[], None] | None]

WIDTH = 520
BUTTON_H = 40


class DialogScene(Scene):
    """Modal: the screen beneath is drawn dimmed and receives nothing until an answer is given.
    Esc gives the last answer (by convention the one that changes nothing)."""

    overlay = True

    def __init__(self, app: App, title: str, text: str, choices: Sequence[Choice]) -> None:
        self.title = title
        self.text = text
        self.choices = list(choices)
        super().__init__(app)

    def _box(self) -> pygame.Rect:
        w, h = self.app.size
        width = min(px(WIDTH), w - 40)
        text_h = paragraph_height(self.text, width - 48) if self.text else 0
        rows = len(self.choices)
        height = 24 + font(22, True).get_linesize() + 12 + text_h + 16 + rows * (px(BUTTON_H) + 8) + 16
        box = pygame.Rect(0, 0, width, height)
        box.center = (w // 2, h // 2)
        return box

    def build(self) -> None:
        box = self._box()
        y = box.bottom - 16 - len(self.choices) * (px(BUTTON_H) + 8) + 8
        self.buttons: list[UIButton] = []
        for label, _action in self.choices:
            self.buttons.append(UIButton(pygame.Rect(box.x + 24, y, box.width - 48, px(BUTTON_H)), label, self.manager))
            y += px(BUTTON_H) + 8

    def choose(self, index: int) -> None:
        action = self.choices[index][1]
        self.app.back()
        if action is not None:
            action()

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.choose(self.buttons.index(event.ui_element))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.choose(len(self.choices) - 1)
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.choose(0)

    def draw(self, surface: pygame.Surface) -> None:
        box = self._box()
        modal_panel(surface, box, shade_alpha=150)
        title = font(22, True)
        surface.blit(title.render(self.title, True, GOLD), (box.x + 24, box.y + 20))
        if self.text:
            paragraph(surface, self.text, box.x + 24, box.y + 24 + title.get_linesize() + 12, box.width - 48)
