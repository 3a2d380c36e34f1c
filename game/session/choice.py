"""What the player is in the middle of ordering on the battle screen: the formation chosen, how
far it can go, and whether a blow, a hero's target or a palm thunder's hex is being aimed.

``OrderInput`` reads a click on the map, an order from the bar or a hero's order as the action
it means, and keeps what is chosen and aimed; the battle session carries the action out through
the match and the screen shows what came of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..core.actions import Action, Attack, Blast, Capture, Fire, Move, Rest, UseSkill
from ..core.board import Board
from ..core.engine import Engine
from ..core.hexgrid import Hex
from ..core.movement import MoveMap
from ..core.rules import Ruleset
from ..core.state import Formation
from .aim import aim_hexes, aimed_action, candidates, is_aimed, struck, thunder_range


@dataclass(frozen=True)
class Reading:
    """What a click or an order meant: ``select`` (a formation of the side chosen, or let go
    when it was the one chosen: ``OrderInput.selected`` says which), ``act`` (give ``action`` now), ``forecast`` (a
    blow aimed: show its odds and wait for the player's word), ``aim`` (the next click picks a
    target), ``toggle`` (forced march, or a skill used as the move is made, on or off) or
    ``nothing``. ``first``: a skill armed for the move or blow, used just before ``action``."""

    kind: Literal["select", "act", "forecast", "aim", "toggle", "nothing"]
    action: Action | None = None
    first: UseSkill | None = None


NOTHING = Reading("nothing")


@dataclass
class ChoiceMarks:
    """What the choice shows on the map: the chosen formation's hex, where it can go, the path
    to the hex pointed at, and what it can strike (or, while aiming, where the aim can fall)."""

    selected: Hex | None = None
    reachable: frozenset[Hex] = frozenset()
    path: list[Hex] = field(default_factory=list)
    targets: frozenset[Hex] = frozenset()


class OrderInput:
    def __init__(self) -> None:
        self.selected: str | None = None
        # Where the chosen formation can go this turn (None: it cannot move, or none is chosen).
        self.move_map: MoveMap | None = None
        # A blow aimed and forecast, waiting for the player's word.
        self.pending_attack: Attack | Fire | None = None
        # A hero's order waiting for its target to be clicked: a skill id or "challenge".
        self.aiming: str | None = None
        self.aiming_thunder = False
        self.forced_march = False
        # A hero's skill that works on the formation's own move (Breakthrough charge, Forced
        # column): armed now, used only when the move or blow is given, so changing one's mind
        # costs nothing.
        self.armed: str | None = None

    # -- what is chosen -------------------------------------------------------------------

    def formation(self, engine: Engine) -> Formation | None:
        return engine.state.formations.get(self.selected) if self.selected is not None else None

    def settle(self, engine: Engine) -> None:
        """After the game changed: a formation no longer the moving side's is let go, the reach
        of the chosen one worked out again, and no blow stays aimed."""
        f = self.formation(engine)
        if f is None or f.side != engine.state.active_side.id:
            self.selected = None
            f = None
        if f is None or self.armed_use(engine) is None:
            self.armed = None
        self.move_map = None
        if f is not None and engine.can_move(f):
            # The reach as it will be once the armed skill is used (a breakthrough ignores
            # zones of control).
            armed = self.armed_use(engine)
            ahead = engine
            if armed is not None:
                ahead = engine.clone()
                ahead.apply(armed)
            self.move_map = ahead.moves(f.id, forced=self.forced_march)
        self.pending_attack = None

    def armed_use(self, engine: Engine) -> UseSkill | None:
        """The armed skill as an action, while it can still be used."""
        f = self.formation(engine)
        if f is None or self.armed is None:
            return None
        use = UseSkill(unit=f.id, skill=self.armed)
        return use if engine.is_legal(use) else None

    def choose(self, fid: str) -> None:
        """Choose formation ``fid`` (from the list or Tab): a march or a throw half-given is let go."""
        self.selected = fid
        self.forced_march = False
        self.aiming_thunder = False
        self.armed = None

    def let_go(self) -> None:
        """Nothing chosen, nothing aimed (a turn ends, the screen changes hands)."""
        self.selected = None
        self.aiming = None
        self.aiming_thunder = False
        self.pending_attack = None
        self.armed = None

    # -- reading the player ---------------------------------------------------------------

    def click(self, engine: Engine, h: Hex, occupant: Formation | None) -> Reading:
        """A left click on hex ``h``, where ``occupant`` stands as the moving side sees it (None
        for an empty hex or one it cannot see: an order into the fog is an order to move)."""
        side = engine.state.active_side.id
        if occupant is not None and occupant.side == side:
            self.selected = occupant.id if occupant.id != self.selected else None
            self.forced_march = False
            self.aiming_thunder = False
            self.armed = None
            return Reading("select")
        sel = self.formation(engine)
        if sel is None:
            return NOTHING
        if self.aiming_thunder:
            self.aiming_thunder = False
            return Reading("act", Blast(unit=sel.id, at=h))
        if self.aiming is not None:
            aimed = aimed_action(engine, sel, self.aiming, h)
            self.aiming = None
            return Reading("act", aimed) if aimed is not None else NOTHING
        if occupant is not None:
            # Missile troops shoot rather than close: no blow comes back.
            if occupant.id in engine.fire_targets(sel.id):
                self.pending_attack = Fire(unit=sel.id, target=occupant.id)
            elif occupant.id in engine.attack_targets(sel.id):
                self.pending_attack = Attack(unit=sel.id, target=occupant.id)
            else:
                return NOTHING
            return Reading("forecast", self.pending_attack)
        if self.move_map is not None and h in self.move_map.destinations:
            first = self.armed_use(engine)
            self.armed = None
            return Reading("act", Move(unit=sel.id, to=h, forced=self.forced_march), first=first)
        return NOTHING

    def take_armed(self, engine: Engine) -> UseSkill | None:
        """The armed skill, to be used now with the blow being given (and disarmed)."""
        first = self.armed_use(engine)
        self.armed = None
        return first

    def order(self, engine: Engine, order: str) -> Reading:
        """An order from the bar (or its key) for the chosen formation."""
        f = self.formation(engine)
        if f is None:
            return NOTHING
        if order == "forced":
            self.forced_march = not self.forced_march
            return Reading("toggle")
        if order == "capture":
            return Reading("act", Capture(unit=f.id))
        if order == "rest":
            return Reading("act", Rest(unit=f.id))
        if order == "thunder" and f.charges > 0:
            self.aiming_thunder = True
            return Reading("aim")
        return NOTHING

    def hero_order(self, engine: Engine, rules: Ruleset, order: str) -> Reading:
        """A hero's skill or challenge from the unit panel: given at once, or aimed by a click."""
        f = self.formation(engine)
        options = candidates(engine, f, order) if f is not None else []
        if not options:
            return NOTHING
        if is_aimed(rules, order):
            self.aiming = order
            return Reading("aim")
        if rules.skills[order].before_move:
            self.armed = None if self.armed == order else order
            return Reading("toggle")
        return Reading("act", options[0])

    # -- taking back ----------------------------------------------------------------------

    def has_choice_to_cancel(self) -> bool:
        return (
            self.aiming is not None
            or self.aiming_thunder
            or self.armed is not None
            or self.pending_attack is not None
            or self.selected is not None
        )

    def cancel(self) -> Literal["aim", "attack", "selection", "nothing"]:
        """Take back the last thing chosen, one step at a time: an aim, then a blow aimed, then
        the formation chosen. What was taken back."""
        if self.aiming is not None or self.aiming_thunder or self.armed is not None:
            self.aiming, self.aiming_thunder, self.armed = None, False, None
            return "aim"
        if self.pending_attack is not None:
            self.pending_attack = None
            return "attack"
        if self.selected is not None:
            self.selected = None
            return "selection"
        return "nothing"

    # -- showing it -----------------------------------------------------------------------

    def marks(self, engine: Engine, board: Board, hover: Hex | None, seen: frozenset[Hex] | None) -> ChoiceMarks:
        """What the choice shows on the map (``ChoiceMarks``); for palm thunder, what it would
        strike at ``hover`` among the hexes ``seen`` (None: all of them)."""
        marks = ChoiceMarks()
        sel = self.formation(engine)
        if sel is None:
            return marks
        marks.selected = sel.pos
        if self.move_map is not None:
            marks.reachable = self.move_map.destinations
            if hover is not None and hover in self.move_map.destinations:
                marks.path = self.move_map.path_to(hover) or []
        targets = [*engine.attack_targets(sel.id), *engine.fire_targets(sel.id)]
        marks.targets = frozenset(engine.state.formations[t].pos for t in targets)
        if self.aiming is not None:
            marks.reachable, marks.path = frozenset(), []
            marks.targets = aim_hexes(engine, sel, self.aiming)
        elif self.aiming_thunder:
            marks.reachable = thunder_range(board, engine.rules, sel)
            marks.path, marks.targets = [], frozenset()
            if hover is not None and hover in marks.reachable:
                marks.targets = struck(hover, seen if seen is not None else frozenset(board.terrain))
        return marks
