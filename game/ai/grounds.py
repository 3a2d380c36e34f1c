"""Where a formation goes for the part it plays (the plain commander's ``destination`` asks):
a reserve near its commander and out of the enemy's reach, a released reserve a charge's run-up
from the enemy, a charge among the officers still standing, its followers behind it, friends
closing round a hero's duel, soul-catchers sweeping behind the army."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import combat, duel, officers
from ..core.hexgrid import Hex, disc, distance, neighbours
from ..core.movement import are_enemies
from ..core.sides import enemy_sides
from ..core.state import Formation

if TYPE_CHECKING:
    from ..core.engine import Engine

# A reserve waits within this many hexes of its commander and at least this far from the enemy.
RESERVE_GAP = 3
# A sweeper goes only where no formed enemy stands within this many hexes.
SWEEP_CLEAR = 2
# A released reserve waits this many hexes of open run-up short of the enemy.
CHARGE_RUN_UP = combat.CHARGE_RUN
# Formations that follow the charge keep this far from its leader.
FOLLOW_GAP = 2
# Free formations this near the enemy hero in a duel with ours ride up to press on him.
RING_REACH = 8


def duel_ring(engine: Engine, f: Formation, keeps_a_front: bool) -> frozenset[Hex]:
    """While a hero of ours fights a duel, a formation within ``RING_REACH`` that keeps no front
    and is out of contact rides up next to him or his opponent: friends close round a duel
    shift it."""
    state, board = engine.state, engine.board
    if duel.in_duel(f) or keeps_a_front:
        return frozenset()
    foes = enemy_sides(state, f.side)
    if any(distance(e.pos, f.pos) <= 1 for e in state.formations.values() if e.side in foes):
        return frozenset()  # in contact: it fights where it stands
    occupied = state.occupancy()
    for ours in state.formations_of(f.side):
        opp = duel.opponent(state, ours)
        if opp is None or distance(opp.pos, f.pos) > RING_REACH:
            continue
        if distance(opp.pos, f.pos) == 1 or distance(ours.pos, f.pos) == 1:
            return frozenset()  # already there
        ring = set(neighbours(opp.pos)) | set(neighbours(ours.pos))
        free = frozenset(h for h in ring if h in board and h not in occupied)
        if free:
            return free
    return frozenset()


def behind_the_charge(engine: Engine, charging: frozenset[str], f: Formation) -> frozenset[Hex] | None:
    """Free hexes two off the nearest charging friend, those farthest from the enemy (behind
    the charge); None: no charge in the field, or already there."""
    state, board = engine.state, engine.board
    leaders = [state.formations[u] for u in sorted(charging) if u in state.formations]
    if not leaders:
        return None
    lead = min(leaders, key=lambda o: (distance(o.pos, f.pos), o.id))
    if distance(lead.pos, f.pos) == FOLLOW_GAP:
        return None
    occupied = state.occupancy()
    ring = [
        h
        for h in disc(lead.pos, FOLLOW_GAP)
        if distance(h, lead.pos) == FOLLOW_GAP and h in board and h not in occupied
    ]
    foes = [e.pos for e in state.formations.values() if are_enemies(state, f.side, e.side) and not e.routed]
    if not ring or not foes:
        return frozenset(ring) or None

    def clear(h: Hex) -> int:
        return min(distance(h, e) for e in foes)

    best = max(clear(h) for h in ring)
    return frozenset(h for h in ring if clear(h) == best)


def charge_goals(engine: Engine, enemies: list[Formation]) -> frozenset[Hex]:
    """Where a charging formation rides: the enemy formations whose officers still stand,
    else any enemy in the field."""
    live = [e for e in enemies if not e.routed]
    led = [e.pos for e in live if officers.standing(engine, e)]
    return frozenset(led or [e.pos for e in live])


def sweep_ground(engine: Engine, side: str, enemies: list[Formation]) -> frozenset[Hex]:
    """Where a sweeper goes: next to routed enemy soul formations, else to enemy souls lying
    on the field; only where no formed enemy stands within SWEEP_CLEAR hexes (it sweeps
    behind the army, not in front of it)."""
    state, rules = engine.state, engine.rules
    formed = [e.pos for e in enemies if not e.routed]

    def clear(h: Hex) -> bool:
        return all(distance(h, e) > SWEEP_CLEAR for e in formed)

    routed = frozenset(e.pos for e in enemies if e.routed and "soul" in rules.units[e.type].abilities and clear(e.pos))
    if routed:
        return routed
    return frozenset(
        h
        for key, by_side in state.field_souls.items()
        if any(n > 0 and are_enemies(state, side, owner) for owner, n in by_side.items()) and clear(h := Hex.parse(key))
    )


def charge_ground(engine: Engine, enemies: list[Formation]) -> frozenset[Hex]:
    """Open ground a charge's run-up away from the nearest formed enemy: from there the next
    move crosses open ground into the blow."""
    board = engine.board
    live = [e.pos for e in enemies if not e.routed]
    if not live:
        return frozenset()
    start = CHARGE_RUN_UP + 1
    ring = {h for e in live for h in disc(e, start) if distance(h, e) == start}
    return frozenset(
        h for h in ring if h in board and board.terrain_at(h).open and min(distance(h, e) for e in live) == start
    )


def reserve_ground(engine: Engine, side: str, f: Formation, enemies: list[Formation]) -> frozenset[Hex]:
    """Where a reserve waits: near the side's commander, out of the enemy's reach; with no
    commander in the field, as far from the enemy as it can get."""
    board = engine.board
    live = [e.pos for e in enemies if not e.routed]

    def clear_of_enemy(h: Hex) -> int:
        return min((distance(h, e) for e in live), default=RESERVE_GAP)

    # The commander: the side's hero of the greatest leadership (Han Xin, not whichever
    # hero's formation comes first), never the reserve itself.
    heroes = engine.rules.heroes
    leaders = [
        o
        for o in engine.state.formations_of(side)
        if o.hero is not None and o.hero in heroes and not o.routed and o.id != f.id
    ]
    commander = max(leaders, key=lambda o: (heroes[o.hero or ""].leadership, o.id), default=None)
    if commander is not None:
        near = frozenset(
            h
            for h in disc(commander.pos, RESERVE_GAP)
            if h != commander.pos and h in board and clear_of_enemy(h) >= RESERVE_GAP
        )
        if near:
            return near
    around = [h for h in disc(f.pos, RESERVE_GAP + 2) if h in board]
    far = max(clear_of_enemy(h) for h in around)
    return frozenset(h for h in around if clear_of_enemy(h) == far)
