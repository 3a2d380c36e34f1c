"""Movement-cost distance from a set of goal hexes, for "how far am I from the enemy"."""

from __future__ import annotations

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
        terrain = board.terrain
        self._costs = board.entry_costs(move_class)
        self._steps = board.steps(move_class)
        self._dist: dict[Hex, int] = {}
        self._settled: set[Hex] = set()
        # Hexes waiting to be settled, by the cost they were reached at (a bucket queue: costs
        # are small whole numbers); ``_at`` is the cost being settled.
        self._buckets: list[list[Hex]] = [[]]
        self._at = 0
        for g in sorted(set(goals)):
            if g in terrain:
                self._dist[g] = 0
                self._buckets[0].append(g)

    @overload
    def get(self, h: Hex, default: int) -> int: ...
    @overload
    def get(self, h: Hex, default: None = None) -> int | None: ...
    def get(self, h: Hex, default: int | None = None) -> int | None:
        """The cost from ``h`` to the nearest goal, or ``default`` if no goal can be reached."""
        settled = self._settled
        if h not in settled:
            self._settle(h)
        return self._dist[h] if h in settled else default

    def get_within(self, h: Hex, bound: int) -> int | None:
        """``get(h)`` if that is at most ``bound``, else None; the search goes no farther."""
        settled = self._settled
        if h not in settled:
            self._settle(h, bound)
        if h in settled and self._dist[h] <= bound:
            return self._dist[h]
        return None

    def complete(self) -> dict[Hex, int]:
        """Search the whole field; the cost from every hex that reaches a goal."""
        self._settle(None)
        return dict(self._dist)

    def _settle(self, until: Hex | None, bound: int = 1 << 30) -> None:
        """Settle hexes in order of cost until ``until`` is settled (None: all of them) or all
        up to ``bound`` are. A hex is settled at the lowest cost it was reached at; its later,
        dearer entries are skipped."""
        dist, settled, buckets = self._dist, self._settled, self._buckets
        costs, steps = self._costs, self._steps
        far = 1 << 30
        c = self._at
        while c < len(buckets) and c <= bound:
            bucket = buckets[c]
            while bucket:
                here = bucket.pop()
                if here in settled:
                    continue
                settled.add(here)
                step = costs.get(here)
                if step is None:
                    if c > 0:
                        if here == until:
                            self._at = c
                            return
                        continue
                    step = 1  # entering a goal hex
                nc = c + step
                # The hexes that may step into ``here`` are the ones it may step into: adjacency
                # is symmetric, and what counts is whether this class may stand on them at all.
                for nxt, _cost in steps[here]:
                    if nc < dist.get(nxt, far):
                        dist[nxt] = nc
                        while len(buckets) <= nc:
                            buckets.append([])
                        buckets[nc].append(nxt)
                if here == until:
                    self._at = c
                    return
            c += 1
        self._at = c


def cost_field(board: Board, move_class: str, goals: Iterable[Hex]) -> dict[Hex, int]:
    """The whole ``CostField`` at once, as a dict."""
    return CostField(board, move_class, goals).complete()
