"""Duels the scenario asks for: an enemy hero whose wounding wins the battle is challenged by any
hero of ours likely to wound him, however close the match: at once when our hero is rested, and
a weary one only while the field (weariness, friends round them) leaves little chance of his
falling alone. His formation is not struck while such a hero is at hand, and is once it is
routed (a routed formation's hero cannot be challenged)."""

from __future__ import annotations

from collections.abc import Iterable

from ..core import duel
from ..core.actions import Challenge
from ..core.engine import Engine
from ..core.state import Formation

# Chance of wounding the enemy hero (alone, or both heroes falling) above which to fight him.
AIMED_DUEL_ODDS = 0.5
# The most chance of our hero falling alone, as the field stands (friends round the duel, the
# men's weariness), with which a weary hero challenges: waiting rests him, but it does not thin
# the friends round the enemy hero, so a rested one challenges whatever the odds (a refusal
# shames the refuser; Yue Fei waiting beside Wuzhu's guards for better odds never got them).
# And how much worse than a fresh duel's the blows landed may make it before a duel begun is
# let lapse, to be fought again from the start. (Pressed on whatever the blows, Yue Fei two
# down fell alone at the Tangut border in one battle of ten; let lapse whenever the risk passed
# a fixed figure, the weary hero let even duels go and never got another before the turns ran
# out.)
CHALLENGE_RISK = 0.15
PRESS_MARGIN = 0.05


def likely_wounds(engine: Engine, ours: str, theirs: str) -> bool:
    heroes = engine.rules.heroes
    martial = heroes[ours].martial, heroes[theirs].martial
    first, both, _ = duel.duel_odds(*martial, duel_rules=engine.scenario.duel)
    return first + both > AIMED_DUEL_ODDS


def weary(f: Formation) -> bool:
    """Whether ``f``'s men's weariness lowers its hero's duel score (``duel.edge``)."""
    return f.fatigue >= duel.WEARINESS


def falls_alone(engine: Engine, f: Formation, opp: Formation, fresh: bool = False) -> float:
    """The chance that ``f``'s hero falls and ``opp``'s does not, in the duel they fight or would
    fight, as the field stands (``duel.current_odds``); ``fresh``: in one begun now."""
    if not fresh:
        return duel.current_odds(engine, f, opp)[2]
    state, heroes = engine.state, engine.rules.heroes
    assert f.hero is not None and opp.hero is not None
    return duel.duel_odds(
        heroes[f.hero].martial,
        heroes[opp.hero].martial,
        duel.edge(state, f, opp),
        duel.edge(state, opp, f),
        duel_rules=engine.scenario.duel,
    )[2]


def worth_pressing(engine: Engine, f: Formation, opp: Formation) -> bool:
    """Whether the blows landed so far leave ``f``'s hero no worse placed than a fresh duel would."""
    return falls_alone(engine, f, opp) <= falls_alone(engine, f, opp, fresh=True) + PRESS_MARGIN


def challenge(engine: Engine, own: Iterable[Formation], wanted: frozenset[str], risk: float = 1.0) -> Challenge | None:
    """A challenge to a wanted enemy hero next to one of ours who likely wounds him: a rested one,
    or a weary one who falls alone with at most ``risk`` as the field stands."""
    if not wanted:
        return None
    state = engine.state
    for f in own:
        if f.hero is None or duel.in_duel(f):
            continue  # a duel begun is pressed or let lapse on its own odds
        for c in duel.legal_challenges(engine, f.id):
            target = state.formations[c.target]
            if target.hero not in wanted or not likely_wounds(engine, f.hero, target.hero):
                continue
            if not weary(f) or falls_alone(engine, f, target) <= risk:
                return c
    return None


def marked(engine: Engine, side_id: str, wanted: frozenset[str]) -> frozenset[str]:
    """Enemy formations led by a wanted hero whom one of our heroes likely wounds, while he can be
    challenged: once his formation is routed no duel can be fought with him, and it is struck like
    any other (Yue Fei stood idle beside Wuzhu's broken guards to the turn limit, sparing them for
    a duel that could no longer come, when riding them down would have taken Wuzhu)."""
    if not wanted:
        return frozenset()
    state = engine.state
    ours = [f.hero for f in state.formations_of(side_id) if f.hero is not None]
    return frozenset(
        e.id
        for e in state.formations.values()
        if e.hero in wanted and not e.routed and any(likely_wounds(engine, h, e.hero) for h in ours)
    )
