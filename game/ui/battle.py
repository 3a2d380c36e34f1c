"""The battle screen: the map, selection and orders, the forecast, AI turns and hotseat hand-over.

Everything the player does becomes an engine action applied through the match; the screen
only reads the state and the events that come back.
"""

from __future__ import annotations

import secrets

import pygame
import pygame_gui
from pygame_gui.elements import UIButton

from ..ai.basic import BasicAI
from ..ai.driver import make_ais
from ..content.ruleset import load_ruleset
from ..content.scenarios import load_scenario
from ..core.actions import Action, Attack, EndTurn, Move
from ..core.engine import GameSettings, IllegalAction
from ..core.events import Attacked, Destroyed, Event, GameOver, Moved, TurnEnded
from ..core.hexgrid import Hex
from ..core.movement import MoveMap
from ..core.state import Formation
from ..i18n import _
from ..record.match import Match, match_from_record
from ..record.model import MAX_SEED
from ..record.saves import QUICKSAVE_NAME, SaveError, load_record, save_path, save_record
from .board_view import BoardView, Overlays
from .camera import Camera
from .geometry import MapGeometry
from .hud import Hud, unit_name
from .scene import Scene

# Seconds between two AI actions when they are shown move by move.
AI_STEP_DELAY = 0.35
PAN_SPEED = 700.0  # pixels per second for keyboard panning
DRAG_THRESHOLD = 6


def new_match(scenario_id: str, controllers: dict[str, str], seed: int | None, difficulty: str = "normal") -> Match:
    loaded = load_scenario(scenario_id)
    if seed is None:
        seed = secrets.randbelow(MAX_SEED)
    settings = GameSettings(controllers=controllers, difficulty=difficulty)  # type: ignore[arg-type]
    return Match(loaded, seed, settings)


