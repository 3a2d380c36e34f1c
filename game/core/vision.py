"""Fog of war and ambush: what each side sees, and moves that run into what they could not see.

Sight: a formation sees every hex within its type's ``vision``, plus the ``vision_bonus`` of the
hex it stands on (hills, mountains), unless a hex that ``blocks_sight`` (forest, mountain) lies
strictly between the two on the hex line; the blocking hex itself is seen. A line that runs
exactly along hex edges is clear if either side of the edge is. Allied sides share sight.

Ambush: a hidden formation is seen only by a formation next to it. An enemy coming next to it
springs the ambush for good (hidden=False): at once when the enemy moves there, at the start of
the enemy's turn when the ambushers crept up themselves, so they can still strike by surprise.
Hidden formations that step off cover are revealed at once.

The engine knows everything; these functions say what one side may know. Sight from a hex is a
property of the board alone, so it is cached per board and (hex, radius), and everything runs on
hexes and ints rather than pydantic objects.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass
from functools import lru_cache

from . import baggage
from .board import Board
from .events import Event, Revealed
from .hexgrid import Hex, distance, neighbours, ring_of_six, round_axial
from .movement import ZOC_IGNORING, MoveMap, exerts_zoc, search_moves
from .rules import Ruleset
from .scenario import FormationSpec
from .sides import are_allied, are_enemies
from .state import Formation, GameState, SideState

__all__ = [
    "new_formation",
    "refresh_explored",
    "revealed",
    "search_moves_seen",
    "seen_formations",
    "sees_formation",
    "sees_neighbour",
    "side_view",
    "sight_from",
    "visible_hexes",
    "walk",
]

# Nudges that push points lying exactly on a hex edge to one side or the other.
_NUDGES = ((1e-6, 2e-6), (-1e-6, -2e-6))
# Unions of sight per set of viewers, kept per board; cleared when it grows past this.
_UNION_CACHE_SIZE = 256
# The sights' keys kept per board; cleared when it grows past this.
_KEYS_CACHE_SIZE = 8192


class _VisionCache:
    """What vision has worked out about one board, kept on the board (``Board.vision_cache``)
    and living as long as it. Every entry is a pure function of its key, so the AI's thread and
    the drawing thread may share it: an entry written twice is written with the same value,
    and a cleared cache is only work to do again."""

    def __init__(self, board: Board) -> None:
        self.blocking = frozenset(h for h, t in board.terrain.items() if t.blocks_sight)
        # (q, r, radius) -> the hexes seen from there.
        self.sight: dict[tuple[int, int, int], frozenset[Hex]] = {}
        # Where every viewer stands and how far it sees -> the union of their sight.
        self.unions: dict[tuple[tuple[int, int, int], ...], frozenset[Hex]] = {}
        # A sight's hexes -> their "q,r" keys (a replay spent a third of its time making them).
        self.keys: dict[frozenset[Hex], frozenset[str]] = {}
        # Side id -> (the explored list last seen, the same hexes as a set): see _explored_set.
        self.explored: dict[str, tuple[list[str], frozenset[str]]] = {}


def _cache(board: Board) -> _VisionCache:
    cache = board.vision_cache
    if not isinstance(cache, _VisionCache):
        cache = board.vision_cache = _VisionCache(board)
    return cache


def new_formation(spec: FormationSpec, rules: Ruleset) -> Formation:
    utype = rules.units[spec.type]
    return Formation(
        id=spec.id,
        side=spec.side,
        type=spec.type,
        men=spec.men,
        max_men=spec.max_men or spec.men,
        morale=utype.morale if spec.morale is None else min(spec.morale, utype.morale),
        hero=spec.hero,
        pos=spec.pos,
        ammo=utype.ammo,
        charges=utype.area_charges,
        hidden=spec.hidden,
        group=spec.group,
    )


def revealed(f: Formation, by: str | None = None) -> list[Event]:
    return [Revealed(unit=f.id, by=by)]


# -- sight ------------------------------------------------------------------------------------


def sight_radius(board: Board, rules: Ruleset, f: Formation) -> int:
    """How far ``f`` sees from where it stands."""
    return rules.units[f.type].vision + board.terrain[f.pos].vision_bonus


_Path = tuple[tuple[int, int], ...]


@lru_cache(maxsize=64)
def _sight_lines(radius: int) -> tuple[tuple[int, int, tuple[_Path, ...]], ...]:
    """Every offset within ``radius`` of a viewer, in ``sight_from``'s order, with the offsets
    strictly between it and the viewer on each nudged line (none next door; a line given once
    when both nudges agree). A line's hexes move with the viewer: the nudges keep every point
    far from a rounding edge, so rounding round the origin and moving after gives the hexes
    rounded where the viewer stands, and a missed sight no longer rounds every line anew."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            paths: list[_Path] = []
            if n > 1:
                for nq, nr in _NUDGES:
                    path = tuple(round_axial(nq + dq * i / n, nr + dr * i / n) for i in range(1, n))
                    if path not in paths:
                        paths.append(path)
            out.append((dq, dr, tuple(paths)))
    return tuple(out)


