"""Where the enemies a side sees could strike in their next turn.

A formation's reach is every hex it could attack in its side's coming turn: from where it stands
or from any hex the engine's move search (``movement.search_moves``, with terrain, zones of
control and shut gates) lets it reach, with a forced march when it is not too tired once its
turn's upkeep has let it rest; next door in melee (a fortress only with siege engines), within
range while it has missiles, and next to a hex within range while it has palm thunder. A
formation that is routed, or not at war with the side looking, reaches nothing.

It is worked out on the state as the looking side knows it (``vision.side_view``), so an enemy
it does not see adds nothing, and every formation there blocks and holds its zone of control,
as in the engine's search when the mover sees them all. A real column can be stopped sooner (an
ambush sprung, an enemy coming into view), and skills are not foreseen: the reach is the most
the rules allow as the side knows the field, not a guess at what the enemy will do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..core import baggage
from ..core.board import Board
from ..core.fatigue import IDLE_FATIGUE
from ..core.hexgrid import Hex, neighbours, spiral
from ..core.movement import MAX_FATIGUE_TO_FORCE, enemy_zoc, search_moves
from ..core.rules import Ruleset
from ..core.sides import are_allied, are_enemies
from ..core.state import Formation, GameState

__all__ = ["Reach", "Threat", "standing_hexes", "strike_reach", "threat_map"]


@dataclass(frozen=True)
class Threat:
    """The reach of every enemy formation a side sees (those that reach nothing are left out)."""

    reach: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    # Every hex one of them could strike.
    hexes: frozenset[Hex] = frozenset()

    def of(self, unit_id: str) -> frozenset[Hex]:
        """The hexes one formation could strike (none for one not seen or not an enemy)."""
        return self.reach.get(unit_id, frozenset())

    def attackers(self, h: Hex) -> list[str]:
        """The formations that could strike ``h``, by id."""
        return sorted(k for k, hexes in self.reach.items() if h in hexes)

    def within(self, ground: frozenset[Hex]) -> Threat:
        """The same threat on ``ground`` only."""
        reach = {k: hexes & ground for k, hexes in self.reach.items() if hexes & ground}
        return Threat(reach, self.hexes & ground)


def next_turn_start(state: GameState, side: str) -> int:
    """The number of the turn in which ``side``'s next turn begins."""
    index = next(i for i, s in enumerate(state.sides) if s.id == side)
    return state.turn if index > state.active else state.turn + 1


def as_at_its_turn(state: GameState, f: Formation) -> Formation:
    """``f`` as its side's next turn finds it, for what moving depends on: a formation that
    neither moved nor acted has got its breath back, and effects run out (as the engine's
    upkeep does it). What upkeep leaves to chance or to others (routs, rallies) is not foreseen."""
    start = next_turn_start(state, f.side)
    fatigue = f.fatigue if f.moved or f.acted else max(0, f.fatigue - IDLE_FATIGUE)
    effects = {k: v for k, v in f.effects.items() if v > start}
    return f.model_copy(update={"fatigue": fatigue, "effects": effects, "moved": False, "acted": False})


class Reach:
    """The reach of formations on one state against one side. What every formation's search
    shares (who stands where, each side's enemy zones of control, the ground the side cannot be
    struck on) is worked out once, so a whole army's reach costs little more than its searches."""

    def __init__(self, state: GameState, board: Board, rules: Ruleset, against: str) -> None:
        self.state, self.board, self.rules, self.against = state, board, rules, against
        self.occupancy = state.occupancy()
        self._zoc: dict[str, set[Hex]] = {}
        # Ground a formation of ``against`` cannot be on: held by another side's men.
        self.taken = frozenset(o.pos for o in state.formations.values() if not are_allied(state, against, o.side))
        # (hex, siege, radius) -> the hexes struck from it: armies stand on the same ground.
        self._around: dict[tuple[Hex, bool, int], frozenset[Hex]] = {}

    def standing(self, f: Formation) -> frozenset[Hex]:
        """Where ``f`` could stand, its action still unspent, in its side's next turn: where it
        is, or any hex the engine's move search reaches, with every formation in the state
        blocking and holding its zone of control, except abandoned baggage its men would stop
        to loot."""
        state, rules = self.state, self.rules
        f = as_at_its_turn(state, f)
        zoc = self._zoc.get(f.side)
        if zoc is None:
            zoc = self._zoc[f.side] = enemy_zoc(state, f.side)
        forced = f.fatigue <= MAX_FATIGUE_TO_FORCE  # a forced march reaches every hex a march does, and more
        moves = search_moves(state, self.board, rules, f, self.occupancy, zoc, forced=forced)
        stands = set(moves.destinations)
        stands -= baggage.tempting(state, rules, f.side)
        stands.add(f.pos)
        return frozenset(stands)

    def of(self, f: Formation) -> frozenset[Hex]:
        """Every hex ``f`` could attack in its side's next turn where a formation of ``against``
        (or of its allies) could stand: empty ground, or ground one of them holds."""
        if f.routed or not are_enemies(self.state, f.side, self.against):
            return frozenset()
        utype = self.rules.units[f.type]
        melee = "no_line_combat" not in utype.abilities
        missiles = utype.range if utype.ranged > 0 and f.ammo != 0 else 0
        thunder = max(1, utype.range) + 1 if utype.area_power > 0 and f.charges > 0 else 0
        far = max(missiles, thunder)
        if not melee and not far:
            return frozenset()
        siege = "siege" in utype.abilities
        out: set[Hex] = set()
        for p in self.standing(f):
            if melee:
                out |= self._struck_from(p, siege, 0)
            if far:
                out |= self._struck_from(p, True, far)
        return frozenset(out - self.taken)

    def _struck_from(self, p: Hex, siege: bool, radius: int) -> frozenset[Hex]:
        """The hexes struck from ``p``: next door (radius 0: a blow, so no fortress without
        siege engines), or from 1 to ``radius`` hexes away (missiles and thunder)."""
        key = (p, siege, radius)
        found = self._around.get(key)
        if found is None:
            terrain = self.board.terrain
            if radius:
                found = frozenset(h for h in spiral(p, radius) if h != p and h in terrain)
            else:
                found = frozenset(n for n in neighbours(p) if n in terrain and (siege or not terrain[n].fortress))
            self._around[key] = found
        return found


def standing_hexes(state: GameState, board: Board, rules: Ruleset, f: Formation) -> frozenset[Hex]:
    """Where ``f`` could stand ready to strike in its side's next turn (``Reach.standing``)."""
    return Reach(state, board, rules, f.side).standing(f)


def strike_reach(state: GameState, board: Board, rules: Ruleset, f: Formation, against: str) -> frozenset[Hex]:
    """Every hex ``f`` could attack next turn where ``against`` could stand (``Reach.of``)."""
    return Reach(state, board, rules, against).of(f)


def threat_map(state: GameState, board: Board, rules: Ruleset, side: str) -> Threat:
    """The reach of every enemy of ``side`` in ``state``: pass the state as ``side`` knows it
    (``vision.side_view``) so that only the enemies it sees count."""
    reach_of = Reach(state, board, rules, side)
    reach: dict[str, frozenset[Hex]] = {}
    for k in sorted(state.formations):
        hexes = reach_of.of(state.formations[k])
        if hexes:
            reach[k] = hexes
    union: set[Hex] = set()
    for hexes in reach.values():
        union |= hexes
    return Threat(reach, frozenset(union))
