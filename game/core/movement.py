"""Where a formation can go this turn: terrain costs, blocking and zones of control.

Dijkstra over plain dicts of hexes. Ties are broken by (cost, q, r) so the chosen path is the
same on every run, which replays depend on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import Board
from .hexgrid import Hex, ring_of_six
from .rules import Ruleset, RulesKey
from .sides import are_enemies, closed_hexes, enemy_sides
from .state import Formation, GameState

ZOC_IGNORING = frozenset({"skirmisher", "infiltrator"})
# Forced march: movement points multiplied by this.
FORCED_MARCH_FACTOR = 1.5

# A formation more tired than this cannot be driven on a forced march.
MAX_FATIGUE_TO_FORCE = 80

__all__ = ["MAX_FATIGUE_TO_FORCE", "are_enemies", "search_moves", "enemy_zoc", "MoveMap", "movement_points", "stops"]


def exerts_zoc(formation: Formation) -> bool:
    """A formed unit holds a zone of control around itself; a routed one does not."""
    return formation.men > 0 and not formation.routed


def enemy_zoc(state: GameState, side_id: str) -> set[Hex]:
    """Hexes next to an enemy of ``side_id`` that holds a zone of control."""
    zone: set[Hex] = set()
    foes = enemy_sides(state, side_id)
    for f in state.formations.values():
        if f.side in foes and exerts_zoc(f):
            zone.update(ring_of_six(f.pos))
    return zone


@dataclass
class MoveMap:
    """The result of a movement search from one formation's hex."""

    origin: Hex
    cost: dict[Hex, int]
    parent: dict[Hex, Hex]
    # Hexes a formation may stop on (reachable and empty), the origin excluded.
    destinations: frozenset[Hex]

    def path_to(self, dest: Hex) -> list[Hex] | None:
        """The hexes from the origin to ``dest`` inclusive, or None if unreachable."""
        if dest not in self.cost:
            return None
        path = [dest]
        while path[-1] != self.origin:
            path.append(self.parent[path[-1]])
        path.reverse()
        return path


def movement_points(formation: Formation, rules: Ruleset, forced: bool = False) -> int:
    points = rules.units[formation.type].movement
    if "ride_light" in formation.effects:
        points += 4
    if forced:
        points = int(points * FORCED_MARCH_FACTOR)
    return points


def max_steps(formation: Formation, rules: Ruleset, forced: bool = False) -> int:
    """The most hexes ``formation`` could cross this turn on its cheapest ground: no move
    reaches farther, so anything beyond can be left out before searching."""
    return movement_points(formation, rules, forced) // _cheapest_step(
        RulesKey(rules), rules.units[formation.type].move_class
    )


@lru_cache(maxsize=64)
def _cheapest_step(rules: RulesKey, move_class: str) -> int:
    """The least any terrain costs ``move_class`` to enter (the general asks every formation's
    reach at every decision)."""
    terrain = rules.rules.terrain.values()
    return min((t.move_cost[move_class] for t in terrain if move_class in t.move_cost), default=1)


def search_moves(
    state: GameState,
    board: Board,
    rules: Ruleset,
    formation: Formation,
    occupancy: dict[Hex, str] | None = None,
    zoc: set[Hex] | None = None,
    forced: bool = False,
    target: Hex | None = None,
) -> MoveMap:
    """All hexes ``formation`` can reach with its movement points this turn.

    Enemy formations block; friends can be passed through but not stopped on. Entering an enemy
    zone of control ends the move unless the unit ignores zones of control. With a ``target``
    the search stops once that hex is settled: its cost and path are final then (a parent only
    ever changes for a strictly cheaper way), so checking one move needs no more.
    """
    utype = rules.units[formation.type]
    budget = movement_points(formation, rules, forced)
    move_class = utype.move_class
    if occupancy is None:
        occupancy = state.occupancy()
    ignores_zoc = bool(ZOC_IGNORING.intersection(utype.abilities)) or "breakthrough" in formation.effects
    if zoc is None:
        zoc = set() if ignores_zoc else enemy_zoc(state, formation.side)
    elif ignores_zoc:
        zoc = set()
    origin = formation.pos
    graph = board.step_graph(move_class)
    number = graph.number
    start = number.get(origin)
    if start is None:
        return MoveMap(origin, {origin: 0}, {}, frozenset())  # off the board: nowhere to go
    hexes, steps = graph.hexes, graph.steps
    formations = state.formations
    side = formation.side
    # Costs and parents by hex number; ``reached`` keeps the order hexes were first reached in.
    # Fortress gates shut to this side are walls, and so are the hexes its enemies stand on
    # (friends can be passed through): a cost below any step's marks them, so the one test of
    # whether a step is cheaper than the known way turns them away too.
    far, wall = 1 << 30, -1
    cost = [far] * len(hexes)
    for h in closed_hexes(state, board, side):
        if h in number:
            cost[number[h]] = wall
    for h, fid in occupancy.items():
        if formations[fid].side != side and h in number:
            cost[number[h]] = wall
    parent = [-1] * len(hexes)
    cost[start] = 0
    reached = [start]
    goal = -1 if target is None else number.get(target, -1)
    # Hexes to settle, by the cost they were reached at. Every step costs at least 1 (the rules
    # say so), so no bucket grows while it is settled, and each is settled in (q, r) order (the
    # numbers' order): the order a heap of (cost, hex) would pop them in.
    buckets: list[list[int]] = [[] for _ in range(max(budget, 0) + 1)]
    buckets[0].append(start)
    for c, bucket in enumerate(buckets):
        bucket.sort()
        for here in bucket:
            if c > cost[here]:
                continue
            if here == goal:
                break
            if here != start and hexes[here] in zoc:
                continue  # a zone of control stops the move here
            for nxt, step in steps[here]:
                nc = c + step
                if nc > budget or nc >= cost[nxt]:
                    continue
                if cost[nxt] == far:
                    reached.append(nxt)
                cost[nxt] = nc
                parent[nxt] = here
                buckets[nc].append(nxt)
        else:
            continue
        break  # the target is settled
    costs = {hexes[i]: cost[i] for i in reached}
    parents = {hexes[i]: hexes[parent[i]] for i in reached[1:]}
    return MoveMap(origin, costs, parents, stops(costs, origin, occupancy))


def stops(reached: dict[Hex, int], origin: Hex, occupancy: dict[Hex, str]) -> frozenset[Hex]:
    """A search's destinations: every hex it reached but the origin and those someone stands
    on (set arithmetic rather than a test per hex: the general asks it of every search)."""
    return frozenset(reached).difference(occupancy, (origin,))