def _blocking(board: Board) -> frozenset[Hex]:
    return _cache(board).blocking


def sight_from(board: Board, pos: Hex, radius: int) -> frozenset[Hex]:
    """The hexes seen from ``pos`` with sight ``radius`` (the hex itself included)."""
    cache = _cache(board).sight
    q, r = pos
    key = (q, r, radius)
    seen = cache.get(key)
    if seen is not None:
        return seen
    blocking = _blocking(board)
    terrain = board.terrain
    out = []
    new = tuple.__new__  # hexes made as ``disc`` makes them, without the named tuple's constructor
    for dq, dr, paths in _sight_lines(radius):
        h = new(Hex, (q + dq, r + dr))
        if h not in terrain:
            continue
        if not paths:
            out.append(h)
            continue
        for path in paths:
            for a, b in path:
                if (q + a, r + b) in blocking:
                    break
            else:
                out.append(h)
                break
    seen = frozenset(out)
    cache[key] = seen
    return seen


def _allied_sides(state: GameState, side_id: str) -> frozenset[str]:
    """``side_id`` and the sides it shares eyes with."""
    return frozenset(s.id for s in state.sides if are_allied(state, side_id, s.id))


def _viewers(state: GameState, side_id: str) -> list[Formation]:
    """The formations whose eyes ``side_id`` shares: its own and its allies'."""
    allied = _allied_sides(state, side_id)
    return [f for f in state.formations.values() if f.side in allied]


def _union_of_sight(board: Board, rules: Ruleset, viewers: list[Formation]) -> frozenset[Hex]:
    """Every hex one of ``viewers`` sees; unions are cached per board by where the eyes are."""
    units, terrain = rules.units, board.terrain  # sight_radius, spelled out: this is a hot loop
    eyes = tuple(sorted((f.pos.q, f.pos.r, units[f.type].vision + terrain[f.pos].vision_bonus) for f in viewers))
    cache = _cache(board).unions
    seen = cache.get(eyes)
    if seen is None:
        union: set[Hex] = set()
        for q, r, radius in eyes:
            union |= sight_from(board, Hex(q, r), radius)
        seen = frozenset(union)
        if len(cache) >= _UNION_CACHE_SIZE:
            cache.clear()
        cache[eyes] = seen
    return seen


def visible_hexes(state: GameState, board: Board, rules: Ruleset, side_id: str) -> frozenset[Hex]:
    """Every hex ``side_id`` sees now (with its allies)."""
    return _union_of_sight(board, rules, _viewers(state, side_id))


def sees_formation(state: GameState, board: Board, rules: Ruleset, side_id: str, f: Formation) -> bool:
    """Whether ``side_id`` sees ``f``: friends always, others on a seen hex, the hidden only
    from next door. To ask about many formations, ``seen_formations`` is far cheaper."""
    if are_allied(state, side_id, f.side):
        return True
    if f.hidden:
        return any(distance(o.pos, f.pos) == 1 for o in _viewers(state, side_id))
    return f.pos in visible_hexes(state, board, rules, side_id)


