"""Herding a rout (the chronicle of the valley mouth): the wings close from both flanks and drive the
broken host one way, where its souls can be caught.

A routed formation with formed enemies within ``HEMMED_RADIUS`` on two sides (at least 120
degrees apart) is hemmed in. When it flees it can only run along the open side between them
(``morale.flee`` already runs from the nearest enemy), and ``HEMMED_STRAGGLERS`` percent of its
men are cut down behind it as souls; capturers bag it ``HEMMED_BAG_FACTOR`` times as fast
(``souls.capture``).
"""

from __future__ import annotations

from .hexgrid import Hex, distance
from .sides import are_enemies
from .state import Formation, GameState

HEMMED_RADIUS = 2
HEMMED_STRAGGLERS = 10
HEMMED_BAG_FACTOR = 2


def _two_sides(a: Hex, b: Hex) -> bool:
    """Whether offsets ``a`` and ``b`` (from the same hex) point at least 120 degrees apart.

    On a pointy-top grid the axial offset (q, r) lies along (2q + r, r * sqrt 3) up to a common
    scale, so the cosine test cos <= -1/2 stays in whole numbers."""
    ax, ay, bx, by = 2 * a.q + a.r, a.r, 2 * b.q + b.r, b.r
    dot = ax * bx + 3 * ay * by
    return dot < 0 and 4 * dot * dot >= (ax * ax + 3 * ay * ay) * (bx * bx + 3 * by * by)


def hemmed(state: GameState, f: Formation, enemies: list[Formation] | None = None) -> bool:
    """A routed ``f`` with formed enemies close on two sides: a rout being herded."""
    if not f.routed:
        return False
    if enemies is None:
        enemies = [e for e in state.formations.values() if are_enemies(state, f.side, e.side) and not e.hidden]
    near = [
        e.pos - f.pos for e in enemies if not e.routed and e.men > 0 and 0 < distance(e.pos, f.pos) <= HEMMED_RADIUS
    ]
    return any(_two_sides(a, b) for i, a in enumerate(near) for b in near[i + 1 :])
