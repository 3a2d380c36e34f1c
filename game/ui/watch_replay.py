"""Hotseat: the turns a player waited through, replayed through that player's own eyes.

Opened from the hand-over screen, once the player has said they are at the screen. Only what
their side could have seen is shown: the map through its fog, the top bar counting only men it
sees, the lines of what it witnessed (``witness.witnessed``). The replay moves from one thing
seen to the next and never through an action the side could not see, so neither the number of
the other side's actions nor their order gives anything away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..content.campaigns import names_script
from ..core.events import Fled, Moved
from ..core.hexgrid import Hex
from ..core.state import GameState
from ..i18n import _
from ..record.replay_cursor import ReplayCursor
from ..view.side_view import Fog, SideViews
from .board_view import Overlays
from .fonts import font
from .hud import TEXT, TOP_BAR_H, Hud
from .log_panel import draw_controls_strip, draw_log_panel, map_beside_panel, panel_rect, panel_width
from .map_view import MapView
from .replay_log import action_lines, record_names
from .scale import px
from .scene import Scene

if TYPE_CHECKING:
    from ..session import BattleSession
    from .app import App

CONTROLS_H = 60
# Seconds between two things seen while playing.
BEAT_SECONDS = 1.2


class WatchScene(Scene):
    tells_story = True

    def __init__(self, app: App, session: BattleSession, side_id: str, start: tuple[int, GameState]) -> None:
        """``start``: (actions, state) where ``side_id``'s wait began (``WatchReports.replay_start``)."""
        self.session = session
        self.side_id = side_id
        match = session.match
        self.cursor = ReplayCursor(match.record, match.loaded, sight=True, start=start)
        self.tell_story()  # before anything is named
        self.rules = self.cursor.rules
        board = match.loaded.scenario.board
        self.map = MapView(match.loaded, self.rules, pygame.Rect((0, 0), app.size))
        self.side_views = SideViews(board, self.rules)
        self.names = record_names(self.cursor)
        super().__init__(app)
        # Positions (actions applied) where the side saw something, and the lines it saw there.
        self.beats, self.seen_lines = self._things_seen()
        self.beat = 0
        self.playing = len(self.beats) > 1
        self._timer = 0.0
        self._refresh_buttons()
        self._centre()

    # -- what the side saw ------------------------------------------------------------------

    def _things_seen(self) -> tuple[list[int], dict[int, list[str]]]:
        """Run the waited-through actions once, keeping those of which the side saw anything."""
        c = self.cursor
        beats: list[int] = [c.floor]
        lines: dict[int, list[str]] = {c.floor: []}
        while c.step_forward():
            got = action_lines(c, c.position, c.last_events(), self.side_id, self.names)
            if got:
                beats.append(c.position)
                lines[c.position] = got
        c.seek(c.floor)
        return beats, lines

    def log_lines(self) -> list[str]:
        """Every line seen up to the thing shown, oldest first."""
        return [line for n in self.beats[: self.beat + 1] for line in self.seen_lines[n]]

    def fog(self) -> Fog:
        fog = self.side_views.of(self.cursor.state, self.side_id).fog
        assert fog is not None  # a side's view always has its fog
        return fog

    # -- moving -------------------------------------------------------------------------------

    def go_to(self, beat: int) -> None:
        self.beat = max(0, min(beat, len(self.beats) - 1))
        self.cursor.seek(self.beats[self.beat])
        if self.beat == len(self.beats) - 1:
            self.playing = False
        self._refresh_buttons()

    def play_pause(self) -> None:
        if self.beat >= len(self.beats) - 1:
            self.go_to(0)  # played to the end: again from the start
        self.playing = not self.playing and len(self.beats) > 1
        self._timer = 0.0
        self._refresh_buttons()

    def back_to_battle(self) -> None:
        self.app.back()

    # -- layout ---------------------------------------------------------------------------------

    def panel_width(self) -> int:
        return panel_width(self.app.size[0])

    def map_rect(self) -> pygame.Rect:
        return map_beside_panel(self.app.size, px(CONTROLS_H))

    def story_script(self) -> str | None:
        return names_script(self.session.match.loaded.scenario.campaign)

    def build(self) -> None:
        w, h = self.app.size
        self.hud = Hud(self.manager, self.app.size, self.rules, self.cursor)  # type: ignore[arg-type]
        y, x = h - px(46), 14
        self.nav: dict[str, UIButton] = {}
        for key, label, tip, width in (
            ("start", "|<", _("From the start (Home)"), 40),
            ("back", "<", _("What was seen before (Left)"), 40),
            ("play", _("Play"), _("Play or pause (Space)"), 78),
            ("forward", ">", _("What was seen next (Right)"), 40),
        ):
            self.nav[key] = UIButton(pygame.Rect(x, y, px(width), px(36)), label, self.manager, tool_tip_text=tip)
            x += px(width) + 4
        self.back_button = UIButton(
            pygame.Rect(w - 14 - px(226), y, px(226), px(36)),
            _("Back to the battle"),
            self.manager,
            tool_tip_text=_("Esc or Enter"),
        )
        self.map.resize(self.map_rect())
        if hasattr(self, "beats"):
            self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        last = len(self.beats) - 1
        for key, enabled in (
            ("start", self.beat > 0),
            ("back", self.beat > 0),
            ("play", last > 0),
            ("forward", self.beat < last),
        ):
            self.nav[key].enable() if enabled else self.nav[key].disable()
        self.nav["play"].set_text(_("Pause") if self.playing else _("Play"))

    def _centre(self) -> None:
        fs = self.cursor.state.formations_of(self.side_id)
        if fs:
            self.map.centre_on_formations(fs)

    # -- events ---------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            actions = {
                self.nav["start"]: lambda: self.go_to(0),
                self.nav["back"]: lambda: self.go_to(self.beat - 1),
                self.nav["play"]: self.play_pause,
                self.nav["forward"]: lambda: self.go_to(self.beat + 1),
                self.back_button: self.back_to_battle,
            }
            action = actions.get(event.ui_element)
            if action is not None:
                action()
            return
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        self.map.pointer(event, on_panel=pos[1] < px(TOP_BAR_H))  # drag to pan, wheel to zoom
        if event.type == pygame.KEYDOWN:
            keys: dict[int, Callable[[], None]] = {
                pygame.K_ESCAPE: self.back_to_battle,
                pygame.K_RETURN: self.back_to_battle,
                pygame.K_SPACE: self.play_pause,
                pygame.K_LEFT: lambda: self.go_to(self.beat - 1),
                pygame.K_RIGHT: lambda: self.go_to(self.beat + 1),
                pygame.K_HOME: lambda: self.go_to(0),
            }
            if event.key in keys:
                keys[event.key]()

    def animating(self) -> bool:
        return self.playing

    def update(self, dt: float) -> None:
        if not self.playing:
            return
        self._timer += dt
        if self._timer >= BEAT_SECONDS:
            self._timer = 0.0
            self.go_to(self.beat + 1)

    # -- drawing --------------------------------------------------------------------------------

    def _last_move(self, fog: Fog) -> list[Hex]:
        """The part of the shown action's move that the side could see."""
        path: list[Hex] = []
        for ev in self.cursor.last_events():
            if isinstance(ev, Moved | Fled):
                path = list(ev.path)
        return [h for h in path if h in fog.visible]

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((20, 22, 26))
        fog = self.fog()
        state = self.cursor.state
        overlays = Overlays(last_move=self._last_move(fog) if self.beat > 0 else [])
        self.map.draw(surface, state, overlays, fog)
        board = self.cursor.loaded.scenario.board
        self.hud.draw(surface, None, board, viewer=self.side_id, shown=fog.shown)
        self._draw_panel(surface)
        self._draw_controls(surface)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        rect = panel_rect(surface.get_size(), px(CONTROLS_H))
        fresh = set(self.seen_lines[self.beats[self.beat]])
        marked = [(line, line in fresh) for line in self.log_lines()]
        empty = _("Your formations saw nothing of the other side.") if len(self.beats) == 1 else ""
        draw_log_panel(surface, rect, rect.top + 12, _("What your formations saw"), marked, empty)

    def _draw_controls(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        draw_controls_strip(surface, px(CONTROLS_H))
        if len(self.beats) > 1:
            status = _("{k} of {n}").format(k=self.beat, n=len(self.beats) - 1)
            f = font(15)
            x = self.nav["forward"].rect.right + 16
            surface.blit(f.render(status, True, TEXT), (x, h - px(CONTROLS_H) + px(20)))