class BattleScene(Scene):
    def __init__(self, app, match: Match, show_handover: bool = True) -> None:
        self.match = match
        self.show_handover = show_handover
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
        self.pending_attack: Attack | None = None
        self.last_move: list[Hex] = []
        self.ai_timer = 0.0
        self.fast_ai = False
        self.drag_from: tuple[int, int] | None = None
        self.dragging = False
        # The human side whose eyes are on the screen; hand-over happens when it changes.
        self.viewer: str | None = None
        self.log: list[str] = []
        self.names: dict[str, str] = {}
        super().__init__(app)
        self._centre_on_side(self._first_human() or match.state.active_side.id)
        self._after_change([])

    # -- layout ---------------------------------------------------------------------------

    def build(self) -> None:
        self.hud = Hud(self.manager, self.app.size, self.rules, self.match)
        w, h = self.app.size
        self.end_turn_button = UIButton(
            pygame.Rect(w - 170, h - 58, 156, 44),
            _("End turn"),
            self.manager,
            object_id="#big_button",
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

    def pending_forecast(self):
        if self.pending_attack is None:
            return None
        try:
            return self.match.engine.forecast(self.pending_attack)
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

    # -- orders ---------------------------------------------------------------------------

    def submit(self, action: Action) -> bool:
        """Apply an action through the match; a refusal is shown, never raised."""
        # Names first: a formation destroyed by this action is gone from the state afterwards.
        self.names = {f.id: unit_name(self.rules, f) for f in self.state.formations.values()}
        try:
            events = self.match.apply(action)
        except IllegalAction as exc:
            self.say(_("Not allowed: {reason}").format(reason=exc.message))
            return False
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
                self.move_map = self.match.engine.moves(f.id)
        self.pending_attack = None
        self.hud.refresh(self.selected_formation(), None)
        self.end_turn_button.enable() if self.human_to_move() else self.end_turn_button.disable()
        if self.state.over:
            from .result import ResultScene

            self.app.switch(ResultScene(self.app, self.match))
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
            from .handover import HandoverScene

            self.selected = None
            self.app.switch(HandoverScene(self.app, self, side.id))
        self._centre_on_side(side.id)

    def _narrate(self, ev: Event) -> None:
        names = self.names
        if isinstance(ev, Moved):
            self.last_move = list(ev.path)
        elif isinstance(ev, Attacked):
            self.say(
                _("{a} attacks {d}: enemy loses {dl:,}, attacker loses {al:,}").format(
                    a=names.get(ev.unit, ev.unit),
                    d=names.get(ev.target, ev.target),
                    dl=ev.defender_losses,
                    al=ev.attacker_losses,
                )
            )
        elif isinstance(ev, Destroyed):
            self.say(_("A formation of {side} is destroyed").format(side=self.hud.side_name(ev.side)))
        elif isinstance(ev, TurnEnded):
            self.last_move = []
            self.say(_("Turn {n}: {side}").format(n=ev.turn, side=self.hud.side_name(ev.next_side)))
        elif isinstance(ev, GameOver):
            self.say(_("The battle is over"))

    def click_hex(self, h: Hex) -> None:
        """A left click on the map: select, move, or open the attack forecast."""
        if not self.human_to_move():
            return
        occupant_id = self.state.occupancy().get(h)
        occupant = self.state.formations.get(occupant_id) if occupant_id else None
        side = self.state.active_side.id
        sel = self.selected_formation()
        if occupant is not None and occupant.side == side:
            self.selected = occupant.id if occupant.id != self.selected else None
            self._after_change([])
            return
        if sel is None:
            return
        if occupant is not None:
            if occupant.id in self.match.engine.attack_targets(sel.id):
                self.pending_attack = Attack(unit=sel.id, target=occupant.id)
                self.hud.refresh(sel, self.pending_forecast())
            return
        if self.move_map is not None and h in self.move_map.destinations:
            self.submit(Move(unit=sel.id, to=h))

    def confirm_attack(self) -> None:
        if self.pending_attack is not None:
            self.submit(self.pending_attack)

    def cancel(self) -> None:
        if self.pending_attack is not None:
            self.pending_attack = None
            self.hud.refresh(self.selected_formation(), None)
        else:
            self.selected = None
            self._after_change([])

    def end_turn(self) -> None:
        if self.human_to_move():
            self.selected = None
            self.submit(EndTurn())

    # -- saving ---------------------------------------------------------------------------

    def quicksave(self) -> None:
        try:
            save_record(self.match.record, save_path(QUICKSAVE_NAME))
            self.say(_("Game saved"))
        except SaveError as exc:
            self.say(str(exc))

    def quickload(self) -> None:
        try:
            match = match_from_record(load_record(save_path(QUICKSAVE_NAME)))
        except SaveError as exc:
            self.say(_("Cannot load: {reason}").format(reason=str(exc)))
            return
        self.app.switch(BattleScene(self.app, match))

    # -- events ---------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.end_turn_button:
                self.end_turn()
            elif event.ui_element is self.hud.confirm_button:
                self.confirm_attack()
            elif event.ui_element is self.hud.cancel_button:
                self.cancel()
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if self.hud.covers(event.pos) or self.end_turn_button.rect.collidepoint(event.pos):
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
        elif key == pygame.K_ESCAPE:
            self.cancel()
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
        elif key == pygame.K_TAB:
            self._select_next()

    def _select_next(self) -> None:
        """Tab cycles through the side's formations that can still act."""
        if not self.human_to_move():
            return
        ready = [f for f in self.state.formations_of(self.state.active_side.id) if not f.acted]
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
        if not self.state.over and self.state.active_side.controller == "ai":
            self.ai_timer -= dt
            if self.ai_timer <= 0:
                self.step_ai()

    def step_ai(self) -> None:
        """One AI action (or a whole turn in fast mode)."""
        side = self.state.active_side.id
        ai = self.ais[side]
        for _i in range(500):
            action = ai.next_action()
            if not self.submit(action):
                self.submit(EndTurn())
            if self.state.over or not self.fast_ai or self.state.active_side.id != side:
                break
            if self.app.scene is not self:
                break
        self.ai_timer = 0.0 if self.fast_ai else AI_STEP_DELAY

    def overlays(self) -> Overlays:
        ov = Overlays(hover=self.hover, last_move=self.last_move)
        sel = self.selected_formation()
        if sel is not None:
            ov.selected = sel.pos
            if self.move_map is not None:
                ov.reachable = self.move_map.destinations
                if self.hover is not None and self.hover in self.move_map.destinations:
                    ov.path = self.move_map.path_to(self.hover) or []
            ov.targets = frozenset(self.state.formations[t].pos for t in self.match.engine.attack_targets(sel.id))
        return ov

    def draw(self, surface: pygame.Surface) -> None:
        viewer = self.state.active_side.id if self.human_to_move() else None
        self.view.draw(surface, self.camera, self.state, self.overlays(), dim_done_for=viewer)
        self.hud.draw(surface, self.log, self.hover, self.match.loaded.scenario.board)

    def resize(self, size: tuple[int, int]) -> None:
        self.camera.resize(size)
        super().resize(size)
