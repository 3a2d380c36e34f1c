"""What each key and button of the battle screen does: the battle screen hands them here, and
each one becomes a call on the screen (an order to its session, a screen opened over it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from ..i18n import _
from .orders import KEYS as ORDER_KEYS

if TYPE_CHECKING:
    from .battle import BattleScene


def read_more(scene: BattleScene, pos: tuple[int, int]) -> bool:
    """A click on a card that stays, or on a row of the legend, opens what explains it (the
    encyclopedia's entry, the help's page) over the battle."""
    entry = scene.panels.card_panel.entry_at(pos)
    if entry is not None:
        scene.app.open("encyclopedia", entry=entry)
        return True
    more = scene.panels.legend.more_at(pos)
    if more is not None:
        route, at = more
        scene.app.open(route, **({"entry": at} if route == "encyclopedia" else {"page": at}))
        return True
    return False


def press(scene: BattleScene, element: object) -> None:
    """A button of the battle screen pressed."""
    panels = scene.panels
    if element is panels.end_turn_button:
        scene.end_turn()
    elif element is panels.menu_button:
        scene.open_menu()
    elif element is panels.hud.confirm_button:
        scene.confirm_attack()
    elif element is panels.hud.cancel_button:
        scene.cancel()
    elif (order := panels.orders.order_of(element)) is not None:
        scene.give_order(order)
    elif (order := panels.hud.skills.order_of(element)) is not None:
        scene.hero_order(order)
    elif element is panels.objectives.button:
        panels.toggle_objectives()
    elif scene.tutorial is not None and element is scene.tutorial.home_button:
        scene.app.home()


def key_down(scene: BattleScene, event: pygame.event.Event) -> None:
    """A key pressed over the battle (the map's keys, the orders' and the screen's)."""
    key = event.key
    if scene.map.zoom_key(key):  # + and −
        return
    if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
        if scene.session.choice.pending_attack is not None:
            scene.confirm_attack()
        elif event.mod & pygame.KMOD_SHIFT or key == pygame.K_KP_ENTER:
            scene.end_turn()
    elif key == pygame.K_e:
        scene.end_turn()
    elif key == pygame.K_ESCAPE and scene.computer.to_move() and not scene.computer.shown_fast():
        scene.computer.skip_this_turn()
        scene.say(_("Computer moves: the rest of this turn is not shown"))
    elif key == pygame.K_ESCAPE and scene.session.choice.has_choice_to_cancel():
        scene.cancel()
    elif key == pygame.K_ESCAPE:
        scene.open_menu()
    elif key == pygame.K_F1:
        scene.app.open("help")
    elif key == pygame.K_F2:
        scene.app.open("saves", battle=scene)  # Back returns here
    elif key == pygame.K_F5:
        scene.saves.quicksave()
    elif key == pygame.K_F9:
        scene.saves.quickload()
    elif key == pygame.K_SPACE:
        scene.computer.toggle_fast()
        scene.say(_("Computer moves: fast") if scene.computer.fast else _("Computer moves: shown one by one"))
    elif key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
        scene.give_order("undo")
    elif key in ORDER_KEYS:
        scene.give_order(ORDER_KEYS[key])
    elif key == pygame.K_TAB:
        scene._select_next()
    elif key == pygame.K_o:
        scene.panels.toggle_objectives()
    elif key == pygame.K_p:
        scene.show_places = not scene.show_places
