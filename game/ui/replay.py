"""The replay viewer: a recorded battle shown action by action, forward and back.

The map is drawn by the battle screen's own pieces (BoardView, Camera, the HUD's top bar) from
the state of a ReplayCursor; the viewer never changes the record. Controls: play and pause at a
chosen speed, step one action, the previous and next side-turn, jump to a turn, a timeline with
turn marks, whose fog to look through, the event log, and "take over from here", which starts a
new battle at the position shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine

from .. import i18n
from ..content.campaigns import names_script
from ..core.events import Event, Fled, Moved
from ..core.hexgrid import Hex
from ..i18n import _
from ..record.errors import SaveError
from ..record.match import Match
from ..record.model import GameRecord
from ..record.privacy import hides_each_side
from ..record.replay_cursor import ReplayCursor
from ..record.seats import Commander, Seats
from ..record.take_over import take_over
from ..view.side_view import Fog, SideView, SideViews
from .audio import audio_of
from .board_view import Overlays
from .fonts import font
from .hud import TEXT, TOP_BAR_H, Hud
from .log_panel import draw_controls_strip, draw_log_panel, map_beside_panel, panel_rect, panel_width
from .map_view import MapView
from .replay_log import action_lines, record_names, seen_events
from .replay_timeline import Timeline
from .scale import px
from .scene import Scene
from .take_over import TakeOverDialog

if TYPE_CHECKING:
    from .app import App

# Actions per second while playing; the speed button steps through them.
SPEEDS = (1, 2, 4, 8)
CONTROLS_H = 104
# Most actions one frame applies while playing, so a stalled frame never runs away.
MAX_STEPS_PER_FRAME = 8
ALL = "all"


class ReplayScene(Scene):
    music = "battle_calm"
    tells_story = True

    def __init__(self, app: App, record: GameRecord, cursor: ReplayCursor | None = None) -> None:
        """``cursor``: one already built on ``record`` (kept when the window is rebuilt).
        SaveError if the record cannot be shown: its content changed, or it is a battle
        between people at one screen that is not over (it would show each the other's army)."""
        if hides_each_side(record):
            raise SaveError(
                _("a battle between two players that is not over: the replay would show each the other's army")
            )
        self.cursor = cursor if cursor is not None else ReplayCursor(record, sight=True)
        self.record = record
        loaded = self.cursor.loaded
        self.tell_story()  # before anything is named
        self.rules = self.cursor.rules
        board = loaded.scenario.board
        self.map = MapView(loaded, self.rules, pygame.Rect((0, 0), app.size))
        self.names = record_names(self.cursor)
        # Whose eyes the map is seen through: a side id, or ALL for everything.
        self.view_side = ALL
        self.side_views = SideViews(board, self.rules)
        self.playing = False
        self.speed = SPEEDS[0]
        self._play_timer = 0.0
        # The take-over window while it is open.
        self.dialog: TakeOverDialog | None = None
        self.message = ""
        super().__init__(app)
        self._centre()

    # -- layout ---------------------------------------------------------------------------

    def panel_width(self) -> int:
        return panel_width(self.app.size[0])

    def map_rect(self) -> pygame.Rect:
        return map_beside_panel(self.app.size, px(CONTROLS_H))

    def story_script(self) -> str | None:
        return names_script(self.cursor.loaded.scenario.campaign)

    def build(self) -> None:
        w, h = self.app.size
        pw = self.panel_width()
        self.hud = Hud(self.manager, self.app.size, self.rules, self.cursor)  # type: ignore[arg-type]
        x0, y0 = w - pw + 10, px(TOP_BAR_H) + 10
        # "View" over a menu of the panel's whole width: a long side name is never cut.
        UILabel(pygame.Rect(x0, y0, pw - 20, px(24)), _("View"), self.manager)
        self._view_options = {_("Everything"): ALL}
        for s in self.cursor.loaded.scenario.sides:
            self._view_options[i18n.name(s.name)] = s.id
        self._view_rect = pygame.Rect(x0, y0 + px(26), pw - 20, px(34))
        y0 += px(26)
        self._build_view_menu()
        self.take_over_button = UIButton(
            pygame.Rect(x0, y0 + px(42), pw - 20, px(36)),
            _("Take over from here"),
            self.manager,
            tool_tip_text=_("Start a new battle from this moment, choosing who commands each side"),
        )
        self.menu_button = UIButton(pygame.Rect(x0, y0 + px(84), pw - 20, px(36)), _("Back to the menu"), self.manager)
        self.log_top = y0 + px(132)
        # The controls under the map: status line, timeline, buttons.
        self.timeline = Timeline(pygame.Rect(14, h - px(76), w - 28, px(28)))
        y, line_h = h - px(44), px(36)
        x = 14
        self.nav: dict[str, UIButton] = {}
        for key, label, tip, width in (
            ("start", "|<", _("To the start (Home)"), 40),
            ("prev_turn", "<<", _("Previous turn (Page Up)"), 40),
            ("back", "<", _("One action back (Left)"), 40),
            ("play", _("Play"), _("Play or pause (Space)"), 78),
            ("forward", ">", _("One action forward (Right)"), 40),
            ("next_turn", ">>", _("Next turn (Page Down)"), 40),
            ("end", ">|", _("To the end (End)"), 40),
        ):
            self.nav[key] = UIButton(pygame.Rect(x, y, px(width), line_h), label, self.manager, tool_tip_text=tip)
            x += px(width) + 4
        x += 8
        self.speed_button = UIButton(
            pygame.Rect(x, y, px(56), line_h), f"{self.speed}×", self.manager, tool_tip_text=_("Actions per second")
        )
        x += px(56) + 8
        label = _("Turn")
        lw = self.manager.get_theme().get_font(["label"]).get_rect(label).width + 12
        UILabel(pygame.Rect(x, y, lw, line_h), label, self.manager)
        x += lw
        self.turn_entry = UITextEntryLine(pygame.Rect(x, y, px(56), line_h), self.manager)
        self.turn_entry.set_allowed_characters("numbers")
        self.turn_entry.set_text_length_limit(4)
        x += px(56) + 4
        self.go_button = UIButton(pygame.Rect(x, y, px(56), line_h), _("Go"), self.manager)
        self.map.resize(self.map_rect())
        self._refresh_buttons()

    def _build_view_menu(self) -> None:
        current = next(k for k, v in self._view_options.items() if v == self.view_side)
        self.view_menu = UIDropDownMenu(list(self._view_options), current, self._view_rect, self.manager)

    def _centre(self) -> None:
        fs = list(self.cursor.state.formations.values())
        if fs:
            self.map.centre_on_formations(fs)

    def _refresh_buttons(self) -> None:
        c = self.cursor
        self.nav["play"].set_text(_("Pause") if self.playing else _("Play"))
        for key in ("start", "prev_turn", "back"):
            self.nav[key].enable() if c.position > 0 else self.nav[key].disable()
        for key in ("forward", "next_turn", "end"):
            self.nav[key].enable() if not c.at_end() else self.nav[key].disable()
        self.nav["play"].enable() if not c.at_end() or self.playing else self.nav["play"].disable()
        self.speed_button.set_text(f"{self.speed}×")

    # -- moving through the record ------------------------------------------------------------

    def _moved(self) -> None:
        if self.cursor.at_end() and self.playing:
            self.playing = False
        self._refresh_buttons()

    def play_pause(self) -> None:
        if self.cursor.at_end() and not self.playing:
            return
        self.playing = not self.playing
        self._play_timer = 0.0
        self._refresh_buttons()

    def seek(self, index: int) -> None:
        self.cursor.seek(index)
        self._moved()

    def step_forward(self) -> None:
        self.playing = False
        if self.cursor.step_forward():
            self._hear()
        self._moved()

    def _hear(self) -> None:
        """The sound of the action just shown, as the side viewed witnessed it."""
        side = None if self.view_side == ALL else self.view_side
        c = self.cursor
        audio_of(self.app).on_events(seen_events(c, c.position, c.last_events(), side), viewer=side)

    def step_back(self) -> None:
        self.playing = False
        self.cursor.step_back()
        self._moved()

    def next_turn(self) -> None:
        self.cursor.next_turn()
        self._moved()

    def previous_turn(self) -> None:
        self.cursor.previous_turn()
        self._moved()

    def goto_turn(self, text: str) -> None:
        try:
            n = int(text)
        except ValueError:
            n = 0
        if not self.cursor.goto_turn(n):
            self.message = _("No turn {n} in this record (1 to {last})").format(n=text or "?", last=self.cursor.turns())
        else:
            self.message = ""
        self._moved()

    def cycle_speed(self, steps: int = 1) -> None:
        i = SPEEDS.index(self.speed)
        self.speed = SPEEDS[(i + steps) % len(SPEEDS)]
        self._refresh_buttons()

    def set_view(self, side: str) -> None:
        """Look through ``side``'s fog (ALL: everything); the dropdown shows the same choice."""
        self.view_side = side
        label = next((k for k, v in self._view_options.items() if v == side), None)
        if label is not None and self.view_menu.selected_option[0] != label:
            self.view_menu.kill()
            self._build_view_menu()

    # -- fog -------------------------------------------------------------------------------

    def side_view(self) -> SideView:
        """The chosen side's view of the position shown (a spectator's for ALL)."""
        return self.side_views.of(self.cursor.state, None if self.view_side == ALL else self.view_side)

    def fog(self) -> Fog | None:
        """What the chosen side knew at the position shown (None: everything is shown)."""
        return self.side_view().fog

    # -- take over -----------------------------------------------------------------------------

    def open_take_over(self) -> None:
        """A small window: who commands each side in the new battle."""
        if self.dialog is not None:
            return
        self.playing = False
        self._refresh_buttons()
        seats = Seats.for_sides(self.cursor.loaded.scenario.sides, self.record.seats)
        self.dialog = TakeOverDialog(self.manager, self.app.size, self.cursor.loaded, seats)

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
        self.dialog = None

    def chosen_controllers(self) -> dict[str, Commander]:
        assert self.dialog is not None
        return self.dialog.chosen()

    def take_over(self, controllers: dict[str, Commander]) -> Match | None:
        """Start the new battle from the position shown, at once: the record's actions up to it
        and their checkpoints are the new game's (none is played again); None, and a message,
        if the record cannot be taken over there."""
        self._close_dialog()
        try:
            match = take_over(self.record, self.cursor.state, controllers, self.cursor.loaded)
        except SaveError as exc:
            self.message = _("This record cannot be taken over: {reason}").format(reason=exc)
            return None
        self.app.go("battle", match=match)
        return match

    # -- events ----------------------------------------------------------------------------------

    def back_to_menu(self) -> None:
        self.app.go("menu")

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._button(event.ui_element)
            return
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED and event.ui_element is self.view_menu:
            self.set_view(self._view_options.get(event.text, ALL))
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.turn_entry:
            self.goto_turn(self.turn_entry.get_text())
            return
        if event.type == pygame_gui.UI_WINDOW_CLOSE and self.dialog is not None:
            if event.ui_element is self.dialog.window:
                self.dialog = None
            return
        if event.type == pygame.KEYDOWN:
            if not self.turn_entry.is_focused:
                self._key(event.key)
            return
        if self.dialog is not None:
            return
        index = self.timeline.handle(event, self.cursor.length)
        if index is not None:
            self.playing = False
            self.seek(index)
            return
        self._map_mouse(event)

    def _button(self, element: UIButton) -> None:
        if self.dialog is not None:
            pressed = self.dialog.pressed(element)
            if pressed == "start":
                self.take_over(self.dialog.chosen())
            elif pressed == "cancel":
                self._close_dialog()
            return
        actions = {
            self.nav["start"]: lambda: self.seek(0),
            self.nav["prev_turn"]: self.previous_turn,
            self.nav["back"]: self.step_back,
            self.nav["play"]: self.play_pause,
            self.nav["forward"]: self.step_forward,
            self.nav["next_turn"]: self.next_turn,
            self.nav["end"]: lambda: self.seek(self.cursor.length),
            self.speed_button: self.cycle_speed,
            self.go_button: lambda: self.goto_turn(self.turn_entry.get_text()),
            self.take_over_button: self.open_take_over,
            self.menu_button: self.back_to_menu,
        }
        action = actions.get(element)
        if action is not None:
            action()

    def _key(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            if self.dialog is not None:
                self._close_dialog()
            else:
                self.back_to_menu()
            return
        if self.dialog is not None:
            return
        keys: dict[int, Callable[[], None]] = {
            pygame.K_SPACE: self.play_pause,
            pygame.K_LEFT: self.step_back,
            pygame.K_RIGHT: self.step_forward,
            pygame.K_PAGEUP: self.previous_turn,
            pygame.K_PAGEDOWN: self.next_turn,
            pygame.K_HOME: lambda: self.seek(0),
            pygame.K_END: lambda: self.seek(self.cursor.length),
            pygame.K_PLUS: self.cycle_speed,
            pygame.K_EQUALS: self.cycle_speed,
            pygame.K_KP_PLUS: self.cycle_speed,
            pygame.K_MINUS: lambda: self.cycle_speed(-1),
            pygame.K_KP_MINUS: lambda: self.cycle_speed(-1),
        }
        if key in keys:
            keys[key]()

    def _map_mouse(self, event: pygame.event.Event) -> None:
        """Drag to pan, wheel to zoom, on the map below its top bar only."""
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        self.map.pointer(event, on_panel=pos[1] < px(TOP_BAR_H))

    # -- frame -------------------------------------------------------------------------------------

    def animating(self) -> bool:
        return self.playing

    def update(self, dt: float) -> None:
        if not self.playing:
            return
        self._play_timer += dt * self.speed
        steps = shown = 0
        while self._play_timer >= 1.0 and steps < MAX_STEPS_PER_FRAME:
            self._play_timer -= 1.0
            steps += 1
            if not self.cursor.step_forward():
                break
            shown += 1
        self._play_timer = min(self._play_timer, 1.0)
        if steps:
            if shown == 1:  # one action a frame is heard; faster play is heard not at all
                self._hear()
            self._moved()

    def log_lines(self) -> list[str]:
        """The current side-turn's events up to the position shown, as the chosen side saw them:
        each judged by what that side saw when it happened (``witness.witnessed``), as the
        battle's own log and the hotseat report judge them."""
        side = None if self.view_side == ALL else self.view_side
        return [
            line
            for n, events in self.cursor.recent_events()
            for line in action_lines(self.cursor, n, events, side, self.names)
        ]

    def _last_move(self, fog: Fog | None) -> list[Hex]:
        path: list[Hex] = []
        events: list[Event] = self.cursor.last_events()
        for ev in events:
            if isinstance(ev, Moved | Fled):
                path = list(ev.path)
        return path if fog is None else [h for h in path if h in fog.visible]

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((20, 22, 26))
        fog = self.fog()
        state = self.cursor.state
        self.map.draw(surface, state, Overlays(last_move=self._last_move(fog)), fog)
        self.hud.draw(
            surface,
            None,
            self.cursor.loaded.scenario.board,
            viewer=None if fog is None else self.view_side,
            shown=None if fog is None else fog.shown,
        )
        self._draw_panel(surface)
        self._draw_controls(surface)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = panel_rect(surface.get_size(), px(CONTROLS_H))
        lines = self.log_lines()
        marked = [(line, i == len(lines) - 1) for i, line in enumerate(lines)]
        draw_log_panel(surface, rect, self.log_top, _("Event log"), marked, _("Nothing seen yet this turn"))

    def _draw_controls(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        draw_controls_strip(surface, px(CONTROLS_H))
        c = self.cursor
        marks = c.turn_marks()
        mark = marks[c.mark_index()] if marks else None
        status = _("Action {n} of {total}").format(n=c.position, total=c.length)
        if mark is not None:
            status = _("Turn {n}: {side}").format(n=c.state.turn, side=self.hud.side_name(c.state.active_side.id))
            status += "  ·  " + _("Action {n} of {total}").format(n=c.position, total=c.length)
        f = font(15)
        surface.blit(f.render(status, True, TEXT), (16, h - px(CONTROLS_H) + 6))
        note = self.message or (
            _("This record does not replay to its end: {reason}").format(reason=c.problem) if c.problem else ""
        )
        if note:
            surf = f.render(note, True, (235, 110, 90))
            surface.blit(surf, (max(16 + f.size(status)[0] + 20, w - surf.get_width() - 16), h - px(CONTROLS_H) + 6))
        self.timeline.draw(surface, marks, c.position, c.length)

    def resize(self, size: tuple[int, int]) -> None:
        self._close_dialog()
        super().resize(size)
