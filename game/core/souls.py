"""Wandering souls and the qiankun pouch (README "How to play").

Every man lost becomes a soul on the hex where he fell, tagged with the side he fought for.
Capturing moves souls into a pouch; uncaptured souls of a host whose faction calls them back
drift into its nearest formation, the rest fade. Men are conserved throughout:
``state.men_ever() == state.men_accounted()``.
"""

from __future__ import annotations

from functools import lru_cache

from .events import Destroyed, Event, SoulsCaptured, SoulsDrifted, SoulsReleased
from .herding import HEMMED_BAG_FACTOR, hemmed
from .hexgrid import Hex, distance, neighbours, ring_of_six
from .rules import Ruleset
from .sides import are_enemies
from .state import Formation, GameState

# Share of a hex's souls that drift back (or fade) at each start of their side's turn.
DRIFT_SHARE = 3  # one third, rounded up
FADE_SHARE = 4  # one quarter, rounded up
# Souls drift only into a formation within this many hexes; otherwise they fade.
DRIFT_RANGE = 8
# Effect id of skills that multiply a formation's capture rate (Cao Zhi's verse).
CAPTURE_EFFECTS = {"verse": 2.0}


def add_souls(state: GameState, at: Hex, side_id: str, count: int) -> None:
    if count <= 0:
        return
    by_side = state.field_souls.setdefault(at.key(), {})
    by_side[side_id] = by_side.get(side_id, 0) + count


def take_souls(state: GameState, key: str, side_id: str, count: int) -> None:
    by_side = state.field_souls[key]
    by_side[side_id] -= count
    if by_side[side_id] <= 0:
        del by_side[side_id]
    if not by_side:
        del state.field_souls[key]


def take_losses(state: GameState, f: Formation, losses: int) -> list[Event]:
    """Remove men; the fallen become wandering souls on the hex; an empty formation is gone."""
    losses = min(losses, f.men)
    if losses <= 0:
        return []
    f.men -= losses
    add_souls(state, f.pos, f.side, losses)
    events: list[Event] = [SoulsReleased(at=f.pos, count=losses)]
    if f.men <= 0:
        del state.formations[f.id]
        events.append(Destroyed(unit=f.id, side=f.side, at=f.pos))
    return events


def capture_capacity(rules: Ruleset, f: Formation) -> int:
    rate = rules.units[f.type].capture_rate
    for effect, factor in CAPTURE_EFFECTS.items():
        if effect in f.effects:
            rate *= factor
    return int(f.men * rate)


def capturable(state: GameState, rules: Ruleset, f: Formation) -> tuple[int, list[Formation]]:
    """Enemy souls within reach of ``f`` and the routed soul formations next to it."""
    return souls_near(state, f), soul_bag(state, rules, f)


def souls_near(state: GameState, f: Formation) -> int:
    """Enemy souls on ``f``'s hex and the hexes next to it."""
    souls = 0
    field = state.field_souls
    if not field:
        return 0  # most decisions find no soul on the field at all
    for key in _keys_round(f.pos):
        by_side = field.get(key)
        if by_side:
            for side_id, n in by_side.items():
                if are_enemies(state, f.side, side_id):
                    souls += n
    return souls


@lru_cache(maxsize=1 << 12)
def _keys_round(h: Hex) -> tuple[str, ...]:
    """The keys of ``h`` and its neighbours: the general asks after the souls round every
    formation at every decision, and made the seven keys anew each time."""
    return tuple(n.key() for n in (h, *ring_of_six(h)))


def soul_bag(state: GameState, rules: Ruleset, f: Formation) -> list[Formation]:
    """The routed enemy soul formations next to ``f`` that it may bag, by id."""
    around = set(ring_of_six(f.pos))
    adjacent = sorted((o for o in state.formations.values() if o.pos in around), key=lambda x: x.id)
    return [
        o
        for o in adjacent
        if o.routed and "soul" in rules.units[o.type].abilities and are_enemies(state, f.side, o.side) and not o.hidden
    ]


