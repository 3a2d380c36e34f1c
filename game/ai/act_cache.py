"""Scores of each formation's attacks, kept from one decision to the next while nothing near it
has changed.

A side-turn is a hundred decisions on a big field, and each one used to score every formation's
every attack again although the last action touched only a few hexes. A formation's scores
depend on what stands within a known radius of it (where it can move, whom it can reach, the
flanks and the ground around them), a little farther for a hero's formation (his aura), and on a
few things that reach across the whole field (which heroes are on it and their swords, the
general's mood, held groups, who is at war). So an entry is kept until a formation or a soul
changes within its radius, or any of the field-wide things changes at all; then it is scored
afresh. The kept scores are exactly the ones a fresh scoring
would give, so caching changes the speed of a decision, never its outcome.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import get_origin

from ..core.actions import Action
from ..core.hexgrid import Hex, distance
from ..core.state import Formation, GameState


@dataclass(frozen=True)
class Candidate:
    """One scored action. ``dest`` is set for a move-then-strike: the counter-attack waiting at
    ``dest`` is weighed when choosing, as it changes with every enemy anywhere in reach."""

    score: float
    action: Action
    dest: Hex | None = None


@dataclass
class _Entry:
    center: Hex
    radius: int
    candidates: list[Candidate]


# A formation's fields that are changed in place (cooldowns, effects): a signature copies them.
_MUTABLE = tuple(
    name for name, field in Formation.model_fields.items() if get_origin(field.annotation) in (dict, list, set)
)


def signature(f: Formation) -> tuple[object, ...]:
    """Everything about a formation, copied: two equal signatures are the same formation. Its
    fields as they stand, then copies of those changed in place (the fields themselves may be
    the same objects in two signatures; their copies tell them apart)."""
    fields = f.__dict__
    return (*fields.values(), *[fields[name].copy() for name in _MUTABLE])


def field_token(state: GameState, extra: Hashable) -> tuple[Hashable, ...]:
    """What every formation's scores may depend on wherever it stands: the turn, a pending
    duel, the sides' alliances, gates and held groups, which heroes lead which formations (and
    whether they are routed or under a skill's effect: a sword's bonus reaches the whole side),
    and ``extra`` (the general's own mood). Where a hero stands counts only near him."""
    sides = tuple(
        (s.id, tuple(s.allies), tuple(s.hostile_to), tuple(s.gates_open_to), tuple(s.held_groups)) for s in state.sides
    )
    heroes = tuple(
        (f.id, f.hero, f.side, f.routed, f.effects.copy())
        for f in (state.formations[k] for k in sorted(state.formations))
        if f.hero
    )
    return (state.turn, state.active, state.pending_duel, sides, heroes, extra)


class ActCache:
    def __init__(self, enabled: bool = True, hero_reach: int = 0) -> None:
        # Disabled, it keeps nothing: every decision scores every formation afresh (for tests
        # that prove the kept scores change no decision).
        self.enabled = enabled
        # How much farther a change to a hero's formation reaches than any other's.
        self.hero_reach = hero_reach
        # Look-ups answered from what was kept (for the benchmark and the tests).
        self.hits = 0
        self._entries: dict[str, _Entry] = {}
        self._token: tuple[Hashable, ...] | None = None
        self._formations: dict[str, tuple[Hex, bool, tuple[object, ...]]] = {}
        self._souls: dict[str, tuple[tuple[str, int], ...]] = {}

    def refresh(self, state: GameState, token: tuple[Hashable, ...]) -> None:
        """Compare ``state`` with the one seen last and drop every entry it may have changed."""
        formations = {k: (f.pos, f.hero is not None, signature(f)) for k, f in state.formations.items()}
        souls = {k: tuple(sorted(v.items())) for k, v in state.field_souls.items()}
        if token != self._token:
            self._entries.clear()
        elif self._entries:
            changed = self._changed_hexes(formations, souls)
            if changed:
                self._entries = {
                    fid: e
                    for fid, e in self._entries.items()
                    if not any(distance(e.center, h) <= e.radius + extra for h, extra in changed)
                }
        self._token = token
        self._formations = formations
        self._souls = souls

    def _changed_hexes(
        self, formations: dict[str, tuple[Hex, bool, tuple[object, ...]]], souls: dict[str, tuple[tuple[str, int], ...]]
    ) -> set[tuple[Hex, int]]:
        """(hex, how much farther than an entry's radius the change reaches) for every change."""
        changed: set[tuple[Hex, int]] = set()
        for fid in self._formations.keys() | formations.keys():
            before, after = self._formations.get(fid), formations.get(fid)
            if before == after:
                continue
            for pos, hero, _sig in (x for x in (before, after) if x is not None):
                changed.add((pos, self.hero_reach if hero else 0))
        for key in self._souls.keys() | souls.keys():
            if self._souls.get(key) != souls.get(key):
                changed.add((Hex.parse(key), 0))
        return changed

    def get(self, fid: str) -> list[Candidate] | None:
        entry = self._entries.get(fid)
        if entry is None:
            return None
        self.hits += 1
        return entry.candidates

    def put(self, f: Formation, radius: int, candidates: list[Candidate]) -> None:
        if self.enabled:
            self._entries[f.id] = _Entry(f.pos, radius, candidates)

    def clear(self) -> None:
        self._entries.clear()
