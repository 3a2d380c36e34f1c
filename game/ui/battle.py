"""The battle screen: it draws the battle session (``game.session``) and forwards the player's
input to it.

The session owns the match, the choice and the order flow, whose eyes are on the screen and the
hand-over; every input comes back as an ``Outcome``, which the screen shows (the log, marks,
motion, sounds, hints, the unit panel) and follows on (the result, a duel, a hand-over).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from ..content.campaigns import names_script
from ..core.actions import Action
from ..core.events import Event, Fled, Moved, Narration, TurnEnded
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.state import GameState
from ..forward import Forward
from ..i18n import _
from ..record.match import Match
from ..session import BattleSession, Outcome
from ..session.tutorial import tutorial_progress
from ..settings import UserSettings, load_settings
from .action_show import ActionShow
from .audio import audio_of
from .battle_controls import key_down, press, read_more
from .battle_log import BattleLog
from .battle_panels import BattlePanels
from .battle_saves import BattleSaves
from .board_view import Overlays
from .camera import Camera
from .computer_turns import ComputerTurns
from .duel_view import follow_up
from .geometry import MapGeometry
from .hints import Hints
from .map_marks import MapMarks
from .map_view import MapView
from .motion import Motion
from .narration import NarrationPopup, event_line
from .scene import Scene
from .side_logs import SideLogs
from .thunder_aim import draw_thunder_tip
from .tutorial_panel import TutorialPanel

if TYPE_CHECKING:
    from .app import App

# Keys that close a narration pop-up.
DISMISS_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE)


class BattleScene(Scene):
    tells_story = True

    def __init__(self, app: App, match: Match, show_handover: bool = True, view_side: str | None = None) -> None:
        self.script = names_script(match.loaded.scenario.campaign)
        self.tell_story()  # before anything is named
        # The battle itself: the match, the choice, the viewing side and the hand-over.
        self.session = BattleSession(match, view_side, curtains=show_handover, describe=self.event_line)
        self.map = MapView(match.loaded, self.rules, pygame.Rect((0, 0), app.size))
        # Place names and the outlines of the places the objectives turn on (P).
        self.show_places = True
        self.marks = MapMarks(self.geometry)
        self.motion = Motion(self.geometry)
        # The formation looked at (hovered or clicked, friend or foe): its card, its reach.
        self.looked_at: str | None = None
        self.computer = ComputerTurns(
            self.session,
            apply=self.submit,
            held=lambda: self.narration.active or self.motion.active,
            stopped=lambda: self.app.scene is not self or self.narration.active,
            speed=lambda: self.prefs.ai_speed,
        )
        self.hover: Hex | None = None
        self.last_move: list[Hex] = []
        self.prefs = UserSettings()
        # One log per viewing side: in hotseat each player reads their own.
        self.logs = SideLogs(match)
        # Scenario prose: narration pop-ups (modal).
        self.narration = NarrationPopup(self.rules)
        self.panels = BattlePanels(self.session, self.geometry, self.focus_formation, self.camera.centre_on)
        self.stage = ActionShow(self.map, self.marks, self.motion)
        self.saves = BattleSaves(app, match, self.say, lambda: self.session.viewer)
        # The tutorial's steps, when this is the tutorial battle (its panel teaches as it is played).
        progress = tutorial_progress(match)
        self.tutorial = TutorialPanel(progress) if progress is not None else None
        if self.tutorial is not None:  # its panel takes the objectives' corner (O shows them)
            self.panels.objectives.visible = False
        # A short hint the first time each thing matters (F1 opens its help page); none in the
        # tutorial, whose panel says what to do.
        self.hints = Hints(
            app.profile.saves_dir, open_help=lambda page: self.app.open("help", page=page), quiet=progress is not None
        )
        audio_of(app).begin_battle()
        super().__init__(app)
        self._centre_on_side(self.session.first_human() or match.state.active_side.id)

    def on_enter(self) -> None:
        self.prefs = load_settings(self.app.profile.saves_dir)
        # Every battle people play is saved as it begins, so leaving it at once loses nothing
        # and a campaign's Continue always finds it.
        if not self.match.record.actions and self.session.humans() and not self.state.over:
            self.saves.autosave()
        # What the main menu's Continue goes on with: a campaign's battle through its campaign.
        played = "campaign" if self.match.campaign is not None else "battle"
        if self.app.profile.settings.last_played != played:
            self.app.remember(last_played=played)
        # A loaded game may go straight on to a hand-over, a duel's answer or its result.
        self._after_change([])
        self._hear([])

    def _hear(self, events: list[Event]) -> None:
        """Sound what the viewer witnessed, and let the music follow the situation."""
        seen = self.session.seen_ids()
        audio_of(self.app).battle_events(events, self.state, self.rules, self.session.fog_side(), seen)

    def on_reveal(self) -> None:
        self.prefs = load_settings(self.app.profile.saves_dir)  # the settings screen may have been open over the battle
        self.hints.reload()

    def on_leave(self) -> None:
        self.computer.cancel()

    # -- what it shows --------------------------------------------------------------------

    def story_script(self) -> str | None:
        return self.script

    def build(self) -> None:
        self.panels.build(self.manager, self.app.size)
        self.map.resize(pygame.Rect((0, 0), self.app.size))
        if self.tutorial is not None:
            self.tutorial.build(self.manager, self.app.size, self.panels.objectives)
            self.panels.reserved = [self.tutorial.rect]

    match = Forward[Match]("session", "match")
    state = Forward[GameState]("session", "state")
    rules = Forward[Ruleset]("session", "rules")
    camera = Forward[Camera]("map", "camera")
    geometry = Forward[MapGeometry]("map", "geometry")

    @property
    def log(self) -> BattleLog:
        """The log of the side whose eyes are on the screen."""
        return self.logs.of(self.session.fog_side())

    def say(self, text: str) -> None:
        self.log.add(text)

    def event_line(self, ev: Event) -> str | None:
        """The battle log's words for an event (None for those it does not log)."""
        session = self.session
        scenario = session.match.loaded.scenario
        return event_line(ev, session.state, session.rules, scenario, session.names, session.side_name)

    def _centre_on_side(self, side_id: str) -> None:
        fs = self.state.formations_of(side_id)
        if self.tutorial is not None:  # the tutorial's small field: its enemy in view too
            fs = list(self.state.formations.values())
        if not fs:
            return
        self.map.centre_on_formations(fs)
        # In the middle of the part of the map the panels leave open.
        free = self.panels.open_map_area()
        w, h = self.app.size
        self.camera.pan(w / 2 - free.centerx, h / 2 - free.centery)

    # -- orders: forwarded to the session, what came of them shown ------------------------

    def submit(self, action: Action) -> bool:
        """Apply an action through the session and show what came of it; a refusal is told."""
        outcome = self.session.submit(action)
        self.show(outcome)
        return outcome.applied

    def click_hex(self, h: Hex) -> None:
        """A left click on the map: look at what stands there; select, move, or aim a blow."""
        looked = self.session.view().formation_at(h)
        self.looked_at = looked.id if looked is not None else None
        outcome = self.session.click(h)
        if outcome.kind == "forecast":
            self.looked_at = None  # a blow aimed at it: its reach would only hide the march and the odds
        self.show(outcome)

    def give_order(self, order: str) -> None:
        """An order from the bar or its key, for the selected formation."""
        self.show(self.session.order(order))

    def hero_order(self, order: str) -> None:
        """A hero's skill or challenge from the unit panel: given at once, or aimed by a click."""
        self.show(self.session.hero_order(order))

    def confirm_attack(self) -> None:
        self.show(self.session.confirm_attack())

    def end_turn(self, confirmed: bool = False) -> None:
        """End the turn; with orders unused, ask first unless the player turned that off."""
        self.show(self.session.end_turn(warn=self.prefs.end_turn_warning and not confirmed))

    def cancel(self) -> None:
        self.looked_at = None
        taken_back = self.session.cancel()
        if taken_back == "attack":
            self.panels.refresh_hud()
        elif taken_back == "selection":
            self._after_change([])

    def show(self, outcome: Outcome) -> None:
        """Show what came of an input (``session.Outcome``)."""
        if self.tutorial is not None:
            self.tutorial.progress.observe(outcome, self.state)
        if outcome.kind == "applied":
            self._show_action(outcome)
        elif outcome.kind in ("refused", "aiming") and outcome.message:
            self.say(outcome.message)
        elif outcome.kind == "selected":
            if outcome.selected is not None:
                self.hints.notice("select")
                audio_of(self.app).play("select")
            self._after_change([])
        elif outcome.kind == "forecast":
            self.panels.refresh_hud(outcome.forecast)
            self.hints.notice("forecast")
        elif outcome.kind in ("toggled", "undone"):
            if outcome.message:
                self.say(outcome.message)
            self._after_change([])
        elif outcome.kind == "warning":
            choices = [(_("End turn"), lambda: self.end_turn(confirmed=True)), (_("Keep commanding"), None)]
            self.app.open("dialog", title=_("End the turn?"), text=outcome.message, choices=choices)

    def _show_action(self, outcome: Outcome) -> None:
        """An action went through: hint, sound and show on the map what the viewer witnessed."""
        events = list(outcome.events)
        self.hints.on_events(events, self.state, self.session.fog_side(), self.match.seats)
        self._hear(events)
        follow = outcome.by_computer and not self.computer.shown_fast()
        free = self.panels.open_map_area() if follow else None
        self.stage.play(outcome, self.state, self.motion_speed(outcome.by_computer), self.panels.hud, free)
        self._after_change(events)

    def motion_speed(self, by_computer: bool) -> str:
        """How fast a move is shown: the computer's by its setting (none while its moves are shown
        fast), the player's own by theirs."""
        if not by_computer:
            return self.prefs.own_speed
        return "instant" if self.computer.shown_fast() else self.prefs.ai_speed

    def _after_change(self, events: list[Event]) -> None:
        for ev in events:
            self._narrate(ev)
        self.session.settle()
        self.panels.refresh()
        if self.state.over:
            if not self.narration.active:  # the closing words are read before the result
                self.app.go("result", match=self.match)
            return
        if any(isinstance(ev, TurnEnded) for ev in events):
            self.looked_at = None  # an enemy's reach looked at in the last turn has had its use
            if self.session.human_to_move():
                self.saves.autosave()
        if follow_up(self, events):
            return
        self._maybe_hand_over()

    def _maybe_hand_over(self) -> None:
        # The tutorial's panel says what to do: no briefing before it.
        hand = self.session.hand_over(briefings=self.prefs.briefings and self.tutorial is None)
        if hand is None:
            return
        if hand.brief:
            self.app.open("battle_briefing", session=self.session, side=hand.side, story=self.match.campaign is None)
        if hand.side in self.logs:  # what its formations saw while it waited goes on its own log
            self.logs[hand.side].extend(list(hand.log))
        if hand.curtain:
            # What the last player's eyes saw leaves with them; this one reads their own log and report.
            self.looked_at = None
            self.last_move = []
            self.narration.queue.clear()  # words the last player heard are not this one's
            if hand.report is not None:
                self.narration.push(hand.report, None)
            for text, speaker in hand.heard:
                self.narration.push(text, speaker)
            self.app.open("handover", session=self.session, side_id=hand.side)
        self._centre_on_side(hand.side)

    def _narrate(self, ev: Event) -> None:
        if isinstance(ev, (Moved, Fled)):
            self.last_move = self.session.in_sight(ev.path)
        elif isinstance(ev, TurnEnded):
            self.last_move = []
        elif isinstance(ev, Narration) and not (self.computer.shown_fast() and not self.session.human_to_move()):
            self.narration.push(ev.text, ev.speaker)  # read in a pop-up, and kept in the log
        if (line := self.event_line(ev)) is not None:
            self.say(line)

    def focus_formation(self, fid: str) -> None:
        """A row of the unit list: show that formation, and select it when it may be ordered."""
        f = self.state.formations.get(fid)
        if f is None:
            return
        if self.session.choose(fid):
            self._after_change([])
        # In the middle of the map the panels leave open (the list's, the unit panel's).
        self.map.bring_into(f.pos, self.panels.open_map_area())

    def _select_next(self) -> None:
        """Tab cycles through the side's formations that can still act."""
        nxt = self.session.select_next()
        if nxt is None:
            return
        self.hints.notice("select")
        self.camera.centre_on(self.geometry.centre(self.state.formations[nxt].pos))
        self._after_change([])

    def open_menu(self) -> None:
        self.app.open("battle_menu", battle=self)

    # -- saving ---------------------------------------------------------------------------

    def unsaved(self) -> bool:
        return not self.state.over and self.match.unsaved()

    def save_progress(self) -> None:
        """Save the game as the battle menu's leave does (``BattleSaves.save_progress``)."""
        self.saves.save_progress()

    # -- input ----------------------------------------------------------------------------

    def process(self, event: pygame.event.Event) -> None:
        """While a narration is shown, a click or key closes it. The click that closes the last
        words also does what it would have done (select, march, aim) when it fell outside the
        words' box: reading the words must not cost the player the click."""
        if self.narration.active and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN):
            click = event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3)
            if click or (event.type == pygame.KEYDOWN and event.key in DISMISS_KEYS):
                on_words = click and self.narration.rect.collidepoint(event.pos)
                self.dismiss_narration()
                if click and not on_words and not self.narration.active and not self.state.over:
                    super().process(event)
            return
        if self.motion.active and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.motion.finish()  # the click or key is then taken as always: none is lost
        if self.hints.handle(event):
            return
        super().process(event)

    def dismiss_narration(self) -> None:
        self.narration.dismiss()
        if not self.narration.active and self.state.over:
            self._after_change([])

    def handle(self, event: pygame.event.Event) -> None:
        panels = self.panels
        # The card and the legend are drawn over the other panels: a click on them is theirs.
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and read_more(self, event.pos):
            return
        if self.log.handle(event):  # a wheel or click over the log, or its keys
            return
        if panels.threat_toggle.handle(event) or panels.legend.handle(event):
            return
        listed = panels.unit_list.visible
        if panels.unit_list.handle(event):
            if panels.unit_list.visible and not listed:
                panels.objectives.visible = False  # the two share the left column
            return
        if panels.minimap.handle(event):
            return
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            press(self, event.ui_element)
            return
        if self.tutorial is not None and event.type == pygame.MOUSEBUTTONDOWN and self.tutorial.covers(event.pos):
            return
        if event.type == pygame.KEYDOWN:
            key_down(self, event)
            return
        pos = getattr(event, "pos", None) or pygame.mouse.get_pos()
        on_panel = panels.covers(pos, self.log)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 3 and not on_panel:
            self.cancel()
        clicked = self.map.pointer(event, on_panel=on_panel)
        if clicked is not None:
            self.click_hex(clicked)
        if event.type == pygame.MOUSEMOTION:
            # The map under a panel is not pointed at: no hover line, no path through the panel.
            self.hover = None if on_panel else self.map.hex_at(pos)

    # -- frame ----------------------------------------------------------------------------

    def animating(self) -> bool:
        computer = self.computer.to_move() and not self.narration.active
        busy = self.marks.active or self.motion.active or self.panels.hud.counting or self.logs.recall is not None
        busy = busy or self.panels.unsettled
        return computer or busy or self.map.keys_held()

    def update(self, dt: float) -> None:
        self.map.pan_keys(dt)
        self.marks.tick(dt)
        self.motion.tick(dt)
        self.panels.hud.tick_pouches(dt)
        self.logs.recall_step()
        # The computer acts for its side, and answers a challenge made to it.
        self.computer.update(dt)

    def overlays(self) -> Overlays:
        ov = Overlays(
            hover=self.hover,
            last_move=self.last_move,
            place_names=self.show_places,
            objective_outlines=self.show_places,
        )
        ov.threat, ov.enemy_reach = self.panels.threat_toggle.overlay(self.session.view(), self.looked_at)
        ov.token_at = self.motion.positions()
        marks = self.session.marks(self.hover)
        ov.selected, ov.reachable, ov.path, ov.targets = marks.selected, marks.reachable, marks.path, marks.targets
        return ov

    def draw(self, surface: pygame.Surface) -> None:
        session = self.session
        viewer = self.state.active_side.id if session.human_to_move() else None
        fog = session.view().fog
        self.map.draw(surface, self.state, self.overlays(), fog, dim_done_for=viewer)
        self.motion.draw(surface, self.camera)
        self.marks.draw(surface, self.camera)
        if session.choice.aiming_thunder:
            draw_thunder_tip(surface, session.thunder_forecast(self.hover), pygame.mouse.get_pos())
        if self.tutorial is not None:
            self.tutorial.place(self.app.size, self.panels.objectives)
            self.panels.reserved = [self.tutorial.rect]
        self.panels.draw(surface, self.camera, self.hover, fog, self.log, self.looked_at)
        if self.tutorial is not None:
            self.tutorial.draw(surface)
        panel = self.panels.unit_panel_rect() or pygame.Rect(0, 0, 0, 0)
        self.hints.draw(surface, avoid=[self.panels.objectives.rect, panel])
        self.narration.draw(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.map.resize(pygame.Rect((0, 0), size))
        super().resize(size)
