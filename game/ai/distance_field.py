"""Movement-cost distance from a set of goal hexes, for "how far am I from the enemy"."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from typing import overload

from ..core.board import Board
from ..core.hexgrid import Hex


class CostField:
    """Cheapest movement cost from each hex to the nearest goal (multi-source Dijkstra), worked
    out lazily: a look-up settles hexes in order of cost only until the one asked for is
    settled. Formations near the enemy ask about near hexes, so on a big field most of it is
    never searched, and every answer is the one a full search would give.

    Costs are those of entering a hex, walked backwards from the goals, so the value at a hex is
    what a unit of ``move_class`` pays to get from there to a goal, ignoring other units.
    """

    def __init__(self, board: Board, move_class: str, goals: Iterable[Hex]) -> None:
        self._terrain = board.terrain
        self._move_class = move_class
        self._steps = board.steps(move_class)
        self._dist: dict[Hex, int] = {}
        self._settled: set[Hex] = set()
        self._heap: list[tuple[int, Hex]] = []
        for g in sorted(set(goals)):
            if g in self._terrain:
                self._dist[g] = 0
                self._heap.append((0, g))
        heapq.heapify(self._heap)

    @overload
    def get(self, h: Hex, default: int) -> int: ...
    @overload
    def get(self, h: Hex, default: None = None) -> int | None: ...
    def get(self, h: Hex, default: int | None = None) -> int | None:
        """The cost from ``h`` to the nearest goal, or ``default`` if no goal can be reached."""
        settled = self._settled
        while h not in settled and self._heap:
            self._settle_next()
        return self._dist[h] if h in settled else default

    def complete(self) -> dict[Hex, int]:
        """Search the whole field; the cost from every hex that reaches a goal."""
        while self._heap:
            self._settle_next()
        return dict(self._dist)

    def _settle_next(self) -> None:
        dist = self._dist
        c, here = heapq.heappop(self._heap)
        if here in self._settled:
            return
        self._settled.add(here)
        here_cost = self._terrain[here].move_cost.get(self._move_class)
        if here_cost is None and c > 0:
            return
        step = here_cost if here_cost is not None else 1  # entering a goal hex
        nc = c + step
        # The hexes that may step into ``here`` are the ones it may step into: adjacency is
        # symmetric, and what counts is whether this class may stand on them at all.
        for nxt, _cost in self._steps[here]:
            if nc < dist.get(nxt, 1 << 30):
                dist[nxt] = nc
                heapq.heappush(self._heap, (nc, nxt))


def cost_field(board: Board, move_class: str, goals: Iterable[Hex]) -> dict[Hex, int]:
    """The whole ``CostField`` at once, as a dict."""
    return CostField(board, move_class, goals).complete()
