"""Duels the scenario asks for: an enemy hero whose wounding wins the battle is challenged by any
hero of ours likely to wound him, however close the match, and his formation is not struck while
such a hero is at hand (a routed formation's hero cannot be challenged)."""

from __future__ import annotations

from collections.abc import Iterable

from ..core import duel
from ..core.actions import Challenge
from ..core.engine import Engine
from ..core.state import Formation

# Chance of wounding the enemy hero (alone, or both heroes falling) above which to fight him.
AIMED_DUEL_ODDS = 0.5


def likely_wounds(engine: Engine, ours: str, theirs: str) -> bool:
    heroes = engine.rules.heroes
    martial = heroes[ours].martial, heroes[theirs].martial
    first, both, _ = duel.duel_odds(*martial, duel_rules=engine.scenario.duel)
    return first + both > AIMED_DUEL_ODDS


def challenge(engine: Engine, own: Iterable[Formation], wanted: frozenset[str]) -> Challenge | None:
    """A challenge to a wanted enemy hero next to one of ours who likely wounds him."""
    if not wanted:
        return None
    for f in own:
        if f.hero is None:
            continue
        for c in duel.legal_challenges(engine, f.id):
            target = engine.state.formations[c.target].hero
            if target in wanted and likely_wounds(engine, f.hero, target):
                return c
    return None


def marked(engine: Engine, side_id: str, wanted: frozenset[str]) -> frozenset[str]:
    """Enemy formations led by a wanted hero whom one of our heroes likely wounds."""
    if not wanted:
        return frozenset()
    state = engine.state
    ours = [f.hero for f in state.formations_of(side_id) if f.hero is not None]
    return frozenset(
        e.id
        for e in state.formations.values()
        if e.hero in wanted and any(likely_wounds(engine, h, e.hero) for h in ours)
    )
