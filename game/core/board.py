"""The static map of a battle: terrain per hex, named regions and their display names.

The board never changes during a game, so it is kept out of the hashed state and stored as
plain dicts for fast look-ups in pathfinding and the AI.
"""

from __future__ import annotations

from collections.abc import Iterable

from .hexgrid import Hex, axial_to_offset, offset_to_axial, ring_of_six
from .rules import TerrainType


class StepGraph:
    """A board's hexes numbered in (q, r) order, so that numbers sort as the hexes do, with each
    one's enterable neighbours (number, cost) in direction order."""

    def __init__(self, steps: dict[Hex, tuple[tuple[Hex, int], ...]], costs: dict[Hex, int]) -> None:
        self.hexes: list[Hex] = sorted(steps)
        self.number: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        number = self.number
        self.steps: list[tuple[tuple[int, int], ...]] = [
            tuple([(number[n], cost) for n, cost in steps[h]]) for h in self.hexes
        ]
        # What entering each hex costs (None where the class may not go).
        self.entry: list[int | None] = [costs.get(h) for h in self.hexes]


class Board:
    def __init__(
        self,
        width: int,
        height: int,
        terrain: dict[Hex, TerrainType],
        regions: dict[str, frozenset[Hex]] | None = None,
        stagger_odd: bool = True,
        labels: dict[str, str] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.terrain = terrain
        self.regions = regions or {}
        self.stagger_odd = stagger_odd
        # Region id -> the place name shown on the map (an English msgid); regions without one
        # are technical (where the camp's formations muster, what the AI watches) and not drawn.
        self.labels = labels or {}
        # Region name -> its fortress hexes, filled on first use (movement asks on every search).
        self._fortress_hexes: dict[str, frozenset[Hex]] = {}
        # Move class -> hex -> (neighbour, cost to enter it) for every neighbour it may enter.
        self._steps: dict[str, dict[Hex, tuple[tuple[Hex, int], ...]]] = {}
        # Move class -> hex -> cost to enter it, for every hex that class may enter.
        self._entry_costs: dict[str, dict[Hex, int]] = {}
        # Move class -> ``steps`` over hex numbers (``StepGraph``).
        self._graphs: dict[str, StepGraph] = {}
        # What ``vision`` has worked out about this board (lines of sight, unions of sight), kept
        # as long as the board is: set and read by ``vision`` only.
        self.vision_cache: object | None = None

    @classmethod
    def from_offset_grid(
        cls,
        rows: list[list[TerrainType]],
        regions: dict[str, frozenset[Hex]] | None = None,
        stagger_odd: bool = True,
    ) -> Board:
        """Build from rows of terrain in Tiled's offset layout (row-major, top row first)."""
        height = len(rows)
        width = len(rows[0]) if rows else 0
        terrain: dict[Hex, TerrainType] = {}
        for row, cells in enumerate(rows):
            if len(cells) != width:
                raise ValueError("all rows must have the same width")
            for col, t in enumerate(cells):
                terrain[offset_to_axial(col, row, stagger_odd)] = t
        return cls(width, height, terrain, regions, stagger_odd)

    def steps(self, move_class: str) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
        """For every hex, the neighbours a ``move_class`` unit may enter and what each costs,
        in direction order: the graph every path search walks, built once per class."""
        found = self._steps.get(move_class)
        if found is None:
            costs = self.entry_costs(move_class)
            found = {h: tuple([(n, costs[n]) for n in ring_of_six(h) if n in costs]) for h in self.terrain}
            self._steps[move_class] = found
        return found

    def step_graph(self, move_class: str) -> StepGraph:
        """``steps`` over hex numbers, built once per class: the move search settles a hundred
        hexes for every move the general weighs, and a list look-up by number is cheaper than
        a dict look-up by hex."""
        found = self._graphs.get(move_class)
        if found is None:
            found = StepGraph(self.steps(move_class), self.entry_costs(move_class))
            self._graphs[move_class] = found
        return found

    def entry_costs(self, move_class: str) -> dict[Hex, int]:
        """What a ``move_class`` unit pays to enter each hex it may enter, built once per class."""
        found = self._entry_costs.get(move_class)
        if found is None:
            found = {h: t.move_cost[move_class] for h, t in self.terrain.items() if move_class in t.move_cost}
            self._entry_costs[move_class] = found
        return found

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def hexes(self) -> Iterable[Hex]:
        return self.terrain.keys()

    def terrain_at(self, h: Hex) -> TerrainType:
        return self.terrain[h]

    def move_cost(self, h: Hex, move_class: str) -> int | None:
        """Movement points to enter ``h``, or None where that class cannot go."""
        t = self.terrain.get(h)
        if t is None:
            return None
        return t.move_cost.get(move_class)

    def fortress_hexes(self, region: str) -> frozenset[Hex]:
        """The hexes of fortress terrain inside a named region (empty for an unknown region)."""
        found = self._fortress_hexes.get(region)
        if found is None:
            found = frozenset(h for h in self.regions.get(region, ()) if self.terrain[h].fortress)
            self._fortress_hexes[region] = found
        return found

    def offset(self, h: Hex) -> tuple[int, int]:
        return axial_to_offset(h, self.stagger_odd)

    def at_offset(self, col: int, row: int) -> Hex:
        return offset_to_axial(col, row, self.stagger_odd)
