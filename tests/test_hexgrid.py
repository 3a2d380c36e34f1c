"""Axial hex geometry and the Tiled offset conversions."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from game.content.tmx import HexLayout
from game.core.hexgrid import (
    DIRECTIONS,
    Hex,
    axial_to_offset,
    direction_to,
    disc,
    distance,
    line,
    neighbours,
    offset_to_axial,
    opposite,
    ring,
    spiral,
)

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)


def test_hex_is_a_hashable_value_with_cube_third_coordinate() -> None:
    h = Hex(3, -5)
    assert h.s == 2
    assert h.q + h.r + h.s == 0
    assert {Hex(1, 2), Hex(1, 2)} == {Hex(1, 2)}
    assert Hex(1, 2) + Hex(-3, 4) == Hex(-2, 6)
    assert Hex(1, 2) - Hex(-3, 4) == Hex(4, -2)


def test_key_round_trips_through_parse() -> None:
    for h in (Hex(0, 0), Hex(-12, 7), Hex(40, -41)):
        assert h.key() == f"{h.q},{h.r}"
        assert Hex.parse(h.key()) == h


def test_directions_are_the_six_unit_vectors_and_opposites_cancel() -> None:
    assert len(set(DIRECTIONS)) == 6
    for i, d in enumerate(DIRECTIONS):
        assert distance(Hex(0, 0), d) == 1
        o = DIRECTIONS[(i + 3) % 6]
        assert d + o == Hex(0, 0)


def test_distance_known_values() -> None:
    assert distance(Hex(0, 0), Hex(0, 0)) == 0
    assert distance(Hex(0, 0), Hex(3, 0)) == 3
    assert distance(Hex(0, 0), Hex(2, -5)) == 5
    assert distance(Hex(0, 0), Hex(3, 3)) == 6
    assert distance(Hex(-2, 1), Hex(1, -1)) == 3


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)
    # Cube distance: the largest coordinate difference.
    assert distance(a, b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@given(hexes)
def test_neighbours_are_the_six_hexes_at_distance_one(h: Hex) -> None:
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    for i, n in enumerate(ns):
        assert direction_to(h, n) == i
        assert opposite(h, n) == ns[(i + 3) % 6]
        assert distance(n, opposite(h, n)) == 2


def test_direction_to_non_adjacent_is_none() -> None:
    assert direction_to(Hex(0, 0), Hex(0, 0)) is None
    assert direction_to(Hex(0, 0), Hex(2, 0)) is None
    assert direction_to(Hex(0, 0), Hex(1, 1)) is None


@given(hexes, st.integers(min_value=0, max_value=8))
def test_ring_has_6r_distinct_hexes_at_radius_in_a_closed_walk(center: Hex, radius: int) -> None:
    r = ring(center, radius)
    if radius == 0:
        assert r == [center]
        return
    assert len(r) == 6 * radius
    assert len(set(r)) == len(r)
    assert all(distance(center, h) == radius for h in r)
    # Consecutive hexes touch, and the walk closes on itself.
    for a, b in zip(r, r[1:] + r[:1], strict=True):
        assert distance(a, b) == 1


def test_ring_rejects_negative_radius() -> None:
    try:
        ring(Hex(0, 0), -1)
    except ValueError:
        pass
    else:  # pragma: no cover - the assertion is the point
        raise AssertionError("ring(-1) must raise")


@given(hexes, st.integers(min_value=0, max_value=7))
def test_spiral_covers_the_disc_nearest_first(center: Hex, radius: int) -> None:
    s = list(spiral(center, radius))
    assert len(s) == 1 + 3 * radius * (radius + 1)
    assert len(set(s)) == len(s)
    dists = [distance(center, h) for h in s]
    assert dists == sorted(dists)
    assert max(dists) == radius
    # Every hex within the radius is in it.
    box = {Hex(center.q + dq, center.r + dr) for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)}
    assert {h for h in box if distance(center, h) <= radius} == set(s)


@given(hexes, st.integers(min_value=0, max_value=7))
def test_disc_is_the_spiral_in_its_order(center: Hex, radius: int) -> None:
    assert disc(center, radius) == tuple(spiral(center, radius))
    assert disc(center, radius) is disc(center, radius)


@given(hexes, hexes)
def test_line_is_a_connected_shortest_path(a: Hex, b: Hex) -> None:
    ln = line(a, b)
    n = distance(a, b)
    assert len(ln) == n + 1
    assert ln[0] == a and ln[-1] == b
    for x, y in zip(ln, ln[1:], strict=False):
        assert distance(x, y) == 1
    # Each step gets one hex closer to the end.
    assert [distance(h, b) for h in ln] == list(range(n, -1, -1))


def test_line_is_stable_on_ties() -> None:
    # (0,0)->(2,-1) passes exactly between two hexes; the nudge must pick the same one each time.
    first = line(Hex(0, 0), Hex(2, -1))
    assert all(line(Hex(0, 0), Hex(2, -1)) == first for _ in range(5))
    assert len(first) == 3


@given(st.integers(-40, 40), st.integers(-40, 40), st.booleans())
def test_offset_axial_round_trip(col: int, row: int, odd: bool) -> None:
    h = offset_to_axial(col, row, odd)
    assert h.r == row
    assert axial_to_offset(h, odd) == (col, row)
    assert offset_to_axial(*axial_to_offset(h, odd), odd) == h


def test_offset_neighbours_follow_tiled_stagger() -> None:
    # staggerindex=odd: odd rows are shifted right, so (0,0) touches (0,1) and (-1,1) below.
    o00 = offset_to_axial(0, 0, True)
    assert distance(o00, offset_to_axial(0, 1, True)) == 1
    assert distance(o00, offset_to_axial(-1, 1, True)) == 1
    assert distance(o00, offset_to_axial(1, 1, True)) == 2
    # staggerindex=even: even rows are shifted right, so (0,0) touches (0,1) and (1,1) below.
    e00 = offset_to_axial(0, 0, False)
    assert distance(e00, offset_to_axial(0, 1, False)) == 1
    assert distance(e00, offset_to_axial(1, 1, False)) == 1
    assert distance(e00, offset_to_axial(-1, 1, False)) == 2
    # Same-row neighbours are always one column apart.
    for odd in (True, False):
        for row in (0, 1, 2, 3):
            a = offset_to_axial(4, row, odd)
            assert distance(a, offset_to_axial(5, row, odd)) == 1
            assert distance(a, offset_to_axial(6, row, odd)) == 2


@given(st.integers(1, 12), st.integers(1, 12), st.booleans())
def test_pixel_layout_agrees_with_axial_adjacency(col: int, row: int, odd: bool) -> None:
    """The six nearest hex centres on screen are exactly the axial neighbours."""
    layout = HexLayout(56.0, 64.0, 32.0, odd)
    h = offset_to_axial(col, row, odd)
    cx, cy = layout.centre(col, row)
    assert layout.offset_at(cx, cy) == (col, row)
    others = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if dr == dc == 0:
                continue
            ox, oy = layout.centre(col + dc, row + dr)
            others.append((math.hypot(ox - cx, oy - cy), offset_to_axial(col + dc, row + dr, odd)))
    others.sort()
    assert {o for _, o in others[:6]} == set(neighbours(h))
    assert others[6][0] > others[5][0] * 1.5
