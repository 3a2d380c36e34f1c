"""Abandoned baggage (Wuzhu's order to ride light): who left it where, and who
stops to loot it.

``GameState.baggage`` maps "q,r@side" (the hex, and the side that abandoned the baggage there)
to loads. Only troops of an undisciplined faction loot, and only what their enemies left
behind: nobody stops to plunder his own army's wagons. A key with no side (a save made before
baggage had owners) tempts every undisciplined enemy, as it did then.
"""

from __future__ import annotations

from .events import Event, Looted
from .hexgrid import Hex
from .rules import Ruleset
from .sides import are_enemies
from .state import Formation, GameState

OWNER_MARK = "@"


def key(at: Hex, side_id: str) -> str:
    return f"{at.key()}{OWNER_MARK}{side_id}"


def parse(text: str) -> tuple[Hex, str | None]:
    """(hex, side that left it) of a baggage key; the side is None for an ownerless key."""
    at, _, owner = text.partition(OWNER_MARK)
    return Hex.parse(at), owner or None


def drop(state: GameState, at: Hex, side_id: str, loads: int) -> None:
    k = key(at, side_id)
    state.baggage[k] = state.baggage.get(k, 0) + loads


def hexes(state: GameState) -> frozenset[Hex]:
    return frozenset(parse(k)[0] for k in state.baggage)


def _tempts(state: GameState, rules: Ruleset, side_id: str, owner: str | None) -> bool:
    if rules.factions[state.side(side_id).faction].disciplined:
        return False
    return owner is None or (owner != side_id and are_enemies(state, side_id, owner))


def tempting(state: GameState, rules: Ruleset, side_id: str) -> frozenset[Hex]:
    """Hexes whose baggage the side's troops would stop to loot."""
    out = set()
    for k in state.baggage:
        at, owner = parse(k)
        if _tempts(state, rules, side_id, owner):
            out.add(at)
    return frozenset(out)


def loot(state: GameState, rules: Ruleset, f: Formation) -> list[Event]:
    """A formation that stops on baggage that tempts it loots it, which costs its action."""
    found = [k for k in sorted(state.baggage) if parse(k)[0] == f.pos and _tempts(state, rules, f.side, parse(k)[1])]
    if not found:
        return []
    for k in found:
        del state.baggage[k]
    f.acted = True
    return [Looted(unit=f.id, at=f.pos)]
