"""Hex coordinates for a pointy-top grid.

The core works in axial coordinates (q, r); cube coordinates are (q, r, -q-r). Tiled stores
hexagonal maps with ``staggeraxis="y"`` as offset rows, where every other row is shifted half
a hex to the right: ``staggerindex="odd"`` shifts odd rows, ``"even"`` shifts even rows. The
conversions below are exact inverses of each other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple


class Hex(NamedTuple):
    """An axial hex coordinate. A tuple, so it is hashable, ordered and cheap."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def key(self) -> str:
        """The canonical string form used in JSON ("q,r")."""
        return f"{self.q},{self.r}"

    @staticmethod
    def parse(text: str) -> Hex:
        q, r = text.split(",")
        return Hex(int(q), int(r))


# Neighbour directions, clockwise from east. Direction i and i+3 are opposite.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def distance(a: Hex, b: Hex) -> int:
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    """The six neighbours of ``h`` in direction order (a list of the caller's own)."""
    return list(ring_of_six(h))


@lru_cache(maxsize=1 << 16)
def ring_of_six(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` as a shared tuple: zones of control are rebuilt for every
    move checked, and making the hexes anew was a tenth of a replay's time."""
    q, r = h
    return tuple([Hex(q + d.q, r + d.r) for d in DIRECTIONS])


def from_centre(area: Iterable[Hex]) -> list[Hex]:
    """The hexes of ``area`` nearest its centre (the mean of their cube coordinates) first, ties
    broken by the hexes' order: the same order in every process."""
    hexes = list(area)
    if not hexes:
        return []
    n = len(hexes)
    cq = sum(h.q for h in hexes) / n
    cr = sum(h.r for h in hexes) / n
    return sorted(hexes, key=lambda h: ((h.q - cq) ** 2 + (h.r - cr) ** 2 + (h.q + h.r - cq - cr) ** 2, h))


def direction_to(a: Hex, b: Hex) -> int | None:
    """Index of the direction from ``a`` to the adjacent hex ``b``, or None if not adjacent."""
    delta = Hex(b.q - a.q, b.r - a.r)
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        return None


def opposite(center: Hex, h: Hex) -> Hex:
    """The hex on the far side of ``center`` from ``h`` (both adjacent to ``center``)."""
    return Hex(2 * center.q - h.q, 2 * center.r - h.r)


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, in a stable clockwise order."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    result: list[Hex] = []
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for side in range(6):
        for _ in range(radius):
            result.append(h)
            d = DIRECTIONS[side]
            h = Hex(h.q + d.q, h.r + d.r)
    return result


def spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """All hexes within ``radius`` of ``center``, nearest rings first."""
    for k in range(radius + 1):
        yield from ring(center, k)


@lru_cache(maxsize=1 << 12)
def disc(center: Hex, radius: int) -> tuple[Hex, ...]:
    """``spiral(center, radius)`` as a shared tuple: the general walks the same few discs (an
    enemy's reach, the ground round a remembered spot) for every decision."""
    q, r = center
    new = tuple.__new__
    return tuple([new(Hex, (q + dq, r + dr)) for dq, dr in _disc_offsets(radius)])


@lru_cache(maxsize=64)
def _disc_offsets(radius: int) -> tuple[Hex, ...]:
    """The spiral round the origin: every other is the same, moved."""
    return tuple(spiral(Hex(0, 0), radius))


@lru_cache(maxsize=1 << 10)
def disc_set(center: Hex, radius: int) -> frozenset[Hex]:
    """The hexes within ``radius`` of ``center``, as a shared set."""
    return frozenset(disc(center, radius))


def distance_to_area(h: Hex, area: frozenset[Hex]) -> int:
    """The distance from ``h`` to the nearest hex of ``area`` (not empty): 0 inside it. An area
    (a region the general marches on, asked about for every hex round a formation) is measured
    by its edge only, once per hex (``_area_distances``)."""
    edge, known = _area_distances(area)
    found = known.get(h)
    if found is None:
        if h in area:
            found = 0
        else:
            q, r = h
            found = min((abs(q - a) + abs(r - b) + abs(q + r - a - b)) // 2 for a, b in edge)
        known[h] = found
    return found


@lru_cache(maxsize=256)
def _area_distances(area: frozenset[Hex]) -> tuple[tuple[Hex, ...], dict[Hex, int]]:
    """The hexes of ``area`` with a neighbour outside it, and the distances to the area found so
    far. From any hex outside the area the nearest hex of it is on its edge: the step before it
    on a shortest way there lies outside (were it inside, that hex would be nearer)."""
    return tuple(h for h in area if any(n not in area for n in ring_of_six(h))), {}


def cube_round(fq: float, fr: float) -> Hex:
    """The hex a fractional axial position falls in (rounded in cube coordinates)."""
    return Hex(*round_axial(fq, fr))


def round_axial(fq: float, fr: float) -> tuple[int, int]:
    """``cube_round``'s axial coordinates as a plain pair, equal to the hex's (lines of sight ask
    this of every point between two hexes, and need no hex made for it)."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive.

    A tiny nudge keeps points that fall exactly on a hex edge on a consistent side, so the
    line is the same on every machine.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a.q + 1e-6, a.r + 2e-6
    bq, br = b.q + 1e-6, b.r + 2e-6
    return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def offset_to_axial(col: int, row: int, stagger_odd: bool = True) -> Hex:
    """Tiled offset (col, row) with ``staggeraxis="y"`` to axial."""
    parity = row & 1
    if stagger_odd:
        return Hex(col - (row - parity) // 2, row)
    return Hex(col - (row + parity) // 2, row)


def axial_to_offset(h: Hex, stagger_odd: bool = True) -> tuple[int, int]:
    """Axial to Tiled offset (col, row); the inverse of :func:`offset_to_axial`."""
    parity = h.r & 1
    if stagger_odd:
        return h.q + (h.r - parity) // 2, h.r
    return h.q + (h.r + parity) // 2, h.r