def sees_neighbour(state: GameState, board: Board, rules: Ruleset, viewer: Formation, f: Formation) -> bool:
    """``sees_formation`` for ``viewer``'s side and ``f`` standing next to ``viewer`` (one of
    the state's formations): the viewer's own sight takes in every neighbour on the board as
    soon as it sees at all, and a hidden formation is seen from next door."""
    if f.pos in board.terrain and sight_radius(board, rules, viewer) >= 1:
        return True
    return sees_formation(state, board, rules, viewer.side, f)


def _seen_by(
    state: GameState,
    allied: frozenset[str],
    eyes: Set[Hex],
    seen: Set[Hex],
    extra: Set[Hex] = frozenset(),
    among: Iterable[Formation] | None = None,
) -> list[Formation]:
    """The formations (of ``among``, else all, by id) seen by a side whose allied sides are
    ``allied``, whose formations stand on ``eyes`` and see ``seen`` (and ``extra``)."""
    out = []
    for f in (state.formations[k] for k in sorted(state.formations)) if among is None else among:
        if f.side in allied:
            out.append(f)
        elif f.hidden:
            if any(n in eyes for n in ring_of_six(f.pos)):
                out.append(f)
        elif f.pos in seen or f.pos in extra:
            out.append(f)
    return out


def seen_formations(state: GameState, board: Board, rules: Ruleset, side_id: str) -> list[Formation]:
    """The formations ``side_id`` sees, by id."""
    viewers = _viewers(state, side_id)
    allied = _allied_sides(state, side_id)
    return _seen_by(state, allied, {f.pos for f in viewers}, _seen_hexes(state, board, rules, viewers, allied))


def _seen_hexes(
    state: GameState, board: Board, rules: Ruleset, viewers: list[Formation], allied: frozenset[str]
) -> set[Hex]:
    """The hexes of the formations of other sides than ``allied`` (those ``_seen_by`` asks about)
    that one of ``viewers`` sees: each looked up in the viewers' sight, rather than their whole
    sight joined, which a move makes anew (the eyes have moved) for a few formations' sake."""
    sights = [sight_from(board, v.pos, sight_radius(board, rules, v)) for v in viewers]
    return {
        f.pos for f in state.formations.values() if f.side not in allied and any(f.pos in sight for sight in sights)
    }


@dataclass(frozen=True)
class Sight:
    """What one side saw around one action: the formations it saw (just before or after it) and
    the hexes it saw after it. What the logs and reports judge an event by."""

    seen: Set[str]
    visible: Set[Hex]


def sight_of(state: GameState, board: Board, rules: Ruleset, side_id: str) -> Sight:
    """What ``side_id`` sees in ``state``."""
    return Sight(
        seen=frozenset(f.id for f in seen_formations(state, board, rules, side_id)),
        visible=visible_hexes(state, board, rules, side_id),
    )


# -- exploring and revealing ------------------------------------------------------------------


def _hex_keys(board: Board, hexes: frozenset[Hex]) -> frozenset[str]:
    """The "q,r" keys of one formation's sight (a set the sight cache hands out again and
    again), cached in turn: replays spent a third of their time making these strings."""
    cache = _cache(board).keys
    keys = cache.get(hexes)
    if keys is None:
        keys = frozenset(h.key() for h in hexes)
        if len(cache) >= _KEYS_CACHE_SIZE:
            cache.clear()
        cache[hexes] = keys
    return keys


def _explore(state: GameState, board: Board, rules: Ruleset, side: SideState) -> None:
    """Add every hex ``side`` (with its allies) sees now to its explored hexes. Each formation's
    sight is held against what is explored, rather than all of it joined first: after a move
    only the mover's sight holds anything new."""
    known = _explored_set(board, side)
    new: set[str] = set()
    for f in _viewers(state, side.id):
        keys = _hex_keys(board, sight_from(board, f.pos, sight_radius(board, rules, f)))
        if not keys <= known:
            new |= keys
    _add_explored(board, side, new)


