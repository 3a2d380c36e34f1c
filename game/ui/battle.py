"""The battle screen: the map, selection and orders, the forecast, AI turns and hotseat hand-over.

Everything the player does becomes an engine action applied through the match; the screen
only reads the state and the events that come back.
"""

from __future__ import annotations

import time

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from .. import i18n
from ..ai.basic import BasicAI
from ..ai.driver import make_ais
from ..content.campaigns import names_script
from ..content.ruleset import load_ruleset
from ..core import vision
from ..core.actions import Action, Attack, Blast, Capture, EndTurn, Fire, Move, Rest
from ..core.combat import Forecast
from ..core.engine import Engine, IllegalAction
from ..core.events import (
    Event,
    Fled,
    Moved,
    Narration,
    TurnEnded,
)
from ..core.hexgrid import Hex
from ..core.movement import MoveMap
from ..core.state import Formation
from ..i18n import _, ngettext
from ..record.match import Match, match_from_record
from ..record.save_list import autosave_name, prune_autosaves
from ..record.saves import QUICKSAVE_NAME, SaveError, load_record, save_path
from ..settings import AI_SPEEDS, UserSettings, load_settings
from .ai_worker import AIWorker
from .board_view import BoardView, Fog, Overlays
from .camera import Camera
from .duel_view import follow_up
from .geometry import MapGeometry
from .hero_orders import aim_hexes, aimed_action, candidates, is_aimed
from .hotseat import WatchReports
from .hud import TOP_BAR_H, Hud, unit_name
from .narration import NarrationPopup, ObjectivesPanel, event_line
from .orders import KEYS as ORDER_KEYS
from .orders import OrdersBar
from .scene import Scene
from .witness import witnessed

# Seconds between two AI actions when they are shown move by move, at the normal speed.
AI_STEP_DELAY = AI_SPEEDS["normal"]
# Longest a frame waits for the computer's next decision (fast mode), so the screen stays live.
AI_FRAME_WAIT = 0.012
PAN_SPEED = 700.0  # pixels per second for keyboard panning
DRAG_THRESHOLD = 6
# Keys that close a narration pop-up.
DISMISS_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_ESCAPE)


