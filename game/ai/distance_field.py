"""Movement-cost distance from a set of goal hexes, for "how far am I from the enemy"."""

from __future__ import annotations

import heapq
from collections.abc import Iterable

from ..core.board import Board
from ..core.hexgrid import DIRECTIONS, Hex


def cost_field(board: Board, move_class: str, goals: Iterable[Hex]) -> dict[Hex, int]:
    """Cheapest movement cost from each hex to the nearest goal (multi-source Dijkstra).

    Costs are those of entering a hex, walked backwards from the goals, so the value at a hex is
    what a unit of ``move_class`` pays to get from there to a goal, ignoring other units.
    """
    terrain = board.terrain
    dist: dict[Hex, int] = {}
    heap: list[tuple[int, int, int]] = []
    for g in sorted(set(goals)):
        if g in terrain:
            dist[g] = 0
            heap.append((0, g.q, g.r))
    heapq.heapify(heap)
    while heap:
        c, q, r = heapq.heappop(heap)
        here = Hex(q, r)
        if c > dist[here]:
            continue
        here_cost = terrain[here].move_cost.get(move_class)
        if here_cost is None and c > 0:
            continue
        step = here_cost if here_cost is not None else 1  # entering a goal hex
        for d in DIRECTIONS:
            nxt = Hex(q + d.q, r + d.r)
            t = terrain.get(nxt)
            if t is None or move_class not in t.move_cost:
                continue
            nc = c + step
            if nc < dist.get(nxt, 1 << 30):
                dist[nxt] = nc
                heapq.heappush(heap, (nc, nxt.q, nxt.r))
    return dist
