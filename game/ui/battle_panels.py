"""The panels and buttons laid over the battle's map: the unit panel (HUD), the orders bar, End
turn and Menu, the view toggles (enemy reach, legend), the objectives, the unit list, the minimap
and the card of a formation looked at. They read the battle session; what a button means is the
battle screen's to forward."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..core.combat import Forecast
from ..core.hexgrid import Hex
from ..i18n import _
from ..session import BattleSession
from ..view.side_view import Fog
from .battle_log import BattleLog, log_area
from .camera import Camera
from .card_panel import CardPanel
from .geometry import MapGeometry
from .hud import PANEL_W, TOP_BAR_H, Hud
from .legend import Legend
from .minimap import Minimap
from .narration import ObjectivesPanel
from .orders import OrdersBar
from .scale import px
from .threat_overlay import ThreatToggle
from .unit_list import UnitList, roster

# The view toggles (enemy reach, legend) stand in a column above End turn, this far apart.
VIEW_BUTTON_STEP = 40


class BattlePanels:
    def __init__(
        self,
        session: BattleSession,
        geometry: MapGeometry,
        on_pick: Callable[[str], None],
        centre_on: Callable[[tuple[float, float]], None],
    ) -> None:
        self.session = session
        self.geometry = geometry
        # The unit panel changed size as it was drawn: the corner is laid out again next frame.
        self.unsettled = False
        rules, scenario = session.rules, session.match.loaded.scenario
        # The enemies' reach (H) and the banner marks' legend (K).
        self.threat_toggle = ThreatToggle()
        self.legend = Legend()
        # Scenario prose: the objectives panel (O).
        self.objectives = ObjectivesPanel(scenario)
        # The viewing side's formations (N) and the whole map in a corner.
        self.unit_list = UnitList(on_pick=on_pick)
        self.minimap = Minimap(geometry, scenario.board.terrain, rules, on_move=centre_on)
        self.size = (0, 0)
        # Room the screen keeps for panels of its own (the tutorial's): a card is not put there.
        self.reserved: list[pygame.Rect] = []

    def build(self, manager: pygame_gui.UIManager, size: tuple[int, int]) -> None:
        session = self.session
        self.size = size
        self.hud = Hud(manager, size, session.rules, session.match)
        self.orders = OrdersBar(manager, size)
        self.objectives.build(manager, size)
        w, h = size
        self.end_turn_button = UIButton(
            pygame.Rect(w - px(170), h - px(58), px(156), px(44)), _("End turn"), manager, object_id="#big_button"
        )
        self.threat_toggle.build(
            manager, pygame.Rect(w - px(170), h - px(58) - 2 * px(VIEW_BUTTON_STEP), px(156), px(34))
        )
        self.legend.build(manager, pygame.Rect(w - px(170), h - px(58) - px(VIEW_BUTTON_STEP), px(156), px(34)))
        self.card_panel = CardPanel(session.rules, side_name=session.side_name)
        self.menu_button = UIButton(
            pygame.Rect(w - px(254), px(6), px(96), px(TOP_BAR_H) - px(12)),
            _("Menu"),
            manager,
            tool_tip_text=_("Save, load, settings, help, leave the battle (Esc)"),
        )
        self.minimap.place(size)
        self.unit_list.build(manager, size, self.minimap.rect)
        # Widgets built anew (a resize, a language, a screen closed over the battle) show the
        # orders of the formation selected now, not all of them.
        self.refresh(session.pending_forecast())

    def refresh(self, forecast: Forecast | None = None) -> None:
        """The unit panel, the orders bar and End turn as the session stands (with ``forecast``
        the odds of a blow aimed)."""
        session = self.session
        self.refresh_hud(forecast)
        self.refresh_orders()
        self.end_turn_button.enable() if session.human_to_move() else self.end_turn_button.disable()

    def refresh_hud(self, forecast: Forecast | None = None) -> None:
        """The unit panel: the formation selected, with ``forecast`` the odds of a blow aimed."""
        session = self.session
        self.hud.refresh(session.selected_formation(), forecast, session.human_to_move(), session.choice.armed)

    def refresh_orders(self) -> None:
        session = self.session
        f = session.selected_formation()
        forced = session.choice.forced_march
        self.orders.refresh(session.engine, f, forced, session.can_undo(), session.human_to_move())

    def toggle_objectives(self) -> None:
        self.objectives.toggle()
        if self.objectives.visible and self.unit_list.visible:
            self.unit_list.toggle()  # the two share the left column

    # -- where they stand -----------------------------------------------------------------

    def covers(self, pos: tuple[int, int], log: BattleLog) -> bool:
        """Whether ``pos`` is on a panel or button drawn over the map (it takes the pointer)."""
        return (
            pos[1] < px(TOP_BAR_H)
            or self.hud.covers(pos)
            or self.orders.covers(pos)
            or self.objectives.covers(pos)
            or self.end_turn_button.rect.collidepoint(pos)
            or self.menu_button.rect.collidepoint(pos)
            or log.covers(pos)
            or self.legend.covers(pos)
            or self.card_panel.covers(pos)
            or self.threat_toggle_rect().collidepoint(pos)
            or self.unit_list.covers(pos)
            or self.minimap.covers(pos)
        )

    def open_map_area(self) -> pygame.Rect:
        """The part of the window where the map is not covered by the HUD's panels."""
        w, h = self.size
        left = 0
        if self.objectives.visible and self.objectives.rect.height:
            left = self.objectives.rect.right
        elif self.unit_list.visible:  # the two share the left column
            left = self.unit_list.rect.right
        right = w - px(PANEL_W) - 20 if self.hud.selected is not None else w
        # A panel of the screen's own along the top (the tutorial's) pushes the open map down.
        top = max([px(TOP_BAR_H)] + [r.bottom for r in self.reserved if r.top <= px(TOP_BAR_H) + px(20)])
        return pygame.Rect(left, top, max(200, right - left), max(200, h - top - 90))

    def threat_toggle_rect(self) -> pygame.Rect:
        """The column of view buttons and End turn at the bottom right."""
        w, h = self.size
        return pygame.Rect(
            w - px(174), h - px(62) - 2 * px(VIEW_BUTTON_STEP), px(164), px(58) + 2 * px(VIEW_BUTTON_STEP)
        )

    def unit_panel_rect(self) -> pygame.Rect | None:
        """The unit panel when it shows a formation or a forecast."""
        return self.hud.panel_rect if self.hud.selected or self.hud.forecast else None

    # -- drawing --------------------------------------------------------------------------

    def draw(
        self,
        surface: pygame.Surface,
        camera: Camera,
        hover: Hex | None,
        fog: Fog | None,
        log: BattleLog,
        looked_at: str | None,
    ) -> None:
        session = self.session
        state = session.state
        # A tall unit panel (a forecast in a small window) has the corner: the minimap gives way.
        # The panel's size is known once it is drawn: if it changed, the next frame lays the
        # corner out again (``unsettled``), or a label would stay over the new panel.
        panel = self.unit_panel_rect()
        laid_out_for = None if panel is None else panel.copy()
        legend_before = self.legend.rect.copy()
        button = self.unit_list.button  # None only before the first build
        corner = self.minimap.rect.union(button.rect) if button is not None else self.minimap.rect
        self.minimap.visible = panel is None or not panel.colliderect(corner)
        sel = session.selected_formation()
        self.minimap.draw(surface, camera, state.formations.values(), fog, sel.pos if sel else None)
        # The list is of the side on screen (none while the computer plays itself).
        side = session.fog_side() or session.first_human()
        if side is not None:
            rows = roster(state, session.rules, side, session.match.record.actions, session.names)
            self.unit_list.update(rows, session.selected)
        # The legend (K), open over the same corner, has it too.
        under_legend = button is not None and self.legend.visible and self.legend.rect.colliderect(button.rect)
        self.unit_list.show_button(self.minimap.visible and side is not None and not under_legend)
        # Its buttons (Cancel, Attack) must stay clickable: the view buttons under it give way too.
        for view_button in (self.threat_toggle.button, self.legend.button):
            clash = panel is not None and view_button is not None and panel.colliderect(view_button.rect)
            if view_button is not None and bool(view_button.visible) == clash:
                view_button.hide() if clash else view_button.show()
        # Ground never seen tells nothing, not even what it is.
        shown_hover = hover if fog is None or hover in fog.explored else None
        board = session.match.loaded.scenario.board
        self.hud.draw(surface, shown_hover, board, viewer=session.fog_side(), shown=None if fog is None else fog.shown)
        drawn = self.unit_panel_rect()
        self.unsettled = laid_out_for != (None if drawn is None else drawn)
        self.objectives.draw(surface, state, session.viewer or session.first_human())
        log.draw(surface, self._log_room(surface.get_size(), log))
        legend_at, legend_corner = self._legend_place(surface.get_size(), drawn)
        self.legend.draw(surface, legend_at, pygame.mouse.get_pos(), legend_corner)
        self.unsettled = self.unsettled or self.legend.rect != legend_before
        if session.choice.pending_attack is None:  # a forecast tells of its target: no card over it
            self._draw_card(surface, camera, shown_hover, looked_at)
        else:
            self.card_panel.hide()

    def _log_room(self, size: tuple[int, int], log: BattleLog) -> pygame.Rect:
        """Where the log may be drawn: expanded, over the objectives (opaque); collapsed, below
        them while they are open (in a small window the two texts lay one over the other, and
        neither could be read; where no row fits below them the log waits for them to close)."""
        area = log_area(size)
        panel = self.objectives.rect
        if log.expanded or not self.objectives.visible or not panel.height or not panel.colliderect(area):
            return area
        top = panel.bottom + 6
        return pygame.Rect(area.left, top, area.width, max(0, area.bottom - top))

    def _legend_place(self, size: tuple[int, int], panel: pygame.Rect | None) -> tuple[tuple[int, int], str]:
        """Where the legend goes: above the view buttons in the corner, or left of the unit
        panel when it would lie over it (a small window)."""
        w, h = size
        anchor, corner = (w - 14, h - 66 - 2 * px(VIEW_BUTTON_STEP)), "bottomright"
        if panel is None or not self.legend.visible:
            return anchor, corner
        probe = pygame.Rect((0, 0), self.legend.rect.size)
        setattr(probe, corner, anchor)
        if probe.colliderect(panel):
            return (panel.left - 8, px(TOP_BAR_H) + 8), "topright"
        return anchor, corner

    def _draw_card(self, surface: pygame.Surface, camera: Camera, hover: Hex | None, looked_at: str | None) -> None:
        """The card of the formation under the pointer, else of the one last clicked: any
        formation the viewing side sees, friend or foe (the selected one has the unit panel)."""
        view = self.session.view()
        under = view.formation_at(hover) if hover is not None else None
        unit = under.id if under is not None else looked_at
        card = view.card(unit) if unit is not None and unit != self.session.selected else None
        if unit is None or card is None:
            self.card_panel.hide()
            return
        self.card_panel.links = under is None  # the clicked formation's card stays to be clicked
        pos = self.session.state.formations[unit].pos
        taken = [log_area(self.size), self.legend.rect, self.threat_toggle_rect(), self.minimap.rect]
        if self.unit_list.visible:
            taken.append(self.unit_list.rect)
        if self.objectives.visible:
            taken.append(self.objectives.rect)
        if self.hud.selected is not None or self.hud.forecast is not None:
            taken.append(self.hud.panel_rect)
        taken += self.reserved
        self.card_panel.draw_near(surface, card, camera.to_screen(self.geometry.centre(pos)), taken)
