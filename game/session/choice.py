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
from ..core.hexgrid import Hex, neighbours
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
    ``nothing``; ``beyond``: the click asked for what ``action`` would do, and the formation
    cannot do it this turn (the session says why). ``first``: a skill armed for the move or
    blow, used just before ``action``."""

    kind: Literal["select", "act", "forecast", "aim", "toggle", "beyond", "nothing"]
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
        # A blow aimed and forecast, waiting for the player's word; with the march that takes
        # the formation next to its target first, when it is not there yet.
        self.pending_attack: Attack | Fire | None = None
        self.pending_march: Move | None = None
        # Enemies in sight it can march next to and strike this turn, each with that march.
        self.approaches: dict[str, Move] = {}
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

    def settle(self, engine: Engine, knowing: Engine | None = None) -> None:
        """After the game changed: a formation no longer the moving side's is let go, the reach
        of the chosen one worked out again, and no blow stays aimed. ``knowing``: the engine on
        what the moving side knows (``BattleSession.knowing_engine``), for the enemies it can
        march to and strike; the full engine when not given."""
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
        self.pending_march = None
        self.approaches = self._approaches(knowing or engine, f) if f is not None else {}

    def _approaches(self, knowing: Engine, f: Formation) -> dict[str, Move]:
        """The enemies in sight ``f`` can march next to and strike in melee this turn, each with
        the march to the cheapest hex next to it (those it stands next to already need none)."""
        reach = self.move_map
        if reach is None or not knowing.can_attack(f):
            return {}
        enemy_hexes = {e.pos for e in knowing.state.formations.values() if e.side != f.side}
        near = [d for d in reach.destinations if any(n in enemy_hexes for n in neighbours(d))]
        if not near:
            return {}
        ahead = knowing.clone()  # the formation is stood on each hex in turn to ask the rules
        mover = ahead.state.formations[f.id]
        out: dict[str, Move] = {}
        for d in sorted(near, key=lambda h: (reach.cost[h], h.q, h.r)):
            mover.pos = d
            for target in ahead.attack_targets(f.id):
                out.setdefault(target, Move(unit=f.id, to=d, forced=self.forced_march))
        return out

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
        self.pending_march = None
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
            elif occupant.id in self.approaches:
                # Out of its reach from where it stands, within it after a march: march, then strike.
                self.pending_march = self.approaches[occupant.id]
                self.pending_attack = Attack(unit=sel.id, target=occupant.id)
            else:
                return Reading("beyond", Attack(unit=sel.id, target=occupant.id))
            return Reading("forecast", self.pending_attack)
        if self.move_map is not None and h in self.move_map.destinations:
            first = self.armed_use(engine)
            self.armed = None
            return Reading("act", Move(unit=sel.id, to=h, forced=self.forced_march), first=first)
        if h != sel.pos:
            return Reading("beyond", Move(unit=sel.id, to=h, forced=self.forced_march))
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
            self.pending_attack, self.pending_march = None, None
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
        # Every enemy it can strike this turn is ringed: next to it, in range, or a march away.
        targets = [*engine.attack_targets(sel.id), *engine.fire_targets(sel.id), *self.approaches]
        marks.targets = frozenset(engine.state.formations[t].pos for t in targets if t in engine.state.formations)
        if self.pending_march is not None and self.move_map is not None:
            marks.path = self.move_map.path_to(Hex(*self.pending_march.to)) or []
        if self.aiming is not None:
            marks.reachable, marks.path = frozenset(), []
            marks.targets = aim_hexes(engine, sel, self.aiming)
        elif self.aiming_thunder:
            marks.reachable = thunder_range(board, engine.rules, sel)
            marks.path, marks.targets = [], frozenset()
            if hover is not None and hover in marks.reachable:
                marks.targets = struck(hover, seen if seen is not None else frozenset(board.terrain))
        return marks
