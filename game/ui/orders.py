"""The orders bar along the bottom of the battle screen: the selected formation's orders that
are not a click on the map (forced march, capture souls, rest, palm thunder) and Undo.

Each button mirrors a key, shown in its tooltip, so the bar teaches the shortcuts.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..core.engine import REST_FATIGUE, REST_MORALE, Engine
from ..core.souls import capture_capacity, capture_preview
from ..core.state import Formation
from ..i18n import N_, _, format_men, ngettext
from .scale import px

BUTTON_W = 128
BUTTON_H = 38
GAP = 8
# The End turn button's corner of the bottom row.
END_TURN_ROOM = 190


@dataclass(frozen=True)
class Order:
    id: str
    label: str  # msgid
    tip: str  # msgid
    key: int


ORDERS: tuple[Order, ...] = (
    Order(
        "forced",
        N_("Forced march"),
        N_("F: march half as far again this turn, at a heavy cost in fatigue (retainers tire twice as fast)"),
        pygame.K_f,
    ),
    Order(
        "capture",
        N_("Capture souls"),
        N_("C: bag the enemy souls on this hex and around it, and any routed soul formation next to it"),
        pygame.K_c,
    ),
    Order("rest", N_("Rest"), N_("R: spend the turn resting: fatigue falls and morale rises"), pygame.K_r),
    Order(
        "thunder",
        N_("Palm thunder"),
        N_("T: throw palm thunder at a hex in range; it and its neighbours are struck"),
        pygame.K_t,
    ),
    Order("undo", N_("Undo"), N_("U or Ctrl+Z: take back the last move if it revealed nothing"), pygame.K_u),
)

KEYS = {o.key: o.id for o in ORDERS}


class OrdersBar:
    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        self.buttons: dict[str, UIButton] = {}
        # Narrower buttons in a narrow window, so the bar never runs under End turn.
        self.button_w = max(px(100), min(px(BUTTON_W), (size[0] - 12 - px(END_TURN_ROOM)) // len(ORDERS) - px(GAP)))
        x = 12
        y = size[1] - px(BUTTON_H) - 14
        for order in ORDERS:
            button = UIButton(
                pygame.Rect(x, y, self.button_w, px(BUTTON_H)), _(order.label), manager, tool_tip_text=_(order.tip)
            )
            self.buttons[order.id] = button
            x += self.button_w + px(GAP)
        self.rect = pygame.Rect(6, y - 6, x, px(BUTTON_H) + 12)

    def order_of(self, element: object) -> str | None:
        for order_id, button in self.buttons.items():
            if button is element:
                return order_id
        return None

    def covers(self, pos: tuple[int, int]) -> bool:
        return any(b.visible and b.rect.collidepoint(pos) for b in self.buttons.values())

    def refresh(self, engine: Engine, f: Formation | None, forced: bool, can_undo: bool, active: bool) -> None:
        """Show the orders the selected formation may give now; Undo whenever a move can be taken back."""
        available = {
            "forced": f is not None and engine.can_move(f),
            "capture": f is not None and engine.can_capture(f),
            "rest": f is not None and engine.can_act(f) and not f.moved,
            "thunder": f is not None and engine.can_act(f) and f.charges > 0,
            "undo": can_undo,
        }
        # What the formation's kind can ever order is shown, greyed while it cannot now; each
        # order keeps its own place on the bar, so a button never moves under the pointer.
        shown = {
            "forced": f is not None,
            "capture": f is not None and engine.rules.units[f.type].capture_rate > 0,
            "rest": f is not None,
            "thunder": f is not None and engine.rules.units[f.type].area_charges > 0,
            "undo": f is not None or can_undo,
        }
        self._preview(engine, f)
        for order_id, button in self.buttons.items():
            if active and shown[order_id]:
                button.show()
                button.enable() if available[order_id] else button.disable()
            else:
                button.hide()
        # The forced-march toggle stays lit while it is on.
        forced_button = self.buttons["forced"]
        if forced and not forced_button.is_selected:
            forced_button.select()
        elif not forced and forced_button.is_selected:
            forced_button.unselect()

    def _preview(self, engine: Engine, f: Formation | None) -> None:
        """What capture and rest would do now, in their tooltips, before they are given."""
        if f is None:
            return
        if engine.can_capture(f):
            self.buttons["capture"].set_tooltip(capture_tip(engine, f))
        if engine.can_act(f) and not f.moved:
            tip = _("R: rest instead of acting: fatigue {fatigue} → {after}, morale +{morale}. It ends the turn.")
            after = max(0, f.fatigue - REST_FATIGUE)
            self.buttons["rest"].set_tooltip(tip.format(fatigue=f.fatigue, after=after, morale=REST_MORALE))


def capture_tip(engine: Engine, f: Formation) -> str:
    """What capture would bag now, as the capture itself counts it: a rout hemmed in on two
    sides goes into the pouch at twice the rate, so the bag may be more than the capacity."""
    n, from_hemmed = capture_preview(engine.state, engine.rules, f)
    cap = format_men(capture_capacity(engine.rules, f))
    if from_hemmed:
        return ngettext(
            "C: bag {n} soul now: {hemmed} of them from a rout hemmed in on two sides, which goes into the "
            "pouch at twice the rate of the {cap} this formation can carry. It ends the formation's turn.",
            "C: bag {n} souls now: {hemmed} of them from a rout hemmed in on two sides, which goes into the "
            "pouch at twice the rate of the {cap} this formation can carry. It ends the formation's turn.",
            n,
        ).format(n=format_men(n), hemmed=format_men(from_hemmed), cap=cap)
    return ngettext(
        "C: bag {n} soul now (of {cap} this formation can carry). It ends the formation's turn.",
        "C: bag {n} souls now (of {cap} this formation can carry). It ends the formation's turn.",
        n,
    ).format(n=format_men(n), cap=cap)