def _add_explored(board: Board, side: SideState, keys: Set[str]) -> None:
    known = _explored_set(board, side)
    if not keys <= known:
        side.explored = sorted(known | keys)


def _explored_set(board: Board, side: SideState) -> frozenset[str]:
    """``side.explored`` as a set. The list is only ever replaced, never changed in place, so
    the set made from a list stays right while that same list object is the side's: a replay
    asked for it after every move and rebuilt it each time."""
    sets = _cache(board).explored
    cached = sets.get(side.id)
    if cached is not None and cached[0] is side.explored:
        return cached[1]
    known = frozenset(side.explored)
    sets[side.id] = (side.explored, known)
    return known


def reveal_adjacent(state: GameState, side_id: str) -> list[Event]:
    """Spring every ambush of ``side_id``'s enemies that has one of its (or its allies')
    formations next to it: hidden=False from now on."""
    events: list[Event] = []
    eyes = {f.pos: f.id for f in _viewers(state, side_id)}
    for k in sorted(state.formations):
        f = state.formations[k]
        if not f.hidden or not are_enemies(state, side_id, f.side):
            continue
        spotters = sorted(eyes[n] for n in neighbours(f.pos) if n in eyes)
        if spotters:
            f.hidden = False
            events += revealed(f, spotters[0])
    return events


def refresh_explored(state: GameState, board: Board, rules: Ruleset, side_id: str) -> list[Event]:
    """After a move or at the start of a turn: spring the ambushes ``side_id`` now stands next to,
    and add what it and its allies see to their explored hexes. Returns the reveals."""
    events = reveal_adjacent(state, side_id)
    for s in state.sides:
        if are_allied(state, side_id, s.id):
            _explore(state, board, rules, s)
    return events


# -- moving in the fog -----------------------------------------------------------------------


def search_moves_seen(
    state: GameState,
    board: Board,
    rules: Ruleset,
    f: Formation,
    forced: bool = False,
    target: Hex | None = None,
    seen: list[Formation] | None = None,
) -> MoveMap:
    """Legal moves as ``f``'s side sees the board: formations it cannot see neither block nor
    hold a zone of control, so whether a move is legal never gives away what is hidden.
    ``seen``: ``seen_formations`` of ``f``'s side on this state, if the caller has it already."""
    if seen is None:
        seen = seen_formations(state, board, rules, f.side)
    occupancy = {o.pos: o.id for o in seen}
    zoc: set[Hex] = set()
    for o in seen:
        if exerts_zoc(o) and are_enemies(state, f.side, o.side):
            zoc.update(ring_of_six(o.pos))
    return search_moves(state, board, rules, f, occupancy, zoc, forced=forced, target=target)


def _ignores_zoc(rules: Ruleset, f: Formation) -> bool:
    return bool(ZOC_IGNORING.intersection(rules.units[f.type].abilities)) or "breakthrough" in f.effects


