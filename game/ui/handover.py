"""Hotseat hand-over: the board is hidden until the next player says they are at the screen."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UILabel

from ..i18n import _
from .scene import Scene


class HandoverScene(Scene):
    def __init__(self, app, battle, side_id: str) -> None:
        self.battle = battle
        self.side_id = side_id
        super().__init__(app)

    def build(self) -> None:
        w, h = self.app.size
        name = self.battle.hud.side_name(self.side_id)
        UILabel(pygame.Rect(0, h // 2 - 128, w, 86), name, self.manager, object_id="#title")
        UILabel(
            pygame.Rect(0, h // 2 - 40, w, 34),
            _("Pass the screen to the commander of this side."),
            self.manager,
            object_id="#subtitle",
        )
        self.ready = UIButton(
            pygame.Rect(w // 2 - 140, h // 2 + 20, 280, 52),
            _("I am ready"),
            self.manager,
            object_id="#big_button",
        )

    def handle(self, event: pygame.event.Event) -> None:
        pressed = event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.ready
        key = event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_SPACE)
        if pressed or key:
            self.battle.resize(self.app.size)
            self.app.switch(self.battle)

    def draw(self, surface: pygame.Surface) -> None:
        # Nothing of the battle: no map, no units, no numbers.
        surface.fill((16, 17, 20))
        faction = self.battle.rules.factions[self.battle.state.side(self.side_id).faction]
        w, h = surface.get_size()
        pygame.draw.rect(
            surface,
            faction.colour,
            pygame.Rect(w // 2 - 60, h // 2 - 200, 120, 60),
            border_radius=6,
        )
