"""The battle screen: the map, selection and orders, the forecast, AI turns and hotseat hand-over.

Everything the player does becomes an engine action applied through the match; the screen
only reads the state and the events that come back.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..content.campaigns import names_script
from ..core import vision
from ..core.actions import Action, Blast, EndTurn
from ..core.combat import Forecast
from ..core.engine import Engine, IllegalAction
from ..core.events import (
    Attacked,
    Event,
    Fled,
    Moved,
    Narration,
    SoulsCaptured,
    TurnEnded,
)
from ..core.hexgrid import Hex
from ..core.state import Formation
from ..i18n import N_, _, ngettext
from ..record.errors import SaveError
from ..record.match import Match
from ..settings import UserSettings, load_settings
from ..view.names import formation_names, save_name
from ..view.side_view import SideView, SideViews
from ..view.witness import sight_around, witnessed
from .audio import audio_of
from .battle_log import BattleLog, log_area
from .board_view import Fog, Overlays
from .camera import Camera
from .card_panel import CardPanel
from .computer_turns import ComputerTurns
from .duel_view import follow_up
from .geometry import MapGeometry
from .hints import Hints
from .hotseat import WatchReports
from .hud import PANEL_W, TOP_BAR_H, Hud
from .legend import Legend
from .map_marks import SPOTTED, MapMarks
from .map_view import MapView
from .minimap import Minimap
from .motion import Motion
from .narration import NarrationPopup, ObjectivesPanel, event_line
from .order_input import OrderInput, Reading
from .orders import KEYS as ORDER_KEYS
from .orders import OrdersBar
from .replay_log import LogRebuild, log_sides
from .scale import px
from .scene import Scene
from .threat_overlay import ThreatToggle
from .thunder_aim import draw_thunder_tip
from .unit_list import UnitList, roster

# Why U takes nothing back, by Match.undo_refusal.
UNDO_REFUSALS = {
    "nothing": N_("Nothing to take back: no formation has moved since this turn began."),
    "not_a_move": N_("Cannot take back: only a plain move can be undone, not a blow, a capture or an order."),
    "revealed": N_("Cannot take back: that move showed you something new, and what was seen stays seen."),
    "new_turn": N_("Nothing to take back: a new turn has begun."),
}
# Actions of a loaded game's record re-run per frame to rebuild its log (a slice takes 4-8 ms here).
RECALL_SLICE = 8
# The view toggles (enemy reach, legend) stand in a column above End turn, this far apart.
VIEW_BUTTON_STEP = 40
# Keys that close a narration pop-up.
DISMISS_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE)


class BattleScene(Scene):
    tells_story = True

    def __init__(self, app, match: Match, show_handover: bool = True, view_side: str | None = None) -> None:
        self.match = match
        self.tell_story()  # before anything is named
        self.show_handover = show_handover
        # Whose fog to draw: a side id, "all" for everything, None for the human at the screen.
        self.view_side = view_side
        # Formations the viewing side saw before the last action, and whether it saw that action.
        self._seen_before: set[str] = set()
        # Whether the viewing side saw anything of the last action (an unseen one is not waited for).
        self.last_seen = True
        self.rules = match.engine.rules  # the data this battle is played with (a save may carry its own)
        loaded = match.loaded
        board = loaded.scenario.board
        self.map = MapView(loaded, self.rules, pygame.Rect((0, 0), app.size))
        # What each side sees and knows, worked out once per position.
        self.side_views = SideViews(board, self.rules)
        # Place names and the outlines of the places the objectives turn on (P).
        self.show_places = True
        self.marks = MapMarks(self.geometry)
        self.motion = Motion(self.geometry)
        # The enemies' reach (H), the banner marks' legend (K), and the card of a formation
        # looked at (hovered or clicked, friend or foe).
        self.threat_toggle = ThreatToggle()
        self.legend = Legend()
        self.looked_at: str | None = None
        # A short hint the first time each thing matters (F1 opens its help page).
        self.hints = Hints(app.profile.saves_dir, open_help=lambda page: self.app.open("help", page=page))
        self.computer = ComputerTurns(self)
        # The formation chosen and what is being aimed: how the next click is read.
        self.choice = OrderInput()
        self.hover: Hex | None = None
        self.last_move: list[Hex] = []
        # The human sides that have read the briefing.
        self.briefed: set[str] = set()
        self.prefs = UserSettings()
        # The human side whose eyes are on the screen; hand-over happens when it changes.
        self.viewer: str | None = None
        # Every formation's name for the whole battle (the log, the reports, the HUD).
        self.names = formation_names(self.rules, loaded.scenario, match.record.settings.roster)
        # One log per viewing side: in hotseat each player reads their own.
        self.logs = {side: BattleLog() for side in log_sides(match)}
        # A game loaded part-way: its log so far is rebuilt from the record, a slice per frame.
        self.recall = LogRebuild(match, list(self.logs)) if match.record.actions else None
        for log in self.logs.values():
            log.recalling = self.recall is not None
        # Scenario prose: narration pop-ups (modal) and the objectives panel (O).
        self.narration = NarrationPopup(self.rules)
        # Hotseat: what each waiting player's formations see of the other turns.
        self.watch = WatchReports()
        self.watch.begin(match)
        self.objectives = ObjectivesPanel(match.loaded.scenario)
        # The viewing side's formations (N) and the whole map in a corner.
        self.unit_list = UnitList(on_pick=self.focus_formation)
        self.minimap = Minimap(self.geometry, board.terrain, self.rules, on_move=self.camera.centre_on)
        super().__init__(app)
        self._centre_on_side(self._first_human() or match.state.active_side.id)

    def on_enter(self) -> None:
        self.prefs = load_settings(self.app.profile.saves_dir)
        # A loaded game may go straight on to a hand-over, a duel's answer or its result.
        self._after_change([])
        self._hear([])

    def _hear(self, events: list[Event]) -> None:
        """Sound what the viewer witnessed, and let the music follow the situation."""
        audio_of(self.app).battle_events(events, self.state, self.rules, self.fog_side(), self._seen_ids())

    def on_reveal(self) -> None:
        self.prefs = load_settings(self.app.profile.saves_dir)  # the settings screen may have been open over the battle
        self.hints.reload()

    def on_leave(self) -> None:
        self.computer.cancel()

    def unsaved(self) -> bool:
        return not self.state.over and self.match.unsaved()

    def save_progress(self) -> None:
        """Save the game as the battle menu's leave does: under the name it was saved or loaded
        under, else its scenario and turn, never over another game's save."""
        self.app.saves.save_game(self.match, self.save_name())

    def save_name(self) -> str:
        return save_name(self.match.record.name, self.match.loaded.scenario, self.state.turn)

    # -- layout ---------------------------------------------------------------------------

    def story_script(self) -> str | None:
        return names_script(self.match.loaded.scenario.campaign)

    def build(self) -> None:
        self.hud = Hud(self.manager, self.app.size, self.rules, self.match)
        self.orders = OrdersBar(self.manager, self.app.size)
        self.objectives.build(self.manager, self.app.size)
        w, h = self.app.size
        self.end_turn_button = UIButton(
            pygame.Rect(w - px(170), h - px(58), px(156), px(44)),
            _("End turn"),
            self.manager,
            object_id="#big_button",
        )
        self.threat_toggle.build(
            self.manager, pygame.Rect(w - px(170), h - px(58) - 2 * px(VIEW_BUTTON_STEP), px(156), px(34))
        )
        self.legend.build(self.manager, pygame.Rect(w - px(170), h - px(58) - px(VIEW_BUTTON_STEP), px(156), px(34)))
        self.card_panel = CardPanel(self.rules, side_name=self.hud.side_name)
        self.menu_button = UIButton(
            pygame.Rect(w - px(254), px(6), px(96), px(TOP_BAR_H) - px(12)),
            _("Menu"),
            self.manager,
            tool_tip_text=_("Save, load, settings, help, leave the battle (Esc)"),
        )
        self.map.resize(pygame.Rect((0, 0), self.app.size))
        self.minimap.place(self.app.size)
        self.unit_list.build(self.manager, self.app.size, self.minimap.rect)
        # Widgets built anew (a resize, a language, a screen closed over the battle) show the
        # orders of the formation selected now, not all of them.
        self.hud.refresh(self.selected_formation(), self.pending_forecast())
        self._refresh_orders()
        self.end_turn_button.enable() if self.human_to_move() else self.end_turn_button.disable()

    # -- helpers --------------------------------------------------------------------------

    @property
    def camera(self) -> Camera:
        return self.map.camera

    @property
    def geometry(self) -> MapGeometry:
        return self.map.geometry

    @property
    def state(self):
        return self.match.state

    def humans(self) -> list[str]:
        return self.match.seats.humans()

    def _first_human(self) -> str | None:
        h = self.humans()
        return h[0] if h else None

    def is_hotseat(self) -> bool:
        return len(self.humans()) >= 2

    def human_to_move(self) -> bool:
        return not self.state.over and self.match.seats.is_human(self.state.active_side.id)

    @property
    def selected(self) -> str | None:
        """The formation chosen (its id), if any."""
        return self.choice.selected

    @selected.setter
    def selected(self, fid: str | None) -> None:
        self.choice.selected = fid

    def selected_formation(self) -> Formation | None:
        return self.choice.formation(self.match.engine)

    def pending_forecast(self) -> Forecast | None:
        """The odds of the attack being aimed, as the attacking side knows the field: a hidden
        enemy hero's aura or an unseen formation's weight stays out of it, or the forecast
        would give them away (the blow itself meets them all the same)."""
        if self.choice.pending_attack is None:
            return None
        try:
            return self.knowing_engine(self.state.active_side.id).forecast(self.choice.pending_attack)
        except IllegalAction:
            return None

    def knowing_engine(self, side: str) -> Engine:
        """The engine on what ``side`` knows of the field, for its forecasts (a hidden enemy
        hero's aura or an unseen formation's weight must not show in the odds)."""
        return self.match.engine.seeing(self.side_view(side).state)

    def _centre_on_side(self, side_id: str) -> None:
        fs = self.state.formations_of(side_id)
        if not fs:
            return
        self.map.centre_on_formations(fs)
        # In the middle of the part of the map the panels leave open.
        free = self.open_map_area()
        w, h = self.app.size
        self.camera.pan(w / 2 - free.centerx, h / 2 - free.centery)

    @property
    def log(self) -> BattleLog:
        """The log of the side whose eyes are on the screen."""
        log = self.logs.get(self.fog_side())
        return log if log is not None else next(iter(self.logs.values()))

    def say(self, text: str) -> None:
        self.log.add(text)

    # -- fog of war -----------------------------------------------------------------------

    def fog_side(self) -> str | None:
        """The side whose eyes are on the screen; None when everything is shown."""
        if self.view_side is not None:
            return None if self.view_side == "all" else self.view_side
        if not self.humans():
            return None
        return self.viewer or self._first_human()

    def side_view(self, side: str | None = None) -> SideView:
        """What ``side`` (by default the side whose eyes are on the screen) sees and knows now."""
        return self.side_views.of(self.state, side or self.fog_side())

    def fog(self) -> Fog | None:
        """What the viewing side knows (None when everything is shown)."""
        return self.side_view().fog

    def _seen_ids(self, side: str | None = None) -> set[str]:
        """Formations ``side`` (by default the viewing side) sees; every one when none views."""
        return set(self.side_view(side).seen_ids)

    def _witnessed(self, ev: Event) -> bool:
        side = self.fog_side()
        return side is None or self.witnessed_by(ev, side, self._seen_before)

    def witnessed_by(self, ev: Event, side: str, seen_before: set[str]) -> bool:
        """Whether ``side`` saw ``ev`` happen (``witness.witnessed``): ``seen_before`` is what it
        saw just before the action; in hotseat a narration is heard only where it could be."""
        sight = sight_around(self.side_view(side).sight, seen_before)
        scenario = self.match.loaded.scenario
        return witnessed(ev, side, sight, self.state, scenario, self.rules, self.is_hotseat())

    def _in_sight(self, path: tuple[Hex, ...] | list[Hex]) -> list[Hex]:
        """The part of a path the viewing side can see."""
        fog = self.fog()
        return list(path) if fog is None else [h for h in path if h in fog.visible]

    # -- orders ---------------------------------------------------------------------------

    def submit(self, action: Action) -> bool:
        """Apply an action through the match; a refusal is shown, never raised."""
        positions = {f.id: f.pos for f in self.state.formations.values()}
        pouches = {s.id: s.pouch for s in self.state.sides}
        by_computer = not self.human_to_move()
        self._seen_before = self._seen_ids()
        self.watch.before(self)
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            self.say(_("Not allowed: {reason}").format(reason=exc.message))
            return False
        self.watch.after(self, events)
        # Only what the viewing side saw is shown and told.
        events = [ev for ev in events if self._witnessed(ev)]
        self.hints.on_events(events, self.state, self.fog_side(), self.match.seats)
        self._hear(events)
        self.last_seen = bool(events)

        def where(unit: str) -> Hex | None:
            f = self.state.formations.get(unit)
            return positions.get(unit) or (f.pos if f is not None else None)

        self.marks.from_events(events, where)
        self.motion.play(events, self.motion_speed(by_computer), where)
        for ev in events:
            if isinstance(ev, SoulsCaptured) and ev.side in pouches and self.motion_speed(by_computer) != "instant":
                self.hud.count_up(ev.side, pouches[ev.side])
        if any(isinstance(ev, Moved) and ev.interrupted for ev in events):
            # What stopped the march: the enemies it brought into view.
            side = self.fog_side() or self.state.active_side.id
            for fid in self._seen_ids() - self._seen_before:
                f = self.state.formations.get(fid)
                if f is not None and f.side != side:
                    self.marks.add(f.pos, _("Spotted!"), SPOTTED, ring=True)
        if by_computer and events and not self.computer.shown_fast():
            self._follow(events, where)
        self._after_change(events)
        return True

    def motion_speed(self, by_computer: bool) -> str:
        """How fast a move is shown: the computer's by its setting (none while its moves are shown
        fast), the player's own by theirs."""
        if not by_computer:
            return self.prefs.own_speed
        return "instant" if self.computer.shown_fast() else self.prefs.ai_speed

    def _follow(self, events: list[Event], where) -> None:
        """Bring a computer's action the viewer saw into the open part of the map (not under a
        panel), unless it is already there."""
        for ev in events:
            at = ev.path[-1] if isinstance(ev, Moved) and ev.path else where(getattr(ev, "target", None) or "")
            if at is None and isinstance(ev, (Moved, Attacked)):
                at = where(ev.unit)
            if at is None:
                continue
            free = self.open_map_area()
            if not free.inflate(-120, -120).collidepoint(self.map.on_screen(at)):
                self.map.bring_into(at, free)
            return

    def open_map_area(self) -> pygame.Rect:
        """The part of the window where the map is not covered by the HUD's panels."""
        w, h = self.app.size
        left = 0
        if self.objectives.visible and self.objectives.rect.height:
            left = self.objectives.rect.right
        elif self.unit_list.visible:  # the two share the left column
            left = self.unit_list.rect.right
        right = w - px(PANEL_W) - 20 if self.hud.selected is not None else w
        return pygame.Rect(left, px(TOP_BAR_H), max(200, right - left), max(200, h - px(TOP_BAR_H) - 90))

    def _after_change(self, events: list[Event]) -> None:
        for ev in events:
            self._narrate(ev)
        self.choice.settle(self.match.engine)
        self.hud.refresh(self.selected_formation(), None)
        self._refresh_orders()
        self.end_turn_button.enable() if self.human_to_move() else self.end_turn_button.disable()
        if self.state.over:
            if not self.narration.active:  # the closing words are read before the result
                self.app.go("result", match=self.match)
            return
        if any(isinstance(ev, TurnEnded) for ev in events) and self.human_to_move():
            self.autosave()
        if follow_up(self, events):
            return
        self._maybe_hand_over()

    def _maybe_hand_over(self) -> None:
        side = self.state.active_side
        if not self.match.seats.is_human(side.id):
            return
        if self.viewer == side.id:
            return
        previous = self.viewer
        self.viewer = side.id
        if self.show_handover and self.prefs.briefings and side.id not in self.briefed and self.state.turn == 1:
            # Each player reads the battle's briefing before their first orders (behind the
            # hand-over in hotseat, so it is read by the right person).
            self.briefed.add(side.id)
            self.app.open("battle_briefing", battle=self, side=side.id, story=self.match.campaign is None)
        if side.id in self.logs:  # what its formations saw while it waited goes on its own log
            self.logs[side.id].extend(self.watch.take_log(side.id))
        if self.show_handover and self.is_hotseat() and previous != side.id:
            self.choice.let_go()
            self.looked_at = None
            # What the last player's eyes saw leaves with them; this one reads their own log and report.
            self.last_move = []
            self.narration.queue.clear()  # words the last player heard are not this one's
            if previous is not None:  # the first player waited for nothing
                self.narration.push(self.watch.report(side.id), None)
            for text, speaker in self.watch.narrations(side.id):
                self.narration.push(text, speaker)
            self.app.open("handover", battle=self, side_id=side.id)
        self._centre_on_side(side.id)

    def _narrate(self, ev: Event) -> None:
        if isinstance(ev, (Moved, Fled)):
            self.last_move = self._in_sight(ev.path)
        elif isinstance(ev, TurnEnded):
            self.last_move = []
        elif isinstance(ev, Narration) and not (self.computer.shown_fast() and not self.human_to_move()):
            self.narration.push(ev.text, ev.speaker)  # read in a pop-up, and kept in the log
        if (line := self.event_line(ev)) is not None:
            self.say(line)

    def event_line(self, ev: Event) -> str | None:
        """The battle log's words for an event (None for those it does not log)."""
        scenario = self.match.loaded.scenario
        return event_line(ev, self.state, self.rules, scenario, self.names, self.hud.side_name)

    def click_hex(self, h: Hex) -> None:
        """A left click on the map: look at what stands there; select, move, or open the attack
        forecast."""
        looked = self.side_view().formation_at(h)
        self.looked_at = looked.id if looked is not None else None
        if not self.human_to_move():
            return
        occupant_id = self.state.occupancy().get(h)
        occupant = self.state.formations.get(occupant_id) if occupant_id else None
        board = self.match.loaded.scenario.board
        if occupant is not None and not vision.sees_formation(
            self.state, board, self.rules, self.state.active_side.id, occupant
        ):
            occupant = None  # an order into the fog is an order to move there
        self._carry_out(self.choice.click(self.match.engine, h, occupant))

    def _carry_out(self, reading: Reading) -> None:
        """Do what the player's click or order meant (``order_input.Reading``)."""
        if reading.kind == "select":
            if self.choice.selected is not None:
                self.hints.notice("select")
                audio_of(self.app).play("select")
            self._after_change([])
        elif reading.kind == "act" and reading.action is not None:
            self.submit(reading.action)
        elif reading.kind == "forecast":
            self.hud.refresh(self.selected_formation(), self.pending_forecast())
            self.hints.notice("forecast")
        elif reading.kind == "toggle":
            self._after_change([])
        elif reading.kind == "aim":
            self.say(
                _("Palm thunder: click the hex to strike") if self.choice.aiming_thunder else _("Click the target")
            )

    def _refresh_orders(self) -> None:
        f = self.selected_formation()
        forced = self.choice.forced_march
        self.orders.refresh(self.match.engine, f, forced, self.match.can_undo(), self.human_to_move())

    def give_order(self, order: str) -> None:
        """An order from the bar or its key, for the selected formation."""
        if not self.human_to_move():
            return
        if order == "undo":
            if self.match.undo():
                self.say(_("Move taken back"))
                self._after_change([])
            else:
                self.say(_(UNDO_REFUSALS[self.match.undo_refusal]))
            return
        self._carry_out(self.choice.order(self.match.engine, order))

    def hero_order(self, order: str) -> None:
        """A hero's skill or challenge from the unit panel: given at once, or aimed by a click."""
        if self.human_to_move():
            self._carry_out(self.choice.hero_order(self.match.engine, self.rules, order))

    def confirm_attack(self) -> None:
        if self.choice.pending_attack is not None:
            self.submit(self.choice.pending_attack)

    def open_menu(self) -> None:
        self.app.open("battle_menu", battle=self)

    def has_choice_to_cancel(self) -> bool:
        return self.choice.has_choice_to_cancel()

    def cancel(self) -> None:
        self.looked_at = None
        taken_back = self.choice.cancel()
        if taken_back == "attack":
            self.hud.refresh(self.selected_formation(), None)
        elif taken_back == "selection":
            self._after_change([])

    def ready_formations(self) -> list[Formation]:
        """The side's formations that can still be given an order this turn."""
        return [f for f in self.state.formations_of(self.state.active_side.id) if not f.acted and not f.routed]

    def end_turn(self, confirmed: bool = False) -> None:
        """End the turn; with orders unused, ask first unless the player turned that off."""
        if not self.human_to_move():
            return
        ready = len(self.ready_formations())
        if ready and self.prefs.end_turn_warning and not confirmed:
            text = ngettext(
                "{n} formation can still act this turn.", "{n} formations can still act this turn.", ready
            ).format(n=ready)
            choices = [(_("End turn"), lambda: self.end_turn(confirmed=True)), (_("Keep commanding"), None)]
            self.app.open("dialog", title=_("End the turn?"), text=text, choices=choices)
            return
        self.selected = None
        self.submit(EndTurn())

    # -- saving ---------------------------------------------------------------------------

    def quicksave(self) -> None:
        try:
            self.app.saves.quicksave(self.match)
            self.say(_("Game saved"))
        except SaveError as exc:
            self.say(str(exc))

    def open_saves(self) -> None:
        """The save screen, over this battle (Back returns here)."""
        self.app.open("saves", battle=self)

    def autosave(self) -> None:
        """Save at the start of a human turn, keeping only the player's number of autosaves of
        this game (other games' autosaves are theirs)."""
        try:
            self.app.saves.autosave(self.match)
        except SaveError as exc:
            self.say(_("Autosave failed: {reason}").format(reason=str(exc)))

    def quickload(self) -> None:
        try:
            match = self.app.saves.quickload()
        except SaveError as exc:
            self.say(_("Cannot load: {reason}").format(reason=str(exc)))
            return
        mine = self.match.record
        if match.record.scenario_id == mine.scenario_id and match.record.settings == mine.settings:
            # The same campaign battle, taken back to the quicksave: it still counts for the campaign.
            match.campaign = self.match.campaign
        self.app.go("battle", match=match)

    # -- events ---------------------------------------------------------------------------

    def process(self, event: pygame.event.Event) -> None:
        """While a narration is shown it takes every click and key press: nothing else is
        ordered, pressed or clicked through it."""
        if self.narration.active and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            self._narration_input(event)
            return
        if self.motion.active and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.motion.finish()  # the click or key is then taken as always: none is lost
        if self.hints.handle(event):
            return
        super().process(event)

    def _narration_input(self, event: pygame.event.Event) -> None:
        click = event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3)
        if click or (event.type == pygame.KEYDOWN and event.key in DISMISS_KEYS):
            self.dismiss_narration()

    def dismiss_narration(self) -> None:
        self.narration.dismiss()
        if not self.narration.active and self.state.over:
            self._after_change([])

    def handle(self, event: pygame.event.Event) -> None:
        if self.log.handle(event):  # a wheel or click over the log, or its keys
            return
        if self.threat_toggle.handle(event) or self.legend.handle(event):
            return
        listed = self.unit_list.visible
        if self.unit_list.handle(event):
            if self.unit_list.visible and not listed:
                self.objectives.visible = False  # the two share the left column
            return
        if self.minimap.handle(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.end_turn_button:
                self.end_turn()
            elif event.ui_element is self.menu_button:
                self.open_menu()
            elif event.ui_element is self.hud.confirm_button:
                self.confirm_attack()
            elif event.ui_element is self.hud.cancel_button:
                self.cancel()
            elif (order := self.orders.order_of(event.ui_element)) is not None:
                self.give_order(order)
            elif (order := self.hud.skills.order_of(event.ui_element)) is not None:
                self.hero_order(order)
            elif event.ui_element is self.objectives.button:
                self.toggle_objectives()
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
            return
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3 and not self.over_panel(pos):
            self.cancel()
        clicked = self.map.pointer(event, on_panel=self.over_panel(pos))
        if clicked is not None:
            self.click_hex(clicked)
        if event.type == pygame.MOUSEMOTION:
            # The map under a panel is not pointed at: no hover line, no path through the panel.
            self.hover = None if self.over_panel(pos) else self.map.hex_at(pos)

    def over_panel(self, pos: tuple[int, int]) -> bool:
        """Whether ``pos`` is on a panel or button drawn over the map (it takes the pointer)."""
        return (
            pos[1] < px(TOP_BAR_H)
            or self.hud.covers(pos)
            or self.orders.covers(pos)
            or self.objectives.covers(pos)
            or self.end_turn_button.rect.collidepoint(pos)
            or self.menu_button.rect.collidepoint(pos)
            or self.log.covers(pos)
            or self.legend.covers(pos)
            or self.card_panel.covers(pos)
            or self.threat_toggle_rect().collidepoint(pos)
            or self.unit_list.covers(pos)
            or self.minimap.covers(pos)
        )

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        if self.map.zoom_key(key):  # + and −
            return
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.choice.pending_attack is not None:
                self.confirm_attack()
            elif event.mod & pygame.KMOD_SHIFT or key == pygame.K_KP_ENTER:
                self.end_turn()
        elif key == pygame.K_e:
            self.end_turn()
        elif key == pygame.K_ESCAPE and self.computer.to_move() and not self.computer.shown_fast():
            self.computer.skip_this_turn()
            self.say(_("Computer moves: the rest of this turn is not shown"))
        elif key == pygame.K_ESCAPE and self.has_choice_to_cancel():
            self.cancel()
        elif key == pygame.K_ESCAPE:
            self.open_menu()
        elif key == pygame.K_F1:
            self.app.open("help")
        elif key == pygame.K_F2:
            self.open_saves()
        elif key == pygame.K_F5:
            self.quicksave()
        elif key == pygame.K_F9:
            self.quickload()
        elif key == pygame.K_SPACE:
            self.computer.toggle_fast()
            self.say(_("Computer moves: fast") if self.computer.fast else _("Computer moves: shown one by one"))
        elif key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self.give_order("undo")
        elif key in ORDER_KEYS:
            self.give_order(ORDER_KEYS[key])
        elif key == pygame.K_TAB:
            self._select_next()
        elif key == pygame.K_o:
            self.toggle_objectives()
        elif key == pygame.K_p:
            self.show_places = not self.show_places

    def toggle_objectives(self) -> None:
        self.objectives.toggle()
        if self.objectives.visible and self.unit_list.visible:
            self.unit_list.toggle()  # the two share the left column

    def focus_formation(self, fid: str) -> None:
        """A row of the unit list: show that formation, and select it when it may be ordered."""
        f = self.state.formations.get(fid)
        if f is None:
            return
        if self.human_to_move() and f.side == self.state.active_side.id and self.choice.aiming is None:
            self.choice.choose(fid)
            self._after_change([])
        # In the middle of the map the panels leave open (the list's, the unit panel's).
        self.map.bring_into(f.pos, self.open_map_area())

    def _select_next(self) -> None:
        """Tab cycles through the side's formations that can still act."""
        if not self.human_to_move():
            return
        ready = self.ready_formations()
        if not ready:
            return
        ids = [f.id for f in ready]
        nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
        self.choice.choose(nxt)
        self.hints.notice("select")
        self.camera.centre_on(self.geometry.centre(self.state.formations[nxt].pos))
        self._after_change([])

    # -- frame ----------------------------------------------------------------------------

    def animating(self) -> bool:
        computer = self.computer.to_move() and not self.narration.active
        busy = self.marks.active or self.motion.active or self.hud.counting or self.recall is not None
        return computer or busy or self.map.keys_held()

    def update(self, dt: float) -> None:
        self.map.pan_keys(dt)
        self.marks.tick(dt)
        self.motion.tick(dt)
        self.hud.tick_pouches(dt)
        if self.recall is not None and self.recall.step(RECALL_SLICE):
            for side, lines in self.recall.lines.items():
                self.logs[side].recall(lines)
            self.recall = None
        # The computer acts for its side, and answers a challenge made to it.
        self.computer.update(dt)

    def overlays(self) -> Overlays:
        ov = Overlays(
            hover=self.hover,
            last_move=self.last_move,
            place_names=self.show_places,
            objective_outlines=self.show_places,
        )
        ov.threat, ov.enemy_reach = self.threat_toggle.overlay(self.side_view(), self.looked_at)
        ov.token_at = self.motion.positions()
        fog = self.fog()
        board = self.match.loaded.scenario.board
        self.choice.mark(ov, self.match.engine, board, self.hover, None if fog is None else fog.visible)
        return ov

    def thunder_forecast(self) -> list[tuple[str, Forecast]]:
        """The palm thunder's odds on what it would strike at the hovered hex, worked out on
        what the throwing side knows (as the attack forecast is)."""
        sel = self.selected_formation()
        if not self.choice.aiming_thunder or sel is None or self.hover is None:
            return []
        try:
            return self.knowing_engine(sel.side).blast_forecast(Blast(unit=sel.id, at=self.hover))
        except IllegalAction:
            return []

    def draw(self, surface: pygame.Surface) -> None:
        viewer = self.state.active_side.id if self.human_to_move() else None
        fog = self.fog()
        self.map.draw(surface, self.state, self.overlays(), fog, dim_done_for=viewer)
        self.motion.draw(surface, self.camera)
        self.marks.draw(surface, self.camera)
        if self.choice.aiming_thunder:
            draw_thunder_tip(surface, self.thunder_forecast(), pygame.mouse.get_pos())
        # A tall unit panel (a forecast in a small window) has the corner: the minimap gives way.
        panel = self.hud.panel_rect if self.hud.selected or self.hud.forecast else None
        button = self.unit_list.button  # None only before the first build
        corner = self.minimap.rect.union(button.rect) if button is not None else self.minimap.rect
        self.minimap.visible = panel is None or not panel.colliderect(corner)
        sel = self.selected_formation()
        self.minimap.draw(surface, self.camera, self.state.formations.values(), fog, sel.pos if sel else None)
        # The list is of the side on screen (none while the computer plays itself).
        side = self.fog_side() or self._first_human()
        if side is not None:
            rows = roster(self.state, self.rules, side, self.match.record.actions, self.names)
            self.unit_list.update(rows, self.selected)
        # The legend (K), open over the same corner, has it too.
        under_legend = button is not None and self.legend.visible and self.legend.rect.colliderect(button.rect)
        self.unit_list.show_button(self.minimap.visible and side is not None and not under_legend)
        # Its buttons (Cancel, Attack) must stay clickable: the view buttons under it give way too.
        for button in (self.threat_toggle.button, self.legend.button):
            clash = panel is not None and button is not None and panel.colliderect(button.rect)
            if button is not None and bool(button.visible) == clash:
                button.hide() if clash else button.show()
        # Ground never seen tells nothing, not even what it is.
        hover = self.hover if fog is None or self.hover in fog.explored else None
        self.hud.draw(
            surface,
            hover,
            self.match.loaded.scenario.board,
            viewer=self.fog_side(),
            shown=None if fog is None else fog.shown,
        )
        self.objectives.draw(surface, self.state, self.viewer or self._first_human())
        self.log.draw(surface, log_area(surface.get_size()))  # over the objectives when expanded
        w, h = surface.get_size()
        self.legend.draw(surface, (w - 14, h - 66 - 2 * px(VIEW_BUTTON_STEP)), pygame.mouse.get_pos(), "bottomright")
        if self.choice.pending_attack is None:  # a forecast tells of its target: no card over it
            self._draw_card(surface, hover)
        else:
            self.card_panel.hide()
        panel = self.hud.panel_rect if self.hud.selected or self.hud.forecast else pygame.Rect(0, 0, 0, 0)
        self.hints.draw(surface, avoid=[self.objectives.rect, panel])
        self.narration.draw(surface)

    def _draw_card(self, surface: pygame.Surface, hover: Hex | None) -> None:
        """The card of the formation under the pointer, else of the one last clicked: any
        formation the viewing side sees, friend or foe (the selected one has the unit panel)."""
        view = self.side_view()
        under = view.formation_at(hover) if hover is not None else None
        unit = under.id if under is not None else self.looked_at
        card = view.card(unit) if unit is not None and unit != self.selected else None
        if card is None:
            self.card_panel.hide()
            return
        pos = self.state.formations[unit].pos
        taken = [self.log_rect(), self.legend.rect, self.threat_toggle_rect(), self.minimap.rect]
        if self.unit_list.visible:
            taken.append(self.unit_list.rect)
        if self.objectives.visible:
            taken.append(self.objectives.rect)
        if self.hud.selected is not None or self.hud.forecast is not None:
            taken.append(self.hud.panel_rect)
        self.card_panel.draw_near(surface, card, self.camera.to_screen(self.geometry.centre(pos)), taken)

    def log_rect(self) -> pygame.Rect:
        return log_area(self.app.size)

    def threat_toggle_rect(self) -> pygame.Rect:
        """The column of view buttons and End turn at the bottom right."""
        w, h = self.app.size
        return pygame.Rect(
            w - px(174), h - px(62) - 2 * px(VIEW_BUTTON_STEP), px(164), px(58) + 2 * px(VIEW_BUTTON_STEP)
        )

    def resize(self, size: tuple[int, int]) -> None:
        self.map.resize(pygame.Rect((0, 0), size))
        super().resize(size)
