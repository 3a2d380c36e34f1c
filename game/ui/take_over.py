"""The replay viewer's "take over from here": a small window choosing who commands each side of
the new battle. The battle starts at once from the position shown (``record.take_over``): no
action is played again, so there is nothing to wait for."""

from __future__ import annotations

import pygame
from pygame_gui import UIManager
from pygame_gui.core import UIElement
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UIWindow

from .. import i18n
from ..content.scenarios import LoadedScenario
from ..i18n import _
from ..record.seats import Commander, Seats
from .scale import px


class TakeOverDialog:
    """The window: a row per side with its commander, "Start battle" and "Cancel"."""

    def __init__(self, manager: UIManager, size: tuple[int, int], loaded: LoadedScenario, seats: Seats) -> None:
        """``seats``: the commanders each side starts with (the record's)."""
        sides = loaded.scenario.sides
        dw, row = px(440), px(44)
        dh = px(116) + row * len(sides)
        w, h = size
        rect = pygame.Rect((w - dw) // 2, (h - dh) // 2, dw, dh)
        self.window = UIWindow(rect, manager, _("Take over from here"), resizable=False, always_on_top=True)
        self._menus: dict[str, UIDropDownMenu] = {}
        options: list[str | tuple[str, str]] = [_("Human"), _("Computer")]
        y = 10
        for s in sides:
            UILabel(pygame.Rect(12, y, dw - px(230), px(36)), i18n.name(s.name), manager, container=self.window)
            self._menus[s.id] = UIDropDownMenu(
                options,
                options[0] if seats.is_human(s.id) else options[1],
                pygame.Rect(dw - px(210), y, px(170), px(36)),
                manager,
                container=self.window,
            )
            y += row
        self.start = UIButton(
            pygame.Rect(12, y + 10, px(190), px(40)), _("Start battle"), manager, container=self.window
        )
        self.cancel = UIButton(
            pygame.Rect(dw - px(200), y + 10, px(160), px(40)), _("Cancel"), manager, container=self.window
        )

    def chosen(self) -> dict[str, Commander]:
        """Who commands each side, as the window shows it now."""
        return {sid: "human" if menu.selected_option[0] == _("Human") else "ai" for sid, menu in self._menus.items()}

    def pressed(self, element: UIElement) -> str | None:
        """ "start" or "cancel" for the window's buttons, else None."""
        return "start" if element is self.start else "cancel" if element is self.cancel else None

    def kill(self) -> None:
        self.window.kill()