class BattleScene(Scene):
    def __init__(self, app, match: Match, show_handover: bool = True, view_side: str | None = None) -> None:
        self.match = match
        i18n.set_story_script(names_script(match.loaded.scenario.campaign))
        self.show_handover = show_handover
        # Whose fog to draw: a side id, "all" for everything, None for the human at the screen.
        self.view_side = view_side
        self._fog: tuple[tuple, Fog | None] | None = None
        # Formations the viewing side saw before the last action, and whether it saw that action.
        self._seen_before: set[str] = set()
        self._last_seen = True
        self.rules = load_ruleset()
        loaded = match.loaded
        board = loaded.scenario.board
        self.geometry = MapGeometry(loaded.layout, board.width, board.height)
        self.view = BoardView(self.geometry, board.terrain, self.rules)
        self.camera = Camera(self.geometry.pixel_size, app.size)
        self.ais: dict[str, BasicAI] = make_ais(match)
        self.selected: str | None = None
        self.move_map: MoveMap | None = None
        self.hover: Hex | None = None
        self.pending_attack: Attack | Fire | None = None
        # Orders that change how the next click is read: forced march, aiming palm thunder.
        self.forced_march = False
        self.aiming_thunder = False
        # A hero's order waiting for its target to be clicked: a skill id or "challenge".
        self.aiming: str | None = None
        self.last_move: list[Hex] = []
        self.ai_timer = 0.0
        self.fast_ai = False
        self.prefs = UserSettings()
        # The computer thinks off the main thread; the side-turn whose remaining moves are not shown.
        self.ai_worker = AIWorker()
        self.skip_turn: tuple[int, int] | None = None
        self.drag_from: tuple[int, int] | None = None
        self.dragging = False
        # The human side whose eyes are on the screen; hand-over happens when it changes.
        self.viewer: str | None = None
        self.log: list[str] = []
        self.names: dict[str, str] = {}
        # Scenario prose: narration pop-ups (modal) and the objectives panel (O).
        self.narration = NarrationPopup(self.rules)
        # Hotseat: what each waiting player's formations see of the other turns.
        self.watch = WatchReports()
        self.watch.begin(match)
        self.objectives = ObjectivesPanel(match.loaded.scenario)
        super().__init__(app)
        self._centre_on_side(self._first_human() or match.state.active_side.id)

    def on_enter(self) -> None:
        self.prefs = load_settings()
        # A loaded game may go straight on to a hand-over, a duel's answer or its result.
        self._after_change([])

    def on_reveal(self) -> None:
        self.prefs = load_settings()  # the settings screen may have been open over the battle

    def on_leave(self) -> None:
        self.ai_worker.cancel()  # a decision for an abandoned game is never applied

    def unsaved(self) -> bool:
        return not self.state.over and self.match.unsaved()

    def save_progress(self) -> None:
        """Save the game under its own name (scenario and seed), as the battle menu's leave does."""
        record = self.match.record
        self.match.save(save_path(f"{record.scenario_id}-{record.seed}"))

    # -- layout ---------------------------------------------------------------------------

    def build(self) -> None:
        self.hud = Hud(self.manager, self.app.size, self.rules, self.match)
        self.orders = OrdersBar(self.manager, self.app.size)
        self.objectives.build(self.manager, self.app.size)
        w, h = self.app.size
        self.end_turn_button = UIButton(
            pygame.Rect(w - 170, h - 58, 156, 44),
            _("End turn"),
            self.manager,
            object_id="#big_button",
        )
        self.menu_button = UIButton(
            pygame.Rect(w - 254, 6, 96, TOP_BAR_H - 12),
            _("Menu"),
            self.manager,
            tool_tip_text=_("Save, load, settings, help, leave the battle (Esc)"),
        )
        self.camera.resize(self.app.size)
        self.hud.refresh(self.selected_formation(), self.pending_forecast())

    # -- helpers --------------------------------------------------------------------------

    @property
    def state(self):
        return self.match.state

    def humans(self) -> list[str]:
        return [s.id for s in self.state.sides if s.controller == "human"]

    def _first_human(self) -> str | None:
        h = self.humans()
        return h[0] if h else None

    def is_hotseat(self) -> bool:
        return len(self.humans()) >= 2

    def human_to_move(self) -> bool:
        return not self.state.over and self.state.active_side.controller == "human"

    def selected_formation(self) -> Formation | None:
        if self.selected is None:
            return None
        return self.state.formations.get(self.selected)

    def pending_forecast(self) -> Forecast | None:
        """The odds of the attack being aimed, as the attacking side knows the field: a hidden
        enemy hero's aura or an unseen formation's weight stays out of it, or the forecast
        would give them away (the blow itself meets them all the same)."""
        if self.pending_attack is None:
            return None
        engine = self.match.engine
        side = self.state.active_side.id
        view = vision.side_view(self.state, engine.board, engine.rules, side)
        knowing = Engine(engine.scenario, engine.rules, engine.seed, engine.settings, state=view)
        try:
            return knowing.forecast(self.pending_attack)
        except IllegalAction:
            return None

    def _centre_on_side(self, side_id: str) -> None:
        fs = self.state.formations_of(side_id)
        if not fs:
            return
        xs = [self.geometry.centre(f.pos) for f in fs]
        self.camera.centre_on((sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)))

    def say(self, text: str) -> None:
        self.log.append(text)
        self.log = self.log[-6:]

    # -- fog of war -----------------------------------------------------------------------

    def fog_side(self) -> str | None:
        """The side whose eyes are on the screen; None when everything is shown."""
        if self.view_side is not None:
            return None if self.view_side == "all" else self.view_side
        if not self.humans():
            return None
        return self.viewer or self._first_human()

    def fog(self) -> Fog | None:
        """What the viewing side knows, worked out again only when the game or the viewer changes."""
        side = self.fog_side()
        if side is None:
            return None
        state = self.state
        key = (side, id(state), state.action_index, len(state.side(side).explored))
        if self._fog is None or self._fog[0] != key:
            board = self.match.loaded.scenario.board
            fog = Fog(
                visible=vision.visible_hexes(state, board, self.rules, side),
                explored=frozenset(Hex.parse(k) for k in state.side(side).explored),
                shown=frozenset(self._seen_ids()),
            )
            self._fog = (key, fog)
        return self._fog[1]

    def _seen_ids(self, side: str | None = None) -> set[str]:
        """Formations ``side`` (by default the viewing side) sees; every one when none views."""
        side = side or self.fog_side()
        if side is None:
            return set(self.state.formations)
        board = self.match.loaded.scenario.board
        return {f.id for f in vision.seen_formations(self.state, board, self.rules, side)}

    def _witnessed(self, ev: Event) -> bool:
        side = self.fog_side()
        return side is None or self.witnessed_by(ev, side, self._seen_before)

    def witnessed_by(self, ev: Event, side: str, seen_before: set[str]) -> bool:
        """Whether ``side`` saw ``ev`` happen (``witness.witnessed``): ``seen_before`` is what it
        saw just before the action; in hotseat a narration is heard only where it could be."""
        scenario = self.match.loaded.scenario
        sight = vision.Sight(
            seen=seen_before | self._seen_ids(side),
            visible=vision.visible_hexes(self.state, scenario.board, self.rules, side),
        )
        return witnessed(ev, side, sight, self.state, scenario, self.rules, self.is_hotseat())

    def _in_sight(self, path: tuple[Hex, ...] | list[Hex]) -> list[Hex]:
        """The part of a path the viewing side can see."""
        fog = self.fog()
        return list(path) if fog is None else [h for h in path if h in fog.visible]

    # -- orders ---------------------------------------------------------------------------

    def submit(self, action: Action) -> bool:
        """Apply an action through the match; a refusal is shown, never raised."""
        # Names first: a formation destroyed by this action is gone from the state afterwards.
        self.names = {f.id: unit_name(self.rules, f) for f in self.state.formations.values()}
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
        self._last_seen = bool(events)
        self._after_change(events)
        return True

    def _after_change(self, events: list[Event]) -> None:
        for ev in events:
            self._narrate(ev)
        f = self.selected_formation()
        if f is None or f.side != self.state.active_side.id:
            self.selected = None
        self.move_map = None
        if self.selected is not None:
            f = self.selected_formation()
            if f is not None and self.match.engine.can_move(f):
                self.move_map = self.match.engine.moves(f.id, forced=self.forced_march)
        self.pending_attack = None
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
        if side.controller != "human":
            return
        if self.viewer == side.id:
            return
        previous = self.viewer
        self.viewer = side.id
        if self.show_handover and self.is_hotseat() and previous != side.id:
            self.selected = None
            # What the last player's eyes saw leaves with them; this one reads their own report.
            self.log = []
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
            self.say(self.event_line(ev) or "")
        elif isinstance(ev, Narration):
            if self.ai_fast() and not self.human_to_move():
                speaker = self.narration.speaker_name(ev.speaker)
                self.say(f"{speaker}: {_(ev.text)}" if speaker else _(ev.text))
            else:
                self.narration.push(ev.text, ev.speaker)
        elif (line := self.event_line(ev)) is not None:
            self.say(line)

    def event_line(self, ev: Event) -> str | None:
        """The battle log's words for an event (None for those it does not log)."""
        scenario = self.match.loaded.scenario
        return event_line(ev, self.state, self.rules, scenario, self.names, self.hud.side_name)

    def click_hex(self, h: Hex) -> None:
        """A left click on the map: select, move, or open the attack forecast."""
        if not self.human_to_move():
            return
        occupant_id = self.state.occupancy().get(h)
        occupant = self.state.formations.get(occupant_id) if occupant_id else None
        side = self.state.active_side.id
        board = self.match.loaded.scenario.board
        if occupant is not None and not vision.sees_formation(self.state, board, self.rules, side, occupant):
            occupant = None  # an order into the fog is an order to move there
        sel = self.selected_formation()
        if occupant is not None and occupant.side == side:
            self.selected = occupant.id if occupant.id != self.selected else None
            self.forced_march = False
            self.aiming_thunder = False
            self._after_change([])
            return
        if sel is None:
            return
        if self.aiming_thunder:
            self.aiming_thunder = False
            self.submit(Blast(unit=sel.id, at=h))
            return
        if self.aiming is not None:
            aimed = aimed_action(self.match.engine, sel, self.aiming, h)
            self.aiming = None
            if aimed is not None:
                self.submit(aimed)
            return
        if occupant is not None:
            # Missile troops shoot rather than close: no blow comes back.
            if occupant.id in self.match.engine.fire_targets(sel.id):
                self.pending_attack = Fire(unit=sel.id, target=occupant.id)
            elif occupant.id in self.match.engine.attack_targets(sel.id):
                self.pending_attack = Attack(unit=sel.id, target=occupant.id)
            else:
                return
            self.hud.refresh(sel, self.pending_forecast())
            return
        if self.move_map is not None and h in self.move_map.destinations:
            self.submit(Move(unit=sel.id, to=h, forced=self.forced_march))

    def _refresh_orders(self) -> None:
        f = self.selected_formation()
        self.orders.refresh(self.match.engine, f, self.forced_march, self.match.can_undo(), self.human_to_move())

    def give_order(self, order: str) -> None:
        """An order from the bar or its key, for the selected formation."""
        if not self.human_to_move():
            return
        f = self.selected_formation()
        if order == "undo":
            if self.match.undo():
                self.say(_("Move taken back"))
                self._after_change([])
            return
        if f is None:
            return
        if order == "forced":
            self.forced_march = not self.forced_march
            self._after_change([])
        elif order == "capture":
            self.submit(Capture(unit=f.id))
        elif order == "rest":
            self.submit(Rest(unit=f.id))
        elif order == "thunder" and f.charges > 0:
            self.aiming_thunder = True
            self.say(_("Palm thunder: click the hex to strike"))

    def hero_order(self, order: str) -> None:
        """A hero's skill or challenge from the unit panel: given at once, or aimed by a click."""
        f = self.selected_formation()
        if f is None or not self.human_to_move():
            return
        options = candidates(self.match.engine, f, order)
        if not options:
            return
        if is_aimed(self.rules, order):
            self.aiming = order
            self.say(_("Click the target"))
        else:
            self.submit(options[0])

    def confirm_attack(self) -> None:
        if self.pending_attack is not None:
            self.submit(self.pending_attack)

    def open_menu(self) -> None:
        self.app.open("battle_menu", battle=self)

    def has_choice_to_cancel(self) -> bool:
        return (
            self.aiming is not None
            or self.aiming_thunder
            or self.pending_attack is not None
            or self.selected is not None
        )

    def cancel(self) -> None:
        if self.aiming is not None:
            self.aiming = None
        elif self.aiming_thunder:
            self.aiming_thunder = False
        elif self.pending_attack is not None:
            self.pending_attack = None
            self.hud.refresh(self.selected_formation(), None)
        else:
            self.selected = None
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
            self.match.save(save_path(QUICKSAVE_NAME))
            self.say(_("Game saved"))
        except SaveError as exc:
            self.say(str(exc))

    def open_saves(self) -> None:
        """The save screen, over this battle (Back returns here)."""
        self.app.open("saves", battle=self)

    def autosave(self) -> None:
        """Save at the start of a human turn, keeping only the player's number of autosaves."""
        state = self.state
        path = save_path(autosave_name(self.match.record, state.turn, state.active_side.id))
        keep = load_settings(path.parent).autosaves
        if keep <= 0:
            return
        try:
            self.match.save(path)
            prune_autosaves(keep, path.parent)
        except SaveError as exc:
            self.say(_("Autosave failed: {reason}").format(reason=str(exc)))

    def quickload(self) -> None:
        try:
            match = match_from_record(load_record(save_path(QUICKSAVE_NAME)))
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
                self.objectives.toggle()
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if (
                self.hud.covers(event.pos)
                or self.orders.covers(event.pos)
                or self.objectives.covers(event.pos)
                or self.end_turn_button.rect.collidepoint(event.pos)
                or self.menu_button.rect.collidepoint(event.pos)
            ):
                return
            if event.button == 1:
                self.drag_from = event.pos
                self.dragging = False
            elif event.button == 3:
                self.cancel()
            elif event.button in (4, 5):  # old-style wheel events
                self.camera.zoom_at(1 if event.button == 4 else -1, event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.drag_from is not None and not self.dragging:
                self.click_hex(self.geometry.hex_at(*self.camera.to_map(event.pos)))
            self.drag_from = None
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION:
            if self.drag_from is not None and (event.buttons[0] or event.buttons[1]):
                dx, dy = event.pos[0] - self.drag_from[0], event.pos[1] - self.drag_from[1]
                if self.dragging or abs(dx) + abs(dy) > DRAG_THRESHOLD:
                    self.dragging = True
                    self.camera.pan(-event.rel[0], -event.rel[1])
            self.hover = self.geometry.hex_at(*self.camera.to_map(event.pos))
        elif event.type == pygame.MOUSEWHEEL:
            self.camera.zoom_at(1 if event.y > 0 else -1, pygame.mouse.get_pos())

    def _key(self, event: pygame.event.Event) -> None:
        key = event.key
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.pending_attack is not None:
                self.confirm_attack()
            elif event.mod & pygame.KMOD_SHIFT or key == pygame.K_KP_ENTER:
                self.end_turn()
        elif key == pygame.K_e:
            self.end_turn()
        elif key == pygame.K_ESCAPE and self.ai_to_move() and not self.ai_fast():
            self.skip_turn = self._turn_key()
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
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom_at(1, (self.app.size[0] / 2, self.app.size[1] / 2))
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom_at(-1, (self.app.size[0] / 2, self.app.size[1] / 2))
        elif key == pygame.K_SPACE:
            self.fast_ai = not self.fast_ai
            self.say(_("Computer moves: fast") if self.fast_ai else _("Computer moves: shown one by one"))
        elif key == pygame.K_z and event.mod & pygame.KMOD_CTRL:
            self.give_order("undo")
        elif key in ORDER_KEYS:
            self.give_order(ORDER_KEYS[key])
        elif key == pygame.K_TAB:
            self._select_next()
        elif key == pygame.K_o:
            self.objectives.toggle()

    def _select_next(self) -> None:
        """Tab cycles through the side's formations that can still act."""
        if not self.human_to_move():
            return
        ready = self.ready_formations()
        if not ready:
            return
        ids = [f.id for f in ready]
        nxt = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
        self.selected = nxt
        self.camera.centre_on(self.geometry.centre(self.state.formations[nxt].pos))
        self._after_change([])

    # -- frame ----------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        keys = pygame.key.get_pressed()
        dx = (keys[pygame.K_RIGHT] or keys[pygame.K_d]) - (keys[pygame.K_LEFT] or keys[pygame.K_a])
        dy = (keys[pygame.K_DOWN] or keys[pygame.K_s]) - (keys[pygame.K_UP] or keys[pygame.K_w])
        if dx or dy:
            self.camera.pan(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)
        # The computer acts for its side, and answers a challenge made to it.
        if self.ai_to_move() and not self.narration.active:
            self.ai_timer -= dt
            self.step_ai()

    def ai_to_move(self) -> bool:
        return not self.state.over and self.state.side(self.match.engine.deciding_side()).controller == "ai"

    def ai_fast(self) -> bool:
        """Whether computer moves are applied without pause: Space toggles it for the game, Esc
        for the rest of the current side-turn."""
        return self.fast_ai or self.skip_turn == self._turn_key() or self.ai_delay() == 0

    def ai_delay(self) -> float:
        """Seconds a computer's move stays on screen before the next, by the player's setting."""
        return AI_SPEEDS[self.prefs.ai_speed]

    def _turn_key(self) -> tuple[int, int]:
        return (self.state.turn, self.state.active)

    def _ai_token(self) -> tuple[int, int, str]:
        """The position a decision is asked for; a result for any other one is dropped."""
        return (id(self.match), self.state.action_index, self.match.engine.deciding_side())

    def step_ai(self) -> None:
        """Apply the deciding AI's action once its worker has it and the last one has been shown,
        then set it thinking about the next. The frame never waits for the AI longer than
        AI_FRAME_WAIT; in fast mode that slice of the frame is used for further actions."""
        frame_end = time.perf_counter() + AI_FRAME_WAIT
        if self.ai_fast():
            self.ai_timer = 0.0  # a pause left from moves shown earlier is not waited out
        while True:
            if self.ai_timer <= 0 and (action := self.ai_worker.poll(self._ai_token())) is not None:
                if not self.submit(action) and self.state.pending_duel is None:
                    self.submit(EndTurn())
                # What the viewer did not see is not waited for.
                self.ai_timer = 0.0 if self.ai_fast() or not self._last_seen else self.ai_delay()
                if self.app.scene is not self or not self.ai_to_move() or self.narration.active:
                    return
            if not self.ai_worker.busy:
                side = self.match.engine.deciding_side()
                self.ai_worker.request(self.ais[side], self._ai_token(), self._turn_key())
            remaining = frame_end - time.perf_counter()
            if not self.ai_fast() or self.ai_timer > 0 or remaining <= 0 or not self.ai_worker.wait(remaining):
                return

    def overlays(self) -> Overlays:
        ov = Overlays(hover=self.hover, last_move=self.last_move)
        sel = self.selected_formation()
        if sel is not None:
            ov.selected = sel.pos
            if self.move_map is not None:
                ov.reachable = self.move_map.destinations
                if self.hover is not None and self.hover in self.move_map.destinations:
                    ov.path = self.move_map.path_to(self.hover) or []
            engine = self.match.engine
            targets = [*engine.attack_targets(sel.id), *engine.fire_targets(sel.id)]
            ov.targets = frozenset(self.state.formations[t].pos for t in targets)
            if self.aiming is not None:
                ov.reachable = frozenset()
                ov.path = []
                ov.targets = aim_hexes(engine, sel, self.aiming)
        return ov

    def draw(self, surface: pygame.Surface) -> None:
        viewer = self.state.active_side.id if self.human_to_move() else None
        fog = self.fog()
        self.view.draw(surface, self.camera, self.state, self.overlays(), dim_done_for=viewer, fog=fog)
        # Ground never seen tells nothing, not even what it is.
        hover = self.hover if fog is None or self.hover in fog.explored else None
        self.hud.draw(
            surface,
            self.log,
            hover,
            self.match.loaded.scenario.board,
            viewer=self.fog_side(),
            shown=None if fog is None else fog.shown,
        )
        self.objectives.draw(surface, self.state, self.viewer or self._first_human())
        self.narration.draw(surface)

    def resize(self, size: tuple[int, int]) -> None:
        self.camera.resize(size)
        super().resize(size)
