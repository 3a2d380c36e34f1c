"""Movement-cost distance from a set of goal hexes, for "how far am I from the enemy"."""

from __future__ import annotations

from collections.abc import Iterable
from typing import overload

from ..core.board import Board
from ..core.hexgrid import Hex

# Farther than any cost: not reached (yet).
_FAR = 1 << 30


class CostField:
    """Cheapest movement cost from each hex to the nearest goal (multi-source Dijkstra), worked
    out lazily: a look-up settles hexes in order of cost only until the one asked for is
    settled. Formations near the enemy ask about near hexes, so on a big field most of it is
    never searched, and every answer is the one a full search would give.

    Costs are those of entering a hex, walked backwards from the goals, so the value at a hex is
    what a unit of ``move_class`` pays to get from there to a goal, ignoring other units.
    """

    def __init__(self, board: Board, move_class: str, goals: Iterable[Hex]) -> None:
        # Hexes by number (``Board.step_graph``): lists rather than dicts keyed by hex.
        graph = board.step_graph(move_class)
        self._hexes, self._number = graph.hexes, graph.number
        self._costs, self._steps = graph.entry, graph.steps
        self._dist = [_FAR] * len(graph.hexes)
        self._settled = bytearray(len(graph.hexes))
        # Hexes waiting to be settled, by the cost they were reached at (a bucket queue: costs
        # are small whole numbers); ``_at`` is the cost being settled.
        self._buckets: list[list[int]] = [[]]
        self._at = 0
        for g in sorted(set(goals)):
            n = self._number.get(g)
            if n is not None:
                self._dist[n] = 0
                self._buckets[0].append(n)

    @overload
    def get(self, h: Hex, default: int) -> int: ...
    @overload
    def get(self, h: Hex, default: None = None) -> int | None: ...
    def get(self, h: Hex, default: int | None = None) -> int | None:
        """The cost from ``h`` to the nearest goal, or ``default`` if no goal can be reached."""
        n = self._number.get(h)
        if n is None:
            return default  # off the board
        if not self._settled[n]:
            self._settle(n)
        return self._dist[n] if self._settled[n] else default

    def get_within(self, h: Hex, bound: int) -> int | None:
        """``get(h)`` if that is at most ``bound``, else None; the search goes no farther."""
        n = self._number.get(h)
        if n is None:
            return None
        if not self._settled[n]:
            self._settle(n, bound)
        if self._settled[n] and self._dist[n] <= bound:
            return self._dist[n]
        return None

    def complete(self) -> dict[Hex, int]:
        """Search the whole field; the cost from every hex that reaches a goal."""
        self._settle(-1)
        hexes = self._hexes
        return {hexes[i]: d for i, d in enumerate(self._dist) if d < _FAR}

    def _settle(self, until: int, bound: int = _FAR) -> None:
        """Settle hexes in order of cost until hex number ``until`` is settled (-1: all of them)
        or all up to ``bound`` are. A hex is settled at the lowest cost it was reached at; its
        later, dearer entries are skipped."""
        dist, settled, buckets = self._dist, self._settled, self._buckets
        costs, steps = self._costs, self._steps
        c = self._at
        while c < len(buckets) and c <= bound:
            bucket = buckets[c]
            while bucket:
                here = bucket.pop()
                if settled[here]:
                    continue
                settled[here] = 1
                step = costs[here]
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
                    if nc < dist[nxt]:
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