def capture_forecast(state: GameState, rules: Ruleset, f: Formation) -> int:
    """How many souls ``capture`` would bag now: what is in reach, up to the formation's capacity."""
    return capture_preview(state, rules, f)[0]


def capture_preview(state: GameState, rules: Ruleset, f: Formation) -> tuple[int, int]:
    """(souls ``capture`` would bag now, how many of them come from routs hemmed in on two
    sides, which go in HEMMED_BAG_FACTOR times as fast and so may take the total past the
    formation's capacity)."""
    souls, bag = capturable(state, rules, f)
    room = capture_capacity(rules, f)
    taken = from_hemmed = 0
    for o in bag:
        if room <= 0:
            break
        n, used = _bag_one(state, f, o, room)
        taken += n
        room -= used
        if hemmed(state, o):
            from_hemmed += n
    return taken + min(room, souls), from_hemmed


def _bag_one(state: GameState, f: Formation, o: Formation, capacity: int) -> tuple[int, int]:
    """(men bagged from ``o``, capacity used) for a capturer with ``capacity`` left."""
    factor = HEMMED_BAG_FACTOR if hemmed(state, o) else 1
    n = min(o.men, capacity * factor)
    return n, -(-n // factor)


def capture(state: GameState, rules: Ruleset, f: Formation) -> list[Event]:
    """Bag souls up to the formation's capacity: routed soul formations next to it first (the
    bigger prize, and they would run; one hemmed in on two sides costs half the capacity per
    man), then the souls lying in its hex and around it."""
    capacity = capture_capacity(rules, f)
    pouch = state.side(f.side)
    taken = 0
    bagged: list[str] = []
    events: list[Event] = []
    used = 0
    _, bag = capturable(state, rules, f)
    for o in bag:
        if capacity - used <= 0:
            break
        n, cost = _bag_one(state, f, o, capacity - used)
        used += cost
        o.men -= n
        taken += n
        if o.men == 0:
            bagged.append(o.id)
            del state.formations[o.id]
            events.append(Destroyed(unit=o.id, side=o.side, at=o.pos))
    for h in sorted([f.pos, *neighbours(f.pos)]):
        key = h.key()
        for side_id in sorted(state.field_souls.get(key, {})):
            if not are_enemies(state, f.side, side_id):
                continue
            n = min(state.field_souls[key][side_id], capacity - used)
            if n <= 0:
                break
            take_souls(state, key, side_id, n)
            taken += n
            used += n
    pouch.pouch += taken
    return [SoulsCaptured(unit=f.id, side=f.side, count=taken, bagged_units=tuple(bagged)), *events]


def drift(state: GameState, rules: Ruleset, side_id: str) -> list[Event]:
    """At the start of ``side_id``'s turn its dead move on: back into its nearest formed (not
    routed) formation if its faction calls them, unless the enemy stands over them; else a share
    fades away."""
    side = state.side(side_id)
    returns = rules.factions[side.faction].souls_return
    events: list[Event] = []
    own = [f for f in state.formations_of(side_id) if not f.routed]
    # Ground held by the enemy keeps its souls: they wait there for the capturers.
    held = {
        h
        for f in state.formations.values()
        if are_enemies(state, side_id, f.side) and not f.routed
        for h in (f.pos, *neighbours(f.pos))
    }
    for key in sorted(state.field_souls):
        n = state.field_souls[key].get(side_id, 0)
        if n <= 0:
            continue
        at = Hex.parse(key)
        if returns and at in held:
            continue
        share = -(-n // (DRIFT_SHARE if returns else FADE_SHARE))
        into: Formation | None = None
        if returns:
            near = [f for f in own if distance(f.pos, at) <= DRIFT_RANGE and f.men < f.max_men]
            if near:
                into = min(near, key=lambda f: (distance(f.pos, at), f.id))
        take_souls(state, key, side_id, share)
        if into is not None:
            joined = min(share, into.max_men - into.men)
            into.men += joined
            state.faded_souls += share - joined
        else:
            state.faded_souls += share
        events.append(SoulsDrifted(at=at, count=share, into=into.id if into else None))
    return events
