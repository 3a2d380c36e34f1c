"""Per-hex threat: the blows the enemies that can reach a hex could land there next turn.

Computed once per state and side on plain dicts. Each enemy adds its blow (before the target's
toughness) to every hex within its reach; only the three heaviest count at a hex, as no more can
share a front against one formation.

The reach here is an estimate (open-ground steps from where the enemy stands), kept because the
general weighs it for every decision: the exact reach, through the engine's move search with
terrain and zones of control, is ``game.view.threat.Reach``, what the screen shows a player.
Using it here made the stress field's AI turns about a third slower.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..core.combat import COMBAT_SCALE, engaged_men
from ..core.hexgrid import Hex
from ..core.rules import Ruleset
from ..core.sides import enemy_sides
from ..core.state import Formation, GameState

# Attackers that can strike one formation in a turn.
MAX_ATTACKERS = 3
# Movement points per hex on open ground (plain, steppe).
OPEN_COST = 2


def blow(rules: Ruleset, f: Formation) -> float:
    """Men times power a formation strikes with; divide by the target's defence for casualties."""
    return _blow(rules, f.type, f.men, f.morale)


def _blow(rules: Ruleset, unit_type: str, men: int, morale: int) -> float:
    utype = rules.units[unit_type]
    return COMBAT_SCALE * engaged_men(men) * max(utype.melee, utype.ranged) * (0.5 + morale / 200.0)


class Sighting(NamedTuple):
    """An enemy formation as a side saw it: all its threat is worked out from."""

    id: str
    type: str
    pos: Hex
    men: int
    morale: int
    routed: bool
    held: bool  # its group waits for a scenario event: it strikes only where it stands


def sightings(state: GameState, side_id: str) -> tuple[Sighting, ...]:
    """The enemies of ``side_id`` in ``state``, by id: equal sightings, equal threat maps."""
    foes = enemy_sides(state, side_id)
    return tuple(
        Sighting(e.id, e.type, e.pos, e.men, e.morale, e.routed, e.group in state.side(e.side).held_groups)
        for e in (state.formations[k] for k in sorted(state.formations))
        if e.side in foes
    )


class ThreatMap:
    def __init__(self, rules: Ruleset, enemies: Iterable[Sighting]) -> None:
        self.rules = rules
        # Each enemy that can strike: where it stands, how far it reaches and its blow, by id.
        self._strikers: list[tuple[int, int, int, float]] = []
        # Hex -> ``at``, worked out when first asked (the general asks of a few hexes, often).
        self._at: dict[Hex, float] = {}
        for e in enemies:
            if e.routed:
                continue
            reach = 1 if e.held else rules.units[e.type].movement // OPEN_COST + 1
            self._strikers.append((e.pos.q, e.pos.r, reach, _blow(rules, e.type, e.men, e.morale)))

    def at(self, h: Hex) -> float:
        found = self._at.get(h)
        if found is None:
            q, r = h
            blows = [
                b
                for eq, er, reach, b in self._strikers
                if abs(q - eq) + abs(r - er) + abs(q + r - eq - er) <= 2 * reach
            ]
            found = self._at[h] = sum(sorted(blows, reverse=True)[:MAX_ATTACKERS]) if blows else 0.0
        return found

    def expected_loss(self, f: Formation, h: Hex) -> float:
        """Men ``f`` could lose standing at ``h`` through the enemies' next turn."""
        return min(float(f.men), self.at(h) / self.rules.units[f.type].defence)