def walk(
    state: GameState,
    board: Board,
    rules: Ruleset,
    f: Formation,
    path: list[Hex],
    seen: list[Formation] | None = None,
) -> tuple[list[Hex], list[Event]]:
    """Carry out a move hex by hex, as far as what the mover did not know allows.

    The move stops at once when an ambush next to the new hex is sprung, when the next hex holds
    a formation it could not see, or when the hex lies in the zone of control of an enemy it now
    sees; then it never ends on a friend: it falls back to the last empty hex (at worst where it
    started). When an enemy it had not seen comes into view it stops on the first hex from there
    that holds no friend. A hidden mover stays hidden on cover, even
    next to the enemy. Returns the hexes walked and the reveals. ``seen``: ``seen_formations``
    of the mover's side on this state, if the caller has it already.
    """
    side = f.side
    # Sides are asked once, not once per formation.
    enemy_sides = {s.id for s in state.sides if are_enemies(state, side, s.id)}
    enemies = [o for o in (state.formations[k] for k in sorted(state.formations)) if o.side in enemy_sides]
    if seen is None:
        seen = seen_formations(state, board, rules, side)
    seen_before = {o.id for o in seen}
    # Only the mover's eyes change on the way: what the rest of the side sees is worked out once.
    allied = _allied_sides(state, side)
    others = [o for o in _viewers(state, side) if o.id != f.id]
    others_seen = _seen_hexes(state, board, rules, others, allied)
    others_eyes = {o.pos for o in others}
    occupancy = state.occupancy()
    holds_zoc = not _ignores_zoc(rules, f)
    events: list[Event] = []
    glimpsed: set[str] = set()
    sighted = False
    stop = len(path) - 1
    for i in range(1, len(path)):
        h = path[i]
        occupant = occupancy.get(h)
        if occupant is not None and not are_allied(state, side, state.formations[occupant].side):
            stop = i - 1
            break
        f.pos = h
        sight_here = sight_from(board, h, sight_radius(board, rules, f))
        glimpsed |= _hex_keys(board, sight_here)
        if f.hidden and not board.terrain[h].cover:
            f.hidden = False
            events += revealed(f)
        halt = False
        for e in enemies:
            if e.hidden and distance(e.pos, h) == 1:
                e.hidden = False
                events += revealed(e, f.id)
                halt = True
        # Asked of the enemies alone: only they count.
        now_seen = {o.id for o in _seen_by(state, allied, others_eyes | {h}, others_seen, sight_here, among=enemies)}
        if any(e.id in now_seen and e.id not in seen_before for e in enemies):
            sighted = True
        # A column that sights an enemy from a friend's hex cannot halt there; falling back
        # would lose the enemy from view (and the move with it), so it halts on the next hex
        # it can hold, the enemy still before it.
        if sighted and occupant is None:
            halt = True
        if holds_zoc and any(e.id in now_seen and exerts_zoc(e) and distance(e.pos, h) == 1 for e in enemies):
            halt = True
        if halt:
            stop = i
            break
    while stop > 0 and occupancy.get(path[stop]) is not None:
        stop -= 1
    walked = path[: stop + 1]
    f.pos = walked[-1]
    # What the column glimpsed on the way is known, even where it turned back.
    for s in state.sides:
        if are_allied(state, side, s.id):
            _add_explored(board, s, glimpsed)
    return walked, events


# -- what an AI may plan on ------------------------------------------------------------------


def _key_in(key: str, hexes: frozenset[Hex]) -> bool:
    """Whether ``key`` is the key of one of ``hexes``."""
    h = _keyed_hex(key)
    return h is not None and h in hexes


@lru_cache(maxsize=1 << 12)
def _keyed_hex(key: str) -> Hex | None:
    """The hex whose key ``key`` is (None if it is no hex's key): the souls lying on the field
    are looked up by key at every decision."""
    h = Hex.parse(key)
    return h if h.key() == key else None


def side_view(state: GameState, board: Board, rules: Ruleset, side_id: str) -> GameState:
    """The state as ``side_id`` knows it: formations it cannot see are gone, and souls and
    baggage are kept only on hexes it sees. For planning, never for play: men and souls no longer
    add up in it.

    The view is read-only and shares the formations and sides of ``state`` (copying 300
    formations for each of a turn's hundred decisions would cost more than the thinking), so it
    shows the state as it is now; build a new one after the state changes."""
    # ``seen_formations`` and ``visible_hexes``, the side's eyes found once for both.
    viewers = _viewers(state, side_id)
    visible = _union_of_sight(board, rules, viewers)
    seen = _seen_by(state, _allied_sides(state, side_id), {f.pos for f in viewers}, visible)
    # The few souls' and baggage's keys are parsed, rather than every visible hex given a key.
    return state.model_copy(
        update={
            "formations": {f.id: f for f in seen},
            "field_souls": {k: v for k, v in state.field_souls.items() if _key_in(k, visible)},
            "baggage": {k: v for k, v in state.baggage.items() if baggage.parse(k)[0] in visible},
        }
    )
