"""Where an order can be aimed: a hero's skill or challenge at a target, palm thunder at a hex.

Pure reading of the engine's legal actions, shared by the order flow (what a click means) and
the screen (what is marked while aiming).
"""

from __future__ import annotations

from collections.abc import Collection

from ..core import duel, skills
from ..core.actions import Challenge, UseSkill
from ..core.board import Board
from ..core.engine import Engine
from ..core.hexgrid import Hex, distance, neighbours
from ..core.rules import Ruleset
from ..core.state import Formation

# The order id of a hero's challenge (skill ids name the others).
CHALLENGE = "challenge"


def is_aimed(rules: Ruleset, order: str) -> bool:
    """Whether the order needs a target clicked on the map."""
    return order == CHALLENGE or rules.skills[order].target in ("enemy", "hex")


def candidates(engine: Engine, f: Formation, order: str) -> list[UseSkill | Challenge]:
    """Every legal action the order can become now."""
    if order == CHALLENGE:
        return list(duel.legal_challenges(engine, f.id))
    return list(skills.targets(engine, f, order))


def aim_hexes(engine: Engine, f: Formation, order: str) -> frozenset[Hex]:
    """Where the target of an aimed order may be clicked."""
    state = engine.state
    out = set()
    for a in candidates(engine, f, order):
        if isinstance(a, UseSkill) and a.at is not None:
            out.add(Hex(*a.at))
        elif a.target is not None and a.target in state.formations:
            out.add(state.formations[a.target].pos)
    return frozenset(out)


def aimed_action(engine: Engine, f: Formation, order: str, h: Hex) -> UseSkill | Challenge | None:
    """The order aimed at the clicked hex, if that is a legal target."""
    state = engine.state
    for a in candidates(engine, f, order):
        at = a.at if isinstance(a, UseSkill) else None
        if at is not None and Hex(*at) == h:
            return a
        if a.target is not None and a.target in state.formations and state.formations[a.target].pos == h:
            return a
    return None


def thunder_range(board: Board, rules: Ruleset, f: Formation) -> frozenset[Hex]:
    """The hexes ``f`` can throw its palm thunder at (as the engine allows a blast)."""
    reach = max(1, rules.units[f.type].range)
    return frozenset(h for h in board.terrain if 1 <= distance(f.pos, h) <= reach)


def struck(at: Hex, seen: Collection[Hex]) -> frozenset[Hex]:
    """The hexes a blast at ``at`` strikes, as far as the thrower can see them."""
    return frozenset(h for h in (at, *neighbours(at)) if h in seen)
