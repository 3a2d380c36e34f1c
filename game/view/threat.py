"""Where the enemies a side sees could strike in their next turn.

A formation's reach is every hex it could attack in its side's coming turn: from where it stands
or from any hex its move search (``vision.search_moves_seen``, the engine's own, with terrain,
zones of control and shut gates) lets it reach, with a forced march when it is not too tired;
next door in melee (a fortress only with siege engines), within range while it has missiles,
and a hex next to one within range while it has palm thunder. A formation that is routed, or
not at war with the side looking, reaches nothing.

It is worked out on the state as the looking side knows it (``vision.side_view``), so an enemy
it does not see adds nothing, and the side's own formations block and hold zones of control
whether the enemy has spotted them or not. The move a column then really makes can end sooner
(an ambush sprung, an enemy coming into view); skills are not foreseen. So the reach says where
a formation standing now could be struck, never more than the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core.board import Board
from ..core.engine import IDLE_FATIGUE, MAX_FATIGUE_TO_FORCE
from ..core.hexgrid import Hex, neighbours, spiral
from ..core.rules import Ruleset
from ..core.sides import are_allied, are_enemies
from ..core.state import Formation, GameState
from ..core.vision import search_moves_seen

__all__ = ["Threat", "standing_hexes", "strike_reach", "threat_map"]


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


def standing_hexes(
    state: GameState, board: Board, rules: Ruleset, f: Formation, seen: Sequence[Formation] | None = None
) -> frozenset[Hex]:
    """Where ``f`` could stand, its action still unspent, in its side's next turn: where it is,
    or any hex a move reaches, except abandoned baggage its men would stop to loot. ``seen``:
    the formations that block and hold zones of control (by default every one in ``state``)."""
    if seen is None:
        seen = list(state.formations.values())
    f = as_at_its_turn(state, f)
    forced = f.fatigue <= MAX_FATIGUE_TO_FORCE  # a forced march reaches every hex a march does, and more
    moves = search_moves_seen(state, board, rules, f, forced=forced, seen=list(seen))
    stands = set(moves.destinations)
    if not rules.factions[state.side(f.side).faction].disciplined:
        stands -= {Hex.parse(k) for k in state.baggage}
    stands.add(f.pos)
    return frozenset(stands)


def strike_reach(
    state: GameState,
    board: Board,
    rules: Ruleset,
    f: Formation,
    against: str,
    seen: Sequence[Formation] | None = None,
) -> frozenset[Hex]:
    """Every hex ``f`` could attack in its side's next turn where a formation of ``against``
    (or of its allies) could stand: empty ground, or ground one of them holds."""
    if f.routed or not are_enemies(state, f.side, against):
        return frozenset()
    utype = rules.units[f.type]
    melee = "no_line_combat" not in utype.abilities
    missiles = utype.range if utype.ranged > 0 and f.ammo != 0 else 0
    thunder = max(1, utype.range) + 1 if utype.area_power > 0 and f.charges > 0 else 0
    far = max(missiles, thunder)
    if not melee and not far:
        return frozenset()
    siege = "siege" in utype.abilities
    terrain = board.terrain
    out: set[Hex] = set()
    for p in standing_hexes(state, board, rules, f, seen):
        if melee:
            out.update(n for n in neighbours(p) if n in terrain and (siege or not terrain[n].fortress))
        if far:
            out.update(h for h in spiral(p, far) if h != p and h in terrain)
    held = {o.pos for o in state.formations.values() if not are_allied(state, against, o.side)}
    return frozenset(out - held)


def threat_map(state: GameState, board: Board, rules: Ruleset, side: str) -> Threat:
    """The reach of every enemy of ``side`` in ``state``: pass the state as ``side`` knows it
    (``vision.side_view``) so that only the enemies it sees count."""
    seen = list(state.formations.values())
    reach: dict[str, frozenset[Hex]] = {}
    for k in sorted(state.formations):
        hexes = strike_reach(state, board, rules, state.formations[k], side, seen)
        if hexes:
            reach[k] = hexes
    union: set[Hex] = set()
    for hexes in reach.values():
        union |= hexes
    return Threat(reach, frozenset(union))
